"""Abuse: one user opened 10,000 lobbies in 10,000 channels in 7.5 s,
lobbies nobody started stayed forever, and the per-channel locks were never freed (100,000
channels held 16.5 MiB). Now: a few open lobbies per user per server (the refusal names
them), lobbies never started are deleted after a day, idle locks are freed; finished games
stay as history."""

from __future__ import annotations

import asyncio

import pytest

from bot import text
from bot.i18n import ENGLISH as EN
from bot.locks import KeyedLocks
from bot.service import GameService
from bot.service._lobby import MAX_OPEN_LOBBIES
from bot.service.errors import Code, ServiceError

from .test_service import HOUR, Clock, make_service, start_game


async def test_open_lobbies_per_user_per_server_are_capped_and_named(db: str) -> None:
    svc = await make_service(db, Clock())
    try:
        for i in range(MAX_OPEN_LOBBIES):
            await svc.create_lobby(1, 100 + i, "111")
        before = await svc.store.query_sql("SELECT count(*) FROM games")
        with pytest.raises(ServiceError) as e:
            await svc.create_lobby(1, 200, "111")
        assert e.value.code == Code.TOO_MANY_LOBBIES
        sentence = text.refusal(EN, e.value.code, e.value.params)
        assert all(f"<#{100 + i}>" in sentence for i in range(MAX_OPEN_LOBBIES)), sentence
        assert await svc.store.query_sql("SELECT count(*) FROM games") == before
        await svc.create_lobby(2, 200, "111")  # another server
        await svc.create_lobby(1, 201, "222")  # another user
        await svc.leave(100, "111")  # closing one frees a place
        await svc.create_lobby(1, 202, "111")
    finally:
        await svc.close()


async def test_lobby_cap_holds_for_simultaneous_requests(db: str) -> None:
    svc = await make_service(db, Clock())
    try:
        results = await asyncio.gather(*(svc.create_lobby(1, 100 + i, "111")
                                         for i in range(20)), return_exceptions=True)
        assert sum(not isinstance(r, BaseException) for r in results) == MAX_OPEN_LOBBIES
        assert all(isinstance(r, ServiceError) and r.code == Code.TOO_MANY_LOBBIES
                   for r in results if isinstance(r, BaseException))
    finally:
        await svc.close()


async def test_lobbies_never_started_are_closed_after_a_day_and_deleted_a_day_later(
        db: str) -> None:
    """A lobby nobody started is closed after a day (its post loses its buttons and says
    why: the outbox edits it), and deleted a day after it closed; started games stay."""
    clock = Clock()
    svc = await make_service(db, clock)
    try:
        await svc.create_lobby(1, 10, "111")  # stays a lobby
        await svc.create_lobby(1, 20, "111")
        await svc.leave(20, "111")  # closed before it started
        await start_game(svc, 3, channel=30)  # started: kept
        await start_game(svc, 3, channel=40)
        await svc.abandon(40, "111")  # started, then abandoned: kept as history
        clock.t += 23 * HOUR
        await svc.create_lobby(1, 50, "111")  # young: kept
        assert await svc.expire_lobbies(clock.t) == 0
        clock.t += 1 * HOUR
        assert await svc.expire_lobbies(clock.t) == 2  # 10 closed, 20 deleted
        expected = {10: "abandoned", 20: None, 30: "running", 40: "abandoned", 50: "lobby"}
        for channel, status in expected.items():
            try:
                assert (await svc.status(channel)).status == status
            except ServiceError as e:
                assert status is None and e.code == Code.NO_GAME
        posts = await svc.pending_posts(10)
        closing = posts[-1].post
        assert closing.lobby is not None and closing.lobby.why == "expired"
        await svc.create_lobby(1, 10, "111")  # the channel is free again
        clock.t += 24 * HOUR
        await svc.leave(10, "111")
        await svc.expire_lobbies(clock.t)  # the expired lobby of channel 10 goes now
        rows = await svc.store.query_sql("SELECT status, ended_at FROM games "
                                         "WHERE channel_id = 10")
        assert rows == [("abandoned", clock.t)]  # the one closed just now stays a day
    finally:
        await svc.close()


async def test_idle_channel_locks_are_freed(db: str) -> None:
    svc: GameService = await make_service(db, Clock())
    try:
        for i in range(200):
            await svc.create_lobby(1, 1000 + i, str(10_000 + i))
            await svc.join(1000 + i, "222")
        assert len(svc._locks) == 0
    finally:
        await svc.close()


async def test_keyed_locks_serialise_one_key_and_forget_it_when_idle() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    inside: list[int] = []
    overlap = False

    async def hold(key: int) -> None:
        nonlocal overlap
        async with locks(key):
            overlap = overlap or key in inside
            inside.append(key)
            await asyncio.sleep(0)
            inside.remove(key)

    await asyncio.gather(*(hold(k % 3) for k in range(30)))
    assert not overlap and len(locks) == 0
    task = asyncio.create_task(hold(7))
    await asyncio.sleep(0)
    task.cancel()  # a waiter or holder that is cancelled leaves nothing behind
    await asyncio.gather(task, return_exceptions=True)
    assert len(locks) == 0
