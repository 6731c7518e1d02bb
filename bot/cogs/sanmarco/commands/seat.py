"""``/sanmarco seat``: who plays a seat — ``replace`` (a seat handed to a computer player or,
with ``by:``, to a person: by its player, by Manage Channel, or by a vote of the others),
``reclaim`` (your seat back from the computer), ``away`` (away from your games on this
server for a while: no time-outs up to each channel's limit, no reminders) and ``back``
(its early end).

A base of the cog like ``commands.game``: the commands are bound to the cog, deferred privately by
its ``interaction_check``, and their errors reach its one error handler.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.sanmarco.commands.durations import away_until
from bot.cogs.sanmarco.commands.inputs import channel_of, guild_of, or_nothing
from bot.cogs.sanmarco.commands.tree import SEAT
from bot.cogs.sanmarco.components.panels import Panels, is_manager, pid_of
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import user_tr
from bot.cogs.sanmarco.shared.saved import mark_saved
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.results import AwayGame
from bot.store import player_of
from bot.text.markup import MAX_CHOICE_TEXT, unmention


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

    # ------------------------------------------------------------------ away and back
    @SEAT.command(name="away",
                  description="Away from your games on this server: no time-outs, no reminders")
    @app_commands.describe(for_="How long: 5d, 36h or 2d 6h (at most 14 days)",
                           until="Or until when: 2026-12-03 18:00 (this channel's time zone)")
    @app_commands.rename(for_="for")
    async def away(self, interaction: Interaction, for_: str | None = None,
                   until: str | None = None) -> None:
        guild, channel = guild_of(interaction), channel_of(interaction)
        zone = (await self.service.settings(channel)).timezone
        moment = away_until(for_, until, self.service.clock(), zone)
        away = await self.service.set_away(guild, pid_of(interaction), moment)
        assert away.until is not None
        answer = text.away_set(user_tr(interaction), away.until, away.games)
        await self._told(interaction, answer, away.games)

    @away.autocomplete("for_")
    async def _for_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return await or_nothing(interaction, self._read_back(interaction, current, True))

    @away.autocomplete("until")
    async def _until_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return await or_nothing(interaction, self._read_back(interaction, current, False))

    async def _read_back(self, interaction: Interaction, current: str,
                         duration: bool) -> list[app_commands.Choice[str]]:
        """What was typed, read back: the moment it means in the channel's time zone (or
        nothing, if it means none)."""
        typed = str(current or "").strip()
        if not typed:
            return []
        zone = (await self.service.settings(channel_of(interaction))).timezone
        try:
            moment = away_until(typed if duration else None, None if duration else typed,
                                self.service.clock(), zone)
        except ServiceError:
            return []
        shown = text.local_time(user_tr(interaction), moment, zone)
        return [app_commands.Choice(name=f"{typed} → {shown} ({zone})"[:MAX_CHOICE_TEXT],
                                    value=typed)]

    @SEAT.command(name="back", description="Back early: your turns are timed and reminded again")
    async def back(self, interaction: Interaction) -> None:
        away = await self.service.back(guild_of(interaction), pid_of(interaction))
        await self._told(interaction, text.back_answer(user_tr(interaction), away.games),
                         away.games)

    async def _told(self, interaction: Interaction, answer: str,
                    games: tuple[AwayGame, ...]) -> None:
        """The private answer, once the games' channels have their posts (each waited for
        at once, briefly), with what became of the post in this channel if it is not
        simply there."""
        mark_saved(interaction)  # the absence is saved, whatever becomes of the answer
        here, guild = interaction.channel_id, interaction.guild_id
        others = [g.channel_id for g in games if g.channel_id != here]
        if guild is not None and others:
            await asyncio.gather(*(self.panels.deliverer.flush(c, guild) for c in others))
        note = (await self.panels.delivered(interaction, here)
                if here is not None and any(g.channel_id == here for g in games) else None)
        await send_private(interaction, answer + (f"\n{note}" if note else ""))
