"""Seats during a game: handing an absent player's seat to a computer, taking it back,
and ending the game."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.service.errors import (
    AlreadyComputer,
    AlreadyVoted,
    AwayTooEarly,
    Code,
    ComputersUnavailable,
    GameNotStarted,
    NoGame,
    NotAVoter,
    NotAwaited,
    NotInGame,
    NotReplaced,
    PermissionDenied,
    ServiceError,
    TooEarlyToReplace,
)
from bot.service.results import (
    Ended,
    GameStatus,
    MyGame,
    Reclaimed,
    Replacement,
)
from bot.store import (
    DEFAULT_REMINDER_HOURS,
    RowChanges,
)

from ._core import Core, Loaded, log
from ._notify import my_game_of
from ._timers import away_held
from .posts import AbandonedBy, ReplaceVote, SeatReclaimed, SeatReplaced


class SeatCalls(Core):
    """The calls about who plays a seat, and abandoning the game."""

    async def vote_replace(self, channel: int, voter: str, target: str, *,
                           is_admin: bool = False) -> Replacement:
        """Vote to hand ``target``'s seat to a computer player. Only humans who play their
        own seat vote, and only once the game has waited on ``target`` for at least the
        channel's reminder interval (a target away during the decision: from their return,
        up to the channel's away cap from its start); the seat is handed over when more
        than half of the other humans who play their own seat have voted. A channel
        manager, or a player handing over their own seat, needs no vote and no wait. The
        pid stays, so the log replays and the player can ``reclaim`` the seat later."""
        if self.computers is None:
            raise ComputersUnavailable()
        async with self._lock(channel):
            row = await self._active(channel)
            if row.status != GameStatus.RUNNING:
                raise GameNotStarted()
            seat = row.seat(target)
            if seat is None:
                raise NotInGame(Code.UNKNOWN_PLAYER)
            if seat.computer:
                raise AlreadyComputer()
            own = voter == target
            voter_seat = row.seat(voter)
            if not is_admin:
                if voter_seat is None:
                    raise NotInGame()
                if voter_seat.computer:
                    raise NotAVoter()
            state = self._started(Loaded.of(row))
            now = self.clock()
            settings = await self.store.settings(channel)
            if not (is_admin or own):
                if target not in state.waiting_for:
                    raise NotAwaited()
                # the reminder interval, or the default one when reminders are off
                hours = settings.reminder_hours or DEFAULT_REMINDER_HOURS
                since = row.awaited_since or now
                opens = since + hours * 3600
                # a player away during the decision: the interval from their return, the
                # game waiting on them up to the channel's cap
                until = next((r.until for r in await self.store.away_rows(
                    [row.guild_id], [target])), None)
                held = away_held(since, until, settings, hours)
                if held is not None and until is not None and until > now \
                        and now < max(opens, held):
                    raise AwayTooEarly(opens=int(max(opens, held)) + 1)
                opens = max(opens, held or opens)
                if now < opens:
                    raise TooEarlyToReplace(opens=int(opens) + 1)
            # Who votes now: the humans who play their own seat, the target aside.
            electors = {s.pid for s in row.players if not s.computer and s.pid != target}
            needed = len(electors) // 2 + 1
            if voter in seat.votes:
                raise AlreadyVoted()
            votes = (*(v for v in seat.votes if v in electors), voter)
            names = self._names(row)
            if not (is_admin or own or len(votes) >= needed):
                players = tuple(replace(s, votes=votes) if s.pid == target else s
                                for s in row.players)
                await self._commit(row, {"players": players}, posts=[self._note(
                    row, state, [ReplaceVote(voter, target, len(votes), needed)])])
                awaiting = state.public_view()["awaiting"]
                return Replacement(target, False, len(votes), needed, names,
                                   awaiting=dict(awaiting))
            # the channel's level for absent players (normal unless changed)
            players = tuple(replace(s, computer=True, votes=(), timeouts=0,
                                    level=settings.computer_level) if s.pid == target else s
                            for s in row.players)
            computers = frozenset(s.pid for s in players if s.computer)
            new_state, steps = await asyncio.to_thread(self._play_computers, state, computers,
                                                       self._levels(players))
            fields: RowChanges = {"players": players, "last_action_at": now}
            if steps:
                fields.update({"awaited_since": now, "last_reminded_at": None})
            update = await self._save(row, fields, new_state, steps, set(state.waiting_for),
                                      computers, now, old_view=state.public_view(),
                                      players=players,
                                      lines=[SeatReplaced(target, new_state.finished)])
            log.info("game %s: seat %s handed to a computer player", row.id, target)
            return Replacement(target, True, len(votes), needed, names, update)

    async def reclaim(self, channel: int, user: str) -> Reclaimed:
        """A player whose seat a computer took over plays it again."""
        async with self._lock(channel):
            row = await self._active(channel)
            seat = row.seat(user)
            if seat is None:
                raise NotInGame()
            if not seat.computer:
                raise NotReplaced()
            players = tuple(replace(s, computer=False, votes=(), timeouts=0, level=None)
                            if s.pid == user else s for s in row.players)
            now = self.clock()
            fields: RowChanges = {"players": players, "last_action_at": now}
            state = self._started(Loaded.of(row))
            if user in state.waiting_for:  # back at a decision: its wait starts now
                fields.update({"awaited_since": now, "last_reminded_at": None})
            await self._commit(row, fields, posts=[self._note(row, state, [SeatReclaimed(user)])])
            return Reclaimed(user, self._names(row), dict(state.public_view()["awaiting"]))

    # ------------------------------------------------------------------ ending
    async def abandon(self, channel: int, user: str, *, is_admin: bool = False) -> Ended:
        """End the channel's lobby or game: its creator or a channel manager may."""
        async with self._lock(channel):
            row = await self._active(channel)
            if user != row.creator and not is_admin:
                raise PermissionDenied()
            now = self.clock()
            lobby = (self._lobby(replace(row, status=GameStatus.ABANDONED.value,
                                         version=row.version + 1), "abandoned")
                     if row.status == GameStatus.LOBBY else None)
            await self._commit(row, {"status": GameStatus.ABANDONED, "ended_at": now,
                                     "awaited_since": None, "last_action_at": now},
                               posts=[self._note(replace(row, status=GameStatus.ABANDONED),
                                                 None, [AbandonedBy(user)], lobby=lobby),
                                      *self._thread_post(row, row.players, row.version + 1,
                                                         archive=True)])
        log.info("game %s in channel %s abandoned", row.id, channel)
        return Ended(row.id, channel, GameStatus.ABANDONED, user)

    async def end_suspended(self, guild: int, user: str, game_id: int, *,
                            is_admin: bool = False) -> Ended:
        """End a game whose channel is gone (it waits, suspended: nothing can be posted
        there), from any channel of its server: its opener or a server manager may. Nothing
        is posted and nothing is rated (an abandoned game has no result)."""
        row = await self.store.game(game_id)
        if row is None or row.guild_id != guild or row.status not in (GameStatus.LOBBY,
                                                                        GameStatus.RUNNING):
            raise NoGame()
        place = await self.store.place(row.channel_id)
        if place is None or place.gone_at is None:
            raise ServiceError(Code.NOT_SUSPENDED)
        if user != row.creator and not is_admin:
            raise PermissionDenied()
        async with self._lock(row.channel_id):
            now = self.clock()
            await self._commit(row, {"status": GameStatus.ABANDONED, "ended_at": now,
                                     "awaited_since": None, "last_action_at": now})
        log.info("game %s of a gone channel %s ended", row.id, row.channel_id)
        return Ended(row.id, row.channel_id, GameStatus.ABANDONED, user)

    async def suspended_games(self, guild: int) -> list[MyGame]:
        """The server's games whose channel is gone, newest first (to end them)."""
        rows = await self.store.suspended_games(guild)
        return [my_game_of(r, None, True) for r in rows]

