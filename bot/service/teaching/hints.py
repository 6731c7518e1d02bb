"""Hints and reviews (issue 32): the hard computer's choice for the caller's decision, with
the runner-up and their reasons (``engine.ai.advice``), and after the end, the caller's own
three costliest decisions.

A hint reads only the caller's private view and legal actions (R15), and its search's seed is
the game's number, never the game's secret seed. The first hint marks the game as hinted
(``Store.mark_hinted``): it is not rated, and its final post and history say so. A channel
whose managers turned hints off (``Settings.hints``) refuses them (``hint.off``).

Both run the engine in the bot's side worker lane (``bot.work``: a worker process when
configured), never on the event loop; a full lane refuses them busy (``work.busy``). A
review replays the game and searches each of the player's decisions (``advice.REVIEW``, a
smaller budget than a hint's): seconds of work, so it is computed once per (game, player)
per process and kept (``REVIEW_CACHE`` most recent). A player who just had a hint (or a
review computed) waits ``COOLDOWN`` seconds before the next (``hint.cooldown``).
"""

from __future__ import annotations

import asyncio
import math
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bot.service.errors import Code, GameAbandoned, ServiceError
from bot.service.results import GameStatus
from bot.store import GameRow, SeatNames
from bot.work import HINT as HINT_JOB
from bot.work import REVIEW as REVIEW_JOB
from engine import GameState, legal_actions
from engine.ai import Budget
from engine.ai.advice import HINT, REVIEW, REVIEW_WORLDS, Advice, Review, advise, review

from .._core import Core

REVIEW_CACHE = 64  # reviews kept per process (a few kilobytes each)
HINT_CACHE = 256  # hints kept per process (by game, version and seat; a kilobyte each)
COOLDOWN = 5.0  # seconds between a player's hints (or computed reviews)
COOLDOWN_KEPT = 4096  # players remembered at most (the expired ones go first)


@dataclass(frozen=True)
class Hint:
    """The hint for ``pid``'s decision in game ``game_id`` at prompt version ``turn``:
    ``advice`` (the hard computer's choice and the runner-up, each with its reason);
    ``names`` to word the rivals a reason names; ``first``: this hint marked the game as
    hinted (it will not be rated); ``drawn``: the caller's own drawn cards when they split
    (``bot.text.hint_text`` names a split's offers with them; the caller's eyes only)."""

    game_id: int
    channel_id: int
    pid: str
    turn: int
    advice: Advice
    names: SeatNames
    first: bool
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameReview:
    """The review of a finished game for the seat ``pid`` the caller played: ``review``
    holds their costliest decisions (at most three, worst first) with the log's step of
    each; ``names`` word the rivals."""

    game_id: int
    channel_id: int
    pid: str
    review: Review
    names: SeatNames


