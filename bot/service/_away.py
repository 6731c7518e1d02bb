"""Players away from a server's games: a holiday is not a no-show.

``set_away(guild, user, until)`` marks a player away from all their games on a server (at
most 14 days ahead); ``back`` ends it early. Every running game of theirs there is told in
its channel (an outbox post, with who acts next and its buttons, like any post of a running
game). While away, their decisions are not timed out and they are not reminded; a game waits
on an away player's decision at most its channel's ``away_cap_hours`` from the decision's
start, then the turn timer runs as usual, and a vote to replace them opens only then
(``bot.service._timers``: ``decision_due``, ``away_held``). Coming back, a player has the
whole turn timer again from then (within the cap).

The away row is one per server and player; ``back`` keeps it with ``until`` set to the
moment they came back, which is what the timer counts their decision from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack

from bot.service.errors import BadInput, Code, NotAway, StalePrompt
from bot.service.results import Away, AwayGame, GameStatus
from bot.store import AwayRow, GameRow, Settings, StaleWrite
from engine import GameState

from ._core import Core, log
from .posts import CameBack, Line, Post, WentAway, outbox_entry

MAX_AWAY = 14 * 24 * 3600.0  # the longest one may be away at once (seconds)
# A duration typed as "14d" is read a moment before the service checks it.
AWAY_GRACE = 300.0
TELL_ATTEMPTS = 3  # a game that moved on while its post was made: read and try again


class AwayCalls(Core):
    """Marking a player away from a server's games, and back."""

    async def away(self, guild: int, pids: Sequence[str]) -> dict[str, float]:
        """Which of ``pids`` are away from the server's games now, until when (epoch
        seconds)."""
        return await self._away_now(guild, pids)

    async def set_away(self, guild: int, user: str, until: float) -> Away:
        """Mark ``user`` away from their games on the server until ``until`` (epoch
        seconds, in the future, at most 14 days ahead; a new time replaces the old one).
        Each of their running games there is told in its channel."""
        if not user.isdigit():  # a person (a Discord id), not a computer player
            raise BadInput(Code.PLAYER_ID)
        if type(until) not in (int, float) or not math.isfinite(until):
            raise BadInput(Code.AWAY_WHEN)
        now = self.clock()
        if until <= now:
            raise BadInput(Code.AWAY_PAST)
        if until - now > MAX_AWAY + AWAY_GRACE:
            raise BadInput(Code.AWAY_TOO_LONG)
        until = float(min(until, now + MAX_AWAY))
        games = await self._tell(guild, user, AwayRow(guild, user, now, until),
                                 lambda s: WentAway(user, until, s.timezone, _waits(s)))
        log.info("guild %s: %s is away for %.1f hours (%d games)", guild, user,
                 (until - now) / 3600, len(games))
        return Away(guild, user, until, games)

    async def back(self, guild: int, user: str) -> Away:
        """End ``user``'s away time on the server now: their games are told, and the turn
        timer counts each of their decisions from now (NotAway if they are not away)."""
        now = self.clock()
        rows = await self.store.away_rows([guild], [user])
        if not rows or rows[0].until <= now:
            raise NotAway()
        games = await self._tell(guild, user, AwayRow(guild, user, rows[0].since, now),
                                 lambda s: CameBack(user), recheck=True)
        log.info("guild %s: %s is back (%d games)", guild, user, len(games))
        return Away(guild, user, None, games)

    async def _tell(self, guild: int, user: str, row: AwayRow,
                    line: Callable[[Settings], Line], *,
                    recheck: bool = False) -> tuple[AwayGame, ...]:
        """Write ``row`` with a post of ``line`` in each of the user's running games on the
        server, at once, each game at the version its post was made from (under the locks
        of their channels, taken in order); ``recheck``: their turn timers are placed
        anew. Returns the games told."""
        for _ in range(TELL_ATTEMPTS):
            found = await self._running_games(guild, user)
            async with AsyncExitStack() as locks:
                for channel in sorted({g.channel_id for g in found}):
                    await locks.enter_async_context(self._lock(channel))
                games = [g for g in [await self.store.game(g.id) for g in found]
                         if g is not None and g.status == GameStatus.RUNNING
                         and g.state is not None]
                posts: list[Post] = []
                for game in games:
                    assert game.state is not None
                    settings = await self.store.settings(game.channel_id)
                    posts.append(self._note(game, GameState.from_json(game.state),
                                            [line(settings)]))
                now = self.clock()
                try:
                    await self.store.set_away(row, [(g.id, g.version) for g in games],
                                              [outbox_entry(p, now) for p in posts],
                                              recheck=recheck)
                except StaleWrite:
                    continue  # a game moved on meanwhile (another process): again
                return tuple(AwayGame(g.id, g.channel_id) for g in games)
        raise StalePrompt()

    async def _running_games(self, guild: int, user: str) -> list[GameRow]:
        """The user's running games on the server whose channel is still there."""
        return [g for g, _, gone in await self.store.player_games(guild, user)
                if g.status == GameStatus.RUNNING and not gone]


def _waits(settings: Settings) -> float:
    """Hours a game of a channel waits on an away player's decision before its turn timer
    runs again (0: it has no turn timer, or does not wait)."""
    return settings.away_cap_hours if settings.turn_timer_hours > 0 else 0.0
