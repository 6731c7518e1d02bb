"""San Marco's slash commands, buttons and selects (the cog is in _cog.py)."""

from __future__ import annotations

from discord.ext import commands

from ._cog import SanMarcoCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SanMarcoCog(bot, bot.service))  # type: ignore[attr-defined]
