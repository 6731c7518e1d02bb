"""Substitutes: a seat passes to a person (``/sanmarco seat replace player: by:``), on both
stores.

The seat keeps its pid (the engine's player id: the log replays), the person who plays it
changes. Who decides: the seat's own player or a channel manager at once, else a vote of
the others (one proposal per seat at a time; a person's seat only once the game has waited
on them for the channel's reminder interval, a computer's seat at once). The substitute
sees the seat's private view at once (a distributor's drawn cards mid-split) and nobody
else does; the one who left is refused ("you no longer play this seat"). The leaderboard
rates only seats one person played from start to end; stats and history list the game for
everyone who played it."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import engine
from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.posts import Post, PostKind, SeatTaken, SubstituteVote
from bot.store import Seat, SeatNames, open_store, player_of
from engine.ai import computer_name, computer_pid

from .test_service import HOUR, Clock

ANN, BOB, CID, DAN, EVE = "111", "222", "333", "444", "555"
GUILD, CHANNEL = 1, 10


class RandomComputers:
    """Computer players that pick a random legal move (fast, and enough here)."""

    def __init__(self) -> None:
        self.rng = random.Random(3)

    def seat(self, taken: Sequence[str], count: int, level: str = "normal") -> list[Seat]:
        used = sum(1 for p in taken if p.startswith("ai."))
        return [Seat(computer_pid(level, used + i + 1), computer_name(
            computer_pid(level, used + i + 1)), computer=True) for i in range(count)]

    def choose(self, state: engine.GameState, pid: str,
               level: str | None = None) -> engine.Action:
        return self.rng.choice(engine.legal_actions(state, pid))


async def _service(db: str, clock: Clock) -> GameService:
    return GameService(await open_store(db), clock, computers=RandomComputers(),
                       seeds=lambda: 5)


async def _game(svc: GameService, humans: Sequence[str], seats: int = 3) -> None:
    await svc.create_lobby(GUILD, CHANNEL, humans[0], seats=seats, name="Ann")
    for pid in humans[1:]:
        await svc.join(CHANNEL, pid, name=f"P{pid}")
    await svc.start(CHANNEL, humans[0], fill_with_computers=True)


async def _player(svc: GameService, pid: str) -> str:
    """Who plays seat ``pid`` now (as the bot knows it)."""
    return player_of((await svc.status(CHANNEL)).names, pid)


async def _step(svc: GameService, rng: random.Random) -> bool:
    """One random legal move by whoever plays an awaited seat; False once the game is over."""
    status = await svc.status(CHANNEL)
    if status.finished:
        return False
    pid = rng.choice(sorted(status.awaiting))
    user = player_of(status.names, pid)
    await svc.act(CHANNEL, user, rng.choice(await svc.legal_actions(CHANNEL, user)))
    return True


async def _until_split(svc: GameService, rng: random.Random, humans: Sequence[str]) -> str:
    """Play on until a human distributor splits; their seat's pid."""
    for _ in range(500):
        status = await svc.status(CHANNEL)
        split = [p for p, kind in status.awaiting.items() if kind == "split" and p in humans]
        if split:
            return split[0]
        assert await _step(svc, rng)
    raise AssertionError("no split came")


async def _refused(call: object) -> str:
    with pytest.raises(ServiceError) as e:
        await call  # type: ignore[misc]
    assert text.refusal(EN, e.value.code, e.value.params) != text.apology(EN)
    return e.value.code


async def _posts(svc: GameService) -> list[Post]:
    return [Post.from_json(r.entry.payload) for r in await svc.store.pending_posts(CHANNEL)]


