"""The outbox's calls: the posts a committed change must show its channel (written with the
change by ``Store``'s writes: ``outbox_insert``), read oldest first per channel, and let go
once Discord took them; and the places Discord refuses (a channel gone, a permission
missing), which hold a channel's posts and, when gone, suspend its games."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.backend import Backend
from bot.store.leases import fence as lease_fence
from bot.store.queries import G_GAME_COLS, game_row
from bot.store.rows import GameRow, OutboxEntry, OutboxRow, PlaceRow, PostedLink, Shards
from bot.store.tx import Insert, Row, Tx, execute, fetch

OUTBOX_COLUMNS = ("channel_id", "guild_id", "game_id", "kind", "payload", "created_at")
OUTBOX_COLS = ("id, " + ", ".join(OUTBOX_COLUMNS)
               + ", attempts, batch, owed, tried_at, counted")
# The channel's next waiting post that is a message (a thread's rename or archiving is none:
# what a catch-up owes never goes onto one, it would be lost when it is skipped).
NEXT_MESSAGE = ("SELECT id, owed, counted FROM outbox WHERE channel_id = ? "
                "AND kind <> 'thread' ORDER BY id LIMIT 1")
PLACE_COLUMNS = ("channel_id", "guild_id", "gone_at", "blocked_until", "backoff",
                 "permission")
PLACE_COLS = ", ".join(PLACE_COLUMNS)
# A game whose channel Discord says is gone waits, suspended (``games g``).
CHANNEL_GONE = ("EXISTS (SELECT 1 FROM places pl WHERE pl.channel_id = g.channel_id "
                "AND pl.gone_at IS NOT NULL)")


def outbox_insert(posts: Sequence[OutboxEntry]) -> list[Insert]:
    """The rows a change writes into the outbox (none: no insert)."""
    if not posts:
        return []
    return [Insert("outbox", OUTBOX_COLUMNS, [
        (p.channel_id, p.guild_id, p.game_id, p.kind, p.payload, p.created_at)
        for p in posts])]


def _outbox_row(r: Row) -> OutboxRow:
    return OutboxRow(int(r[0]), OutboxEntry(int(r[1]), int(r[2]),
                                            None if r[3] is None else int(r[3]), r[4], r[5],
                                            float(r[6])),
                     int(r[7]), None if r[8] is None else int(r[8]),
                     tuple(json.loads(r[9])) if r[9] else (),
                     None if r[10] is None else float(r[10]), int(r[11] or 0))


def _place_row(r: Row) -> PlaceRow:
    return PlaceRow(int(r[0]), int(r[1]), r[2], r[3], float(r[4]), r[5])


class OutboxQueries(Backend):
    """The outbox and the places, over the backend's primitives."""

    async def pending_posts(self, channel_id: int, limit: int = 100) -> list[OutboxRow]:
        """A channel's posts waiting in the outbox, oldest first."""
        return await self._fetch(_outbox_row, f"SELECT {OUTBOX_COLS} FROM outbox "
                                 "WHERE channel_id = ? ORDER BY id LIMIT ?", (channel_id, limit))

    async def oldest_waiting(self, channel_id: int, game_id: int,
                             kind: str) -> OutboxRow | None:
        """The oldest post of ``kind`` a game's channel still waits for (a channel's posts go
        in order, so a move's post is sent once none older or its own waits: a seat's page
        tells its player so). One row, by the channel's index."""
        rows = await self._fetch(_outbox_row, f"SELECT {OUTBOX_COLS} FROM outbox "
                                 "WHERE channel_id = ? AND game_id = ? AND kind = ? "
                                 "ORDER BY id LIMIT 1", (channel_id, game_id, kind))
        return rows[0] if rows else None

    async def waiting_count(self, channel_id: int) -> int:
        """How many posts wait in the channel's outbox (a long backlog's are not all read)."""
        rows = await self._fetch(lambda r: int(r[0]), "SELECT COUNT(*) FROM outbox "
                                 "WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else 0

    async def posts_tried(self, ids: Sequence[int], now: float,
                          batch: int | None = None) -> None:
        """A send of these posts starts now: from here on a copy may be on Discord
        (``tried_at``, kept from the first try); ``batch``: the catch-up message they go in
        (a retry sends the same posts under the same nonce)."""
        if not ids:
            return
        which, params = self.dialect.any_of("id", list(ids))
        await self._execute("UPDATE outbox SET tried_at = COALESCE(tried_at, ?), "
                            f"batch = COALESCE(?, batch) WHERE {which}",
                            (now, batch, *params))

    async def thread_renames(self, channel_id: int) -> list[float]:
        """When the thread was last renamed (at most Discord's two of a window)."""
        rows = await self._fetch(lambda r: str(r[0]), "SELECT times FROM thread_renames "
                                 "WHERE channel_id = ?", (channel_id,))
        return [float(t) for t in json.loads(rows[0])] if rows else []

    async def set_thread_renames(self, channel_id: int, times: Sequence[float]) -> None:
        """Remember the thread's latest renames (none: forgotten, its game ended)."""
        if not times:
            await self._execute("DELETE FROM thread_renames WHERE channel_id = ?",
                                (channel_id,))
            return
        await self._execute("INSERT INTO thread_renames (channel_id, times) VALUES (?, ?) "
                            "ON CONFLICT (channel_id) DO UPDATE SET times = excluded.times",
                            (channel_id, json.dumps(list(times))))

    async def outbox_channels(self, *, shards: Shards | None = None) -> list[int]:
        """The channels with posts waiting (in the guilds of ``shards`` when given)."""
        where, extra = self._shards("guild_id", shards)
        return await self._fetch(lambda r: int(r[0]), "SELECT DISTINCT channel_id FROM outbox "
                                 f"WHERE TRUE{where}", extra)

    async def posts_sent(self, ids: Sequence[int], link: PostedLink | None, now: float, *,
                         channel: int | None = None, owed: Sequence[str] = (),
                         took: bool = False, counted: int = 0,
                         fence: str | None = None) -> None:
        """Discord took these posts: they leave the outbox; ``link`` is the game's latest
        post now (remembered in the same transaction, if the game is still there). In
        ``channel``: ``owed``, pings these posts leave to the next (a catch-up's), go onto
        the channel's next waiting message post (never a thread's rename, which a plan
        may skip), so no restart loses them, and ``counted``, missed posts only counted,
        likewise (its message says how many); ``took``: Discord took
        a message there, so a permission's back-off is over (the next refusal waits a
        minute again, not twice the last wait). ``fence``: the deliverer's lease token,
        checked first (``bot.store.leases.fence``: ``LeaseLost``, nothing written)."""
        def tx() -> Tx[None]:
            if fence is not None and channel is not None:
                yield from lease_fence(self.dialect.name, channel, fence)
            if ids:
                which, params = self.dialect.any_of("id", list(ids))
                yield from execute(f"DELETE FROM outbox WHERE {which}", *params)
            if (owed or counted) and channel is not None:
                rows = yield from fetch(NEXT_MESSAGE, channel)
                if rows:
                    (nxt, had, before), = rows
                    both = list(dict.fromkeys([*(json.loads(had) if had else ()), *owed]))
                    yield from execute("UPDATE outbox SET owed = ?, counted = ? WHERE id = ?",
                                       json.dumps(both) if both else None,
                                       int(before or 0) + counted, nxt)
            if took and channel is not None:
                yield from execute("DELETE FROM places WHERE channel_id = ? "
                                   "AND gone_at IS NULL", channel)
            if link is not None and (yield from fetch("SELECT 1 FROM games WHERE id = ?",
                                                      link.game_id)):
                yield from execute(
                    "INSERT INTO latest_posts (game_id, message_id, url, posted_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                    "message_id = excluded.message_id, url = excluded.url, "
                    "posted_at = excluded.posted_at",
                    link.game_id, link.message_id, link.url, now)

        await self._transact(tx())

    async def post_failed(self, ids: Sequence[int], batch: int | None, *,
                          at_least: int = 0) -> None:
        """A send of these posts failed (it may have reached Discord all the same): each
        counts one more try (``at_least``: that many, for a post Discord will never take
        as it is)."""
        which, params = self.dialect.any_of("id", list(ids))
        await self._execute("UPDATE outbox SET attempts = CASE WHEN attempts + 1 > ? "
                            "THEN attempts + 1 ELSE ? END, batch = ? "
                            f"WHERE {which}", (at_least, at_least, batch, *params))

    async def latest_message(self, game_id: int) -> PostedLink | None:
        """A game's latest post (its message id: a lobby's post is edited in place)."""
        rows = await self._fetch(lambda r: PostedLink(game_id, int(r[0]), str(r[1])),
                                 "SELECT message_id, url FROM latest_posts WHERE game_id = ?",
                                 (game_id,))
        return rows[0] if rows else None

    async def place(self, channel_id: int) -> PlaceRow | None:
        rows = await self._fetch(_place_row, f"SELECT {PLACE_COLS} FROM places "
                                 "WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else None

    async def set_place(self, place: PlaceRow) -> None:
        """Remember how Discord refuses a channel; a gone channel's waiting posts are
        dropped at once (nothing can be posted there again)."""
        def tx() -> Tx[None]:
            yield from execute(
                f"INSERT INTO places ({PLACE_COLS}) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET gone_at = excluded.gone_at, "
                "blocked_until = excluded.blocked_until, backoff = excluded.backoff, "
                "permission = excluded.permission",
                place.channel_id, place.guild_id, place.gone_at, place.blocked_until,
                place.backoff, place.permission)
            if place.gone_at is not None:
                yield from execute("DELETE FROM outbox WHERE channel_id = ?", place.channel_id)

        await self._transact(tx())

    async def clear_place(self, channel_id: int) -> bool:
        """Discord takes posts in the channel again; True if it had refused them."""
        return await self._execute("DELETE FROM places WHERE channel_id = ?",
                                   (channel_id,)) == 1

    async def suspended_games(self, guild_id: int, limit: int = 25) -> list[GameRow]:
        """The guild's lobbies and running games whose channel is gone, newest first."""
        return await self._fetch(
            game_row, f"SELECT {G_GAME_COLS} FROM games g WHERE g.guild_id = ? "
            f"AND g.status IN ('lobby', 'running') AND {CHANNEL_GONE} "
            "ORDER BY g.id DESC LIMIT ?", (guild_id, limit))
