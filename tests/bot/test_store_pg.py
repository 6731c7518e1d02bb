"""The PostgreSQL store's own behaviour, on the session's real server (each test
in a fresh schema): numbered migrations recorded in the database, one upgrade when several
processes start at once, a database of a newer bot or of another program refused untouched,
another connection's lock answered as busy within the timeout while reads go on, and every
kind of failure the server reports reaching the player as the same codes as SQLite's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest

import bot.store
import bot.store.migrations.postgres
from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.service.errors import Code, ServiceError
from bot.store import (
    SCHEMA_VERSION,
    SchemaTooNew,
    Seat,
    Settings,
    StorageError,
    StoreError,
    open_store,
)
from bot.store.migrations.postgres import MIGRATIONS
from bot.store.postgres import PostgresStore, redact, storage_error
from tests.pgserver import PgServer

from .test_service import HOUR, Clock, start_game


@pytest.fixture
async def raw(pg_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection of our own to the test's schema (another process, as it were)."""
    conn = await asyncpg.connect(pg_url)
    yield conn
    await conn.close()


async def _tables(conn: asyncpg.Connection) -> list[str]:
    return [r[0] for r in await conn.fetch(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() ORDER BY 1")]


async def test_a_new_database_gets_every_numbered_migration_once(
        pg_url: str, raw: asyncpg.Connection) -> None:
    # the same numbers as SQLite's: a migration added to one is added to the other
    assert SCHEMA_VERSION == len(MIGRATIONS) == bot.store.SCHEMA_VERSION
    # four processes start at once on an empty database: one upgrades, all open
    stores = await asyncio.gather(*(PostgresStore.open(pg_url) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 4
        assert [r[0] for r in await raw.fetch("SELECT version FROM sanmarco_schema "
                                              "ORDER BY version")] == list(
            range(1, SCHEMA_VERSION + 1))
        assert set(await _tables(raw)) >= {"games", "actions", "channel_settings", "history",
                                           "final_posts", "ratings", "rated_games"}
        assert await stores[0].integrity_check() == "ok"
    finally:
        for s in stores:
            await s.close()


async def test_database_url_chooses_postgresql(pg_url: str, tmp_path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANMARCO_DB", str(tmp_path / "unused.db"))
    monkeypatch.setenv("DATABASE_URL", pg_url)
    store = await open_store()
    try:
        assert isinstance(store, PostgresStore) and "postgres" in store.path
    finally:
        await store.close()
    assert not (tmp_path / "unused.db").exists()


async def test_a_database_of_a_newer_bot_is_refused_and_left_untouched(
        pg_url: str, raw: asyncpg.Connection) -> None:
    await (await PostgresStore.open(pg_url)).close()
    await raw.execute("INSERT INTO sanmarco_schema (version) VALUES ($1)", SCHEMA_VERSION + 1)
    before = await raw.fetch("SELECT * FROM sanmarco_schema ORDER BY version")
    with pytest.raises(SchemaTooNew) as e:
        await PostgresStore.open(pg_url)
    assert e.value.code == "store.schema_newer" and e.value.schema == SCHEMA_VERSION + 1
    assert await raw.fetch("SELECT * FROM sanmarco_schema ORDER BY version") == before


async def test_a_database_of_another_program_is_not_ours(
        pg_url: str, raw: asyncpg.Connection) -> None:
    await raw.execute("CREATE TABLE games (id serial PRIMARY KEY, title text)")
    with pytest.raises(StorageError) as e:
        await PostgresStore.open(pg_url)
    assert e.value.code == "store.corrupt"
    assert await _tables(raw) == ["games"]  # nothing was added


async def test_an_upgrade_from_schema_3_keeps_the_games_and_knows_when_they_are_due(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.store.migrations.postgres, "MIGRATIONS", MIGRATIONS[:3])
    store = await PostgresStore.open(pg_url)
    async with store:
        assert await store.schema_version() == 3
        await store.execute_sql(
            "INSERT INTO games (guild_id, channel_id, status, creator, seats, state, "
            "created_at, last_action_at, awaited_since) "
            "VALUES (1, 70, 'running', '111', 3, '{}', 30, 31, 31)")
        await store.execute_sql("INSERT INTO channel_settings (channel_id, reminder_hours) "
                             "VALUES (70, 2)")
    monkeypatch.undo()
    async with await PostgresStore.open(pg_url) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.due_games(31.0 + 2 * HOUR - 1) == []
        [due] = await store.due_games(31.0 + 2 * HOUR)
        assert due.game.channel_id == 70 and due.settings.reminder_hours == 2.0
        # a game made after the upgrade gets a new id, past the old ones
        new = await store.create_game(1, 80, Seat("222"), 3, now=40.0)
        assert new.id > due.game.id


async def test_migration_6_from_schema_5_keeps_every_setting_and_unsets_only_the_default(
        pg_url: str, raw: asyncpg.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """The channel language on PostgreSQL (SQLite's twin: tests/bot/test_store.py): a schema-5
    database upgraded keeps every channel's interval, quiet hours, time zone, timer, computer
    level and chosen language; the old default 'en' becomes unset; the column then takes NULL
    and has no default, and a language set afterwards reads back as set."""
    monkeypatch.setattr(bot.store.migrations.postgres, "MIGRATIONS", MIGRATIONS[:5])
    async with await PostgresStore.open(pg_url) as store:
        assert await store.schema_version() == 5
        await store.execute_sql(
            "INSERT INTO channel_settings (channel_id, reminder_hours, quiet_start, quiet_end, "
            "language, timezone, turn_timer_hours, computer_level) "
            "VALUES (1, 2.5, 22, 7, 'en', 'Europe/Paris', 24, 'hard'), "
            "(2, 48, NULL, NULL, 'fr', 'UTC', 0, 'normal')")
        await store.execute_sql("INSERT INTO channel_settings (channel_id, language) "
                             "VALUES (3, 'de')")
    monkeypatch.undo()
    async with await PostgresStore.open(pg_url) as store:
        assert await store.schema_version() == SCHEMA_VERSION >= 6
        assert await store.settings(1) == Settings(1, 2.5, 22, 7, None, "Europe/Paris", 24.0,
                                                   "hard")
        assert await store.settings(2) == Settings(2, 48.0, None, None, "fr", "UTC")
        assert await store.settings(3) == Settings(3, 12.0, None, None, "de", "UTC")
        assert (await store.settings(4)).language is None
        nullable, default = await raw.fetchrow(
            "SELECT is_nullable, column_default FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'channel_settings' "
            "AND column_name = 'language'")
        assert (nullable, default) == ("YES", None)
        await raw.execute("INSERT INTO channel_settings (channel_id) VALUES (5)")
        assert (await store.settings(5)).language is None
        for language in ("fr", "de", "en", None):
            await store.set_settings(Settings(1, 2.5, 22, 7, language, "Europe/Paris"))
            assert (await store.settings(1)).language == language


async def test_a_failed_migration_leaves_the_schema_as_it_was(
        pg_url: str, raw: asyncpg.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    await (await PostgresStore.open(pg_url)).close()
    monkeypatch.setattr(bot.store.migrations.postgres, "MIGRATIONS",
                        (*MIGRATIONS, "CREATE TABLE notify (x int); SELECT 1/0"))
    with pytest.raises(StorageError) as e:
        await PostgresStore.open(pg_url)
    assert e.value.code == "store.failed" and "division by zero" in str(e.value)
    assert "notify" not in await _tables(raw)  # DDL is transactional: nothing half done
    assert await raw.fetchval("SELECT max(version) FROM sanmarco_schema") == SCHEMA_VERSION


# ---------------------------------------------------------------------------- busy
async def test_a_row_locked_by_another_process_is_busy_within_the_timeout_and_reads_go_on(
        pg_url: str, raw: asyncpg.Connection) -> None:
    store = await PostgresStore.open(pg_url, busy_timeout=0.5)
    try:
        a = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
        b = await store.create_game(1, 20, Seat("222"), 3, now=1.0)
        async with raw.transaction():
            await raw.execute("SELECT * FROM games WHERE id = $1 FOR UPDATE", a.id)
            started = time.monotonic()
            write = asyncio.create_task(store.commit(a.id, 0, fields={"state": "{}"}))
            await asyncio.sleep(0.05)  # the write now waits for the row
            assert (await store.game(b.id)) == b  # another channel's read
            assert (await store.game(a.id)) == a  # the same game's read, too
            assert not write.done()
            with pytest.raises(StorageError) as e:
                await write
            waited = time.monotonic() - started
        assert e.value.code == "store.busy" and 0.4 < waited < 5
        assert (await store.game(a.id)) == a  # nothing was written
        assert await store.commit(a.id, 0, fields={"state": "{}"}) == 1  # works again
    finally:
        await store.close()


async def test_the_service_says_busy_and_changes_nothing(
        pg_url: str, raw: asyncpg.Connection) -> None:
    svc = GameService(await PostgresStore.open(pg_url, busy_timeout=0.5), Clock(),
                      seeds=lambda: 7)
    try:
        u = await start_game(svc, 3, channel=10)
        await start_game(svc, 3, channel=20)
        pid = u.view["waiting_for"][0]
        action = (await svc.legal_actions(10, pid))[0]
        before = await svc.store.latest_game(10)
        assert before is not None
        async with raw.transaction():
            await raw.execute("LOCK TABLE games IN EXCLUSIVE MODE")  # a long write elsewhere
            act = asyncio.create_task(svc.act(10, pid, action, expected_version=u.version))
            status = await svc.status(20)  # reads are answered meanwhile
            assert status.status == "running" and not act.done()
            with pytest.raises(ServiceError) as e:
                await act
        assert e.value.code == "store.busy"
        assert await svc.store.latest_game(10) == before
        assert (await svc.act(10, pid, action)).version == u.version + 1
    finally:
        await svc.close()


# ---------------------------------------------------------------------------- failures
@pytest.mark.parametrize("errcode,code", [
    ("disk_full", "store.full"),
    ("io_error", "store.io"),
    ("data_corrupted", "store.corrupt"),
    ("read_only_sql_transaction", "store.read_only"),
    ("insufficient_privilege", "store.read_only"),
    ("lock_not_available", "store.busy"),
    ("admin_shutdown", "store.io"),
])
async def test_each_failure_the_server_reports_reaches_the_player_as_one_sentence(
        pg_url: str, raw: asyncpg.Connection, errcode: str, code: str) -> None:
    """The server itself raises the error (a trigger on the games table), as it would for a
    full disk, a failing disk or a damaged page: the code is SQLite's, nothing is written."""
    svc = GameService(await PostgresStore.open(pg_url), Clock(), seeds=lambda: 7)
    try:
        u = await start_game(svc, 3)
        pid = u.view["waiting_for"][0]
        action = (await svc.legal_actions(10, pid))[0]
        before = await svc.store.latest_game(10)
        await raw.execute(f"""
            CREATE FUNCTION fault() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'injected %', '{errcode}' USING ERRCODE = '{errcode}'; END $$;
            CREATE TRIGGER fault BEFORE UPDATE ON games FOR EACH ROW EXECUTE FUNCTION fault();
        """)
        with pytest.raises(ServiceError) as e:
            await svc.act(10, pid, action, expected_version=u.version)
        assert e.value.code == code and code in set(Code)
        sentence = text.refusal(EN, e.value.code)
        assert sentence != text.apology(EN) and sentence.count(".") == 1
        await raw.execute("DROP TRIGGER fault ON games")
        assert await svc.store.latest_game(10) == before
        assert (await svc.act(10, pid, action, expected_version=u.version)).version == \
            u.version + 1
    finally:
        await svc.close()


async def test_a_connection_lost_in_the_middle_of_a_write_is_an_io_failure(
        pg_url: str, raw: asyncpg.Connection) -> None:
    """The server ends the bot's connection while its write waits (an admin, a failover):
    the write fails as store.io having written nothing, and the next call reconnects."""
    store = await PostgresStore.open(pg_url)
    watcher = await asyncpg.connect(pg_url)
    try:
        g = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
        async with raw.transaction():
            await raw.execute("SELECT * FROM games WHERE id = $1 FOR UPDATE", g.id)
            write = asyncio.create_task(store.commit(g.id, 0, fields={"state": "{}"}))
            waiting = None
            for _ in range(200):
                waiting = await watcher.fetchval(
                    "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND application_name = 'sanmarco'")
                if waiting:
                    break
                await asyncio.sleep(0.02)
            assert waiting, "the write never waited for the row"
            await watcher.execute("SELECT pg_terminate_backend($1)", waiting)
            with pytest.raises(StorageError) as e:
                await write
        assert e.value.code == "store.io"
        assert (await store.game(g.id)) == g  # nothing was written
        assert await store.commit(g.id, 0, fields={"state": "{}"}) == 1
    finally:
        await watcher.close()
        await store.close()


async def test_a_read_only_database_is_found_at_start_up(pg_migrated: str) -> None:
    with pytest.raises(StorageError) as e:
        await PostgresStore.open(pg_migrated + "&default_transaction_read_only=on")
    assert e.value.code == "store.read_only"


async def test_a_server_that_cannot_be_reached_or_a_missing_database_cannot_be_opened(
        pg_server: PgServer) -> None:
    missing = pg_server.base_url.replace("/postgres?", "/no_such_database?")
    for url in (missing, "postgresql://bot:secret@127.0.0.1:9/sanmarco"):
        with pytest.raises(StorageError) as e:
            await PostgresStore.open(url, connect_timeout=5)
        assert e.value.code == "store.cantopen", url
        assert "secret" not in str(e.value)


def test_the_password_never_reaches_a_log_line() -> None:
    assert redact("postgresql://bot:s3cret@db.example:5432/sm") == \
        "postgresql://bot:***@db.example:5432/sm"
    assert redact("postgresql://db.example/sm") == "postgresql://db.example/sm"


def test_errors_without_a_server_map_too() -> None:
    assert storage_error(TimeoutError()).code == "store.busy"
    assert storage_error(ConnectionRefusedError(), opening=True).code == "store.cantopen"
    assert storage_error(ConnectionResetError()).code == "store.io"
    assert storage_error(asyncpg.UniqueViolationError("dup")).code == "store.failed"
    assert isinstance(storage_error(OSError()), StoreError)
