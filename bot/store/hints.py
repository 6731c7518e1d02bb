"""Hints (issue 32): a game in which someone asked for a hint is marked (``games.hinted``,
migration 16) the first time, so that it is not rated and its final post and history say
so; the mark is never taken back."""

from __future__ import annotations

from bot.store.backend import Backend


class HintQueries(Backend):
    """The hinted mark of a game."""

    async def mark_hinted(self, game_id: int) -> bool:
        """Mark a running game as hinted; True if this call marked it (its first hint)."""
        return await self._execute(
            "UPDATE games SET hinted = ? WHERE id = ? AND status = 'running' AND NOT hinted",
            (True, game_id)) > 0

    async def hinted(self, game_id: int) -> bool:
        """Whether someone asked for a hint in the game."""
        rows = await self._fetch(lambda r: bool(r[0]),
                                 "SELECT hinted FROM games WHERE id = ?", (game_id,))
        return bool(rows and rows[0])
