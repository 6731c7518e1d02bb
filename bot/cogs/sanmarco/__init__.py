"""San Marco's slash commands, buttons and selects.

``_cog`` receives interactions (the slash commands and the entry point of every component);
``_items`` are the persistent components, ``_panels`` what they do and the private panels,
``_screens`` what a message shows, ``_posting`` the public posts and board pictures,
``_reminders`` the reminder pass, ``_autocomplete`` the lists of legal choices.
"""

from __future__ import annotations

from discord.ext import commands

from ._cog import SanMarcoCog


async def setup(bot: commands.Bot) -> None:
    from bot.client import SanMarcoBot

    if not isinstance(bot, SanMarcoBot):
        raise TypeError("the San Marco cog needs a SanMarcoBot (it holds the game service)")
    await bot.add_cog(SanMarcoCog(bot, bot.game_service))
