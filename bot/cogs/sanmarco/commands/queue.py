"""Finding players on a server: ``/sanmarco-server lobbies`` (the server's open lobbies, with
their free seats and links) and ``/sanmarco-server queue`` — ``join`` (wait for a table of
3 or 4; computers may fill the empty seats after a wait; optionally the language the game
speaks), ``leave`` and ``list``. When a table is complete the bot opens its thread in the
channel of the player who completed it and starts the game there, pinging everyone (tables
computers fill are opened by the periodic pass, ``reminders``).

A base of the cog like ``commands.settings``: its commands are bound to the cog, deferred privately
by its ``interaction_check``, and their errors reach its one error handler.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot import i18n, text
from bot.cogs.sanmarco.commands.history import here_of
from bot.cogs.sanmarco.commands.inputs import guild_of
from bot.cogs.sanmarco.commands.tree import QUEUE, SERVER
from bot.cogs.sanmarco.components.panels import Panels, pid_of
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import user_tr
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.saved import mark_saved
from bot.service import FILL_AFTER, GameService

# The language a queued game speaks: each language by its own name.
GAME_LANGUAGES = [app_commands.Choice(name=text.LANGUAGE_NAMES[code], value=code)
                  for code in i18n.LANGUAGES]


class FindingCommands(commands.Cog):
    """The cog's commands that find players: the server's lobbies and its queue."""

    service: GameService
    panels: Panels
    opener: Opener

    @SERVER.command(name="lobbies", description="This server's open lobbies and their free "
                                                "seats")
    async def lobbies(self, interaction: Interaction) -> None:
        """The listed channels' lobbies and those of the place it is asked in (as
        ``history``: a private channel's lobbies are told in it only)."""
        await send_private(interaction, text.lobbies_text(
            user_tr(interaction), await self.service.lobbies(guild_of(interaction),
                                                             here=here_of(interaction))))

    @QUEUE.command(name="join", description="Wait for players: a thread opens for the game "
                                            "when the table is full")
    @app_commands.describe(players="How many players: 3 or 4",
                           computers="Computers may take the empty seats after a wait",
                           language="The language the game speaks (any if not given)")
    @app_commands.choices(language=GAME_LANGUAGES)
    async def queue_join(self, interaction: Interaction,
                         players: app_commands.Range[int, 3, 4] = 4, computers: bool = False,
                         language: str | None = None) -> None:
        guild, pid = guild_of(interaction), pid_of(interaction)
        parent = self.opener.parent_of(interaction)
        self.opener.check(interaction)  # a table found here opens its thread here
        sought = await self.service.seek(guild, parent, pid,
                                         name=interaction.user.display_name,
                                         players=players, fill=bool(computers),
                                         language=language)
        tr = user_tr(interaction)
        if sought.found is None:
            mark_saved(interaction)
            await send_private(interaction, text.queue_joined(
                tr, sought.seeker, sought.waiting, int(FILL_AFTER // 60)))
            return
        thread = await self.opener.open_found(sought.found)
        await self.panels.opened(interaction, thread, parent,
                                 text.queue_found(tr, sought.found.number, thread))

    @QUEUE.command(name="leave", description="Stop waiting in this server's queue")
    async def queue_leave(self, interaction: Interaction) -> None:
        await self.service.leave_queue(guild_of(interaction), pid_of(interaction))
        mark_saved(interaction)
        await send_private(interaction, text.queue_left(user_tr(interaction)))

    @QUEUE.command(name="list", description="Who waits in this server's queue")
    async def queue_list(self, interaction: Interaction) -> None:
        await send_private(interaction, text.queue_text(
            user_tr(interaction), await self.service.queue(guild_of(interaction))))
