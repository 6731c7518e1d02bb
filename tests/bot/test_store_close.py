"""A store closed at shutdown: every call after ``close()`` raises at once, and the calls in
flight when it is called finish or raise, never hang (a hung call would hold the process
that SIGTERM asked to stop). On both backends.

The error is ``StorageError`` ``store.busy``: the service already maps it to "nothing
changed, try again in a moment", which is what a player whose click arrives while the bot
stops should read (it is back in a moment); store.io or store.cantopen would send the admin
to check a disk that is fine."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import open_service
from bot.service.errors import StorageFailed
from bot.store import Seat, StorageError, Store

# A guard against the hang this file is about, not a measure: the calls raise at once.
HANG = 20.0


async def test_every_call_after_close_raises_a_busy_storage_error(store: Store) -> None:
    game = await store.create_game(1, 10, Seat("111"), 3, now=1.0)
    await store.close()
    calls = {"a read": store.game(game.id), "an outbox read": store.outbox_channels(),
             "a write": store.create_game(1, 20, Seat("222"), 3, now=1.0),
             "a commit": store.commit(game.id, 0, fields={"state": "{}"})}
    for what, call in calls.items():
        with pytest.raises(StorageError) as e:
            await asyncio.wait_for(call, HANG)
        assert e.value.code == "store.busy", what
    await store.close()  # closing twice is harmless


async def test_calls_in_flight_at_close_finish_or_raise(store: Store) -> None:
    games = [await store.create_game(1, 10 + i, Seat("111"), 3, now=1.0) for i in range(8)]
    calls = [asyncio.create_task(call) for g in games for call in (
        store.game(g.id), store.commit(g.id, 0, fields={"state": "{}"}))]
    await asyncio.sleep(0)  # each call has begun
    await asyncio.wait_for(store.close(), HANG)
    done, pending = await asyncio.wait(calls, timeout=HANG)
    assert not pending, f"{len(pending)} call(s) hang after close"
    for task in done:
        error = task.exception()
        assert error is None or (isinstance(error, StorageError)
                                 and error.code == "store.busy"), repr(error)


async def test_the_service_says_busy_after_its_store_closed(db: str) -> None:
    service = await open_service(db)
    await service.close()
    with pytest.raises(StorageFailed) as e:
        await asyncio.wait_for(service.outbox_channels(), HANG)
    assert e.value.code == "store.busy"
