"""A distributor's half-made split (migration 21, ``split_drafts``): the offers so far, per
game and seat, written by Discord's offer builder and by the seat page and read by both,
so a split begun in one is finished in the other. It is as secret as the drawn cards: the
service reads it for its own seat only. What makes a draft well-formed and when it still
applies is the service's to say (``bot.service._seat_page``); the store keeps rows."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.backend import Backend
from bot.store.rows import DraftRow
from bot.store.tx import Row


def _draft_row(r: Row) -> DraftRow:
    offers = json.loads(str(r[3]))
    return DraftRow(int(r[0]), str(r[1]), str(r[2]),
                    tuple(tuple(int(i) for i in offer) for offer in offers), int(r[4]))


class DraftQueries(Backend):
    """A seat's half-made split: written, read, dropped."""

    async def save_draft(self, game_id: int, pid: str, round_key: str, version: int,
                         offers: Sequence[Sequence[int]], now: float) -> None:
        """``pid``'s offers so far in game ``game_id`` (replacing any older draft)."""
        await self._execute(
            "INSERT INTO split_drafts (game_id, pid, round, version, offers, written_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, pid) DO UPDATE SET "
            "round = excluded.round, version = excluded.version, offers = excluded.offers, "
            "written_at = excluded.written_at",
            (game_id, pid, round_key, version,
             json.dumps([list(offer) for offer in offers]), now))

    async def draft(self, game_id: int, pid: str) -> DraftRow | None:
        """``pid``'s stored draft in game ``game_id``, whatever round it was made for."""
        rows = await self._fetch(
            _draft_row, "SELECT game_id, pid, round, offers, version FROM split_drafts "
            "WHERE game_id = ? AND pid = ?", (game_id, pid))
        return rows[0] if rows else None

    async def drop_draft(self, game_id: int, pid: str) -> None:
        """Forget ``pid``'s draft in game ``game_id`` (committed, or no longer its deal's)."""
        await self._execute("DELETE FROM split_drafts WHERE game_id = ? AND pid = ?",
                            (game_id, pid))
