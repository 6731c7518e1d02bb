"""What a game's web page reads: the game behind a page's token, the committed versions a
page's stream follows (``game_versions``, written by triggers with every change: migration
14), and the outbox's depth for the people who run the bot.

A token is the only way a page names a game: the sequential number never reaches a URL.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.store.backend import Backend
from bot.store.dialect import Dialect
from bot.store.queries import G_GAME_COLS, GAME_COLS, N_GAME, game_row
from bot.store.rows import GameRow
from bot.store.tx import Row, Tx, execute, fetch


@dataclass(frozen=True)
class VersionRow:
    """A committed version of a game: its number, the number of its last logged action then
    (``seq``; None before the game started) and its status then."""

    version: int
    seq: int | None
    status: str


@dataclass(frozen=True)
class SeatedGame:
    """One of a player's running games as My games reads it: the game, its page's token
    (None: no page), whether its channel has pages, and whether the store knows the seats
    it awaits (``games.awaiting``: not for a game stored before schema 22 and not moved
    since)."""

    row: GameRow
    token: str | None
    pages: bool
    awaiting_known: bool


@dataclass(frozen=True)
class SeatedGames:
    """A player's running games as My games reads them (``seated_running``): at most its
    bound, and how many there are in all."""

    games: tuple[SeatedGame, ...]
    total: int


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


@dataclass(frozen=True)
class ChannelView:
    """Who may view a channel, as Discord last told the bot (``channel_views``):
    ``everyone`` every member of the server may; ``private_thread`` a private thread (its
    members only); ``parent_id`` a thread's channel; ``listed`` a manager's choice for the
    server's page (None: as Discord says)."""

    channel_id: int
    guild_id: int
    parent_id: int | None = None
    everyone: bool = False
    private_thread: bool = False
    listed: bool | None = None


def _channel_view(r: Row) -> ChannelView:
    return ChannelView(int(r[0]), int(r[1]), None if r[2] is None else int(r[2]),
                       bool(r[3]), bool(r[4]), None if r[5] is None else bool(r[5]))


def _server_page(r: Row) -> ServerPageRow:
    return ServerPageRow(int(r[0]), str(r[1]), bool(r[2]))


def _version_row(r: Row) -> VersionRow:
    return VersionRow(int(r[0]), None if r[1] is None else int(r[1]), str(r[2]))


# Who may hear of a game ``g`` (a ``games`` row), written once and read in the query that
# lists games, so that a list stops at its limit among the games it may show (a filter
# after the read would list fewer, or none, past many private games). ``lv``: what is
# known of the game's own channel or thread; ``lu``: of its channel (the thread's parent
# as Discord named it, else the channel whose thread the bot opened for the game).
LISTING = ("LEFT JOIN channel_views lv ON lv.channel_id = g.channel_id "
           "LEFT JOIN channel_views lu ON lu.channel_id = coalesce(lv.parent_id, g.parent_id)")
# Listed: never a private thread; else a manager's choice for the thread, then for its
# channel; else whether every member may view its channel (a thread's), else the place
# itself. Unknown: private.
_PRIVATE = "coalesce(lv.private_thread, FALSE)"
_LISTED = f"NOT {_PRIVATE} AND coalesce(lv.listed, lu.listed, lu.everyone, lv.everyone, FALSE)"


