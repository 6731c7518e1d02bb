"""One deliverer per channel across processes, at the store, on both backends: a channel's
lease is taken with one compare-and-set (free, one's own, or expired), renewed and let go
by its owner only; and a channel's posts are read in commit order, so a post whose
transaction took a lower id but commits late is never read after a higher one (the
deliverer would have folded the higher into a catch-up sent without it)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from bot.service import GameService
from bot.store import LeaseLost, Store
from bot.store.outbox import outbox_insert
from bot.store.rows import OutboxEntry
from bot.store.tx import Tx, call, insert

from .test_store_reminders import _running

CHANNEL = 4242


async def _ran_out(store: Store, owner: str) -> None:
    """The database's clock moved past ``owner``'s lease (a minute on)."""
    await store.execute_sql("UPDATE leases SET until = until - 60 WHERE owner = ?", owner)


async def test_a_lease_is_taken_by_one_owner_until_it_expires(store: Store) -> None:
    """Times are the database's clock: a lease lasts its seconds from the statement."""
    assert await store.lease_left(CHANNEL) is None
    assert await store.take_lease(CHANNEL, "a:1", 30.0)
    left = await store.lease_left(CHANNEL)
    assert left is not None and 20.0 < left <= 30.0
    assert not await store.take_lease(CHANNEL, "b:1", 30.0)  # a holds it
    assert await store.take_lease(CHANNEL, "a:1", 30.0)  # a renews
    assert not await store.take_lease(CHANNEL, "b:1", 30.0)
    assert await store.take_lease(CHANNEL + 1, "b:1", 30.0)  # another channel
    assert await store.renew_leases(["b:1", "b:2"], 30.0) == ["b:1"]
    await _ran_out(store, "a:1")
    assert await store.renew_leases(["a:1"], 30.0) == []  # run out: never renewed
    assert await store.take_lease(CHANNEL, "b:1", 30.0)  # a's expired: b takes over
    assert await store.lease_owner(CHANNEL) == "b:1"
    assert await store.renew_leases(["a:1"], 30.0) == []  # b's now
    await store.release_lease(CHANNEL, "a:1")  # a no longer holds it: nothing happens
    assert await store.lease_owner(CHANNEL) == "b:1"
    await store.release_lease(CHANNEL, "b:1")
    assert await store.take_lease(CHANNEL, "a:2", 30.0)
    await store.release_leases("a:")
    assert await store.lease_owner(CHANNEL) is None


def _post(n: int) -> OutboxEntry:
    return OutboxEntry(CHANNEL, 1, None, "note", f'{{"n": {n}}}', float(n))


def _inserted(*posts: OutboxEntry) -> Tx[None]:
    yield from insert(outbox_insert(list(posts))[0])


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


async def test_posts_are_marked_sent_only_under_the_lease_that_holds_the_channel(
        store: Store) -> None:
    """The fence: marking posts sent checks, in the same transaction, that the worker's
    token still holds the channel's lease, unexpired by the database's clock; else nothing
    is written (``LeaseLost``)."""
    await store._transact(_inserted(_post(1), _post(2)))
    first, second = [row.id for row in await store.pending_posts(CHANNEL)]
    assert await store.take_lease(CHANNEL, "a:1", 30.0)
    with pytest.raises(LeaseLost):  # another worker's token
        await store.posts_sent([first], None, 1.0, channel=CHANNEL, fence="b:1")
    await store.posts_sent([first], None, 1.0, channel=CHANNEL, fence="a:1")
    await _ran_out(store, "a:1")
    with pytest.raises(LeaseLost):  # its own, run out
        await store.posts_sent([second], None, 1.0, channel=CHANNEL, fence="a:1",
                               owed=["123"])
    assert await store.take_lease(CHANNEL, "b:1", 30.0)
    with pytest.raises(LeaseLost):  # taken over
        await store.posts_sent([second], None, 1.0, channel=CHANNEL, fence="a:1")
    rows = await store.pending_posts(CHANNEL)
    assert [(row.id, row.owed) for row in rows] == [(second, ())]  # nothing written
    await store.posts_sent([second], None, 1.0, channel=CHANNEL, fence="b:1")
    assert await store.pending_posts(CHANNEL) == []


@pytest.mark.parametrize("skew", [30.0, -30.0], ids=["30 s ahead", "30 s behind"])
async def test_two_processes_whose_clocks_are_30_s_apart_never_hold_one_channel(
        store: Store, skew: float) -> None:
    """Two services on one database, their clocks ``skew`` s apart: whichever takes the
    channel first holds it; the other cannot take it until it is let go (or runs out by
    the database's clock)."""
    here = GameService(store, clock=time.time)
    there = GameService(store, clock=lambda: time.time() + skew)
    for first, second in ((here, there), (there, here)):
        assert await first.take_lease(CHANNEL, "first:1")
        assert not await second.take_lease(CHANNEL, "second:1")
        assert await first.renew_leases(["first:1"]) == ["first:1"]
        assert await second.renew_leases(["second:1"]) == []
        assert not await second.take_lease(CHANNEL, "second:1")
        await _ran_out(store, "first:1")
        assert await second.take_lease(CHANNEL, "second:1")
        await store.release_leases("second:")
