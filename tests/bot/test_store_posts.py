"""The outbox's new facts on both stores (migration 20): when a post's send first started
(a copy may be on Discord only then), pings and counts a catch-up leaves onto the channel's
next MESSAGE post (never a thread's rename), the posts waiting beyond those read, and a
thread's renames remembered across processes."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import Store
from bot.store.outbox import outbox_insert
from bot.store.rows import OutboxEntry
from bot.store.tx import Tx, insert

CHANNEL = 77


async def _waiting(store: Store, kinds: Sequence[str]) -> list[int]:
    """Outbox rows of these kinds in one channel (as a change writes them); their ids."""
    entries = [OutboxEntry(CHANNEL, 1, None, kind, "{}", 1.0) for kind in kinds]

    def tx() -> Tx[None]:
        for rows in outbox_insert(entries):
            yield from insert(rows)

    await store._transact(tx())  # type: ignore[attr-defined]
    return [row.id for row in await store.pending_posts(CHANNEL)]


async def test_owed_pings_and_counts_skip_a_thread_step_and_reach_the_next_message(
        store: Store) -> None:
    told, rename, board = await _waiting(store, ["move", "thread", "move"])
    await store.posts_sent([told], None, 2.0, channel=CHANNEL, owed=["111"], counted=3)
    rows = {row.id: row for row in await store.pending_posts(CHANNEL)}
    assert rows[rename].owed == () and rows[rename].counted == 0
    assert rows[board].owed == ("111",) and rows[board].counted == 3
    await store.posts_sent([rename], None, 3.0, channel=CHANNEL)  # the rename went later
    (left,) = await store.pending_posts(CHANNEL)
    assert left.id == board and left.owed == ("111",) and left.counted == 3


async def test_a_posts_first_try_is_kept_and_what_waits_is_counted(store: Store) -> None:
    first, second = await _waiting(store, ["move", "move"])
    assert [row.tried_at for row in await store.pending_posts(CHANNEL)] == [None, None]
    await store.posts_tried([first], 10.0)
    await store.posts_tried([first, second], 20.0, batch=second)
    rows = await store.pending_posts(CHANNEL)
    assert [(r.tried_at, r.batch) for r in rows] == [(10.0, second), (20.0, second)]
    assert await store.waiting_count(CHANNEL) == 2
    assert len(await store.pending_posts(CHANNEL, 1)) == 1


async def test_a_threads_renames_are_remembered_and_forgotten(store: Store) -> None:
    assert await store.thread_renames(5) == []
    await store.set_thread_renames(5, [100.0, 100.0])
    assert await store.thread_renames(5) == [100.0, 100.0]
    await store.set_thread_renames(5, [100.0, 160.5])
    assert await store.thread_renames(5) == [100.0, 160.5]
    await store.set_thread_renames(5, [])
    assert await store.thread_renames(5) == []
