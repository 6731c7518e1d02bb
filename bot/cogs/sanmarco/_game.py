"""``/sanmarco game``: this channel's game from its lobby to its end — ``new``, ``join``,
``leave``, ``start``, ``computer``, ``log``, ``undo``, ``rules``, ``abandon``.

A base of the cog (a Cog itself, so its commands type-check; discord.py binds every command
of the cog's groups to the cog): errors reach the cog's one error handler, and each command
is deferred privately before its body runs (the cog's ``interaction_check``), so it answers
with ``send_private`` or ``send_public`` + ``finish_command``.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, text
from bot.service import GameService
from bot.service.errors import BadInput, Code
from engine.ai import is_computer

from . import _screens as screens
from ._inputs import channel_of, guild_of, or_nothing
from ._language import channel_language, channel_tr, user_tr
from ._panels import Panels, is_manager, pid_of, send_screen
from ._posting import Poster, finish_command
from ._tree import GAME
from ._where import send_private, send_public

Interaction = discord.Interaction[Any]


class GameCommands(commands.Cog):
    """The cog's commands about this channel's game."""

    service: GameService
    poster: Poster
    panels: Panels

    # ------------------------------------------------------------------ the lobby
    @GAME.command(name="new", description="Open a new San Marco game in this channel")
    @app_commands.describe(seats="How many players: 3 or 4",
                           computers="How many seats computer players take now (0-3)",
                           level="How well they play (hard thinks up to a second a move)")
    async def new(self, interaction: Interaction,
                  seats: app_commands.Range[int, 3, 4] = 3,
                  computers: app_commands.Range[int, 0, 3] = 0,
                  level: Literal["normal", "easy", "hard"] = "normal") -> None:
        channel, guild, pid = channel_of(interaction), guild_of(interaction), pid_of(interaction)
        if computers >= seats:
            raise BadInput(Code.COMPUTER_SEATS)
        lobby = await self.service.create_lobby(guild, channel, pid, seats=seats,
                                                name=interaction.user.display_name)
        for _ in range(computers):
            lobby = await self.service.add_computer(channel, pid, level=level)
        screen = screens.lobby(await channel_tr(self.service, interaction), lobby)
        await send_screen(interaction, screen)

    @GAME.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: Interaction) -> None:
        pid = pid_of(interaction)
        lobby = await self.service.join(channel_of(interaction), pid,
                                        name=interaction.user.display_name)
        tr = await channel_tr(self.service, interaction)
        await send_screen(interaction, screens.lobby(tr, lobby, text.joins(tr, pid)))

    @GAME.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: Interaction) -> None:
        pid = pid_of(interaction)
        lobby = await self.service.leave(channel_of(interaction), pid)
        tr = await channel_tr(self.service, interaction)
        await send_screen(interaction, screens.lobby(tr, lobby, text.leaves(tr, pid)))

    @GAME.command(name="start", description="Start the game with the players seated")
    @app_commands.describe(fill="Fill the empty seats with computer players first")
    async def start(self, interaction: Interaction, fill: bool = False) -> None:
        channel = channel_of(interaction)
        async with self.poster.lock(channel, self.service.busy_timeout):
            update = await self.service.start(channel, pid_of(interaction),
                                              fill_with_computers=bool(fill),
                                              is_admin=is_manager(interaction))
            language = await channel_language(self.service, interaction)
            refused = await self.poster.post(interaction, update, language,
                                             header=text.game_begins(i18n.translations(
                                                 language)))
        await finish_command(interaction, refused.note(user_tr(interaction))
                             if refused is not None else None)

    @GAME.command(name="computer",
                  description="Add a computer player to the lobby, or take one out")
    @app_commands.describe(level="How well it plays (hard thinks up to a second a move)",
                           remove="The computer player to take out")
    async def computer(self, interaction: Interaction,
                       level: Literal["normal", "easy", "hard"] = "normal",
                       remove: str | None = None) -> None:
        channel, pid = channel_of(interaction), pid_of(interaction)
        if remove:
            lobby = await self.service.remove_computer(channel, pid, remove)
        else:
            lobby = await self.service.add_computer(channel, pid, level=level)
        screen = screens.lobby(await channel_tr(self.service, interaction), lobby)
        await send_screen(interaction, screen)

    @computer.autocomplete("remove")
    async def _computer_autocomplete(self, interaction: Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            status = await self.service.status(channel_of(interaction))
            if status.status != "lobby":
                return []
            tr = user_tr(interaction)
            return [app_commands.Choice(name=text.name_of(tr, p, status.names)[:100], value=p)
                    for p in status.players if is_computer(p)]

        return await or_nothing(interaction, choices())

    # ------------------------------------------------------------------ reading back
    @GAME.command(name="log", description="What has happened in this game")
    async def log_(self, interaction: Interaction) -> None:
        channel = channel_of(interaction)
        game_log = await self.service.log(channel)
        names = await self.service.names(channel)
        tr = user_tr(interaction)
        answer = text.events_text(tr, game_log.events, names, latest=True) or text.nothing_yet(tr)
        await send_private(interaction, answer)

    @GAME.command(name="undo",
                  description="Take back your last move while nobody has moved since")
    async def undo(self, interaction: Interaction) -> None:
        await self.panels.undo(interaction, channel_of(interaction))

    @GAME.command(name="rules", description="A short summary of a rule")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t)
                                 for t in text.RULE_TOPIC_NAMES])
    async def rules(self, interaction: Interaction, topic: str = "overview") -> None:
        summary = text.rule_topic(user_tr(interaction), topic)
        if summary is None:
            raise BadInput(Code.TOPIC)
        await send_private(interaction, summary)

    # ------------------------------------------------------------------ the end
    @GAME.command(name="abandon",
                  description="End this channel's game (its creator or Manage Channel)")
    async def abandon(self, interaction: Interaction) -> None:
        pid = pid_of(interaction)
        await self.service.abandon(channel_of(interaction), pid,
                                   is_admin=is_manager(interaction))
        await send_public(interaction, text.abandoned_by(
            await channel_tr(self.service, interaction), pid))
        await finish_command(interaction)
