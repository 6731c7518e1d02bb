"""The stores: one game per channel, one-transaction commits, stale writes refused,
settings and history — on both backends (the ``db`` fixture: an SQLite file, a PostgreSQL
schema); the SQLite file's pragmas and its migrations from the first schema.
PostgreSQL's own: tests/bot/test_store_pg.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.store import (
    SCHEMA_VERSION,
    ActiveGameExists,
    HistoryRow,
    LogRow,
    Seat,
    Settings,
    SQLiteStore,
    StaleWrite,
    StorageError,
    Store,
    StoreError,
    open_store,
)
from tests.dbsql import execute, sqlite_at

# Schema 1 exactly as the first release created it (written out here on purpose: the test
# must not change when the store's migration code does).
V1_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY, guild_id INTEGER NOT NULL, channel_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    creator TEXT NOT NULL, seats INTEGER NOT NULL CHECK (seats IN (3, 4)),
    players TEXT NOT NULL DEFAULT '[]', seed INTEGER, state TEXT,
    version INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL,
    last_action_at REAL NOT NULL, awaited_since REAL);
CREATE UNIQUE INDEX games_active_channel ON games(channel_id)
    WHERE status IN ('lobby', 'running');
CREATE INDEX games_channel ON games(channel_id, id);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, pid TEXT NOT NULL, action TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
CREATE TABLE channel_settings (
    channel_id INTEGER PRIMARY KEY, reminder_hours REAL NOT NULL DEFAULT 12,
    quiet_start INTEGER, quiet_end INTEGER, language TEXT NOT NULL DEFAULT 'en');
PRAGMA user_version = 1;
"""


