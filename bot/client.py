"""The discord.py client: intents, command sync, the San Marco cog and its persistent items.

One process runs a plain ``SanMarcoBot``; a bot that outgrows one process runs as several,
each a ``ShardedSanMarcoBot`` (discord.py's ``AutoShardedBot``) over its own range of
gateway shards, on one PostgreSQL database (``create_bot`` picks from the config).

``shutdown`` is how the bot stops (``python -m bot`` calls it on SIGTERM and SIGINT): no new
interaction is taken, the ones being handled complete, the posts in flight get
``SHUTDOWN_WAIT`` seconds (SANMARCO_SHUTDOWN_SECONDS), and what was not sent stays in the
outbox for the next start.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from bot.backup import Schedule, schedule_for
from bot.cogs.sanmarco import CatalogueTranslator, SanMarcoCog
from bot.cogs.sanmarco.components.clicks import ClickContext
from bot.computers import EngineComputers, hard_budget
from bot.config import Config
from bot.service import GameService, open_service
from bot.web import WebOptions, serve

log = logging.getLogger(__name__)

# What a stopping bot gives its posts in flight: long enough for a catch-up of a few
# messages within Discord's 5 per 5 s, short of the 30 s before systemd or a container's
# runtime follows SIGTERM with SIGKILL (docker stop waits 10 s: raise its --time).
SHUTDOWN_WAIT = 10.0


def only_users() -> discord.AllowedMentions:
    """What any message of the bot may ping unless it says otherwise: users only, never
    @everyone, @here or a role, whatever text a display name carries. Posts narrow it
    further to the players whose decision starts (or to nobody)."""
    return discord.AllowedMentions(everyone=False, users=True, roles=False,
                                   replied_user=False)


def bot_intents() -> discord.Intents:
    """Non-privileged intents only: slash commands and components need no message content,
    and the bot never lists members."""
    intents = discord.Intents.default()
    intents.message_content = False
    intents.members = False
    intents.presences = False
    return intents


class SanMarcoTree(app_commands.CommandTree[Any]):
    """The command tree: a slash command that arrives while the bot stops is answered
    "restarting" and not run (``Reception.turned_away``)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        cog = self.client.get_cog("SanMarco")
        return not (isinstance(cog, SanMarcoCog) and await cog.reception.turned_away(interaction))


