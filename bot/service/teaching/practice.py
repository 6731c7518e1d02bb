"""The guided practice game: a learner and two normal computer players, from a seed chosen so
that the first rounds show each idea early; its move posts carry the lessons due
(``lessons.step``) and the game row remembers those shown (``GameRow.lessons``), so a restart
neither repeats nor loses one. Otherwise an ordinary stored game: the learner makes every
move through the same calls and checks (a wrong move is refused as in any game), stops by
leaving, comes back to the same channel, ends it with ``abandon``. Unrated and in no list of
the server's games (no history row; the store leaves practice games out of its lists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import engine
from bot.i18n.lookup import LANGUAGES
from bot.service.errors import BadInput, Code, ComputersUnavailable, ServiceError
from bot.service.posts import GameBegins
from bot.service.results import GameStatus, Update
from bot.store import ActiveGameExists, GameRow, PracticeExists, RowChanges, Seat, Settings
from engine import Event, GameState

from .._core import Core, log
from .lessons import Taught, decision_topics, step

# Chosen by benchmarks/practice_seed.py (it searches seeds for the one whose first rounds
# show the most lessons earliest, for a learner who follows the computer's advice and one who
# clicks at random); the learner takes the first seat given, then the computers.
PRACTICE_SEED = 312
PRACTICE_COMPUTERS = 2  # a 3-player game: one distributor a round, the simplest to learn
PRACTICE_LEVEL = "normal"


class PracticeCalls(Core):
    """The calls of a learner's practice game."""

    async def open_practice(self, guild: int, channel: int, user: str, *, language: str,
                            name: str | None = None, parent: int | None = None,
                            number: int | None = None) -> Update:
        """Create and start at once ``user``'s practice game in ``channel`` (the adapter's
        private thread of ``parent``, named after ``number``: ``reserve_number``), speaking
        ``language``; no turn timer and no reminders (the learner takes their time). The
        Update is the start's, its post carrying the first lessons. Raises
        ``practice.open`` (with ``channels``) while the learner has an unfinished one."""
        user = self._check_pid(user)
        if language not in LANGUAGES:
            raise BadInput(Code.LANGUAGE)
        if self.computers is None:
            raise ComputersUnavailable()
        seats = [Seat(user, name),
                 *self.computers.seat([user], PRACTICE_COMPUTERS, PRACTICE_LEVEL)]
        settings = Settings(channel)
        if parent is not None:  # a thread plays by its channel's settings, but these
            settings = replace(await self.store.settings(parent), threads=None)
        settings = replace(settings, channel_id=channel, language=language, reminder_hours=0,
                           turn_timer_hours=0.0)
        async with self._lock(channel):
            try:  # the store checks the learner has none open, in the same transaction
                row = await self.store.create_game(
                    guild, channel, seats[0], len(seats), self.clock(), others=seats[1:],
                    number=number, parent_id=parent, settings=settings, practice=True)
            except PracticeExists as open_game:
                raise ServiceError(Code.PRACTICE_OPEN, channels=str(open_game.channel)) from None
            except ActiveGameExists:
                raise ServiceError(Code.GAME_EXISTS) from None
            update = await self._start_practice(row)
        log.info("practice game %s started in channel %s", row.id, channel)
        return update

    async def _start_practice(self, row: GameRow) -> Update:
        """Start the practice lobby ``row`` from the chosen seed (no lobby post: it was
        never open to anyone)."""
        state, setup = engine.start_game([s.pid for s in row.players], seed=PRACTICE_SEED)
        computers = self._computer_pids(row)
        state, steps = await self._think(state, computers)
        now = self.clock()
        fields: RowChanges = {"status": GameStatus.RUNNING, "seed": PRACTICE_SEED,
                              "last_action_at": now, "awaited_since": now,
                              "last_reminded_at": None}
        return await self._save(row, fields, state, steps, set(), computers, now,
                                first_events=setup, lines=[GameBegins()])

    async def practice_of(self, guild: int, user: str) -> int | None:
        """The channel of ``user``'s unfinished practice game in ``guild``, if any (a second
        ``learn`` points the learner back to it)."""
        row = await self.store.practice_game(guild, self._check_pid(user))
        return None if row is None else row.channel_id

    async def skip_lessons(self, channel: int, user: str) -> bool:
        """No more explanations in the channel's practice game (its learner only). Returns
        False if they were off already. Raises ``practice.not_practice`` elsewhere and
        ``practice.not_learner`` for anyone but its learner."""
        user = self._check_pid(user)
        async with self._lock(channel):
            row = await self._active(channel)
            if not row.practice:
                raise ServiceError(Code.NOT_PRACTICE)
            if row.creator != user:  # a moderator sees the private thread, and its button
                raise ServiceError(Code.NOT_LEARNER)
            taught = Taught.decode(row.lessons)
            if taught.off:
                return False
            await self._commit(row, {"lessons": replace(taught, off=True).encode()})
        log.info("practice game %s: lessons skipped", row.id)
        return True

    async def is_newcomer(self, guild: int, user: str) -> bool:
        """Whether ``user`` never sat in a game on this server (a lobby, a game, a practice
        game): the adapter names ``learn`` in the first answer such a user gets."""
        return not await self.store.has_sat(guild, self._check_pid(user))

    async def take_learn_pointer(self, guild: int, user: str) -> bool:
        """True once per person and server, for a newcomer (``is_newcomer``): the adapter
        then names ``learn`` in the answer it is giving them, and they are marked told (the
        way ``take_hint`` tells a refused DM once). A read, and a write only for a
        newcomer."""
        user = self._check_pid(user)
        if not await self.is_newcomer(guild, user):
            return False
        return await self.store.tell_learn(guild, user, self.clock())

    def _lessons(self, row: GameRow, state: GameState, events: Sequence[Event],
                 fields: RowChanges) -> tuple[str, ...]:
        """A practice game's due lessons for its learner (the game's opener), marked shown
        in ``fields`` so they are written with the change. Read from the learner's private
        view (the decision's kind and the cards it shows), never from the list of every
        legal action: this runs under the channel's lock."""
        if not row.practice:
            return ()
        taught = Taught.decode(fields.get("lessons", row.lessons))
        if taught.off:
            return ()
        awaited = not state.finished and row.creator in state.waiting_for
        decision = decision_topics(state.private_view(row.creator) if awaited else None)
        topics, after = step(events, decision, taught)
        if after != taught:
            fields["lessons"] = after.encode()
        return tuple(str(t) for t in topics)


__all__ = ["PRACTICE_COMPUTERS", "PRACTICE_LEVEL", "PRACTICE_SEED", "PracticeCalls"]
