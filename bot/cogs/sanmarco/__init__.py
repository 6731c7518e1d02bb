"""San Marco's slash commands, buttons and selects: the Discord adapter over the service.

``_cog`` receives interactions (the slash commands and the entry point of every component);
``_items`` are the persistent components (``_custom_ids`` their ids), ``_panels`` what they do
and the private panels, ``_screens`` what a message shows, ``_posting`` the public posts and
board pictures (``_where`` where a message goes), ``_reminders`` the periodic pass,
``_autocomplete`` the lists of legal choices, ``_translator`` the commands' words in Discord's
client. The modules import one another one way only (the contracts in pyproject.toml).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from discord.ext import commands

from bot.cogs.sanmarco._cog import SanMarcoCog
from bot.cogs.sanmarco._translator import CatalogueTranslator, command_strings
from bot.config import Config
from bot.service import GameService

__all__ = ["CatalogueTranslator", "GameHost", "SanMarcoCog", "command_strings", "setup"]


@runtime_checkable
class GameHost(Protocol):
    """What the cog needs of the bot it is loaded into: its settings and its game service
    (``bot.client.SanMarcoBot`` is one)."""

    config: Config
    service: GameService | None


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point (``bot.load_extension("bot.cogs.sanmarco")``)."""
    if not isinstance(bot, GameHost) or bot.service is None:
        raise TypeError("the San Marco cog needs a bot with a config and an open game service")
    await bot.add_cog(SanMarcoCog(bot, bot.service, bot.config))
