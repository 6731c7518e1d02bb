"""The outbox's calls: the posts a channel is waiting for, in order, and what the adapter
learnt delivering them (sent, failed, a channel gone or refusing the bot). See
``bot.service.posts`` and docs/OUTBOX.md."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.results import BlockedChannel
from bot.store import PlaceRow, PostedLink, Shards

from ._core import Core, log
from .posts import Pending, Post

FIRST_BACKOFF = 60.0  # seconds the first refusal of a permission holds a channel's posts
MAX_BACKOFF = 24 * 3600.0  # the wait doubles with each refusal, up to a day
# A channel's deliverer holds its lease this long, renewed (every third of it) while it
# runs: a process that died holding one gives the channel up to another after this.
LEASE_SECONDS = 10.0
READ_AT_ONCE = 100  # a channel's waiting posts read at a time (``pending_posts``)


def _place(row: PlaceRow) -> BlockedChannel:
    return BlockedChannel(row.channel_id, row.guild_id, row.gone_at is not None, row.blocked_until,
                 row.permission, row.backoff)


class OutboxCalls(Core):
    """What the adapter asks and tells about a channel's posts."""

    async def pending_posts(self, channel: int) -> list[Pending]:
        """The channel's posts waiting, oldest first (a post this bot cannot read — written
        by a newer one — is logged and left out)."""
        out: list[Pending] = []
        for row in await self.store.pending_posts(channel, READ_AT_ONCE):
            try:
                post = Post.from_json(row.entry.payload)
            except ValueError as exc:
                log.error("outbox post %s in channel %s cannot be read (%s); skipped",
                          row.id, channel, exc)
                continue
            out.append(Pending(row.id, post, row.attempts, row.batch, row.entry.created_at,
                               row.owed, row.tried_at, row.counted))
        return out

    async def waiting_beyond(self, channel: int, read: int) -> int:
        """How many of the channel's posts wait beyond the ``read`` ones ``pending_posts``
        gave (it reads the oldest ``READ_AT_ONCE``): a long backlog's plan counts them."""
        if read < READ_AT_ONCE:
            return 0
        return max(0, await self.store.waiting_count(channel) - read)

    async def posts_tried(self, ids: Sequence[int], *, batch: int | None = None) -> None:
        """A send of these posts starts: a copy may be on Discord from now on (the first
        try's time is kept); ``batch``: the catch-up message they go in."""
        await self.store.posts_tried(list(ids), self.clock(), batch)

    async def thread_renames(self, channel: int) -> list[float]:
        """When the thread was renamed last (Discord allows two per ten minutes)."""
        return await self.store.thread_renames(channel)

    async def set_thread_renames(self, channel: int, times: Sequence[float]) -> None:
        await self.store.set_thread_renames(channel, list(times))

    async def outbox_channels(self, *, shards: Shards | None = None) -> list[int]:
        """The channels with posts waiting (in the guilds of ``shards``, this process's)."""
        return await self.store.outbox_channels(shards=shards)

    async def posts_sent(self, ids: Sequence[int], *, link: PostedLink | None = None,
                         channel: int | None = None, owed: Sequence[str] = (),
                         took: bool = False, counted: int = 0,
                         lease: str | None = None) -> None:
        """Discord took these posts; ``link``: the game's latest post now. In ``channel``:
        ``owed``, the pings these posts leave to the next whole post (a catch-up's told
        posts), and ``counted``, missed posts left to the next message to count, written
        on the channel's next waiting message post in the same transaction;
        ``took``: Discord took a message there, so a permission's back-off starts over.
        ``lease``: the deliverer's token, checked in the same transaction (``LeaseLost``,
        nothing written, if it no longer holds the channel's lease)."""
        await self.store.posts_sent(list(ids), link, self.clock(), channel=channel,
                                    owed=list(dict.fromkeys(owed)), took=took,
                                    counted=counted, fence=lease)

    async def post_failed(self, ids: Sequence[int], *, batch: int | None = None,
                          at_least: int = 0) -> None:
        """A send of these posts failed (it may have reached Discord all the same: the next
        send reuses its nonce); each counts one more try, ``at_least`` that many (the tries
        survive a restart, and one post's never count for another)."""
        await self.store.post_failed(list(ids), batch, at_least=at_least)

    async def latest_message(self, game_id: int) -> PostedLink | None:
        """A game's latest post Discord took (a lobby's post is edited in place)."""
        return await self.store.latest_message(game_id)

    async def place(self, channel: int) -> BlockedChannel | None:
        """How Discord refuses the channel, if it does."""
        row = await self.store.place(channel)
        return None if row is None else _place(row)

    async def place_blocked(self, channel: int, guild: int, permission: str) -> BlockedChannel:
        """Discord refused a post for a missing permission: the channel's posts wait, twice
        as long as the last time (from a minute up to a day)."""
        old = await self.store.place(channel)
        backoff = min(MAX_BACKOFF, old.backoff * 2 if old is not None and old.backoff
                      else FIRST_BACKOFF)
        row = PlaceRow(channel, guild, None, self.clock() + backoff, backoff, permission)
        await self.store.set_place(row)
        return _place(row)

    async def place_open(self, channel: int) -> bool:
        """Discord takes posts in the channel again (True if it had refused them)."""
        return await self.store.clear_place(channel)

    async def has_games(self, channel: int) -> bool:
        """Whether the channel has a lobby or a running game, or posts waiting."""
        return (await self.store.active_game(channel) is not None
                or bool(await self.store.pending_posts(channel, 1)))

    async def place_gone(self, channel: int, guild: int) -> None:
        """Discord says the channel is gone: its waiting posts are dropped and its games
        wait, suspended (no turn timer, no reminder), until someone ends them."""
        await self.store.set_place(PlaceRow(channel, guild, self.clock()))
        log.info("channel %s is gone: its games are suspended", channel)

    # -- one deliverer per channel across processes (``bot.store.leases``)
    # (timed by the database's clock, never this process's: ``bot.store.leases``)
    async def take_lease(self, channel: int, owner: str,
                         seconds: float = LEASE_SECONDS) -> bool:
        """Hold the channel's posts for ``seconds`` if no other worker does (or its lease
        ran out: its process died); True if ``owner`` holds them now."""
        return await self.store.take_lease(channel, owner, seconds)

    async def renew_leases(self, owners: Sequence[str],
                           seconds: float = LEASE_SECONDS) -> list[str]:
        """The leases of ``owners`` (one process's running workers) last another
        ``seconds``; those renewed (the others were taken over or ran out)."""
        return await self.store.renew_leases(owners, seconds)

    async def lease_left(self, channel: int) -> float | None:
        """Seconds until the channel's lease runs out (None: nobody holds it)."""
        return await self.store.lease_left(channel)

    async def release_lease(self, channel: int, owner: str) -> None:
        await self.store.release_lease(channel, owner)

    async def release_leases(self, prefix: str) -> None:
        await self.store.release_leases(prefix)
