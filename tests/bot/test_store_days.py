"""Migration 5 (games that keep moving over days): the turn timer's due games
(``games.timer_at``, kept by triggers and indexed like ``remind_at``), reminders off at 0,
taking back the last action, how players hear it is their turn, each game's latest post, a
player's games in a server."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

import bot.store.migrations.postgres
import bot.store.migrations.sqlite
from bot.store import (
    SCHEMA_VERSION,
    LogRow,
    NotifyPref,
    Seat,
    Settings,
    SQLiteStore,
    StaleWrite,
    StorageError,
    Store,
)
from bot.store.postgres import PostgresStore

HOUR = 3600.0



async def running_game(store: Store, channel: int, since: float, players: tuple[str, ...] = (
        "111", "222", "333"), guild: int = 1) -> int:
    g = await store.create_game(guild, channel, Seat(players[0]), 3, now=since)
    await store.commit(g.id, 0, fields={"status": "running", "awaited_since": since,
                                        "state": "{}",
                                        "players": tuple(Seat(p) for p in players)})
    return g.id


async def test_timer_games_are_due_only_with_a_timer_and_follow_its_channel(
        store: Store) -> None:
    a = await running_game(store, 10, 1000.0)
    b = await running_game(store, 20, 2000.0)
    assert await store.due_timer_games(1e12) == []  # no channel has a timer: never due
    await store.set_settings(Settings(10, turn_timer_hours=2.0))
    assert await store.due_timer_games(1000.0 + 2 * HOUR - 1) == []
    [due] = await store.due_timer_games(1000.0 + 2 * HOUR)
    assert (due.game.id, due.at, due.settings.turn_timer_hours) == (a, 1000.0 + 2 * HOUR, 2.0)
    await store.set_settings(Settings(20, turn_timer_hours=0.5, computer_level="easy"))
    due = await store.due_timer_games(1e9)
    assert [d.game.id for d in due] == [b, a]  # by due time
    assert due[0].settings.computer_level == "easy"
    # a new decision restarts the timer; an ended game has none
    await store.commit(a, 1, fields={"awaited_since": 9000.0})
    assert [d.at for d in await store.due_timer_games(1e9) if d.game.id == a] == [
        9000.0 + 2 * HOUR]
    await store.commit(a, 2, fields={"status": "finished", "awaited_since": None})
    assert [d.game.id for d in await store.due_timer_games(1e9)] == [b]
    # turning the timer off takes the game out
    await store.set_settings(Settings(20))
    assert await store.due_timer_games(1e12) == []


async def test_a_deferred_timer_waits_until_then_and_a_settings_change_recomputes_it(
        store: Store) -> None:
    a = await running_game(store, 10, 1000.0)
    await store.set_settings(Settings(10, turn_timer_hours=1.0))
    row = await store.game(a)
    assert await store.defer_timers([(a, row.version - 1, 99_999.0)]) == 0  # stale: no
    assert await store.defer_timers([(a, row.version, 50_000.0)]) == 1
    assert await store.due_timer_games(49_999.0) == []
    assert [d.game.id for d in await store.due_timer_games(50_000.0)] == [a]
    # quiet hours (or the time zone) changed: the earliest moment counts again
    await store.set_settings(Settings(10, turn_timer_hours=1.0, quiet_start=1, quiet_end=2))
    assert [d.at for d in await store.due_timer_games(1e9)] == [1000.0 + HOUR]


async def test_the_timer_query_uses_its_index(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "s.db")
    try:
        plan = await store.query_sql("EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = "
                                "'running' AND timer_at <= 1.0 ORDER BY timer_at")
        assert any("games_timer_at" in str(row[-1]) for row in plan), plan
    finally:
        await store.close()


async def test_the_timer_query_uses_its_index_on_postgresql(pg_migrated: str) -> None:
    conn = await asyncpg.connect(pg_migrated)
    try:  # an empty table is scanned; ask whether the index serves
        await conn.execute("SET enable_seqscan = off")
        plan = await conn.fetch("EXPLAIN SELECT id FROM games WHERE status = 'running' "
                                "AND timer_at <= 1.0 ORDER BY timer_at")
        assert any("games_timer_at" in str(row[0]) for row in plan), plan
    finally:
        await conn.close()


async def test_a_reminder_interval_of_zero_turns_reminders_off(store: Store) -> None:
    a = await running_game(store, 10, 1000.0)
    assert [d.game.id for d in await store.due_games(1000.0 + 12 * HOUR)] == [a]
    await store.set_settings(Settings(10, reminder_hours=0.0))
    assert await store.due_games(1e12) == []
    await store.set_settings(Settings(10, reminder_hours=1.0))
    assert [d.game.id for d in await store.due_games(1000.0 + HOUR)] == [a]


async def test_settings_round_trip_with_timer_and_level(store: Store) -> None:
    assert await store.settings(5) == Settings(5)
    s = Settings(5, 6.0, 22, 7, "en", "Asia/Tokyo", 24.0, "easy")
    await store.set_settings(s)
    assert await store.settings(5) == s


async def test_take_back_deletes_exactly_the_last_action_and_counts_it(store: Store) -> None:
    a = await running_game(store, 10, 1000.0)
    v = await store.commit(a, 1, {"state": "s1"}, [LogRow(1, "111", "keep", 1.0)])
    v = await store.commit(a, v, {"state": "s2"}, [LogRow(2, "222", "keep", 2.0)])
    with pytest.raises(StaleWrite):  # not the last one
        await store.take_back(a, v, 1, {"state": "s0"})
    with pytest.raises(StaleWrite):  # a stale version
        await store.take_back(a, v - 1, 2, {"state": "s1"})
    row = await store.game(a)
    assert (row.state, row.undos, len(await store.actions(a))) == ("s2", 0, 2)
    v2 = await store.take_back(a, v, 2, {"state": "s1", "awaited_since": 2.0})
    row = await store.game(a)
    assert (row.state, row.undos, row.version, row.awaited_since) == ("s1", 1, v2, 2.0)
    assert [r.seq for r in await store.actions(a)] == [1]


async def test_notify_prefs_and_a_refused_dm_told_once(store: Store) -> None:
    assert await store.notify_prefs(1, ["111"]) == {}  # default: a mention
    await store.set_notify_mode(1, "111", "dm")
    await store.set_notify_mode(2, "111", "none")  # per server
    assert await store.notify_prefs(1, ["111", "222"]) == {"111": NotifyPref("111", "dm")}
    assert not await store.hint_pending(1, "111")
    assert await store.dm_refused(1, "111", 50.0)
    assert not await store.dm_refused(1, "111", 60.0)  # known already
    assert await store.notify_prefs(1, ["111"]) == {"111": NotifyPref("111", "dm", 50.0, True)}
    assert await store.hint_pending(1, "111")
    assert await store.take_hint(1, "111") and not await store.take_hint(1, "111")
    await store.set_notify_mode(1, "111", "both")  # choosing again clears the refusal
    assert await store.notify_prefs(1, ["111"]) == {"111": NotifyPref("111", "both")}
    with pytest.raises(StorageError):  # the table's CHECK: only the four ways
        await store.set_notify_mode(1, "111", "pigeon")


async def test_a_players_games_newest_first_with_their_latest_post(store: Store) -> None:
    a = await running_game(store, 10, 1.0, ("111", "222", "333"))
    b = await running_game(store, 20, 2.0, ("444", "111", "555"))
    await running_game(store, 30, 3.0, ("666", "777", "888"))
    await running_game(store, 40, 4.0, ("111", "2", "3"), guild=2)  # another server
    lobby = await store.create_game(1, 50, Seat("111"), 3, now=5.0)
    await store.set_latest_post(b, 99, "https://discord.com/channels/1/20/99", 6.0)
    games = await store.player_games(1, "111")
    assert [(g.id, url, gone) for g, url, gone in games] == [
        (lobby.id, None, False), (b, "https://discord.com/channels/1/20/99", False),
        (a, None, False)]
    assert await store.player_games(1, "11") == []  # a pid, not a prefix
    assert await store.latest_post(b) == "https://discord.com/channels/1/20/99"
    await store.set_latest_post(b, 100, "u2", 7.0)
    assert await store.latest_post(b) == "u2"


async def test_seats_keep_their_timeouts_and_level(store: Store) -> None:
    a = await running_game(store, 10, 1.0)
    seats = (Seat("111", "ann", timeouts=2), Seat("222", "bob", True, level="easy"),
             Seat("333"))
    await store.commit(a, 1, {"players": seats})
    assert (await store.game(a)).players == seats


async def test_a_schema_4_file_is_upgraded_with_its_games_timers_and_reminders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v4.db"
    with monkeypatch.context() as m:
        m.setattr(bot.store.migrations.sqlite, "MIGRATIONS",
                  bot.store.migrations.sqlite.MIGRATIONS[:4])
        old = await SQLiteStore.open(path)
        try:
            await old.execute_sql(
                "INSERT INTO games (id, guild_id, channel_id, status, creator, seats, players, "
                "state, created_at, last_action_at, awaited_since) VALUES (7, 1, 10, "
                "'running', '111', 3, '[]', '{}', 100.0, 100.0, 100.0)")
            await old.execute_sql(
                "INSERT INTO channel_settings (channel_id, reminder_hours) VALUES (10, 1.0)")
            assert await old.schema_version() == 4
        finally:
            await old.close()
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 5
        assert await store.settings(10) == Settings(10, 1.0)
        assert (await store.game(7)).undos == 0
        assert [d.game.id for d in await store.due_games(100.0 + HOUR)] == [7]
        assert await store.due_timer_games(1e12) == []
        await store.set_settings(Settings(10, 1.0, turn_timer_hours=3.0))
        assert [d.at for d in await store.due_timer_games(1e12)] == [100.0 + 3 * HOUR]
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def test_a_schema_4_postgresql_database_is_upgraded_alike(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 5 on PostgreSQL: the same columns, triggers and defaults as SQLite's."""
    with monkeypatch.context() as m:
        m.setattr(bot.store.migrations.postgres, "MIGRATIONS",
                  bot.store.migrations.postgres.MIGRATIONS[:4])
        async with await PostgresStore.open(pg_url) as old:
            await old.execute_sql(
                "INSERT INTO games (id, guild_id, channel_id, status, creator, seats, players, "
                "state, created_at, last_action_at, awaited_since) VALUES (7, 1, 10, "
                "'running', '111', 3, '[]', '{}', 100.0, 100.0, 100.0)")
            await old.execute_sql(
                "INSERT INTO channel_settings (channel_id, reminder_hours) VALUES (10, 1.0)")
            assert await old.schema_version() == 4
    async with await PostgresStore.open(pg_url) as store:
        assert await store.schema_version() == len(bot.store.migrations.postgres.MIGRATIONS) >= 5
        assert await store.settings(10) == Settings(10, 1.0)
        assert (await store.game(7)).undos == 0
        assert [d.game.id for d in await store.due_games(100.0 + HOUR)] == [7]
        assert await store.due_timer_games(1e12) == []
        await store.set_settings(Settings(10, 1.0, turn_timer_hours=3.0))
        assert [d.at for d in await store.due_timer_games(1e12)] == [100.0 + 3 * HOUR]
        await store.set_settings(Settings(10, 0.0, turn_timer_hours=3.0))
        assert await store.due_games(1e12) == []  # reminders off at 0
        assert await store.integrity_check() == "ok"
