"""``/sanmarco game``: this channel's game from its lobby to its end — ``new``, ``join``,
``leave``, ``start``, ``computer``, ``log``, ``undo``, ``rules``, ``abandon``. ``new`` in a
text channel opens the game in a new thread of it (``shared.opening``), unless the channel keeps
one game at a time.

A base of the cog (a Cog itself, so its commands type-check; discord.py binds every command
of the cog's groups to the cog): errors reach the cog's one error handler, and each command
is deferred privately before its body runs (the cog's ``interaction_check``), so it answers
with ``send_private``; a change's post is the outbox's (``Panels.posted`` waits for it and
says what became of it).
"""

from __future__ import annotations

from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.sanmarco.commands.inputs import channel_of, guild_of, or_nothing
from bot.cogs.sanmarco.commands.tree import GAME
from bot.cogs.sanmarco.components.panels import Panels, is_manager, pid_of
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import user_tr
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.saved import mark_saved
from bot.service import GameService
from bot.service.errors import BadInput, Code
from engine.ai import is_computer


class GameCommands(commands.Cog):
    """The cog's commands about this channel's game."""

    service: GameService
    panels: Panels
    opener: Opener

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
        name = interaction.user.display_name
        home = await self.opener.home(interaction)
        if not home.in_thread:
            await self.service.create_lobby(guild, channel, pid, seats=seats, name=name,
                                            computers=computers, level=level)
            await self.panels.posted(interaction, channel)
            return
        # A new thread: everything that could refuse is asked first, so a refusal leaves
        # no empty thread behind; the thread is named once, after the game's number.
        seated = self.service.lobby_seats(pid, name, seats=seats, computers=computers,
                                          level=level)
        await self.service.check_can_open(guild, pid)
        self.opener.check(interaction)
        number = await self.service.reserve_number()
        thread = await self.opener.make_thread(channel, await self.opener.thread_name(
            guild, channel, number, [s.pid for s in seated],
            {s.pid: s.name for s in seated if s.name}))
        await self.service.create_lobby(guild, thread, pid, seats=seats, name=name,
                                        computers=computers, level=level, parent=channel,
                                        number=number)
        await self.panels.opened(interaction, thread, channel,
                                 text.game_opened(user_tr(interaction), number, thread))

    @GAME.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: Interaction) -> None:
        channel = channel_of(interaction)
        await self.service.join(channel, pid_of(interaction),
                                name=interaction.user.display_name)
        await self.panels.posted(interaction, channel)  # the lobby post, edited

    @GAME.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: Interaction) -> None:
        channel = channel_of(interaction)
        await self.service.leave(channel, pid_of(interaction))
        await self.panels.posted(interaction, channel)

    @GAME.command(name="start", description="Start the game with the players seated")
    @app_commands.describe(fill="Fill the empty seats with computer players first")
    async def start(self, interaction: Interaction, fill: bool = False) -> None:
        channel = channel_of(interaction)
        await self.service.start(channel, pid_of(interaction), fill_with_computers=bool(fill),
                                 is_admin=is_manager(interaction))
        await self.panels.posted(interaction, channel)

    @GAME.command(name="computer",
                  description="Add a computer player to the lobby, or take one out")
    @app_commands.describe(level="How well it plays (hard thinks up to a second a move)",
                           remove="The computer player to take out")
    async def computer(self, interaction: Interaction,
                       level: Literal["normal", "easy", "hard"] = "normal",
                       remove: str | None = None) -> None:
        channel, pid = channel_of(interaction), pid_of(interaction)
        if remove:
            await self.service.remove_computer(channel, pid, remove)
        else:
            await self.service.add_computer(channel, pid, level=level)
        await self.panels.posted(interaction, channel)

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
        answer = text.log_text(tr, game_log.entries, names) or text.nothing_yet(tr)
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
    @app_commands.describe(game="A game whose channel is gone, by its number (from anywhere)")
    async def abandon(self, interaction: Interaction, game: int | None = None) -> None:
        if game is not None:  # its channel is gone: ended from here, nothing to post
            if not isinstance(game, int) or isinstance(game, bool):
                raise BadInput(Code.MALFORMED)
            ended = await self.service.end_suspended(
                guild_of(interaction), pid_of(interaction), game,
                is_admin=bool(interaction.permissions.manage_guild))
            mark_saved(interaction)
            await send_private(interaction, text.suspended_ended(user_tr(interaction),
                                                                 ended.game_id))
            return
        channel = channel_of(interaction)
        await self.service.abandon(channel, pid_of(interaction), is_admin=is_manager(interaction))
        await self.panels.posted(interaction, channel)

    @abandon.autocomplete("game")  # type: ignore[arg-type]  # an int option's autocomplete
    async def _abandon_autocomplete(self, interaction: Interaction,
                                    current: int) -> list[app_commands.Choice[int]]:
        async def choices() -> list[app_commands.Choice[int]]:
            tr = user_tr(interaction)
            return [app_commands.Choice(name=text.suspended_choice(tr, g)[:100],
                                        value=g.game_id)
                    for g in await self.service.suspended_games(guild_of(interaction))][:25]

        return await or_nothing(interaction, choices())
