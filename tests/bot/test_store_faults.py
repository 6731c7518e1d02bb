"""Storage failures are told as what they are (a full disk is not "the game is busy").

After a full disk, an I/O error or a read-only file SQLite has often rolled the transaction
back itself; the store's own ROLLBACK then failed with "cannot rollback - no transaction is
active", and that — not the real cause — reached the log and the caller. The store now
raises a ``StorageError`` whose code names the cause; the service passes that code on, and
the player reads in one sentence that nothing was saved and why.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

import bot.store.migrations.sqlite
from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.service.errors import Code, ServiceError
from bot.store import LogRow, Seat, SQLiteStore, StorageError

from .test_service import Clock, make_service, start_game


def _cap_the_file(conn: sqlite3.Connection) -> None:
    """The file may not grow by a single page any more: SQLite answers SQLITE_FULL."""
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")


async def _fill_the_disk(conn: aiosqlite.Connection) -> None:
    """_cap_the_file on the store's writer."""
    pages = (await conn.execute_fetchall("PRAGMA page_count"))[0][0]  # type: ignore[index]
    await conn.execute(f"PRAGMA max_page_count = {pages}")


async def _free_the_disk(conn: aiosqlite.Connection) -> None:
    await conn.execute("PRAGMA max_page_count = 1073741823")


async def test_a_full_disk_is_reported_as_a_full_disk_not_a_failed_rollback_bug(
        tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "s.db")
    try:
        g = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
        await store.run_on_writer(_fill_the_disk)
        with pytest.raises(StorageError) as e:
            await store.commit(g.id, 0, fields={"state": "x" * 200_000},
                               actions=[LogRow(1, "111", "keep", 2.0)])
        assert e.value.code == "store.full"
        assert "cannot rollback" not in str(e.value)
        assert "full" in str(e.value)
        # Nothing was written, and the store works again once there is room.
        row = await store.game(g.id)
        assert row is not None and (row.version, row.state) == (0, None)
        await store.run_on_writer(_free_the_disk)
        assert await store.commit(g.id, 0, fields={"state": "{}"}) == 1
    finally:
        await store.close()


async def test_a_failed_migration_reports_its_cause_and_keeps_the_old_schema(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.db"
    store = await SQLiteStore.open(path)
    version = await store.schema_version()
    await store.close()

    def grows_too_much(conn: sqlite3.Connection) -> None:
        _cap_the_file(conn)
        conn.execute("CREATE TABLE big (x TEXT)")
        conn.execute("INSERT INTO big VALUES (?)", ("x" * 200_000,))

    monkeypatch.setattr(bot.store.migrations.sqlite, "MIGRATIONS",
                        (*bot.store.migrations.sqlite.MIGRATIONS, grows_too_much))
    with pytest.raises(StorageError) as e:
        await SQLiteStore.open(path)
    assert e.value.code == "store.full" and "cannot rollback" not in str(e.value)
    monkeypatch.undo()
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == version
    finally:
        await store.close()


async def _failing(conn: aiosqlite.Connection, message: str) -> None:
    """A connection fault as SQLite reports it: the transaction is already rolled back
    when the error reaches the caller."""
    await conn.execute("ROLLBACK")
    raise sqlite3.OperationalError(message)


@pytest.mark.parametrize("message,code", [
    ("database or disk is full", "store.full"),
    ("disk I/O error", "store.io"),
    ("attempt to write a readonly database", "store.read_only"),
])
async def test_each_storage_failure_reaches_the_player_as_one_sentence_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, message: str, code: str) -> None:
    svc = await make_service(tmp_path / "g.db", Clock())
    try:
        u = await start_game(svc, 3)
        pid = u.view["waiting_for"][0]
        action = (await svc.legal_actions(10, pid))[0]
        before = await svc.store.latest_game(10)
        real_run = svc.store.run_on_writer

        async def faulty_run(fn: Callable[[aiosqlite.Connection], Any]) -> Any:
            async def run(conn: aiosqlite.Connection) -> Any:
                await conn.execute("BEGIN IMMEDIATE")
                await _failing(conn, message)
            return await real_run(run)

        monkeypatch.setattr(svc.store, "run_on_writer", faulty_run)
        with pytest.raises(ServiceError) as e:
            await svc.act(10, pid, action, expected_version=u.version)
        assert e.value.code == code and code in set(Code)
        sentence = text.refusal(EN, e.value.code)
        assert "not saved" in sentence.lower() and sentence != text.apology(EN)
        assert sentence.count(".") == 1  # one sentence
        monkeypatch.undo()
        assert await svc.store.latest_game(10) == before
        assert (await svc.act(10, pid, action, expected_version=u.version)).version == \
            u.version + 1
    finally:
        await svc.close()


async def test_a_real_full_disk_reaches_the_service_caller_as_store_full(
        tmp_path: Path) -> None:
    """No injected fault: lobbies are opened until the capped file is full."""
    svc: GameService = await make_service(tmp_path / "g.db", Clock())
    try:
        await svc.store.run_on_writer(_fill_the_disk)
        opened = 0
        with pytest.raises(ServiceError) as e:
            for channel in range(100, 2100):
                await svc.create_lobby(1, channel, str(100_000 + channel))
                opened += 1
        assert e.value.code == "store.full"
        rows = await svc.store.query_sql("SELECT count(*) FROM games")
        assert rows[0][0] == opened  # the refused lobby left no row behind
    finally:
        await svc.close()
