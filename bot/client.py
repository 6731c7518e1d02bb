"""The discord.py client: intents, command sync, the San Marco cog and its persistent items."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.config import Config

log = logging.getLogger(__name__)

COG_EXTENSION = "bot.cogs.sanmarco"


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

    def __init__(self, config: Config, *, service: Any = None, sync_commands: bool = True,
                 **options: Any) -> None:
        options.setdefault("intents", bot_intents())
        options.setdefault("help_command", None)
        # Only slash commands: a mention prefix keeps commands.Bot happy without message content.
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.config = config
        self.sync_commands = sync_commands
        self.service: Any = service
        self._owns_service = service is None

    async def setup_hook(self) -> None:
        if self.service is None:
            self.service = await open_service(self.config.db_path, self.config.hard_playouts)
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


async def open_service(db_path: str, hard_playouts: int | None = None) -> Any:
    """The game service over the SQLite store at ``db_path``; ``hard_playouts`` overrides
    the hard computer players' playouts per decision."""
    import dataclasses

    from bot.computers import EngineComputers
    from bot.service import open_service as _open
    from engine.ai import search

    budget = None if hard_playouts is None else \
        dataclasses.replace(search.HARD, playouts=hard_playouts)
    return await _open(db_path, computers=EngineComputers(hard_budget=budget))
