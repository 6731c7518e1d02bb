"""A coroutine cancelled in the middle of a write transaction (a click whose interaction
is dropped, a shutdown) never leaves the transaction half done: what it wrote is rolled
back, and the next write finds the writer free. On both backends."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.store import Seat, Store
from bot.store.tx import Tx, call, execute

# A guard against a hang, not a measure: the test never waits this long when it passes.
HANG = 20.0


@pytest.mark.parametrize("cancels", [1, 2])
async def test_a_transaction_cancelled_midway_writes_nothing(store: Store,
                                                             cancels: int) -> None:
    """Cancelled after its first statement wrote, while its Python runs (a second
    cancellation lands while the rollback is under way)."""
    game = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
    midway, go_on = threading.Event(), threading.Event()

    def wait_midway() -> None:
        midway.set()
        go_on.wait(HANG)

    def half_written() -> Tx[None]:
        yield from execute("UPDATE games SET state = ? WHERE id = ?", "half", game.id)
        yield from call(wait_midway)
        yield from execute("UPDATE games SET version = version + 1 WHERE id = ?", game.id)

    task = asyncio.create_task(store._transact(half_written()))
    assert await asyncio.to_thread(midway.wait, HANG)
    for _ in range(cancels):
        task.cancel()
        await asyncio.sleep(0)
    go_on.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    row = await asyncio.wait_for(store.game(game.id), HANG)
    assert row is not None and (row.version, row.state) == (0, None)
    # The writer is free and the row unlocked: the next write goes through at once.
    assert await asyncio.wait_for(store.commit(game.id, 0, fields={"state": "{}"}),
                                  HANG) == 1
    row = await store.game(game.id)
    assert row is not None and (row.version, row.state) == (1, "{}")
