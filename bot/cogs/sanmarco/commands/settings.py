"""Games that keep moving over days: ``/sanmarco-server settings`` (the channel's),
``notify`` and ``games`` (``/sanmarco game undo`` is with the game's commands).

A base of the cog like ``commands.history`` (discord.py binds every command of the cog's groups to
the cog): their errors reach the cog's one error handler. Each command is deferred privately
before its body runs (the cog's ``interaction_check``), so it answers with ``send_private``;
a settings change is posted in the channel by the outbox, with it.
"""

from __future__ import annotations

import functools
import zoneinfo
from typing import Any, Literal

from discord import app_commands
from discord.ext import commands

from bot import i18n, text
from bot.cogs.sanmarco.commands.inputs import channel_of, guild_of
from bot.cogs.sanmarco.commands.tree import SERVER
from bot.cogs.sanmarco.components.panels import Panels, is_manager, pid_of
from bot.cogs.sanmarco.delivery.notify import Notifier
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import channel_language, user_tr
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.saved import mark_saved
from bot.config import Config
from bot.service import GameService
from bot.service.errors import BadInput, Code, ServiceError
from bot.text.markup import MAX_CHOICES
from engine.ai import LEVELS

MAX_HOURS = 24 * 14
FOLLOW_SERVER = "server"  # the language option's value for "follow the server's language"

# The channel's language: each language by its own name, and back to the
# server's preferred locale.
LANGUAGE_CHOICES = [*(app_commands.Choice(name=text.LANGUAGE_NAMES[code], value=code)
                      for code in i18n.LANGUAGES),
                    app_commands.Choice(name="The server's language", value=FOLLOW_SERVER)]

# Whether the server's page lists the channel's games: as Discord says who may view the
# channel (only while every member may), or a manager's choice either way.
LISTED: dict[str, bool | None] = {"auto": None, "always": True, "never": False}
LISTED_NAMES = {"auto": "While everyone can view the channel", "always": "Always",
                "never": "Never"}


@functools.cache
def time_zones() -> tuple[str, ...]:
    """The IANA time zone names this machine knows, sorted (read once)."""
    zones = {z for z in zoneinfo.available_timezones()
             if "/" in z and not z.startswith(("Etc/", "SystemV/", "posix/", "right/"))}
    return (*sorted(zones), "UTC")


def zone_choices(typed: str) -> list[app_commands.Choice[str]]:
    """Up to 25 time zones matching what was typed: names that start with it first."""
    typed = typed.strip().lower().replace(" ", "_")
    zones = time_zones()
    first = [z for z in zones if z.lower().startswith(typed)]
    inner = [z for z in zones if typed in z.lower() and z not in first]
    return [app_commands.Choice(name=z, value=z) for z in (first + inner)[:MAX_CHOICES]]


