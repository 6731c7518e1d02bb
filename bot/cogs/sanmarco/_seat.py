"""``/sanmarco seat``: who plays a seat — ``replace`` (a seat handed to a computer player or,
with ``by:``, to a person: by its player, by Manage Channel, or by a vote of the others) and
``reclaim`` (your seat back from the computer).

A base of the cog like ``_game``: the commands are bound to the cog, deferred privately by
its ``interaction_check``, and their errors reach its one error handler.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.service import GameService
from bot.store import player_of
from bot.text.markup import unmention

from ._inputs import channel_of, or_nothing
from ._language import user_tr
from ._panels import Panels, is_manager, pid_of
from ._tree import SEAT

Interaction = discord.Interaction[Any]


class SeatCommands(commands.Cog):
    """The cog's commands about who plays a seat."""

    service: GameService
    panels: Panels

    @SEAT.command(name="replace",
                  description="Hand a seat to a computer player, or to a person (by vote)")
    @app_commands.describe(player="The seat's player (or yourself, to hand over your seat)",
                           by="Who takes the seat over (empty: a computer player)")
    async def replace(self, interaction: Interaction, player: str,
                      by: discord.User | None = None) -> None:
        channel, pid = channel_of(interaction), pid_of(interaction)
        if by is None:
            await self.service.vote_replace(channel, pid, unmention(player),
                                            is_admin=is_manager(interaction))
        else:
            await self.service.vote_replace(channel, pid, unmention(player), by=str(by.id),
                                            by_name=by.display_name, by_bot=by.bot,
                                            is_admin=is_manager(interaction))
        await self.panels.posted(interaction, channel)  # the vote or the hand-over

    @replace.autocomplete("player")
    async def _replace_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            status = await self.service.status(channel_of(interaction))
            if status.status != "running":
                return []
            typed = str(current or "").lower()
            tr = user_tr(interaction)
            # the seats as whoever plays them now; a seat a computer plays can only go to a
            # person, so it is offered once ``by:`` names one
            to_person = getattr(interaction.namespace, "by", None) is not None
            return [app_commands.Choice(name=text.name_of(tr, p, status.names)[:100],
                                        value=player_of(status.names, p))
                    for p in status.players if (to_person or p not in status.computers)
                    and typed in text.name_of(tr, p, status.names).lower()]

        return await or_nothing(interaction, choices())

    @SEAT.command(name="reclaim", description="Take back your seat from the computer player")
    async def reclaim(self, interaction: Interaction) -> None:
        channel = channel_of(interaction)
        await self.service.reclaim(channel, pid_of(interaction))
        await self.panels.posted(interaction, channel)
