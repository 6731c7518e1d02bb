"""One deliverer per channel across processes, at the store, on both backends: a channel's
lease is taken with one compare-and-set (free, one's own, or expired), renewed and let go
by its owner only; and a channel's posts are read in commit order, so a post whose
transaction took a lower id but commits late is never read after a higher one (the
deliverer would have folded the higher into a catch-up sent without it)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.store import Store
from bot.store.outbox import outbox_insert
from bot.store.rows import OutboxEntry
from bot.store.tx import Tx, call, insert

from .test_store_reminders import _running

CHANNEL = 4242


async def test_a_lease_is_taken_by_one_owner_until_it_expires(store: Store) -> None:
    assert await store.take_lease(CHANNEL, "a:1", 100.0, 160.0)
    assert not await store.take_lease(CHANNEL, "b:1", 120.0, 180.0)  # a holds it
    assert await store.take_lease(CHANNEL, "a:1", 150.0, 210.0)  # a renews
    assert not await store.take_lease(CHANNEL, "b:1", 200.0, 260.0)
    assert await store.take_lease(CHANNEL + 1, "b:1", 200.0, 260.0)  # another channel
    assert await store.renew_leases("b:", 300.0) == 1
    assert await store.take_lease(CHANNEL, "b:1", 210.0, 270.0)  # a's expired: b takes over
    assert await store.lease_owner(CHANNEL) == "b:1"
    await store.release_lease(CHANNEL, "a:1")  # a no longer holds it: nothing happens
    assert await store.lease_owner(CHANNEL) == "b:1"
    await store.release_lease(CHANNEL, "b:1")
    assert await store.take_lease(CHANNEL, "a:2", 220.0, 280.0)
    await store.release_leases("a:")
    assert await store.lease_owner(CHANNEL) is None


def _post(n: int) -> OutboxEntry:
    return OutboxEntry(CHANNEL, 1, None, "note", f'{{"n": {n}}}', float(n))


@pytest.mark.parametrize("second", ["transaction", "compare-and-set"])
async def test_a_channels_posts_are_read_in_commit_order(store: Store, second: str) -> None:
    """A transaction takes a lower outbox id and is held open; another write (a
    transaction, or a compare-and-set: a move's commit, a reminder) adds a post of the same
    channel and commits: no read ever shows the later post without the earlier."""
    game = await _running(store, CHANNEL, 0.0)
    hold, held = threading.Event(), threading.Event()

    def slow() -> Tx[None]:
        yield from insert(outbox_insert([_post(1)])[0])
        yield from call(lambda: (held.set(), hold.wait(30)))  # open, its id taken

    def quick() -> Tx[None]:
        yield from insert(outbox_insert([_post(2)])[0])

    first = asyncio.create_task(store._transact(slow()))
    while not held.is_set():
        await asyncio.sleep(0.01)
    later = asyncio.create_task(store._transact(quick()) if second == "transaction" else
                                store.mark_reminded(game, 1, 2.0, [_post(2)]))
    try:
        while not later.done() and not await _waits_for_a_lock(store):
            await asyncio.sleep(0.01)
        seen = [row.entry.created_at for row in await store.pending_posts(CHANNEL)]
        assert seen in ([], [1.0], [1.0, 2.0]), f"read {seen} while post 1 was uncommitted"
    finally:
        hold.set()
        await asyncio.gather(first, later)
    rows = await store.pending_posts(CHANNEL)
    assert [row.entry.created_at for row in rows] == [1.0, 2.0]
    assert rows[0].id < rows[1].id


async def _waits_for_a_lock(store: Store) -> bool:
    """PostgreSQL: a transaction waits for an advisory lock. SQLite: its one writer is
    busy with the open transaction, so the other cannot have committed."""
    if store.dialect.name != "postgresql":
        return True
    rows = await store._fetch(lambda r: int(r[0]), "SELECT count(*) FROM pg_locks "
                              "WHERE locktype = 'advisory' AND NOT granted")
    return rows[0] > 0