async def test_a_substitute_takes_a_distributors_seat_mid_split_and_only_they_see_the_hand(
        db: str) -> None:
    svc = await _service(db, Clock())
    try:
        humans = (ANN, BOB, CID)
        await _game(svc, humans)
        rng = random.Random(2)
        seat = await _until_split(svc, rng, humans)
        drawn = (await svc.private_view(CHANNEL, seat))["private"]["drawn"]
        assert drawn
        before = await svc.store.active_game(CHANNEL)
        assert before is not None
        done = await svc.vote_replace(CHANNEL, seat, seat, by=EVE, by_name="Eve")
        assert done.replaced and done.by == EVE and done.target == seat
        # the substitute sees the seat's cards at once, and may split them
        snap = await svc.snapshot(CHANNEL, EVE, turn=True)
        assert snap.seated and snap.user == seat and snap.is_awaited
        assert snap.private is not None and snap.private["drawn"] == drawn
        assert (await svc.private_view(CHANNEL, EVE))["private"]["drawn"] == drawn
        # the one who left sees nothing of it any more and may not act
        assert await _refused(svc.snapshot(CHANNEL, seat, turn=True)) == "seat.passed"
        assert await _refused(svc.private_view(CHANNEL, seat)) == "seat.passed"
        assert await _refused(svc.legal_actions(CHANNEL, seat)) == "player.not_in_game"
        gone = await svc.snapshot(CHANNEL, seat)
        assert not gone.seated and gone.private is None and gone.legal == ()
        for other in (p for p in humans if p != seat):
            private = (await svc.snapshot(CHANNEL, other)).private or {}
            assert private.get("drawn") != drawn
        # the channel is told, pinging the substitute, with the Now line and its buttons
        post = (await _posts(svc))[-1]
        assert post.kind is PostKind.NOTE and post.view is not None
        assert post.lines == (SeatTaken(seat, EVE, seat, post.view["players"].index(seat) + 1),)
        assert post.mention == (seat,) and seat in post.awaiting
        assert isinstance(post.names, SeatNames) and post.names.playing == {seat: EVE}
        assert post.names[seat] == "Eve"
        words = text.seat_taken(EN, EVE, seat, 1)
        assert f"<@{EVE}>" in words and f"<@{seat}>" in words
        assert text.now_line(EN, post.awaiting, post.names).count(f"<@{EVE}>") == 1
        assert post.view == await svc.public_view(CHANNEL)  # public facts only (R15)
        assert "drawn" not in post.to_json() and "private" not in post.to_json()
        # the hand-over is recorded, and the prompts already posted still hold
        assert [(r.pid, r.player, r.by) for r in await svc.store.substitutes(before.id)] == [
            (seat, EVE, seat)]
        assert snap.version == (await svc.snapshot(CHANNEL, CID)).version
        legal = await svc.legal_actions(CHANNEL, EVE)
        update = await svc.act(CHANNEL, EVE, legal[0], expected_version=snap.version)
        assert update.actor == seat
        assert await _refused(svc.act(CHANNEL, seat, legal[0])) == "seat.passed"
        log = await svc.store.actions(before.id)
        assert log[-1].pid == seat or any(r.pid == seat for r in log)
        assert (await svc.audit(CHANNEL)).ok  # the log still replays
    finally:
        await svc.close()


