"""What a game's web page reads: the game behind a page's token, the committed versions a
page's stream follows (``game_versions``, written by triggers with every change: migration
14), and the outbox's depth for the people who run the bot.

A token is the only way a page names a game: the sequential number never reaches a URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.backend import Backend
from bot.store.queries import GAME_COLS, game_row
from bot.store.rows import GameRow
from bot.store.tx import Row, Tx, fetch


@dataclass(frozen=True)
class VersionRow:
    """A committed version of a game: its number, the number of its last logged action then
    (``seq``; None before the game started) and its status then."""

    version: int
    seq: int | None
    status: str


@dataclass(frozen=True)
class ServerPageRow:
    """A server's page: its token and whether it is shown."""

    guild_id: int
    token: str
    shown: bool


@dataclass(frozen=True)
class OutboxDepth:
    """How many posts wait in the outbox, and since when the oldest (epoch s; None: none)."""

    posts: int
    oldest: float | None


def _server_page(r: Row) -> ServerPageRow:
    return ServerPageRow(int(r[0]), str(r[1]), bool(r[2]))


def _version_row(r: Row) -> VersionRow:
    return VersionRow(int(r[0]), None if r[1] is None else int(r[1]), str(r[2]))


class PageQueries(Backend):
    """The reads of the web pages, over the backend's primitives."""

    async def game_by_token(self, token: str) -> GameRow | None:
        """The game whose page token is ``token`` (None: no such page)."""
        rows = await self._fetch(game_row, f"SELECT {GAME_COLS} FROM games "
                                 "WHERE page_token = ?", (token,))
        return rows[0] if rows else None

    async def page_token(self, game_id: int) -> str | None:
        """The token of game ``game_id``'s page (None: no such game, or a practice game:
        a learner's own, it has no page)."""
        rows = await self._fetch(lambda r: str(r[0]), "SELECT page_token FROM games "
                                 "WHERE id = ? AND NOT practice", (game_id,))
        return rows[0] if rows else None

    async def latest_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The current version of each of ``game_ids`` (one read for all the games a
        process's pages follow; a game deleted meanwhile is left out)."""
        if not game_ids:
            return {}
        where, params = self.dialect.any_of("id", game_ids)
        rows = await self._fetch(lambda r: (int(r[0]), int(r[1])),
                                 f"SELECT id, version FROM games WHERE {where}", params)
        return dict(rows)

    async def versions_after(self, game_id: int, after: int,
                             limit: int = 1000) -> list[VersionRow]:
        """The committed versions of a game after ``after``, oldest first."""
        return await self._fetch(_version_row, "SELECT version, seq, status FROM "
                                 "game_versions WHERE game_id = ? AND version > ? "
                                 "ORDER BY version LIMIT ?", (game_id, after, limit))

    async def server_page(self, guild_id: int) -> ServerPageRow | None:
        rows = await self._fetch(_server_page, "SELECT guild_id, token, shown FROM "
                                 "server_pages WHERE guild_id = ?", (guild_id,))
        return rows[0] if rows else None

    async def server_page_by_token(self, token: str) -> ServerPageRow | None:
        rows = await self._fetch(_server_page, "SELECT guild_id, token, shown FROM "
                                 "server_pages WHERE token = ?", (token,))
        return rows[0] if rows else None

    async def set_server_page(self, guild_id: int, shown: bool, token: str) -> ServerPageRow:
        """Show or hide a server's page; ``token`` is its token if it has none yet."""
        def tx() -> Tx[ServerPageRow]:
            rows = yield from fetch(
                "INSERT INTO server_pages (guild_id, token, shown) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET shown = excluded.shown "
                "RETURNING guild_id, token, shown", guild_id, token, shown)
            return _server_page(rows[0])

        return await self._transact(tx())

    async def running_games(self, guild_id: int, limit: int = 50) -> list[GameRow]:
        """A server's running games, the most recently moved first (practice games are a
        learner's own: not listed)."""
        return await self._fetch(game_row, f"SELECT {GAME_COLS} FROM games WHERE guild_id = ? "
                                 "AND status = 'running' AND NOT practice "
                                 "ORDER BY last_action_at DESC LIMIT ?",
                                 (guild_id, limit))

    async def outbox_depth(self) -> OutboxDepth:
        """The outbox's waiting posts and the oldest one's age (for ``/readyz``)."""
        rows = await self._fetch(lambda r: OutboxDepth(int(r[0]), None if r[1] is None
                                                       else float(r[1])),
                                 "SELECT count(*), min(created_at) FROM outbox", ())
        return rows[0]
