"""Seats during a game: handing an absent player's seat to a computer, taking it back,
and ending the game."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot._results import (
    Ended,
    GameStatus,
    Reclaimed,
    Replacement,
)
from bot.errors import (
    AlreadyComputer,
    AlreadyVoted,
    Code,
    ComputersUnavailable,
    GameNotStarted,
    NotInGame,
    NotReplaced,
    PermissionDenied,
)
from bot.store import (
    RowChanges,
)

from ._core import Core, Loaded, log


class SeatCalls(Core):
    """The calls about who plays a seat, and abandoning the game."""

    async def vote_replace(self, channel: int, voter: str, target: str, *,
                           is_admin: bool = False) -> Replacement:
        """Vote to hand ``target``'s seat to a computer player. It is handed over when more
        than half of the other human players have voted, at once when a channel manager
        asks or when players hand over their own seat. The pid stays, so the log replays and
        the player can ``reclaim`` the seat later."""
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
            if row.seat(voter) is None and not is_admin:
                raise NotInGame()
            others = [s for s in row.players if not s.computer and s.pid != target]
            needed = len(others) // 2 + 1
            if voter in seat.votes:
                raise AlreadyVoted()
            votes = (*seat.votes, voter)
            names = self._names(row)
            now = self.clock()
            if not (is_admin or voter == target or len(votes) >= needed):
                players = tuple(replace(s, votes=votes) if s.pid == target else s
                                for s in row.players)
                await self._commit(row, {"players": players})
                awaiting = self._started(Loaded.of(row)).public_view()["awaiting"]
                return Replacement(target, False, len(votes), needed, names,
                                   awaiting=dict(awaiting))
            players = tuple(replace(s, computer=True, votes=()) if s.pid == target else s
                            for s in row.players)
            state = self._started(Loaded.of(row))
            computers = frozenset(s.pid for s in players if s.computer)
            new_state, steps = await asyncio.to_thread(self._play_computers, state, computers)
            fields: RowChanges = {"players": players, "last_action_at": now}
            if steps:
                fields.update({"awaited_since": now, "last_reminded_at": None})
            update = await self._save(row, fields, new_state, steps, set(state.waiting_for),
                                      computers, now, old_view=state.public_view(),
                                      players=players)
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
            players = tuple(replace(s, computer=False) if s.pid == user else s
                            for s in row.players)
            await self._commit(row, {"players": players, "last_action_at": self.clock()})
            awaiting = self._started(Loaded.of(row)).public_view()["awaiting"]
            return Reclaimed(user, self._names(row), dict(awaiting))

    # ------------------------------------------------------------------ ending
    async def abandon(self, channel: int, user: str, *, is_admin: bool = False) -> Ended:
        """End the channel's lobby or game: its creator or a channel manager may."""
        async with self._lock(channel):
            row = await self._active(channel)
            if user != row.creator and not is_admin:
                raise PermissionDenied()
            now = self.clock()
            await self._commit(row, {"status": GameStatus.ABANDONED, "ended_at": now,
                                     "awaited_since": None, "last_action_at": now})
        log.info("game %s in channel %s abandoned", row.id, channel)
        return Ended(row.id, channel, GameStatus.ABANDONED, user)