async def test_who_may_hand_a_seat_to_a_person_and_when(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        humans = (ANN, BOB, CID)
        await _game(svc, humans)
        status = await svc.status(CHANNEL)
        target = next(p for p in status.awaiting if p in humans)
        voters = [p for p in humans if p != target]
        # a vote of the others: only once the game has waited the reminder interval
        code = await _refused(svc.vote_replace(CHANNEL, voters[0], target, by=EVE))
        assert code == "replace.too_early"
        clock.t += 12 * HOUR
        first = await svc.vote_replace(CHANNEL, voters[0], target, by=EVE, by_name="Eve")
        assert not first.replaced and (first.votes, first.needed) == (1, 2)
        vote = (await _posts(svc))[-1]
        assert vote.lines == (SubstituteVote(voters[0], target, EVE, 1, 2),)
        assert vote.awaiting  # ends with the Now line and its buttons
        assert await _refused(svc.vote_replace(CHANNEL, voters[0], target, by=EVE)) == \
            "replace.already_voted"
        # another proposal (a computer instead) starts anew: the vote for Eve lapses
        other = await svc.vote_replace(CHANNEL, voters[1], target)
        assert not other.replaced and other.votes == 1
        back = await svc.vote_replace(CHANNEL, voters[0], target, by=EVE, by_name="Eve")
        assert not back.replaced and back.votes == 1
        done = await svc.vote_replace(CHANNEL, voters[1], target, by=EVE, by_name="Eve")
        assert done.replaced and done.votes == 2
        assert await _player(svc, target) == EVE
        # the substitute votes like anyone who plays a seat; Manage Channel needs no vote
        awaiting = (await svc.status(CHANNEL)).awaiting
        idle = next(p for p in voters if p not in awaiting)
        assert (await svc.vote_replace(CHANNEL, "999", idle, by=DAN, by_name="Dan",
                                       is_admin=True)).replaced
        assert await _player(svc, idle) == DAN
        # a player hands over their own seat at once (and the one who left has no say)
        last = next(p for p in voters if p != idle)
        assert (await svc.vote_replace(CHANNEL, last, last, by="666", by_name="Fay")).replaced
        assert await _refused(svc.vote_replace(CHANNEL, last, EVE)) == "seat.passed"
        assert await _refused(svc.vote_replace(CHANNEL, DAN, target)) == \
            "replace.unknown_player"  # a seat is named by whoever plays it now
        # the seat's first player may come back the same way
        assert (await svc.vote_replace(CHANNEL, EVE, EVE, by=target, by_name="Back")).replaced
        assert await _player(svc, target) == target
        row = await svc.store.active_game(CHANNEL)
        assert row is not None and row.seat(target) is not None
        assert row.seat(target).user is None  # type: ignore[union-attr]
        subs = await svc.store.substitutes(row.id)
        assert [(r.pid, r.player) for r in subs] == [
            (target, EVE), (idle, DAN), (last, "666"), (target, target)]
    finally:
        await svc.close()


async def test_refusals_change_nothing(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.create_lobby(GUILD, CHANNEL, ANN, seats=3, name="Ann")
        await svc.join(CHANNEL, BOB)
        assert await _refused(svc.vote_replace(CHANNEL, ANN, BOB, by=EVE)) == \
            "game.not_started"
        await svc.join(CHANNEL, CID)
        await svc.start(CHANNEL, ANN)
        row = await svc.store.active_game(CHANNEL)
        assert row is not None
        cases = [
            (svc.vote_replace(CHANNEL, ANN, ANN, by=BOB), "replace.substitute_seated"),
            (svc.vote_replace(CHANNEL, ANN, BOB, by=BOB, is_admin=True),
             "replace.substitute_seated"),
            (svc.vote_replace(CHANNEL, ANN, ANN, by=EVE, by_bot=True),
             "replace.substitute_bot"),
            (svc.vote_replace(CHANNEL, ANN, ANN, by="not a user"), "input.player_id"),
            (svc.vote_replace(CHANNEL, ANN, DAN, by=EVE), "replace.unknown_player"),
            (svc.vote_replace(CHANNEL, EVE, ANN, by=DAN), "player.not_in_game"),
            (svc.vote_replace(99, ANN, ANN, by=EVE), "game.none"),
        ]
        for call, code in cases:
            assert await _refused(call) == code
        after = await svc.store.active_game(CHANNEL)
        assert after == row  # nothing written
        assert await svc.store.substitutes(row.id) == []
    finally:
        await svc.close()


async def test_a_computer_seat_goes_to_a_person_who_plays_on_to_the_end_and_the_ratings(
        db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        humans = (ANN, BOB)
        await _game(svc, humans)  # a computer fills the third seat
        status = await svc.status(CHANNEL)
        computer = next(p for p in status.players if p.startswith("ai."))
        assert computer in status.computers
        # a person takes the computer's seat: a vote opens at once (nobody waits on it),
        # and both humans vote (more than half of them)
        first = await svc.vote_replace(CHANNEL, ANN, computer, by=EVE, by_name="Eve")
        assert not first.replaced and (first.votes, first.needed) == (1, 2)
        done = await svc.vote_replace(CHANNEL, BOB, computer, by=EVE, by_name="Eve")
        assert done.replaced
        status = await svc.status(CHANNEL)
        assert computer not in status.computers and player_of(status.names, computer) == EVE
        assert text.name_of(EN, computer, status.names) == "Eve"
        assert text.who(EN, computer, status.names) == f"<@{EVE}>"
        # the game waits on Eve's seat from now on, and she plays it to the end
        rng = random.Random(4)
        eve_moved = False
        for _ in range(2000):
            status = await svc.status(CHANNEL)
            if status.finished:
                break
            eve_moved |= computer in status.awaiting
            assert await _step(svc, rng)
        assert status.finished and eve_moved
        # the leaderboard: the substituted seat counts for nobody, the others are rated
        board = await svc.leaderboard(GUILD)
        assert {r.player for r in board} == {ANN, BOB}
        assert all(r.games == 1 for r in board)
        assert (await svc.rebuild_ratings(GUILD)) == board
        # stats and history list the game for everyone who played the seat
        assert (await svc.player_stats(GUILD, EVE)).overall.games == 1
        assert (await svc.player_stats(GUILD, ANN)).overall.games == 1
        past = await svc.past_games(GUILD)
        history = text.history_text(EN, past)
        assert f"Computer 1 (normal) → <@{EVE}>" in history
        assert [g.game_id for g, _, _ in await svc.store.player_games(GUILD, EVE)] == []
    finally:
        await svc.close()


async def test_a_seat_the_computer_plays_for_an_absent_person_goes_to_a_substitute(
        db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        humans = (ANN, BOB, CID)
        await _game(svc, humans)
        assert (await svc.vote_replace(CHANNEL, BOB, BOB)).replaced  # to the computer
        assert BOB in (await svc.status(CHANNEL)).computers
        # a substitute for it, by a vote of the others (no wait: nobody waits on it)
        first = await svc.vote_replace(CHANNEL, ANN, BOB, by=EVE, by_name="Eve")
        assert not first.replaced and first.needed == 2
        assert (await svc.vote_replace(CHANNEL, CID, BOB, by=EVE, by_name="Eve")).replaced
        status = await svc.status(CHANNEL)
        assert BOB not in status.computers and player_of(status.names, BOB) == EVE
        # Bob cannot reclaim it now; Eve has nothing to reclaim
        assert await _refused(svc.reclaim(CHANNEL, BOB)) == "seat.passed"
        assert await _refused(svc.reclaim(CHANNEL, EVE)) == "replace.not_replaced"
        # handed to a computer again, it is Eve who may take it back
        assert (await svc.vote_replace(CHANNEL, EVE, EVE)).replaced
        await svc.reclaim(CHANNEL, EVE)
        assert player_of((await svc.status(CHANNEL)).names, BOB) == EVE
    finally:
        await svc.close()


async def test_a_substitute_cannot_take_back_the_move_made_before_they_sat_down(
        db: str) -> None:
    svc = await _service(db, Clock())
    try:
        humans = (ANN, BOB, CID)
        await _game(svc, humans)
        rng = random.Random(6)
        for _ in range(200):
            status = await svc.status(CHANNEL)
            pid = next(iter(status.awaiting))
            legal = await svc.legal_actions(CHANNEL, pid)
            update = await svc.act(CHANNEL, pid, rng.choice(legal))
            if update.undoable and pid in update.awaiting:
                break  # the mover goes on: their last move may be taken back
        else:
            raise AssertionError("no undoable move that keeps the turn")
        assert await svc.vote_replace(CHANNEL, pid, pid, by=EVE, by_name="Eve")
        assert await _refused(svc.undo(CHANNEL, EVE)) == "undo.nothing"
        assert await _refused(svc.undo(CHANNEL, pid)) == "seat.passed"
    finally:
        await svc.close()
