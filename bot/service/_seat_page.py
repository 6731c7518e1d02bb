"""A seat played from its web page: the seat's snapshot and its actions, the game found by
its page's token (a signed link or its session named the player). The same ``snapshot``
and ``act`` a Discord click calls, so a move made on the page is checked, committed and
posted (with its pings, through the outbox) exactly like a button's."""

from __future__ import annotations

from bot.service.results import Snapshot, Undone, Update
from engine import Action

from ._pages import PageCalls
from ._play import PlayCalls
from ._undo import UndoCalls


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
