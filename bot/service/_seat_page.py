"""A seat played from its web page: the seat's snapshot and its actions, the game found by
its page's token (a signed link or its session named the player). The same ``snapshot``
and ``act`` a Discord click calls, so a move made on the page is checked, committed and
posted (with its pings, through the outbox) exactly like a button's."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.service.results import MyGame, Snapshot, Undone, Update
from engine import Action

from ._notify import my_game_of
from ._pages import PageCalls
from ._play import PlayCalls
from ._undo import UndoCalls

MAX_SIGNED_IN_GAMES = 50  # a signed-in player's My games lists at most this many


@dataclass(frozen=True)
class PlayerGame:
    """One running game of a signed-in player (``page_my_games``): the game as
    ``/sanmarco-server games`` lists it, its guild, whether it awaits the player now, and
    its page's token (None: its channel's managers turned pages off)."""

    game: MyGame
    guild_id: int
    awaits_me: bool
    token: str | None


class SeatPageCalls(PageCalls, PlayCalls, UndoCalls):
    """What a seat's page reads and does."""

    async def page_seat(self, token: str, user: str) -> Snapshot:
        """The game behind ``token`` as ``user`` (a Discord id) sees it: its public view,
        and the seat's own secrets and legal actions. Raises NoGame, NotInGame, and
        StalePrompt when the channel has moved on to a newer game."""
        row = await self._by_token(token)
        snap = await self.snapshot(row.channel_id, self._check_pid(user), game_id=row.id)
        if not snap.seated:
            self._seat_of(row, user)  # raises NotInGame
        return snap

    async def page_act(self, token: str, user: str, action: Action,
                       expected_version: int) -> Update:
        """``user``'s ``action`` in the game behind ``token``, at the version their page
        shows (an older one is refused: a move sent twice counts once)."""
        row = await self._by_token(token)
        return await self.act(row.channel_id, self._check_pid(user), action,
                              expected_version=expected_version, game_id=row.id)

    async def page_undo(self, token: str, user: str, expected_version: int) -> Undone:
        """``user`` takes their last move back from their page, as the Undo button does
        (refused when anyone moved since, or when it drew or revealed something: R5)."""
        row = await self._by_token(token)
        return await self.undo(row.channel_id, self._check_pid(user),
                               expected_version=expected_version, game_id=row.id)

    async def page_my_games(self, user: str) -> list[PlayerGame]:
        """Every running game where ``user`` (a signed-in Discord id) plays a seat, in
        every server: those awaiting them first, each group the longest awaited first
        (practice games, which have no page, left out; at most ``MAX_SIGNED_IN_GAMES``)."""
        pid = self._check_pid(user)
        rows = await self.store.seated_running(pid, MAX_SIGNED_IN_GAMES)

        def made() -> list[PlayerGame]:
            games = []
            for row, token, pages in rows:
                seat = row.played_by(pid)
                game = my_game_of(row, None)
                awaits = seat is not None and seat.pid in game.awaiting
                games.append(PlayerGame(game, row.guild_id, awaits,
                                        token if pages else None))
            return sorted(games, key=lambda g: not g.awaits_me)  # stable: longest first
        return await asyncio.to_thread(made)
