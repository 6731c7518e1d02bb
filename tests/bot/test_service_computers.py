"""Computer players through the service: lobby seats, whole games, and replacing an absent
player by a vote (real SQLite files, the real engine.ai)."""

from __future__ import annotations

import random

import pytest

from bot.computers import EngineComputers
from bot.service import GameService, ServiceError
from bot.store import open_store
from engine.ai import Budget

pytestmark = pytest.mark.asyncio


CLOCK = [1_700_000_000.0]  # the service's notion of now (tests move it)
HOUR = 3600.0


async def make(db: str, computers: bool = True, seed: int = 5) -> GameService:
    store = await open_store(db)
    return GameService(store, lambda: CLOCK[0],
                       computers=EngineComputers() if computers else None,
                       seeds=lambda: seed)


async def test_lobby_takes_computer_players_and_a_game_plays_to_the_end(db: str):
    svc = await make(db)
    try:
        await svc.create_lobby(1, 10, "111", seats=4)
        lobby = await svc.add_computer(10, "111", level="easy")
        lobby = await svc.add_computer(10, "111", level="normal")
        assert lobby.players == ("111", "ai.easy.1", "ai.normal.2")
        assert lobby.names["ai.normal.2"] == "Computer 2 (normal)"
        lobby = await svc.remove_computer(10, "111", "ai.easy.1")
        assert lobby.players == ("111", "ai.normal.2")
        u = await svc.start(10, "111", fill_with_computers=True)
        assert len(u.view["players"]) == 4
        rng = random.Random(1)
        while not u.finished:
            assert u.view["waiting_for"] == ["111"]  # computers never keep the human waiting
            assert all(not p.startswith("ai.") for p in u.mention)
            u = await svc.act(10, "111", rng.choice(await svc.legal_actions(10, "111")))
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_a_hard_computer_takes_a_seat_and_plays(tmp_path):
    """The hard level is seated like the others and moves in the service's
    worker thread (a tiny budget here; the bot's default thinks about a second)."""
    store = await open_store(str(tmp_path / "g.db"))
    tiny = Budget(playouts=2, max_seconds=None, candidates=2)
    svc = GameService(store, computers=EngineComputers(hard_budget=tiny), seeds=lambda: 3)
    try:
        await svc.create_lobby(1, 10, "111", seats=3)
        lobby = await svc.add_computer(10, "111", level="hard")
        assert lobby.players == ("111", "ai.hard.1")
        assert lobby.names["ai.hard.1"] == "Computer 1 (hard)"
        u = await svc.start(10, "111", fill_with_computers=True)
        rng = random.Random(2)
        for _ in range(30):
            if u.finished:
                break
            assert u.view["waiting_for"] == ["111"]
            u = await svc.act(10, "111", rng.choice(await svc.legal_actions(10, "111")))
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_lobby_refuses_computers_when_the_bot_has_none(db: str):
    svc = await make(db, computers=False)
    try:
        await svc.create_lobby(1, 10, "111", seats=3)
        with pytest.raises(ServiceError) as e:
            await svc.add_computer(10, "111")
        assert e.value.code == "computer.unavailable"
        with pytest.raises(ServiceError) as e:
            await svc.add_computer(11, "111")
        assert e.value.code in ("computer.unavailable", "game.none")
    finally:
        await svc.close()


async def test_bad_lobby_requests_change_nothing(db: str):
    svc = await make(db)
    try:
        await svc.create_lobby(1, 10, "111", seats=3)
        for call, code in ((svc.add_computer(10, "999"), "player.not_in_game"),
                           (svc.add_computer(10, "111", level="godlike"), "computer.level"),
                           (svc.remove_computer(10, "111", "ai.normal.7"), "computer.unknown")):
            with pytest.raises(ServiceError) as e:
                await call
            assert e.value.code == code
        assert (await svc.status(10)).players == ("111",)
    finally:
        await svc.close()


async def _three_humans(svc: GameService) -> None:
    await svc.create_lobby(1, 10, "111", seats=3)
    await svc.join(10, "222")
    await svc.join(10, "333")
    await svc.start(10, "111")


async def test_an_absent_player_is_replaced_by_a_majority_vote_and_can_come_back(db: str):
    svc = await make(db)
    try:
        await _three_humans(svc)
        absent = (await svc.status(10)).awaiting
        target = next(iter(absent))  # the player the game waits for
        voters = [p for p in ("111", "222", "333") if p != target]
        CLOCK[0] += 12 * HOUR  # votes open once the game has waited the channel's interval
        first = await svc.vote_replace(10, voters[0], target)
        assert (first.replaced, first.votes, first.needed) == (False, 1, 2)
        with pytest.raises(ServiceError) as e:
            await svc.vote_replace(10, voters[0], target)
        assert e.value.code == "replace.already_voted"
        done = await svc.vote_replace(10, voters[1], target)
        assert done.replaced and done.update is not None
        assert done.update.applied >= 1  # the computer moved at once for the absent player
        assert target not in done.update.mention
        with pytest.raises(ServiceError) as e:
            await svc.vote_replace(10, voters[0], target)
        assert e.value.code == "replace.already"
        await svc.reclaim(10, target)
        with pytest.raises(ServiceError) as e:
            await svc.reclaim(10, target)
        assert e.value.code == "replace.not_replaced"
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_a_channel_manager_or_the_player_hands_a_seat_over_at_once(db: str):
    svc = await make(db)
    try:
        await _three_humans(svc)
        r = await svc.vote_replace(10, "999", "222", is_admin=True)
        assert r.replaced
        r = await svc.vote_replace(10, "333", "333")
        assert r.replaced
        with pytest.raises(ServiceError) as e:
            await svc.vote_replace(10, "999", "111")  # not a player, not a manager
        assert e.value.code == "player.not_in_game"
    finally:
        await svc.close()


async def test_votes_to_replace_a_player_lapse_when_that_player_acts(db: str):
    svc = await make(db)
    try:
        await _three_humans(svc)
        target = next(iter((await svc.status(10)).awaiting))
        voters = [p for p in ("111", "222", "333") if p != target]
        CLOCK[0] += 12 * HOUR
        assert not (await svc.vote_replace(10, voters[0], target)).replaced
        assert (await svc.store.active_game(10)).seat(target).votes == (voters[0],)
        await svc.act(10, target, (await svc.legal_actions(10, target))[0])
        assert (await svc.store.active_game(10)).seat(target).votes == ()  # lapsed
    finally:
        await svc.close()
