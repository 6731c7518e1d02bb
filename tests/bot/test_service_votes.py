"""Who may hand an absent player's seat to a computer, and when (no one is voted out on a whim).

Only humans who play their own seat vote; a vote against a player is open only once the
game has waited on that player for at least the channel's reminder interval; a channel
manager, or a player handing over their own seat, needs no vote and no wait. (Before: with
two humans and computers, one vote handed the other's seat over at once, again after every
reclaim, and a seat a computer already played still voted.)"""

from __future__ import annotations

import pytest

from bot import text
from bot.computers import EngineComputers
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.store import open_store

from .test_service import HOUR, Clock


async def _service(db: str, clock: Clock) -> GameService:
    return GameService(await open_store(db), clock,
                       computers=EngineComputers(), seeds=lambda: 5)


async def _game(svc: GameService, humans: tuple[str, ...], seats: int = 3) -> None:
    await svc.create_lobby(1, 10, humans[0], seats=seats)
    for pid in humans[1:]:
        await svc.join(10, pid)
    await svc.start(10, humans[0], fill_with_computers=True)


async def _refused(call: object) -> str:
    with pytest.raises(ServiceError) as e:
        await call  # type: ignore[misc]
    assert text.refusal(EN, e.value.code, e.value.params) != text.apology(EN)
    return e.value.code


async def _awaited_human(svc: GameService, humans: tuple[str, ...]) -> str:
    return next(p for p in (await svc.status(10)).awaiting if p in humans)


async def test_two_humans_one_vote_waits_for_the_reminder_interval_bug(
        db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        humans = ("111", "222")
        await _game(svc, humans)
        target = await _awaited_human(svc, humans)
        voter = next(p for p in humans if p != target)
        before = await svc.status(10)
        assert await _refused(svc.vote_replace(10, voter, target)) == "replace.too_early"
        assert await svc.status(10) == before  # nothing changed, no vote recorded
        clock.t += 12 * HOUR - 1
        assert await _refused(svc.vote_replace(10, voter, target)) == "replace.too_early"
        clock.t += 1  # the game has waited the channel's interval on the target
        done = await svc.vote_replace(10, voter, target)
        assert done.replaced and (done.votes, done.needed) == (1, 1)
        # Back again: the wait starts anew, so no vote hands the seat over at once.
        await svc.reclaim(10, target)
        if target in (await svc.status(10)).awaiting:
            code = await _refused(svc.vote_replace(10, voter, target))
            assert code == "replace.too_early"
    finally:
        await svc.close()


async def test_the_interval_is_the_channels(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        humans = ("111", "222", "333")
        await _game(svc, humans)
        await svc.set_settings(10, reminder_hours=1)
        target = await _awaited_human(svc, humans)
        voters = [p for p in humans if p != target]
        clock.t += HOUR
        first = await svc.vote_replace(10, voters[0], target)
        assert not first.replaced and (first.votes, first.needed) == (1, 2)
        assert (await svc.vote_replace(10, voters[1], target)).replaced
    finally:
        await svc.close()


async def test_a_seat_played_by_a_computer_does_not_vote_bug(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        humans = ("111", "222", "333")
        await _game(svc, humans)
        target = await _awaited_human(svc, humans)
        gone = next(p for p in humans if p != target)
        assert (await svc.vote_replace(10, gone, gone)).replaced  # hands over own seat
        clock.t += 13 * HOUR
        target = await _awaited_human(svc, humans)
        code = await _refused(svc.vote_replace(10, gone, target))
        assert code == "replace.not_voter"
    finally:
        await svc.close()


async def test_no_vote_against_a_player_the_game_is_not_waiting_for(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        humans = ("111", "222", "333")
        await _game(svc, humans)
        awaiting = (await svc.status(10)).awaiting
        idle = next(p for p in humans if p not in awaiting)
        voter = next(p for p in humans if p != idle)
        clock.t += 13 * HOUR
        assert await _refused(svc.vote_replace(10, voter, idle)) == "replace.not_awaited"
    finally:
        await svc.close()


async def test_a_channel_manager_and_ones_own_seat_need_no_vote_and_no_wait(
        db: str) -> None:
    svc = await _service(db, Clock())
    try:
        humans = ("111", "222", "333")
        await _game(svc, humans)
        awaiting = (await svc.status(10)).awaiting
        idle = next(p for p in humans if p not in awaiting)
        assert (await svc.vote_replace(10, "999", idle, is_admin=True)).replaced
        other = next(p for p in humans if p != idle)
        assert (await svc.vote_replace(10, other, other)).replaced
    finally:
        await svc.close()
