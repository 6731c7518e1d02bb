"""The discord.py client: intents, command sync, the San Marco cog and its persistent items."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.computers import EngineComputers, hard_budget
from bot.config import Config
from bot.service import GameService, open_service

log = logging.getLogger(__name__)

COG_EXTENSION = "bot.cogs.sanmarco"


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


class SanMarcoBot(commands.Bot):
    """Hosts San Marco games. All game logic is in the service and the engine."""

    def __init__(self, config: Config, *, service: GameService | None = None,
                 sync_commands: bool = True, **options: Any) -> None:
        options.setdefault("intents", bot_intents())
        options.setdefault("help_command", None)
        options.setdefault("allowed_mentions", only_users())
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

    @property
    def game_service(self) -> GameService:
        """The service (opened in ``setup_hook`` unless one was given)."""
        if self.service is None:
            raise RuntimeError("the game service is not open yet")
        return self.service

    async def setup_hook(self) -> None:
        if self.service is None:
            self.service = await open_service(
                self.config.db_path,
                computers=EngineComputers(hard_budget=hard_budget(self.config.hard_playouts)))
            log.info("opened the game store")
        # The cog registers its DynamicItems (persistent buttons) and starts the reminders.
        await self.load_extension(COG_EXTENSION)
        if not self.sync_commands:
            return
        if self.config.test_guild is not None:
            guild = discord.Object(id=self.config.test_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to test guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global command(s)", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s) to %d guild(s)", self.user,
                 self.user.id if self.user else "?", len(self.guilds))

    async def close(self) -> None:
        await super().close()
        if self._owns_service and self.service is not None:
            await self.service.close()
            self.service = None

