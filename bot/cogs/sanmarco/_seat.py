"""``/sanmarco seat``: who plays a seat — ``replace`` (a vote to let a computer play an
absent player's seat, or a seat handed over) and ``reclaim`` (your seat back from the
computer).

A base of the cog like ``_game``: the commands are bound to the cog, deferred privately by
its ``interaction_check``, and their errors reach its one error handler.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, text
from bot.service import GameService
from bot.text.markup import unmention

from ._inputs import channel_of, or_nothing
from ._language import channel_language, channel_tr, user_tr
from ._panels import is_manager, pid_of
from ._posting import Poster, finish_command
from ._tree import SEAT
from ._where import send_public

Interaction = discord.Interaction[Any]


class SeatCommands(commands.Cog):
    """The cog's commands about who plays a seat."""

    service: GameService
    poster: Poster

    @SEAT.command(name="replace",
                  description="Vote to let a computer play an absent player's seat")
    @app_commands.describe(player="The absent player (or yourself, to hand over your seat)")
    async def replace(self, interaction: Interaction, player: str) -> None:
        channel, pid = channel_of(interaction), pid_of(interaction)
        target = unmention(player)
        async with self.poster.lock(channel, self.service.busy_timeout):
            outcome = await self.service.vote_replace(channel, pid, target,
                                                      is_admin=is_manager(interaction))
            language = await channel_language(self.service, interaction)
            tr = i18n.translations(language)
            refused = None
            if outcome.update is None:
                await send_public(interaction, text.replace_vote(
                    tr, pid, target, outcome.votes, outcome.needed, outcome.names) + "\n"
                    + text.now_line(tr, outcome.awaiting, outcome.names))
            else:
                header = text.replaced(tr, target, outcome.names,
                                       finished=outcome.update.finished)
                refused = await self.poster.post(interaction, outcome.update, language,
                                                 header=header)
        await finish_command(interaction, refused.note(user_tr(interaction))
                             if refused is not None else None)

    @replace.autocomplete("player")
    async def _replace_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            status = await self.service.status(channel_of(interaction))
            if status.status != "running":
                return []
            typed = str(current or "").lower()
            tr = user_tr(interaction)
            return [app_commands.Choice(name=text.name_of(tr, p, status.names)[:100], value=p)
                    for p in status.players if p not in status.computers
                    and typed in text.name_of(tr, p, status.names).lower()]

        return await or_nothing(interaction, choices())

    @SEAT.command(name="reclaim", description="Take back your seat from the computer player")
    async def reclaim(self, interaction: Interaction) -> None:
        pid = pid_of(interaction)
        back = await self.service.reclaim(channel_of(interaction), pid)
        tr = await channel_tr(self.service, interaction)
        await send_public(interaction, text.reclaimed(tr, pid, back.names) + "\n"
                          + text.now_line(tr, back.awaiting, back.names))
        await finish_command(interaction)