class SanMarcoBot(commands.Bot):
    """Hosts San Marco games. All game logic is in the service and the engine."""

    def __init__(self, config: Config, *, service: GameService | None = None,
                 sync_commands: bool = True, **options: Any) -> None:
        options.setdefault("intents", bot_intents())
        options.setdefault("help_command", None)
        options.setdefault("allowed_mentions", only_users())
        options.setdefault("tree_cls", SanMarcoTree)
        # A 429 asking to wait longer than this (a thread's third rename in ten minutes:
        # up to ~600 s) is raised as ``discord.RateLimited`` rather than slept on, so a
        # rename never holds a channel's posts (``delivery.thread_steps``); 30 s is the least.
        options.setdefault("max_ratelimit_timeout", 30.0)
        # The bot never joins voice: discord.py's warnings about missing voice libraries
        # (PyNaCl, davey) are noise in the log that an admin cannot act on.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Only slash commands: a mention prefix keeps commands.Bot happy without message content.
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.config = config
        self.sync_commands = sync_commands
        self.service = service
        self._owns_service = service is None
        self.click_context: ClickContext | None = None  # a click's one context (the cog's)
        self.backups: Schedule | None = None  # copies of the SQLite file (bot.backup)
        self._stopping = False
        self._pages: web.AppRunner | None = None  # the game pages (SANMARCO_WEB_PORT)

    @property
    def game_service(self) -> GameService:
        """The service (opened in ``setup_hook`` unless one was given)."""
        if self.service is None:
            raise RuntimeError("the game service is not open yet")
        return self.service

    async def setup_hook(self) -> None:
        if self.service is None:
            self.service = await open_service(
                self.config.database,
                computers=EngineComputers(hard_budget=hard_budget(self.config.hard_playouts)))
            log.info("opened the game store")
        self.backups = schedule_for(self.config.db_path, self.config.database_url,
                                    self.config.backups, self.service.clock)
        # Command names and descriptions in German and French for Discord's client.
        await self.tree.set_translator(CatalogueTranslator())
        # The cog registers its DynamicItems (persistent buttons) and starts the reminders.
        cog = SanMarcoCog(self, self.service, self.config)
        await self.add_cog(cog)
        if self.config.web_port is not None:  # the game pages, on this event loop
            self._pages = await serve(self.service, self.config.web_port,
                                      host=self.config.web_host, options=WebOptions(
                                          public_url=self.config.public_url,
                                          secret=self.config.web_secret,
                                          client_header=self.config.web_proxy_header,
                                          # a move from a seat page: its post goes now
                                          wake=cog.deliverer.wake,
                                          gateway=lambda: self.is_ready() and not self.is_closed(),
                                          # Sign in with Discord, at discord.py's API base
                                          client_id=self.config.discord_client_id,
                                          client_secret=self.config.discord_client_secret,
                                          discord_api=discord.http.Route.BASE,
                                          place_names=self.place_names))
        if not self.sync_commands:
            return
        if self.config.shard_ids is not None and 0 not in self.config.shard_ids:
            # The commands are the same for every shard: one process syncs them.
            log.info("commands are synced by the process that holds shard 0")
            return
        if self.config.test_guild is not None:
            guild = discord.Object(id=self.config.test_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to test guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global command(s)", len(synced))

    def place_names(self, channel_id: int, guild_id: int) -> tuple[str | None, str | None]:
        """A game's server and channel (or thread) by name, as this bot's cache knows them
        (None: not known here), for a signed-in player's My games page."""
        guild = self.get_guild(guild_id)
        place = self.get_channel(channel_id) or (
            guild.get_thread(channel_id) if guild is not None else None)
        name = getattr(place, "name", None)
        return (guild.name if guild is not None else None,
                name if isinstance(name, str) else None)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Every event, but none once the bot is closing: discord.py's start-up task still
        announces ``ready`` when the bot is stopped in its first seconds (it waits for the
        guilds' GUILD_CREATEs), after ``close`` has taken the client's loop away — a
        traceback in the log at every such stop, and nothing left to run a handler on."""
        if self.is_closed():
            log.debug("closing: the %r event is not handled", event_name)
            return
        super().dispatch(event_name, *args, **kwargs)

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s) to %d guild(s)", self.user,
                 self.user.id if self.user else "?", len(self.guilds))

    async def shutdown(self, why: str, timeout: float | None = None) -> int | None:
        """Stop as SIGTERM asks (``why`` names it, for the log): take no new interaction,
        let those being handled complete and the posts in flight go out within ``timeout``
        seconds (None: the config's ``shutdown_seconds``), stop the periodic pass, then
        close (``start`` returns). Returns how many posts were left in the outbox (None:
        unknown, or a second call while stopping, which does nothing)."""
        if timeout is None:
            timeout = self.config.shutdown_seconds
        if self._stopping:
            log.info("%s: already stopping", why)
            return None
        self._stopping = True
        log.info("%s: stopping; the posts in flight get up to %g s", why, timeout)
        cog = self.get_cog("SanMarco")
        left = await cog.shutdown(timeout) if isinstance(cog, SanMarcoCog) else None
        log.info("stopped: %s post(s) left in the outbox for the next start",
                 "an unknown number of" if left is None else left)
        await self.close()
        return left

    async def close(self) -> None:
        if self.backups is not None:
            await self.backups.close()
        if self._pages is not None:
            await self._pages.cleanup()
            self._pages = None
        await super().close()
        if self._owns_service and self.service is not None:
            await self.service.close()
            self.service = None



class ShardedSanMarcoBot(SanMarcoBot, commands.AutoShardedBot):
    """The bot over a range of gateway shards (``SHARD_COUNT``, ``SHARD_IDS``): Discord sends
    each guild's events on shard ``(guild_id >> 22) % shard_count``, so this process sees,
    answers and reminds only the guilds of its shards; the other processes hold the rest.

    Identifying: Discord lets ``max_concurrency`` shards identify at once (buckets
    ``shard_id % max_concurrency``), one per bucket every 5 seconds. discord.py waits 5 s
    before every shard but the first; this process asks ``GET /gateway/bot`` once and waits
    only when a shard's bucket identified less than 5 s ago (a large bot's process with 16
    shards and max_concurrency 16 then starts in a second, not 75 s). Processes that share a
    bucket do not see each other's identifies: start them 5 s apart when max_concurrency is
    1 (see the README)."""

    IDENTIFY_INTERVAL = 5.0

    def __init__(self, config: Config, **options: Any) -> None:
        options.setdefault("shard_count", config.shard_count)
        if config.shard_ids is not None:
            options.setdefault("shard_ids", list(config.shard_ids))
        super().__init__(config, **options)
        self._max_concurrency: int | None = None
        self._identified: dict[int, float] = {}  # bucket -> when its last shard identified
        self._identify_lock = asyncio.Lock()

    async def before_identify_hook(self, shard_id: int | None, *,
                                   initial: bool = False) -> None:
        async with self._identify_lock:
            if self._max_concurrency is None:
                try:
                    limits = await self.fetch_session_start_limits()
                    self._max_concurrency = max(1, limits.max_concurrency)
                    if limits.remaining == 0:  # the day's identifies are used up
                        await asyncio.sleep(limits.reset_after / 1000)
                except (discord.HTTPException, discord.GatewayNotFound, KeyError) as exc:
                    log.warning("session start limits unavailable (%s): identifying one "
                                "shard every %g s", exc, self.IDENTIFY_INTERVAL)
                    self._max_concurrency = 1
            bucket = (shard_id or 0) % self._max_concurrency
            last = self._identified.get(bucket)
            if last is not None:
                wait = last + self.IDENTIFY_INTERVAL - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
            self._identified[bucket] = time.monotonic()


def create_bot(config: Config, **options: Any) -> SanMarcoBot:
    """The bot ``config`` asks for: a ShardedSanMarcoBot when SHARD_COUNT is set, else the
    plain one (one process, one gateway connection, as before)."""
    if config.sharded:
        return ShardedSanMarcoBot(config, **options)
    return SanMarcoBot(config, **options)