async def test_new_file_is_wal_with_foreign_keys_and_current_schema(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "new.db")
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 2
        assert (await store.query_sql("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await store.query_sql("PRAGMA foreign_keys"))[0][0] == 1
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def test_path_comes_from_sanmarco_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SANMARCO_DB", str(tmp_path / "env.db"))
    store = await open_store()
    await store.close()
    assert (tmp_path / "env.db").exists()
    monkeypatch.delenv("SANMARCO_DB")
    monkeypatch.chdir(tmp_path)
    store = await open_store()
    await store.close()
    assert (tmp_path / "sanmarco.db").exists()


async def test_one_active_game_per_channel_but_a_new_one_after_the_end(store: Store) -> None:
    g = await store.create_game(1, 10, Seat("111", "Ann"), 3, now=100.0)
    assert (g.status, g.version, g.players) == ("lobby", 0, (Seat("111", "Ann"),))
    with pytest.raises(ActiveGameExists):
        await store.create_game(1, 10, Seat("222"), 4, now=101.0)
    other = await store.create_game(1, 11, Seat("222"), 4, now=101.0)
    assert other.id != g.id
    await store.commit(g.id, 0, fields={"status": "finished", "ended_at": 102.0})
    assert await store.active_game(10) is None
    assert (await store.latest_game(10)).id == g.id  # ended games stay readable
    again = await store.create_game(1, 10, Seat("333"), 3, now=103.0)
    assert (await store.active_game(10)).id == again.id
    assert (await store.latest_game(10)).id == again.id
    assert (await store.game(g.id)).status == "finished"


async def test_a_stale_write_is_refused_and_writes_nothing(store: Store) -> None:
    g = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
    v1 = await store.commit(g.id, 0, fields={"state": "{}"}, actions=[LogRow(1, "111", "a", 2.0)])
    assert v1 == 1
    with pytest.raises(StaleWrite):
        await store.commit(g.id, 0, fields={"state": "{\"x\": 1}"},
                           actions=[LogRow(2, "111", "b", 3.0)])
    row = await store.game(g.id)
    assert (row.version, row.state) == (1, "{}")
    assert [a.action for a in await store.actions(g.id)] == ["a"]


async def test_state_and_log_rows_commit_together_or_not_at_all(store: Store) -> None:
    g = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
    await store.commit(g.id, 0, fields={"state": "s1"}, actions=[LogRow(1, "111", "a", 2.0)])
    # seq 1 again violates the log's primary key: the state change must roll back with it.
    with pytest.raises(StorageError):
        await store.commit(g.id, 1, fields={"state": "s2"}, actions=[LogRow(1, "111", "b", 3.0)])
    row = await store.game(g.id)
    assert (row.version, row.state) == (1, "s1")
    assert len(await store.actions(g.id)) == 1
    # the connection is usable afterwards (no transaction left open)
    assert await store.commit(g.id, 1, fields={"state": "s2"},
                              actions=[LogRow(2, "111", "b", 3.0)]) == 2


async def test_a_cancelled_write_lands_whole_or_not_at_all(store: Store) -> None:
    """A caller that gives up (a cancelled interaction) never leaves half a transaction: the
    taken-back move (row update and log row deleted) is made whole or not at all, whenever
    the cancellation comes, and the store goes on."""
    for i, delay in enumerate((0.0, 0.0005, 0.001, 0.002, 0.005, 0.02)):
        g = await store.create_game(1, 100 + i, Seat("111"), 3, now=1.0)
        v = await store.commit(g.id, 0, fields={"state": "s2"},
                               actions=[LogRow(1, "111", "a", 2.0), LogRow(2, "111", "b", 3.0)])
        write = asyncio.create_task(store.take_back(g.id, v, 2, {"state": "s1"}))
        await asyncio.sleep(delay)
        write.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await write
        await store.set_settings(Settings(100 + i))  # a write after it: the last one is done
        row = await store.game(g.id)
        assert row is not None
        seen = (row.version, row.undos, row.state, len(await store.actions(g.id)))
        assert seen in ((v, 0, "s2", 2), (v + 1, 1, "s1", 1)), (delay, seen)


async def test_only_known_columns_are_writable(store: Store) -> None:
    g = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
    with pytest.raises(ValueError):
        await store.commit(g.id, 0, fields={"version": 7})


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(StaleWrite):
        await store.commit(999, 0)  # no such game: the update matches nothing
    with pytest.raises(StorageError, match="(?i)foreign key"):
        await execute(store, "INSERT INTO actions (game_id, seq, pid, action, at) "
                             "VALUES (999, 1, 'x', 'y', 0)")


async def test_settings_default_and_round_trip(store: Store) -> None:
    """A channel's language is unset (None: it follows its server's) until chosen."""
    assert await store.settings(5) == Settings(5, 12.0, None, None, None, "UTC")
    await store.set_settings(Settings(5, 3.5, 22, 7, "de", "Europe/Berlin"))
    assert await store.settings(5) == Settings(5, 3.5, 22, 7, "de", "Europe/Berlin")
    await store.set_settings(Settings(5, 6.0))
    assert (await store.settings(5)).reminder_hours == 6.0
    assert (await store.settings(5)).language is None


async def test_migration_6_makes_the_language_unset_where_it_was_the_old_default(
        tmp_path: Path) -> None:
    """The channel language: 'en' was the column's default and nobody could choose it, so it becomes
    unset (the server's language); a language set otherwise is kept; the column takes
    NULL afterwards and the reminder triggers still work."""
    path = tmp_path / "v4.db"
    db = sqlite_at(path, 4)
    db.execute("INSERT INTO channel_settings (channel_id, language) VALUES (1, 'en')")
    db.execute("INSERT INTO channel_settings (channel_id, language, reminder_hours) "
               "VALUES (2, 'de', 3)")
    db.close()
    store = await SQLiteStore.open(path)
    try:
        assert (await store.settings(1)).language is None
        assert await store.settings(2) == Settings(2, 3.0, None, None, "de", "UTC")
        await store.set_settings(Settings(2, 4.0, language=None))
        assert await store.settings(2) == Settings(2, 4.0)
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def test_migration_6_from_schema_5_keeps_every_setting_and_unsets_only_the_default(
        tmp_path: Path) -> None:
    """A schema-5 file (the last before the channel language setting) upgraded: every channel
    keeps its interval, quiet hours, time zone and any language other than the old default; the
    column then takes NULL and has no default (a row written without a language follows its
    server), and a language set afterwards comes back as set."""
    path = tmp_path / "v5.db"
    db = sqlite_at(path, 5)
    db.execute("INSERT INTO channel_settings (channel_id, reminder_hours, quiet_start, "
               "quiet_end, language, timezone) VALUES (1, 2.5, 22, 7, 'en', 'Europe/Paris')")
    db.execute("INSERT INTO channel_settings (channel_id, reminder_hours, quiet_start, "
               "quiet_end, language, timezone) VALUES (2, 48, NULL, NULL, 'fr', 'UTC')")
    db.execute("INSERT INTO channel_settings (channel_id, language) VALUES (3, 'de')")
    db.close()
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 6
        assert await store.settings(1) == Settings(1, 2.5, 22, 7, None, "Europe/Paris")
        assert await store.settings(2) == Settings(2, 48.0, None, None, "fr", "UTC")
        assert await store.settings(3) == Settings(3, 12.0, None, None, "de", "UTC")
        assert await store.settings(4) == Settings(4)  # never set: the defaults, unset
        assert (await store.settings(4)).language is None

        async def column(conn: aiosqlite.Connection) -> tuple[int, object]:
            rows = await conn.execute_fetchall("PRAGMA table_info(channel_settings)")
            info = {r[1]: r for r in rows}
            await conn.execute("INSERT INTO channel_settings (channel_id) VALUES (5)")
            return info["language"][3], info["language"][4]  # notnull, default

        assert await store.run_on_writer(column) == (0, None)
        assert (await store.settings(5)).language is None
        for language in ("fr", "de", "en", None):  # set and read back, both ways
            await store.set_settings(Settings(1, 2.5, 22, 7, language, "Europe/Paris"))
            assert (await store.settings(1)).language == language
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    again = await SQLiteStore.open(path)  # the upgraded file reopens as it is
    try:
        assert await again.settings(2) == Settings(2, 48.0, None, None, "fr", "UTC")
    finally:
        await again.close()


async def test_history_is_per_guild_newest_first(store: Store) -> None:
    for i, guild in enumerate((1, 1, 2)):
        g = await store.create_game(guild, 100 + i, Seat("111"), 3, now=float(i))
        await store.commit(g.id, 0, fields={"status": "finished"},
                           history=HistoryRow(g.id, guild, 100 + i, float(i), ("111", "222"),
                                              ("111",), {"111": 30, "222": 20}))
    h = await store.history(1)
    assert [r.channel_id for r in h] == [101, 100]
    assert h[0].scores == {"111": 30, "222": 20} and h[0].winners == ("111",)
    assert len(await store.history(2)) == 1


async def test_mark_reminded_ignores_a_game_that_moved_on(store: Store) -> None:
    g = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
    v = await store.commit(g.id, 0, fields={"status": "running", "awaited_since": 5.0,
                                            "state": "{}"})
    assert not await store.mark_reminded(g.id, v - 1, 9.0)
    assert await store.mark_reminded(g.id, v, 9.0)
    row = await store.game(g.id)
    assert (row.last_reminded_at, row.version) == (9.0, v)  # no bump: prompts stay valid


def _make_v1_file(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    finished_state = {"players": ["111", "222", "333"], "prestige": [31, 40, 12],
                      "winners": ["222"], "version": 3}
    seats = json.dumps([{"pid": p, "name": None, "computer": False}
                        for p in ("111", "222", "333")])
    db.execute("INSERT INTO games VALUES (1, 7, 70, 'finished', '111', 3, ?, 42, ?, 3, "
               "10.0, 20.0, NULL)", (seats, json.dumps(finished_state)))
    db.execute("INSERT INTO games VALUES (2, 7, 70, 'running', '222', 3, ?, 43, '{}', 1, "
               "30.0, 31.0, 31.0)", (seats,))
    db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                   [(1, 1, "111", "keep", 11.0), (1, 2, "222", "bridge:SM-CN", 12.0),
                    (1, 3, "333", "bridge:SP-DD", 13.0), (2, 1, "222", "keep", 31.0)])
    db.execute("INSERT INTO channel_settings VALUES (70, 2.0, 23, 6, 'fr')")
    db.commit()
    db.close()


async def test_migration_from_schema_1_upgrades_in_place_and_keeps_data(tmp_path: Path):
    path = tmp_path / "old.db"
    _make_v1_file(path)
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        old = await store.game(1)
        assert (old.status, old.seed, old.version, old.created_at) == ("finished", 42, 3, 10.0)
        assert old.last_reminded_at is None and old.ended_at == 20.0
        running = await store.active_game(70)
        assert (running.id, running.creator, running.awaited_since) == (2, "222", 31.0)
        assert [a.action for a in await store.actions(1)] == ["keep", "bridge:SM-CN",
                                                              "bridge:SP-DD"]
        assert await store.settings(70) == Settings(70, 2.0, 23, 6, "fr", "UTC")
        # the finished game got its history row from its stored state
        [h] = await store.history(7)
        assert (h.game_id, h.winners, h.scores) == (1, ("222",), {"111": 31, "222": 40,
                                                                  "333": 12})
        # new columns work on the upgraded file
        assert await store.mark_reminded(2, 1, 50.0)
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    again = await SQLiteStore.open(path)  # reopening an upgraded file is a no-op
    try:
        assert len(await again.history(7)) == 1
    finally:
        await again.close()


async def test_a_file_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer") as e:
        await SQLiteStore.open(path)
    assert e.value.code == "store.schema_newer"
