"""The backups' edges (issue 37 item 8): a bot stopped while its hourly copy is under way
leaves no ``.tmp`` (nor its -wal, -shm) behind; what a killed bot left is swept at the next
start — never the ``.tmp`` of a copy another process is making; a restore cannot race a bot
starting in the same moment (the bot waits for the copy to be in place and opens it; a
restore that finds a bot opening the file refuses and changes nothing)."""

from __future__ import annotations

import asyncio
import importlib
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.backup import RestoreRefused, Schedule, copies, restore
from bot.backup.copies import Check, copying, take
from bot.config import Backups, Keep
from bot.store import open_store
from bot.store.sqlite import OpenLock
from tests.fakediscord.harness import until

from .test_backup import START, _games, _names
from .test_service import Clock

restore_module = importlib.import_module("bot.backup.restore")  # its name is the function's
STALE = "sanmarco-2026-11-19T230700Z.db.tmp"


async def test_a_stop_during_an_hourly_backup_leaves_no_tmp(tmp_path: Path) -> None:
    """The copy is under way in its process (held up mid-copy by a long write of another
    connection, so the stop surely meets it there) when the bot stops: its process is
    killed and its ``.tmp`` and whatever SQLite made beside it removed."""
    live = str(tmp_path / "sanmarco.db")
    await _games(live, channels=2, moves=4)
    folder = tmp_path / "backups"
    schedule = Schedule(live, Backups((Keep(24, "h"),), str(folder)), Clock(START))
    holder = sqlite3.connect(live, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("CREATE TABLE held (x INTEGER)")  # the copy waits for this transaction
    try:
        schedule.start()  # as the bot does: its hourly pass takes the copy due
        await until(lambda: folder.exists() and any(n.endswith(".tmp") for n in
                                                    _names(folder)),
                    30, what="the copy under way")
        await schedule.close()  # the bot stops
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _names(folder) == set()  # no .tmp, no -wal, no -shm: nothing
    assert await schedule.run_once() is None


async def test_what_a_killed_copy_left_is_swept_at_start_but_not_a_copy_under_way(
        tmp_path: Path) -> None:
    live = str(tmp_path / "sanmarco.db")
    await _games(live, channels=1, moves=2)
    folder = tmp_path / "backups"
    backups = Backups((Keep(24, "h"),), str(folder))
    good = await asyncio.to_thread(take, live, backups, START - 7200)
    left = {STALE, STALE + "-wal", STALE + "-shm", STALE + "-lock",
            "other-2026-11-19T230700Z.db.tmp"}  # the last: another database's
    for name in left:
        (folder / name).write_bytes(b"x" * 1000)
    # a copy under way in another process (``python -m bot.backup`` by hand): left alone
    with copying(str(folder)) as held:
        assert held
        Schedule(live, backups, Clock(START)).sweep()
        assert left <= _names(folder)
    schedule = Schedule(live, backups, Clock(START), in_thread=True)
    schedule.start()  # a bot starting: the leftovers go, the copies and others' stay
    try:
        assert _names(folder) == {Path(good.path).name, "other-2026-11-19T230700Z.db.tmp"}
    finally:
        await schedule.close()
    assert [c.path for c in copies(str(folder), live)] == [good.path]


async def test_a_bot_starting_during_a_restore_waits_and_opens_the_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The restore is held in the middle of its check when the bot starts: the bot's open
    waits; once the copy is in place it opens that copy — never an empty database, never
    the file the restore put aside, and no stray -wal beside the restored file."""
    live = tmp_path / "sanmarco.db"
    await _games(str(live), channels=1, moves=2)
    copy = str(tmp_path / "copy.db")
    await asyncio.to_thread(take, str(live), Backups((Keep(24, "h"),), copy + ".d"), START)
    (made,) = copies(copy + ".d", str(live))
    await _games(str(live), channels=3, moves=2, first=20)  # play went on: 4 games now
    checking, go_on = threading.Event(), threading.Event()
    real_check = restore_module.check_file

    def held_check(path: str) -> Check:
        checking.set()
        go_on.wait(30)
        return real_check(path)

    monkeypatch.setattr(restore_module, "check_file", held_check)
    restoring = asyncio.create_task(asyncio.to_thread(restore, made.path, str(live), START))
    await asyncio.to_thread(checking.wait, 30)
    opening = asyncio.create_task(open_store(str(live)))  # the bot starts meanwhile
    await asyncio.sleep(0.3)
    assert not opening.done()  # it waits for the restore
    go_on.set()
    check, aside = await restoring
    assert check.ok and aside is not None
    store = await opening
    try:
        assert len(await store.started_games()) == 1  # the copy's one game
    finally:
        await store.close()
    before = await open_store(aside)
    try:
        assert len(await before.started_games()) == 4  # what was put aside, whole
    finally:
        await before.close()


async def test_a_restore_while_a_bot_is_opening_the_file_refuses_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live = tmp_path / "sanmarco.db"
    await _games(str(live), channels=1, moves=2)
    await asyncio.to_thread(take, str(live), Backups((Keep(24, "h"),),
                                                     str(tmp_path / "b")), START)
    (made,) = copies(str(tmp_path / "b"), str(live))
    current = live.read_bytes()
    monkeypatch.setattr(restore_module, "LOCK_WAIT", 0.2)
    opening = OpenLock(str(live))  # a bot in the middle of its open
    assert opening.acquire(0)
    try:
        with pytest.raises(RestoreRefused, match="being opened"):
            await asyncio.to_thread(restore, made.path, str(live), START)
    finally:
        opening.release()
    assert live.read_bytes() == current
    assert not list(tmp_path.glob("sanmarco.db.*"))  # nothing staged, nothing put aside