class MovingCommands(commands.Cog):
    """The cog's commands that keep games moving over days."""

    service: GameService
    notifier: Notifier
    panels: Panels
    opener: Opener
    config: Config

    # ------------------------------------------------------------------ settings
    @SERVER.command(name="settings",
                    description="This channel's settings; Manage Channel changes them")
    @app_commands.describe(
        reminder_hours="Hours between reminders while a game waits on someone (0 = off)",
        quiet_from="Quiet hours begin at this hour (0-23, the channel's time zone)",
        quiet_to="Quiet hours end at this hour (0-23); the same hour as quiet_from: none",
        timezone="The channel's time zone, e.g. Europe/Berlin",
        turn_timer="Hours a decision may wait before the computer makes it (0 = off)",
        computer_level="How well the computer plays for absent players",
        language="The language of the channel's posts and pictures",
        threads="Each new game gets a thread of this channel (off: one game here)",
        away_cap="Hours a game waits on an away player's decision (0 = not at all)",
        pages="Each game has a web page: its board, log and replay, live",
        server_page="The server's web page: lobbies, games, leaderboard, history",
        listed="Whether the server's web page lists this channel's games",
        hints="Players may ask for the hard computer's choice (a hinted game is not rated)")
    @app_commands.choices(computer_level=[app_commands.Choice(name=level, value=level)
                                          for level in LEVELS],
                          language=LANGUAGE_CHOICES,
                          listed=[app_commands.Choice(name=LISTED_NAMES[c], value=c)
                                  for c in LISTED])
    async def settings(self, interaction: Interaction,
                       reminder_hours: app_commands.Range[float, 0, MAX_HOURS] | None = None,
                       quiet_from: app_commands.Range[int, 0, 23] | None = None,
                       quiet_to: app_commands.Range[int, 0, 23] | None = None,
                       timezone: str | None = None,
                       turn_timer: app_commands.Range[float, 0, MAX_HOURS] | None = None,
                       computer_level: str | None = None,
                       language: str | None = None, threads: bool | None = None,
                       away_cap: app_commands.Range[float, 0, MAX_HOURS] | None = None,
                       pages: bool | None = None, server_page: bool | None = None,
                       hints: bool | None = None, listed: str | None = None) -> None:
        channel = channel_of(interaction)
        changes = (reminder_hours, quiet_from, quiet_to, timezone, turn_timer, computer_level,
                   language, threads, away_cap, pages, hints)
        if listed is not None:  # the server's page and this channel: said privately
            if not is_manager(interaction):
                raise ServiceError(Code.SETTINGS_PERMISSION)
            if listed not in LISTED:
                raise BadInput()
            await self.service.list_channel(guild_of(interaction), channel, LISTED[listed])
            if server_page is None and all(c is None for c in changes):
                await send_private(interaction, text.channel_listed(user_tr(interaction),
                                                                    LISTED[listed]))
                return
        if server_page is not None:  # the server's, not the channel's: said privately
            if not is_manager(interaction):
                raise ServiceError(Code.SETTINGS_PERMISSION)
            token = await self.service.set_server_page(guild_of(interaction),
                                                       bool(server_page))
            if all(c is None for c in changes):
                url = self.config.public_url
                await send_private(interaction, text.server_page_set(
                    user_tr(interaction), bool(server_page),
                    f"{url.rstrip('/')}/s/{token}" if url else None))
                return
        if all(c is None for c in changes):
            shown = await self.service.settings(channel)
            await send_private(interaction, text.settings_text(
                user_tr(interaction), shown, can_change=is_manager(interaction),
                effective=await channel_language(self.service, interaction),
                threads=await self.opener.threads_on(channel)))
            return
        if not is_manager(interaction):
            raise ServiceError(Code.SETTINGS_PERMISSION)
        quiet: tuple[int, int] | None | str = "keep"
        if quiet_from is not None or quiet_to is not None:
            if quiet_from is None or quiet_to is None:
                raise BadInput(Code.QUIET_HOURS)
            quiet = None if quiet_from == quiet_to else (quiet_from, quiet_to)
        if language is not None and language != FOLLOW_SERVER \
                and not i18n.is_language(language):
            raise BadInput(Code.LANGUAGE)
        await self.service.set_settings(
            channel, reminder_hours=reminder_hours, quiet_hours=quiet,
            timezone=timezone.strip() if isinstance(timezone, str) else None,
            turn_timer_hours=turn_timer, computer_level=computer_level,
            language="keep" if language is None else None if language == FOLLOW_SERVER
            else language, threads=None if threads is None else bool(threads),
            away_cap_hours=away_cap, pages=None if pages is None else bool(pages),
            hints=None if hints is None else bool(hints), guild=guild_of(interaction),
            by=pid_of(interaction))
        await self.panels.posted(interaction, channel)  # the change is posted with it

    @settings.autocomplete("timezone")
    async def _timezone_autocomplete(self, interaction: Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
        return zone_choices(str(current or ""))

    # ------------------------------------------------------------------ notifications
    @SERVER.command(name="notify", description="How you hear it is your turn on this server")
    @app_commands.describe(how="A mention in the channel, a direct message, both, or nothing")
    async def notify(self, interaction: Interaction,
                     how: Literal["mention", "dm", "both", "none"] | None = None) -> None:
        guild, pid = guild_of(interaction), pid_of(interaction)
        if how is None:
            mode = await self.service.notify_mode(guild, pid)
        else:
            mode = await self.service.set_notify_mode(guild, pid, how)
            mark_saved(interaction)
        await send_private(interaction, text.notify_text(user_tr(interaction), mode))

    # ------------------------------------------------------------------ your games
    @SERVER.command(name="games",
                    description="Your games on this server and what they wait for")
    async def games(self, interaction: Interaction) -> None:
        guild, pid = guild_of(interaction), pid_of(interaction)
        tr = user_tr(interaction)
        answer = text.my_games_text(tr, await self.service.my_games(guild, pid), pid)
        until = (await self.service.away(guild, [pid])).get(pid)
        if until is not None:  # away from these games: said first, with its way back
            answer = text.away_head(tr, until) + "\n" + answer
        await send_private(interaction, answer)

    # ------------------------------------------------------------------ the hint
    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: Interaction,
                                        command: app_commands.Command[Any, Any, Any]
                                        | app_commands.ContextMenu) -> None:
        """After a command: the private hint after a refused DM, once."""
        await self.notifier.hint(interaction)
