"""The San Marco cog: the ``/sanmarco`` slash commands, the entry point of every button and
select, and the one place errors become answers.

A command reads what a person typed, calls the service (which checks the game and the turn,
and the engine the rules, and commits the change with the posts the channel must see), and
answers privately; buttons and selects are ``_items`` handed to ``_panels``; the channel's
posts are the outbox's (``_delivery``), board pictures ``_drawing``'s, the periodic pass
``_reminders``'. Each interaction is deferred before any store work (``interaction_check``
for commands, ``on_component`` for buttons and selects: see ``_where``), so Discord's
3-second limit holds whatever the database does; any error then ends in one short ephemeral
sentence from ``bot.text`` (``_report``), never a traceback; a click Discord delivered too
late to answer changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, Literal, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, text
from bot.config import Config
from bot.service import GameService
from bot.service.errors import (
    BadInput,
    Code,
    GameNotStarted,
    NotYourTurn,
    RuleError,
    ServiceError,
    StalePrompt,
)
from engine import Action, MalformedAction, TakeOffer, decode
from engine.ai import is_computer

from . import _autocomplete as ac
from . import _screens as screens
from ._compose import Composer
from ._delivery import Deliverer
from ._drawing import Drawer
from ._faults import FaultKind, classify, log_fault
from ._history import HistoryCommands
from ._items import DYNAMIC_ITEMS, _Component
from ._language import channel_language, user_tr
from ._moving import MovingCommands
from ._notify import Notifier
from ._panels import Panels, is_manager, next_screen, pid_of, send_screen
from ._reminders import Reminders, shards_of
from ._where import NO_PINGS, send_private

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
T = TypeVar("T")
MAX_MOVE_TEXT = 200  # longer text is not a move; refused before parsing


def _channel(interaction: Interaction) -> int:
    if interaction.channel_id is None or interaction.guild_id is None:
        raise ServiceError(Code.NOT_IN_SERVER)
    return interaction.channel_id


def _guild(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError(Code.NOT_IN_SERVER)
    return interaction.guild_id


async def _or_nothing(interaction: Interaction, choices: Awaitable[list[T]]) -> list[T]:
    """Autocomplete offers nothing rather than failing: no game here, not a player, not
    awaited (discord.py does not route autocomplete errors to the tree's on_error)."""
    try:
        return await choices
    except ServiceError:
        return []
    except Exception as exc:
        log.error("autocomplete failed in %s (channel %s): %s", _where(interaction),
                  interaction.channel_id, type(exc).__name__, exc_info=exc)
        return []


def _where(interaction: Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data = interaction.data
    cid = str(data.get("custom_id", "")) if data is not None else ""
    return f"component {cid.split(':')[3] if cid.count(':') >= 3 else '?'}"


class SanMarcoCog(HistoryCommands, MovingCommands, commands.GroupCog, name="SanMarco",
                  group_name="sanmarco", group_description="Play San Marco in this channel"):
    """Slash commands under ``/sanmarco`` and the entry point of every button and select."""

    def __init__(self, bot: commands.Bot, service: GameService, config: Config) -> None:
        self.bot = bot
        self.service = service
        self.config = config
        self.notifier = Notifier(service)
        self.drawer = Drawer(config.render_processes)
        self.deliverer = Deliverer(bot, service, Composer(service, self.drawer), self.notifier,
                                   retry_first=config.outbox_retry_seconds,
                                   shards=lambda: shards_of(bot))
        self.panels = Panels(service, self.deliverer)
        self.reminders = Reminders(bot, service, drawer=self.drawer, deliverer=self.deliverer)
        super().__init__()

    # ------------------------------------------------------------------ lifecycle
    async def cog_load(self) -> None:
        self.drawer.start()
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.tree.error(self._tree_error)
        self.reminders.start(self.config.reminder_poll_seconds)

    async def cog_unload(self) -> None:
        self.reminders.stop()
        await self.deliverer.close()
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self.drawer.close()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (at start-up, or anew after Discord dropped the session): deliver what
        the outbox holds (a process killed between a commit and its post loses nothing)."""
        await self.deliverer.resume()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        """The gateway session resumed after a drop: posts may have waited meanwhile."""
        await self.deliverer.resume()

    # ------------------------------------------------------------------ answering
    async def interaction_check(self, interaction: Interaction) -> bool:
        """Runs before every slash command: defer privately at once, before any store work
        (a refusal stays private; a public result is posted to the channel). A command
        Discord delivered too late to answer changes nothing."""
        return await self._defer(interaction, ephemeral=True)

    async def _defer(self, interaction: Interaction, *, ephemeral: bool) -> bool:
        """Answer within Discord's 3 seconds, before any store work; False when Discord no
        longer takes an answer (10062: the click came too late; nothing is done)."""
        try:
            if ephemeral:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.HTTPException as exc:
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, f"answering {_where(interaction)}", interaction.channel_id)
            return False
        return True

    # ------------------------------------------------------------------ errors
    async def _tree_error(self, interaction: Interaction,
                          error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure) and not interaction.response.is_done():
            return  # interaction_check could not even defer it: there is nobody to tell
        original: BaseException = getattr(error, "original", error)
        if isinstance(error, app_commands.TransformerError
                      | app_commands.CommandSignatureMismatch):
            original = BadInput()
        await self._report(interaction, original)

    async def _report(self, interaction: Interaction, exc: BaseException) -> None:
        """Answer an error with one short ephemeral sentence from the table, in the user's
        language; never a traceback. An outdated prompt comes with the current one."""
        view: discord.ui.View | None = None
        tr = user_tr(interaction)
        fault = classify(exc) if isinstance(exc, discord.HTTPException) else None
        if fault is not None:  # Discord's, not ours: one line, and no answer if it expired
            log_fault(fault, _where(interaction), interaction.channel_id)
            if fault.kind is FaultKind.EXPIRED:
                return
            answer = text.apology(tr)
        elif isinstance(exc, ServiceError):
            action = exc.action if isinstance(exc, RuleError) else None
            answer = text.refusal(tr, exc.code, exc.params, action=action)
            if exc.code in (Code.STALE, Code.NOT_YOUR_TURN) and interaction.channel_id:
                answer, view = await self._current_prompt(interaction, tr, answer)
        else:
            log.error("unexpected error in %s (channel %s, user %s): %s",
                      _where(interaction), interaction.channel_id, interaction.user.id,
                      type(exc).__name__, exc_info=exc)
            answer = text.apology(tr)
        kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_PINGS}
        if view is not None:
            kwargs["view"] = view
        try:
            if interaction.response.is_done():
                await interaction.followup.send(answer, **kwargs)
            else:
                await interaction.response.send_message(answer, **kwargs)
        except discord.HTTPException as send_exc:
            fault = classify(send_exc)
            if fault is None:
                raise
            log_fault(fault, "answering privately", interaction.channel_id)

    async def _current_prompt(self, interaction: Interaction, tr: i18n.Tr,
                              head: str) -> tuple[str, discord.ui.View | None]:
        assert interaction.channel_id is not None
        try:
            snap = await self.service.snapshot(interaction.channel_id, pid_of(interaction))
        except ServiceError:  # no game any more: the sentence alone is the answer
            return head, None
        if snap.view is None or not snap.awaiting:
            return head, None
        return (text.with_current(tr, head, snap.awaiting, snap.names),
                screens.prompt(tr, snap.channel_id, snap.game_id, snap.view, snap.version))

    async def on_component(self, interaction: Interaction, item: _Component) -> None:
        """Entry point of every button and select (see _items): deferred as an update of
        the clicked message before any store work (a click Discord delivered too late to
        answer changes nothing)."""
        if not await self._defer(interaction, ephemeral=False):
            return
        try:
            if not item.belongs_to(interaction.channel_id):
                raise StalePrompt()
            await item.run(self.panels, interaction)
        except Exception as exc:
            await self._report(interaction, exc)
        else:
            await self.notifier.hint(interaction)  # after a refused DM, once

    # ------------------------------------------------------------------ the lobby
    @app_commands.command(name="new", description="Open a new San Marco game in this channel")
    @app_commands.describe(seats="How many players: 3 or 4",
                           computers="How many seats computer players take now (0-3)",
                           level="How well they play (hard thinks up to a second a move)")
    async def new(self, interaction: Interaction,
                  seats: app_commands.Range[int, 3, 4] = 3,
                  computers: app_commands.Range[int, 0, 3] = 0,
                  level: Literal["normal", "easy", "hard"] = "normal") -> None:
        channel, guild, pid = _channel(interaction), _guild(interaction), pid_of(interaction)
        if computers >= seats:
            raise BadInput(Code.COMPUTER_SEATS)
        await self.service.create_lobby(guild, channel, pid, seats=seats,
                                        name=interaction.user.display_name)
        for _ in range(computers):
            await self.service.add_computer(channel, pid, level=level)
        await self.panels.posted(interaction, channel)

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        await self.service.join(channel, pid_of(interaction),
                                name=interaction.user.display_name)
        await self.panels.posted(interaction, channel)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        await self.service.leave(channel, pid_of(interaction))
        await self.panels.posted(interaction, channel)

    @app_commands.command(name="start", description="Start the game with the players seated")
    @app_commands.describe(fill="Fill the empty seats with computer players first")
    async def start(self, interaction: Interaction, fill: bool = False) -> None:
        channel = _channel(interaction)
        await self.service.start(channel, pid_of(interaction), fill_with_computers=bool(fill),
                                 is_admin=is_manager(interaction))
        await self.panels.posted(interaction, channel)

    @app_commands.command(name="computer",
                          description="Add a computer player to the lobby, or take one out")
    @app_commands.describe(level="How well it plays (hard thinks up to a second a move)",
                           remove="The computer player to take out")
    async def computer(self, interaction: Interaction,
                       level: Literal["normal", "easy", "hard"] = "normal",
                       remove: str | None = None) -> None:
        channel, pid = _channel(interaction), pid_of(interaction)
        if remove:
            await self.service.remove_computer(channel, pid, remove)
        else:
            await self.service.add_computer(channel, pid, level=level)
        await self.panels.posted(interaction, channel)

    @computer.autocomplete("remove")
    async def _computer_autocomplete(self, interaction: Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            status = await self.service.status(_channel(interaction))
            if status.status != "lobby":
                return []
            tr = user_tr(interaction)
            return [app_commands.Choice(name=text.name_of(tr, p, status.names)[:100], value=p)
                    for p in status.players if is_computer(p)]

        return await _or_nothing(interaction, choices())

    # ------------------------------------------------------------------ looking
    @app_commands.command(name="board", description="Show the board (only you see it)")
    async def board(self, interaction: Interaction) -> None:
        snap = await self.service.snapshot(_channel(interaction), pid_of(interaction))
        if snap.view is None:
            raise GameNotStarted()
        # the picture in the channel's language (as posted), the words in the user's
        board = await self.drawer.board_file(snap.view, (), snap.names,
                                             await channel_language(self.service, interaction))
        caption = text.board_caption(user_tr(interaction), snap.status, snap.awaiting,
                                     snap.names)
        await send_private(interaction, caption, file=board)

    @app_commands.command(name="status", description="Whose move it is, and since when")
    async def status(self, interaction: Interaction) -> None:
        status = await self.service.status(_channel(interaction))
        await send_private(interaction, text.status_text(user_tr(interaction), status))

    @app_commands.command(name="hand", description="Re-open your private panel (only you see it)")
    async def hand(self, interaction: Interaction) -> None:
        channel, pid = _channel(interaction), pid_of(interaction)
        tr = user_tr(interaction)
        try:
            snap = await self.service.snapshot(channel, pid, turn=True)
        except NotYourTurn:
            snap = await self.service.snapshot(channel, pid)
            answer = text.not_your_turn_here(tr, snap.awaiting, snap.names)
            if snap.seated and snap.view is not None:
                answer += "\n" + text.position_line(tr, snap.view, pid)
            await send_private(interaction, answer)
            return
        screen = next_screen(tr, snap)
        if screen is None:
            raise NotYourTurn()
        await send_screen(interaction, screen)

    @app_commands.command(name="log", description="What has happened in this game")
    async def log_(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        game_log = await self.service.log(channel)
        names = await self.service.names(channel)
        tr = user_tr(interaction)
        answer = text.events_text(tr, game_log.events, names, latest=True) or text.nothing_yet(tr)
        await send_private(interaction, answer)

    @app_commands.command(name="rules", description="A short summary of a rule")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t)
                                 for t in text.RULE_TOPIC_NAMES])
    async def rules(self, interaction: Interaction, topic: str = "overview") -> None:
        summary = text.rule_topic(user_tr(interaction), topic)
        if summary is None:
            raise BadInput(Code.TOPIC)
        await send_private(interaction, summary)

    # ------------------------------------------------------------------ playing
    @app_commands.command(name="offers", description="Build and commit your offers "
                                                     "(distributors; only you see it)")
    async def offers(self, interaction: Interaction) -> None:
        snap = await self.service.snapshot(_channel(interaction), pid_of(interaction),
                                           turn=True)
        if snap.view is None or snap.view["phase"] != "split":
            raise RuleError("action.wrong_phase")
        screen = next_screen(user_tr(interaction), snap)
        if screen is None:
            raise NotYourTurn()
        await send_screen(interaction, screen)

    @app_commands.command(name="take", description="Take one of the revealed offers")
    @app_commands.describe(offer="The offer's number (1 is the first offer)")
    async def take(self, interaction: Interaction, offer: int) -> None:
        channel = _channel(interaction)
        # discord.py passes option values as Discord sent them: check the type too.
        if not isinstance(offer, int) or isinstance(offer, bool) or not 1 <= offer <= 10:
            raise BadInput(Code.OFFER_NUMBER)
        # Players see offers numbered from 1 (reveal line, buttons); the engine from 0.
        await self.panels.act(interaction, channel, TakeOffer(offer - 1))

    @take.autocomplete("offer")  # type: ignore[arg-type]  # an int option's autocomplete
    async def _take_autocomplete(self, interaction: Interaction,
                                 current: int) -> list[app_commands.Choice[int]]:
        async def choices() -> list[app_commands.Choice[int]]:
            snap = await self.service.snapshot(_channel(interaction), pid_of(interaction))
            offers = screens.current_offers(snap.view) if snap.view is not None else []
            return ac.offer_choices(user_tr(interaction), offers, snap.legal)

        return await _or_nothing(interaction, choices())

    @app_commands.command(name="play", description="Play a card: choose the move from the list")
    @app_commands.describe(move="What to do (the list shows only legal moves)",
                           card="Narrow the list to one card")
    async def play(self, interaction: Interaction, move: str, card: str | None = None) -> None:
        channel = _channel(interaction)
        action, version = await self._parse_move(channel, pid_of(interaction), move)
        await self.panels.act(interaction, channel, action, expected_version=version)

    async def _parse_move(self, channel: int, pid: str, move: str) -> tuple[Action, int | None]:
        """What a person typed (or autocomplete filled in): an action's text, or
        ``#version.index`` (an index into the legal actions at that version) for moves too
        long for a choice value. Parse errors are refused apart from rule refusals."""
        if not isinstance(move, str) or len(move) > MAX_MOVE_TEXT:
            raise BadInput(Code.MOVE_TEXT)
        move = move.strip()
        if move.startswith("#"):
            version_text, _, index_text = move[1:].partition(".")
            if not (version_text.isdigit() and index_text.isdigit()):
                raise BadInput(Code.MOVE_TEXT)
            snap = await self.service.snapshot(channel, pid, turn=True,
                                               expected_version=int(version_text))
            index = int(index_text)
            if index >= len(snap.legal):
                raise StalePrompt()
            return snap.legal[index], snap.version
        try:
            return decode(move), None
        except MalformedAction as exc:
            raise RuleError(exc.code) from None

    @play.autocomplete("move")
    async def _play_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            snap = await self.service.snapshot(_channel(interaction), pid_of(interaction))
            card = getattr(interaction.namespace, "card", None)
            return ac.play_choices(user_tr(interaction), snap.legal, snap.user, snap.version,
                                   str(current or ""), card if isinstance(card, str) else None,
                                   snap.names)

        return await _or_nothing(interaction, choices())

    @play.autocomplete("card")
    async def _card_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            snap = await self.service.snapshot(_channel(interaction), pid_of(interaction))
            return ac.card_choices(user_tr(interaction), snap.legal, str(current or ""))

        return await _or_nothing(interaction, choices())

    # ------------------------------------------------------------------ absent players
    @app_commands.command(name="replace",
                          description="Vote to let a computer play an absent player's seat")
    @app_commands.describe(player="The absent player (or yourself, to hand over your seat)")
    async def replace(self, interaction: Interaction, player: str) -> None:
        channel, pid = _channel(interaction), pid_of(interaction)
        target = player.strip().removeprefix("<@").removesuffix(">").lstrip("!")
        await self.service.vote_replace(channel, pid, target, is_admin=is_manager(interaction))
        await self.panels.posted(interaction, channel)

    @replace.autocomplete("player")
    async def _replace_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            status = await self.service.status(_channel(interaction))
            if status.status != "running":
                return []
            typed = str(current or "").lower()
            tr = user_tr(interaction)
            return [app_commands.Choice(name=text.name_of(tr, p, status.names)[:100], value=p)
                    for p in status.players if p not in status.computers
                    and typed in text.name_of(tr, p, status.names).lower()]

        return await _or_nothing(interaction, choices())

    @app_commands.command(name="reclaim",
                          description="Take back your seat from the computer player")
    async def reclaim(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        await self.service.reclaim(channel, pid_of(interaction))
        await self.panels.posted(interaction, channel)

    @app_commands.command(name="abandon",
                          description="End this channel's game (its creator or Manage Channel)")
    async def abandon(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        await self.service.abandon(channel, pid_of(interaction), is_admin=is_manager(interaction))
        await self.panels.posted(interaction, channel)

