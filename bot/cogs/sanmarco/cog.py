"""The San Marco cog: the slash commands (``commands.tree``: ``/sanmarco`` and its groups,
``/sanmarco-server``) and the adapter's lifecycle. The commands are its bases, one module per
group (``commands.moves``: the moves directly under ``/sanmarco``; ``commands.game``,
``commands.practice`` (``/sanmarco game learn``), ``commands.seat``, ``commands.history``,
``commands.settings``, ``commands.queue``, ``commands.digest``, ``commands.hints``: the
hint and the review).

A command reads what a person typed, calls the service (which checks the game and the turn,
and the engine the rules, and commits the change with the posts the channel must see), and
answers privately. Buttons and selects do not pass through here: the cog makes their one
context (``components.clicks.ClickContext``) at load, and a click goes straight to its
handler (docs/CLICK.md). The channel's posts are the outbox's (``delivery.worker``), board
pictures ``delivery.pictures``'s, the periodic pass ``reminders``'. Every interaction is
taken in by ``shared.reception`` (deferred before any store work, so Discord's 3-second limit
holds whatever the database does; any error then ends in one short ephemeral sentence from
``bot.text``, never a traceback; a click Discord delivered too late to answer changes
nothing).
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.sanmarco.commands.game import GameCommands
from bot.cogs.sanmarco.commands.hints import HintCommands
from bot.cogs.sanmarco.commands.history import HistoryCommands, replay_cache
from bot.cogs.sanmarco.commands.moves import MoveCommands
from bot.cogs.sanmarco.commands.practice import PracticeCommands
from bot.cogs.sanmarco.commands.queue import FindingCommands
from bot.cogs.sanmarco.commands.seat import SeatCommands
from bot.cogs.sanmarco.commands.settings import MovingCommands
from bot.cogs.sanmarco.commands.tree import SANMARCO, SERVER
from bot.cogs.sanmarco.components.clicks import ClickContext, ClickHost
from bot.cogs.sanmarco.components.hand_links import HandLinks
from bot.cogs.sanmarco.components.items import DYNAMIC_ITEMS
from bot.cogs.sanmarco.components.panels import Panels
from bot.cogs.sanmarco.delivery.compose import Composer
from bot.cogs.sanmarco.delivery.notify import Notifier
from bot.cogs.sanmarco.delivery.pictures import Drawer
from bot.cogs.sanmarco.delivery.worker import Deliverer
from bot.cogs.sanmarco.reminders import Reminders, shards_of
from bot.cogs.sanmarco.shared.answers import Interaction
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.reception import LearnPointer, Reception
from bot.cogs.sanmarco.shared.visibility import Sightings
from bot.config import Config
from bot.service import GameService
from bot.service.errors import (
    BadInput,
)
from bot.work import Workers

log = logging.getLogger(__name__)

class SanMarcoCog(GameCommands, PracticeCommands, SeatCommands, HistoryCommands,
                  MovingCommands, FindingCommands, MoveCommands, HintCommands,
                  commands.Cog, name="SanMarco"):
    """The slash commands ``/sanmarco`` and ``/sanmarco-server`` (its bases), their
    deferral and errors, and the adapter's parts made and started at load."""

    sanmarco = SANMARCO
    server = SERVER

    def __init__(self, bot: commands.Bot, service: GameService, config: Config) -> None:
        self.bot = bot
        self.service = service
        self.config = config
        self.notifier = Notifier(service)
        # one set of worker lanes for the outbox's pictures and everything else's CPU work
        # (handed to the service when the cog loads: making the cog changes nothing)
        self.workers = Workers(config.render_processes, config.work_processes)
        self.drawer = Drawer(self.workers, config.render_processes)
        self.replays = replay_cache()
        composer = Composer(service, self.drawer, threads_default=config.game_threads,
                            public_url=config.public_url)
        self.deliverer = Deliverer(bot, service, composer, self.notifier,
                                   retry_first=config.outbox_retry_seconds,
                                   wait=config.outbox_wait_seconds,
                                   shards=lambda: shards_of(bot),
                                   lease_seconds=config.lease_seconds)
        self.opener = Opener(bot, service, threads_default=config.game_threads)
        self.links = HandLinks(service, config)  # a player's own hand in the browser
        self.panels = Panels(service, self.deliverer, self.opener, self.links)
        self.reminders = Reminders(bot, service, deliverer=self.deliverer,
                                   opener=self.opener)
        self.sightings = Sightings(service)  # who may view a channel: the server's page
        # deferral, the bot stopping, and the one place errors become answers
        self.reception = Reception(self.panels.current_prompt,
                                   LearnPointer(service) if config.learn_pointer else None)
        super().__init__()

    # ------------------------------------------------------------------ lifecycle
    async def cog_load(self) -> None:
        self.service.work = self.workers
        self.drawer.start()
        if isinstance(self.bot, ClickHost):  # a click's one context (docs/CLICK.md)
            self.bot.click_context = ClickContext(self.reception, self.panels, self, self.notifier)
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.tree.error(self._tree_error)
        self.reminders.start(self.config.reminder_poll_seconds)

    async def cog_unload(self) -> None:
        self.reminders.stop()
        await self.deliverer.close()
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        if isinstance(self.bot, ClickHost):
            self.bot.click_context = None
        self.drawer.close()
        self.workers.close()

    async def shutdown(self, timeout: float) -> int | None:
        """The bot stops (SIGTERM, SIGINT): no new interaction is taken (``turned_away``),
        the periodic pass and its timers stop, the interactions already being handled
        complete, and the posts in flight get the rest of ``timeout`` s. Returns how many
        posts stay in the outbox for the next start (None: unknown)."""
        self.reception.stopping = True
        self.reminders.stop()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if self.reception.handling:
            await asyncio.wait(set(self.reception.handling), timeout=timeout)
        return await self.deliverer.drain(max(0.0, deadline - loop.time()))

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (at start-up, or anew after Discord dropped the session): deliver what
        the outbox holds (a process killed between a commit and its post loses nothing)."""
        await self.deliverer.resume()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        """The gateway session resumed after a drop: posts may have waited meanwhile."""
        await self.deliverer.resume()

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its games wait, suspended (no turn timer, no reminder),
        until someone ends them; nothing is posted there again."""
        await self.deliverer.gone(channel.id, channel.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (a game's thread too): as a deleted channel."""
        await self.deliverer.gone(payload.thread_id, payload.guild_id)

    # ------------------------------------------------------------------ who may view
    # The server's page lists a channel's games only while every member may view it:
    # noted whenever the bot sees the channel (shared.visibility).
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.sightings.note(interaction.channel)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.sightings.refresh(guild)  # changed while the bot was away

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        await self.sightings.note(after)

    @commands.Cog.listener()
    async def on_thread_create(self, thread: discord.Thread) -> None:
        await self.sightings.note(thread)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self.sightings.note(after)

    # ------------------------------------------------------------------ answering
    async def interaction_check(self, interaction: Interaction) -> bool:
        """Runs before every slash command: defer privately at once, before any store work
        (a refusal stays private; a public result is posted to the channel). A command
        Discord delivered too late to answer changes nothing."""
        return await self.reception.defer(interaction, ephemeral=True)

    # ------------------------------------------------------------------ errors
    async def _tree_error(self, interaction: Interaction,
                          error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure) and not interaction.response.is_done():
            return  # interaction_check could not even defer it: there is nobody to tell
        original: BaseException = getattr(error, "original", error)
        if isinstance(error, app_commands.TransformerError
                      | app_commands.CommandSignatureMismatch):
            original = BadInput()
        await self.reception.report(interaction, original)
