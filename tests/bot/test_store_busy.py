"""Another process holding the database: a write waits at most the busy
timeout and then says the game is busy, having written nothing; meanwhile reads — for any
channel — go on (the store's single connection used to queue every read behind the waiting
write for the whole 5 s)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.service import GameService
from bot.service.errors import ServiceError
from bot.store import Seat, SQLiteStore, StorageError

from .test_service import Clock, start_game


@contextmanager
def held_by_another_process(path: Path) -> Iterator[sqlite3.Connection]:
    """A second connection (as another process would) holding a write transaction."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_a_write_waiting_for_the_file_delays_no_read(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = await SQLiteStore.open(path)
    try:
        a = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
        b = await store.create_game(1, 20, Seat("222"), 3, now=1.0)
        with held_by_another_process(path):
            write = asyncio.create_task(store.commit(a.id, 0, fields={"state": "{}"}))
            await asyncio.sleep(0.05)  # the write is now waiting for the file
            read = await store.game(b.id)  # another channel's read
            assert read is not None and read.channel_id == 20
            assert not write.done(), "the read had to wait for the write"
            assert (await store.game(a.id)) == a  # the same channel's read, too
            with pytest.raises(StorageError) as e:
                await write
            assert e.value.code == "store.busy"
        assert (await store.game(a.id)) == a  # nothing was written
        assert await store.commit(a.id, 0, fields={"state": "{}"}) == 1  # works again
    finally:
        await store.close()


async def test_writes_queued_behind_a_waiting_one_are_all_refused_as_busy(
        tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = await SQLiteStore.open(path, busy_timeout=0.3)
    try:
        games = [await store.create_game(1, 10 + i, Seat("111"), 3, now=1.0)
                 for i in range(5)]
        with held_by_another_process(path):
            results = await asyncio.gather(
                *(store.commit(g.id, 0, fields={"state": "{}"}) for g in games),
                return_exceptions=True)
        assert all(isinstance(r, StorageError) and r.code == "store.busy" for r in results)
        assert [await store.game(g.id) for g in games] == games  # nothing was written
    finally:
        await store.close()


async def test_the_service_says_busy_changes_nothing_and_other_channels_go_on(
        tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    svc = GameService(await SQLiteStore.open(path), Clock(), seeds=lambda: 7)
    try:
        u = await start_game(svc, 3, channel=10)
        await start_game(svc, 3, channel=20)
        pid = u.view["waiting_for"][0]
        action = (await svc.legal_actions(10, pid))[0]
        before = await svc.store.latest_game(10)
        with held_by_another_process(path):
            act = asyncio.create_task(svc.act(10, pid, action, expected_version=u.version))
            await asyncio.sleep(0.05)
            status = await svc.status(20)  # another channel is answered meanwhile
            assert status.status == "running" and not act.done()
            with pytest.raises(ServiceError) as e:
                await act
            assert e.value.code == "store.busy"
        assert await svc.store.latest_game(10) == before
    finally:
        await svc.close()


async def test_moves_queued_in_one_channel_give_up_on_their_turn_not_in_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five moves sent at once into a channel whose first move is stuck on the locked file:
    all are answered busy, and only the first ever tried to write (the others gave up
    waiting for the channel's turn instead of each waiting the whole timeout in line)."""
    path = tmp_path / "g.db"
    svc = GameService(await SQLiteStore.open(path, busy_timeout=0.4), Clock(), seeds=lambda: 7)
    try:
        u = await start_game(svc, 3, channel=10)
        pid = u.view["waiting_for"][0]
        action = (await svc.legal_actions(10, pid))[0]
        writes = 0
        real = svc.store.commit

        async def counted(*args: object, **kwargs: object) -> int:
            nonlocal writes
            writes += 1
            return await real(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(svc.store, "commit", counted)
        with held_by_another_process(path):
            results = await asyncio.gather(*(svc.act(10, pid, action) for _ in range(5)),
                                           return_exceptions=True)
        assert all(isinstance(r, ServiceError) and r.code == "store.busy" for r in results)
        assert writes == 1
    finally:
        await svc.close()
