"""Hints under load, in the service (issue 36): a hint's search is made once per game,
version and seat (asked again at the same decision, no new job); a player waits a short
cooldown between hints, said with the seconds left, and a refused ask does not start it;
a search the worker lanes cannot start in time is refused ``work.busy`` with when to
ask again — on both stores."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.service import GameService, ServiceError
from bot.service.errors import Code
from bot.work import Kind, Workers
from engine.ai import Budget

from .test_service import PIDS, Clock, make_service, start_game
from .test_work import GATE, SLOW, blocked

pytestmark = pytest.mark.asyncio

TINY = Budget(playouts=4, max_seconds=None, candidates=3)
CHANNEL = 10


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:
    service = await make_service(db, Clock())
    service.hint_budget = TINY
    yield service
    await service.close()


async def _awaited(svc: GameService) -> tuple[str, str]:
    """A game started; its awaited player, and one who is not."""
    waiting = list((await start_game(svc)).view["waiting_for"])
    return waiting[0], next(p for p in PIDS[:3] if p not in waiting)


async def test_a_hint_asked_again_at_the_same_decision_is_not_searched_again(
        svc: GameService) -> None:
    svc.hint_cooldown = 0
    pid, _ = await _awaited(svc)
    first = await svc.hint(CHANNEL, pid)
    again = await svc.hint(CHANNEL, pid)
    assert again.advice == first.advice and not again.first
    assert svc.work.done["hint"] == 1  # one search, kept by game, version and seat


async def test_a_player_waits_the_cooldown_between_hints(svc: GameService) -> None:
    clock = svc.clock
    assert isinstance(clock, Clock)
    pid, idle = await _awaited(svc)
    with pytest.raises(ServiceError) as refused:
        await svc.hint(CHANNEL, idle)  # not their turn: refused, and no cooldown begins
    assert refused.value.code == Code.NOT_YOUR_TURN
    await svc.hint(CHANNEL, pid)
    clock.t += 2
    with pytest.raises(ServiceError) as cooling:
        await svc.hint(CHANNEL, pid)
    assert cooling.value.code == Code.HINT_COOLDOWN
    assert cooling.value.params == {"seconds": round(svc.hint_cooldown - 2)}
    clock.t += svc.hint_cooldown
    assert (await svc.hint(CHANNEL, pid)).pid == pid


async def test_a_hint_the_lanes_cannot_start_in_time_is_refused_busy(
        svc: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.teaching.hints.HINT_JOB",
                        Kind("hint", queue=4, budget=0.05, priority=0))
    pid, _ = await _awaited(svc)
    GATE.clear()
    held = [asyncio.create_task(svc.work.run(SLOW, blocked, f"b{i}")) for i in range(2)]
    try:
        for _ in range(100):
            await asyncio.sleep(0)
        with pytest.raises(ServiceError) as busy:
            await svc.hint(CHANNEL, pid)
        assert busy.value.code == Code.BUSY and int(busy.value.params["retry_after"]) >= 1
        row = await svc.store.latest_game(CHANNEL)
        assert row is not None and not await svc.store.hinted(row.id)
    finally:
        GATE.set()
        await asyncio.gather(*held)
    assert (await svc.hint(CHANNEL, pid)).first  # room again; busy began no cooldown


async def test_a_hint_and_a_review_are_made_in_a_worker_process(svc: GameService) -> None:
    """SANMARCO_WORK_PROCESSES=1: the game state goes to the process, the advice and the
    review come back (plain picklable values)."""
    svc.work = Workers(side_processes=1)
    svc.review_budget, svc.review_worlds, svc.hint_cooldown = TINY, 2, 0
    try:
        pid, _ = await _awaited(svc)
        hint = await svc.hint(CHANNEL, pid)
        assert hint.advice.best.action in await svc.legal_actions(CHANNEL, pid)
        rng = random.Random(2)
        while not (status := await svc.status(CHANNEL)).finished:
            who = next(iter(status.awaiting))
            await svc.act(CHANNEL, who, rng.choice(await svc.legal_actions(CHANNEL, who)))
        review = await svc.review(CHANNEL, pid)
        assert review.pid == pid and len(review.review.mistakes) <= 3
        assert svc.work.done["hint"] == 1 and svc.work.done["review"] == 1
    finally:
        svc.work.close()