class HintCalls(Core):
    """``hint`` and ``review``."""

    hint_budget: Budget = HINT
    review_budget: Budget = REVIEW
    review_worlds: int = REVIEW_WORLDS
    hint_cooldown: float = COOLDOWN

    async def hint(self, channel: int, user: str, *, game_id: int | None = None) -> Hint:
        """The hard computer's advice for ``user``'s decision now in the channel's game
        (``game_id``: the game a prompt belongs to). Refused: hints off in the channel or
        in the channel whose thread the game is in (``hint.off``), then as a click is (no
        game, over, not seated, not your turn)."""
        user = self._check_pid(user)
        if not (await self.store.settings(channel)).hints:
            raise ServiceError(Code.HINTS_OFF)
        loaded = await self._load(channel)
        parent = loaded.row.parent_id  # a game in a thread the bot made for it: its
        # channel's managers turn hints off for the running games of its threads too
        if parent is not None and not (await self.store.settings(parent)).hints:
            raise ServiceError(Code.HINTS_OFF)
        state, pid = self._check_turn(loaded, user, game_id=game_id, expected_version=None)
        row = loaded.row
        # in the side worker: the view, the legal actions (a 3-player split lists ~56k)
        # and the search, all off the event loop
        with self._cooldown("hint", user):
            advice = await self._advice(state, pid, row)
        first = await self.store.mark_hinted(row.id)
        private = state.private_view(pid).get("private") or {}
        return Hint(row.id, row.channel_id, pid, self._turn(state, row), advice,
                    self._names(row), first, tuple(private.get("drawn") or ()))

    async def _advice(self, state: GameState, pid: str, row: GameRow) -> Advice:
        """The search for ``pid``'s decision at the game's version, made once (kept by
        game, version and seat: the same view and budget give the same advice)."""
        cache: OrderedDict[tuple[int, int, str, Budget], Advice] = \
            self.__dict__.setdefault("_hints", OrderedDict())
        key = (row.id, row.version, pid, self.hint_budget)
        advice = cache.get(key)
        if advice is not None:
            cache.move_to_end(key)
            return advice
        advice = cache[key] = await self.work.run(HINT_JOB, hint_job, state, pid, row.id,
                                                  self.hint_budget)
        while len(cache) > HINT_CACHE:
            cache.popitem(last=False)
        return advice

    async def review(self, channel: int, user: str, *, game_id: int | None = None
                     ) -> GameReview:
        """``user``'s own review of the channel's latest game, or of game ``game_id`` of
        this channel: refused until it is finished (``history.not_over``; abandoned:
        ``game.abandoned``) and for anyone who did not play a seat of it."""
        user = self._check_pid(user)
        row = await self._reviewed_row(channel, game_id)
        if row.practice and row.creator != user:  # a learner's own: as if there were none
            raise ServiceError(Code.NO_PAST_GAME)
        pid = self._seat_of(row, user).pid
        key = (row.id, pid)
        cache = self._review_cache()
        found = cache.get(key)
        if found is None:
            with self._cooldown("review", user):
                pass  # a review computed counts; one already kept is free
            found = cache[key] = asyncio.ensure_future(self._compute_review(row, pid))
            while len(cache) > REVIEW_CACHE:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        try:
            done = await asyncio.shield(found)
        except BaseException:
            if found.done() and cache.get(key) is found:
                del cache[key]  # a failed review is computed again next time
                self.__dict__.get("_cooldowns", {}).pop(("review", user), None)
            raise
        return GameReview(row.id, row.channel_id, pid, done, self._names(row))

    async def _reviewed_row(self, channel: int, game_id: int | None) -> GameRow:
        if game_id is None:
            row = (await self._load(channel)).row
        else:
            found = await self.store.game(game_id) if type(game_id) is int else None
            if found is None or found.channel_id != channel:
                raise ServiceError(Code.NO_PAST_GAME)
            row = found
        if row.status == GameStatus.ABANDONED:
            raise GameAbandoned()
        if row.status != GameStatus.FINISHED or row.seed is None:
            raise ServiceError(Code.NOT_OVER)
        return row

    async def _compute_review(self, row: GameRow, pid: str) -> Review:
        """In the side worker: a review is seconds of a core's work."""
        rows = await self.store.actions(row.id)
        actions = tuple((r.pid, r.action) for r in rows)
        made_for = frozenset(r.seq for r in rows if r.computer)  # not the person's decisions
        players = tuple(s.pid for s in row.players)
        seed = row.seed
        assert seed is not None
        return await self.work.run(REVIEW_JOB, review_job, players, seed, actions, pid,
                                   self.review_budget, self.review_worlds, row.id, made_for)

    @contextmanager
    def _cooldown(self, what: str, user: str) -> Iterator[None]:
        """Refuse ``user``'s ``what`` asked again within ``hint_cooldown`` seconds of the
        last one (``hint.cooldown``); one refused (busy, not your turn) does not count."""
        marks: dict[tuple[str, str], float] = self.__dict__.setdefault("_cooldowns", {})
        now, key = self.clock(), (what, user)
        left = marks.get(key, now) - now
        if left > 0:
            raise ServiceError(Code.HINT_COOLDOWN, seconds=max(1, math.ceil(left)))
        until = marks[key] = now + self.hint_cooldown
        if len(marks) > COOLDOWN_KEPT:
            for old in [k for k, t in marks.items() if t <= now]:
                del marks[old]
        try:
            yield
        except BaseException:
            if marks.get(key) == until:
                del marks[key]
            raise

    def _review_cache(self) -> OrderedDict[tuple[int, str], asyncio.Future[Review]]:
        cache: OrderedDict[tuple[int, str], asyncio.Future[Review]] | None = \
            self.__dict__.get("_reviews")
        if cache is None:
            cache = self.__dict__["_reviews"] = OrderedDict()
        return cache


def hint_job(state: GameState, pid: str, seed: int, budget: Budget) -> Advice:
    """The hint's search (a worker process: plain values in and out)."""
    return advise(state.private_view(pid), legal_actions(state, pid), pid, seed=seed,
                  budget=budget)


def review_job(players: tuple[str, ...], seed: int, actions: tuple[tuple[str, str], ...],
               pid: str, budget: Budget, worlds: int, advice_seed: int,
               skip: frozenset[int]) -> Review:
    """The review's replay and searches (a worker process: plain values in and out)."""
    return review(players, seed, actions, pid, budget=budget, worlds=worlds,
                  advice_seed=advice_seed, skip=skip)
