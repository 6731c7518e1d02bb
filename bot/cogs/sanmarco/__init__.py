"""San Marco's slash commands, buttons and selects: the Discord adapter over the service.

The rooms, each importing only the ones below it (the ``cog-rooms`` contract in
pyproject.toml):

- ``cog`` receives the slash commands (its bases are the ``commands``) and owns the
  lifecycle; ``translator`` gives the commands' words to Discord's client;
- ``reminders``: the periodic pass (lobbies closed, queues, turn timers, reminders);
- ``commands/``: one module per command group, the tree, autocomplete, what a person types;
- ``delivery/``: the outbox's worker, its plan and sending, the words and pictures of a post;
- ``components/``: the persistent buttons and selects, what each click does, what each
  message shows;
- ``shared/``: the interaction and its private answers, the reader's language, Discord's
  refusals, where a game opens.

A press of a button goes the way docs/CLICK.md walks.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from discord.ext import commands

from bot.cogs.sanmarco.cog import SanMarcoCog
from bot.cogs.sanmarco.translator import CatalogueTranslator, command_strings
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