def listing(dialect: Dialect, here: Collection[int] | None
            ) -> tuple[str, str, tuple[object, ...]]:
    """The joins, the condition and its parameters that a member asking in ``here`` (the
    channel or thread they ask in, and a thread's channel: places they can view) may hear of
    game ``g``: not a practice game (its learner's own), and played in a listed channel
    (every member may view it, or its managers chose it) or in ``here``, or in a public
    thread of a channel of ``here``. A private thread's games are heard of inside it only.
    ``here`` () the listed channels' games only; None: every game but practice games, for
    the bot itself (no join)."""
    if here is None:
        return "", "NOT g.practice", ()
    if not here:
        return LISTING, f"NOT g.practice AND {_LISTED}", ()
    places = list(dict.fromkeys(here))
    own, params = dialect.any_of("g.channel_id", places)
    up, more = dialect.any_of("coalesce(lv.parent_id, g.parent_id)", places)
    return (LISTING, f"NOT g.practice AND ({_LISTED} OR {own} OR (NOT {_PRIVATE} AND {up}))",
            (*params, *more))


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

    async def running_games(self, guild_id: int, limit: int = 50, *,
                            here: Collection[int] | None = None) -> list[GameRow]:
        """A server's running games, the most recently moved first (practice games are a
        learner's own: not listed); ``here``: only those a member asking there may hear of
        (``listing``; () the listed channels' only)."""
        joins, where, params = listing(self.dialect, here)
        return await self._fetch(
            game_row, f"SELECT {G_GAME_COLS} FROM games g {joins} WHERE g.guild_id = ? AND "
            f"g.status = 'running' AND {where} "
            "ORDER BY g.last_action_at DESC LIMIT ?", (guild_id, *params, limit))

    async def seated_running(self, user: str, limit: int = 50) -> SeatedGames:
        """The running games where ``user`` (a Discord id) plays a seat, in every server,
        each with its page's token and whether its channel has pages, at most ``limit``:
        those awaiting them first (``games.awaiting``; a game not known yet counts with
        them), each group the longest awaited first; and how many there are in all. A
        learner's practice games are left out (they have no page). One read through the
        running games' index (``games_awaited``: status, awaited_since)."""
        seated = self.dialect.seat_pid.format(players="g.players")
        awaited = self.dialect.seat_awaited.format(players="g.players", awaiting="g.awaiting")
        rows = await self._fetch(
            lambda r: (SeatedGame(game_row(r), r[N_GAME], bool(r[N_GAME + 1]),
                                  bool(r[N_GAME + 2])), int(r[N_GAME + 3])),
            f"SELECT {G_GAME_COLS}, g.page_token, coalesce(s.pages, TRUE), "
            "g.awaiting IS NOT NULL, count(*) OVER () "
            "FROM games g LEFT JOIN channel_settings s ON s.channel_id = g.channel_id "
            f"WHERE g.status = 'running' AND NOT g.practice AND {seated} "
            f"ORDER BY CASE WHEN g.awaiting IS NULL OR {awaited} THEN 0 ELSE 1 END, "
            "coalesce(g.awaited_since, g.last_action_at), g.id LIMIT ?", (user, user, limit))
        return SeatedGames(tuple(g for g, _ in rows), rows[0][1] if rows else 0)

    async def fill_awaiting(self, games: Sequence[tuple[int, int, str]]) -> None:
        """Write ``games.awaiting`` of games stored before it was kept: (id, the version
        whose state it was read from, its value), each only while the game is still at
        that version and its value unknown (no new version: nothing a player sees
        changes)."""
        def tx() -> Tx[None]:
            for game_id, version, awaiting in games:
                yield from execute("UPDATE games SET awaiting = ? WHERE id = ? AND "
                                   "version = ? AND awaiting IS NULL",
                                   awaiting, game_id, version)

        if games:
            await self._transact(tx())

    # -- signed-in sessions: a user's generation, moved on by signing out (migration 22)
    async def session_generation(self, user: str) -> int:
        """The generation of ``user``'s signed-in sessions (0: never signed out): one read
        by the table's key."""
        rows = await self._fetch(lambda r: int(r[0]), "SELECT generation FROM sign_outs "
                                 "WHERE user_id = ?", (user,))
        return rows[0] if rows else 0

    async def sign_out(self, user: str, now: float) -> int:
        """End every session of ``user`` made so far: their generation moved on, in one
        statement (two sign-outs at once both count); returns the new one."""
        def tx() -> Tx[int]:
            rows = yield from fetch(
                "INSERT INTO sign_outs (user_id, generation, signed_out_at) VALUES (?, 1, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET generation = sign_outs.generation + 1, "
                "signed_out_at = excluded.signed_out_at RETURNING generation", user, now)
            return int(rows[0][0])

        return await self._transact(tx())

    # -- who may view a channel (the server's page lists only what everyone may)
    async def see_channel(self, view: ChannelView, now: float) -> None:
        """Store what Discord says of who may view a channel (a manager's choice stays)."""
        await self._execute(
            "INSERT INTO channel_views (channel_id, guild_id, parent_id, everyone, "
            "private_thread, seen_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id) "
            "DO UPDATE SET guild_id = excluded.guild_id, parent_id = excluded.parent_id, "
            "everyone = excluded.everyone, private_thread = excluded.private_thread, "
            "seen_at = excluded.seen_at",
            (view.channel_id, view.guild_id, view.parent_id, view.everyone,
             view.private_thread, now))

    async def set_listed(self, guild_id: int, channel_id: int, listed: bool | None,
                         now: float) -> None:
        """A manager's choice for a channel on the server's page (None: as Discord says)."""
        await self._execute(
            "INSERT INTO channel_views (channel_id, guild_id, listed, seen_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET "
            "listed = excluded.listed", (channel_id, guild_id, listed, now))

    async def guild_channel_views(self, guild_id: int) -> list[ChannelView]:
        """Everything known of who may view the guild's channels (to refresh at start)."""
        return await self._fetch(_channel_view, "SELECT channel_id, guild_id, parent_id, "
                                 "everyone, private_thread, listed FROM channel_views "
                                 "WHERE guild_id = ?", (guild_id,))

    async def heard_of(self, game_ids: Sequence[int], here: Collection[int]) -> set[int]:
        """Which of ``game_ids`` a member asking in ``here`` may hear of (``listing``)."""
        if not game_ids:
            return set()
        ids, params = self.dialect.any_of("g.id", list(dict.fromkeys(game_ids)))
        joins, where, more = listing(self.dialect, tuple(here))
        rows = await self._fetch(lambda r: int(r[0]), f"SELECT g.id FROM games g {joins} "
                                 f"WHERE {ids} AND {where}", (*params, *more))
        return set(rows)

    async def outbox_depth(self) -> OutboxDepth:
        """The outbox's waiting posts and the oldest one's age (for ``/readyz``)."""
        rows = await self._fetch(lambda r: OutboxDepth(int(r[0]), None if r[1] is None
                                                       else float(r[1])),
                                 "SELECT count(*), min(created_at) FROM outbox", ())
        return rows[0]
