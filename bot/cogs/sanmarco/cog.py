"""The San Marco cog: the slash commands (``commands.tree``: ``/sanmarco`` and its groups,
``/sanmarco-server``), the entry point of every button and select, and the one place errors
become answers. The moves played most are here, directly under ``/sanmarco``; the groups'
commands are its bases (``commands.game``, ``commands.seat``, ``commands.history``, ``commands.settings``, ``commands.queue``).

A command reads what a person typed, calls the service (which checks the game and the turn,
and the engine the rules, and commits the change with the posts the channel must see), and
answers privately; buttons and selects are ``components.items`` handed to ``components.panels``; the channel's
posts are the outbox's (``delivery.worker``), board pictures ``delivery.pictures``'s, the periodic pass
``reminders``'. Each interaction is deferred before any store work (``interaction_check``
for commands, ``on_component`` for buttons and selects: see ``shared.answers``), so Discord's
3-second limit holds whatever the database does; any error then ends in one short ephemeral
sentence from ``bot.text`` (``_report``), never a traceback; a click Discord delivered too
late to answer changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, text
from bot.cogs.sanmarco.commands import autocomplete as ac
from bot.cogs.sanmarco.commands.digest import SinceAnswers
from bot.cogs.sanmarco.commands.game import GameCommands
from bot.cogs.sanmarco.commands.history import HistoryCommands, replay_cache
from bot.cogs.sanmarco.commands.inputs import channel_of, or_nothing, where
from bot.cogs.sanmarco.commands.queue import FindingCommands
from bot.cogs.sanmarco.commands.seat import SeatCommands
from bot.cogs.sanmarco.commands.settings import MovingCommands
from bot.cogs.sanmarco.commands.tree import SANMARCO, SERVER
from bot.cogs.sanmarco.components import screens
from bot.cogs.sanmarco.components.clicks import Component
from bot.cogs.sanmarco.components.hand_links import HandLinks
from bot.cogs.sanmarco.components.items import DYNAMIC_ITEMS
from bot.cogs.sanmarco.components.panels import Panels, next_screen, pid_of, send_screen
from bot.cogs.sanmarco.delivery.compose import Composer
from bot.cogs.sanmarco.delivery.notify import Notifier
from bot.cogs.sanmarco.delivery.pictures import Drawer
from bot.cogs.sanmarco.delivery.worker import Deliverer
from bot.cogs.sanmarco.reminders import Reminders, shards_of
from bot.cogs.sanmarco.shared.answers import NO_PINGS, Interaction, send_private
from bot.cogs.sanmarco.shared.faults import FaultKind, classify, log_fault
from bot.cogs.sanmarco.shared.language import channel_language, user_tr
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.saved import is_saved
from bot.config import Config
from bot.metrics import ANSWER_SECONDS, INTERACTIONS
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
from bot.service.results import GameStatus
from engine import Action, MalformedAction, TakeOffer, decode

log = logging.getLogger(__name__)

MAX_MOVE_TEXT = 200  # longer text is not a move; refused before parsing


class SanMarcoCog(GameCommands, SeatCommands, HistoryCommands, MovingCommands,
                  FindingCommands, SinceAnswers, commands.Cog, name="SanMarco"):
    """The slash commands ``/sanmarco`` and ``/sanmarco-server`` and the entry point of every
    button and select."""

    sanmarco = SANMARCO
    server = SERVER

    def __init__(self, bot: commands.Bot, service: GameService, config: Config) -> None:
        self.bot = bot
        self.service = service
        self.config = config
        self.notifier = Notifier(service)
        self.drawer = Drawer(config.render_processes)
        self.replays = replay_cache()
        composer = Composer(service, self.drawer, threads_default=config.game_threads,
                            public_url=config.public_url)
        self.deliverer = Deliverer(bot, service, composer, self.notifier,
                                   retry_first=config.outbox_retry_seconds,
                                   wait=config.outbox_wait_seconds,
                                   shards=lambda: shards_of(bot))
        self.opener = Opener(bot, service, threads_default=config.game_threads)
        self.links = HandLinks(service, config)  # a player's own hand in the browser
        self.panels = Panels(service, self.deliverer, self.opener, self.links)
        self.reminders = Reminders(bot, service, drawer=self.drawer, deliverer=self.deliverer,
                                   opener=self.opener)
        self.stopping = False  # the bot stops: no new interaction is taken (``shutdown``)
        self._handling: set[asyncio.Task[Any]] = set()  # the interactions being handled
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

    async def shutdown(self, timeout: float) -> int | None:
        """The bot stops (SIGTERM, SIGINT): no new interaction is taken (``turned_away``),
        the periodic pass and its timers stop, the interactions already being handled
        complete, and the posts in flight get the rest of ``timeout`` s. Returns how many
        posts stay in the outbox for the next start (None: unknown)."""
        self.stopping = True
        self.reminders.stop()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if self._handling:
            await asyncio.wait(set(self._handling), timeout=timeout)
        return await self.deliverer.drain(max(0.0, deadline - loop.time()))

    async def turned_away(self, interaction: Interaction) -> bool:
        """True, having told the user privately that the bot is restarting and nothing was
        done, for an interaction that arrives while the bot stops (an autocomplete gets no
        answer). A player expects a word rather than Discord's "did not respond"."""
        if not self.stopping:
            return False
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        try:
            await interaction.response.send_message(text.stopping(user_tr(interaction)),
                                                    ephemeral=True)
        except Exception as exc:  # Discord refused it, or could not be reached
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, f"answering {where(interaction)} while stopping",
                      interaction.channel_id)
        return True

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (at start-up, or anew after Discord dropped the session): deliver what
        the outbox holds (a process killed between a commit and its post loses nothing)."""
        await self.deliverer.resume()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        """The gateway session resumed after a drop: posts may have waited meanwhile."""
        await self.deliverer.resume()

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its games wait, suspended (no turn timer, no reminder),
        until someone ends them; nothing is posted there again."""
        await self.deliverer.gone(channel.id, channel.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (a game's thread too): as a deleted channel."""
        await self.deliverer.gone(payload.thread_id, payload.guild_id)

    # ------------------------------------------------------------------ answering
    async def interaction_check(self, interaction: Interaction) -> bool:
        """Runs before every slash command: defer privately at once, before any store work
        (a refusal stays private; a public result is posted to the channel). A command
        Discord delivered too late to answer changes nothing."""
        return await self._defer(interaction, ephemeral=True)

    async def _defer(self, interaction: Interaction, *, ephemeral: bool) -> bool:
        """Answer within Discord's 3 seconds, before any store work; False when Discord no
        longer takes an answer (10062: the click came too late; nothing is done). From here
        the interaction counts as being handled: a shutdown lets it complete."""
        task = asyncio.current_task()
        if task is not None:
            self._handling.add(task)
            task.add_done_callback(self._handling.discard)
        try:
            if ephemeral:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except Exception as exc:  # Discord refused it, or could not be reached
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, f"answering {where(interaction)}", interaction.channel_id)
            return False
        # how soon players hear back (from Discord's moment of the interaction)
        INTERACTIONS.labels("command" if ephemeral else "component").inc()
        ANSWER_SECONDS.observe(max(0.0, time.time() - interaction.created_at.timestamp()))
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
        language; never a traceback. An outdated prompt comes with the current one. Discord
        failing after the change was saved is logged and not answered: an apology would
        tell the player a move that counted did not."""
        view: discord.ui.View | None = None
        tr = user_tr(interaction)
        # Discord's (an HTTP error, or no answer at all), not ours: one line, and no answer
        # if it expired; a refusal of ours is a ServiceError, anything else a bug
        fault = None if isinstance(exc, ServiceError) else classify(exc)
        if fault is not None:
            saved = is_saved(interaction)
            log_fault(fault, f"{where(interaction)}{' (the change is saved)' if saved else ''}",
                      interaction.channel_id)
            if fault.kind is FaultKind.EXPIRED or saved:
                return  # a saved change is never an apology: its post will tell the truth
            answer = text.apology(tr)
        elif isinstance(exc, ServiceError):
            action = exc.action if isinstance(exc, RuleError) else None
            answer = text.refusal(tr, exc.code, exc.params, action=action)
            if exc.code in (Code.STALE, Code.NOT_YOUR_TURN) and interaction.channel_id:
                answer, view = await self._current_prompt(interaction, tr, answer)
        else:
            log.error("unexpected error in %s (channel %s, user %s): %s",
                      where(interaction), interaction.channel_id, interaction.user.id,
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
        except Exception as send_exc:  # Discord refused it, or could not be reached
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

    async def on_component(self, interaction: Interaction, item: Component) -> None:
        """Entry point of every button and select (see components.items): deferred as an update of
        the clicked message before any store work (a click Discord delivered too late to
        answer changes nothing). None is taken while the bot stops."""
        if await self.turned_away(interaction):
            return
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

    # ------------------------------------------------------------------ looking
    @sanmarco.command(name="board", description="Show the board (only you see it)")
    @app_commands.describe(as_text="In words instead of a picture "
                                   "(for screen readers, or with images off)")
    async def board(self, interaction: Interaction, as_text: bool = False) -> None:
        snap = await self.service.snapshot(channel_of(interaction), pid_of(interaction))
        if snap.view is None:
            raise GameNotStarted()
        tr = user_tr(interaction)
        caption = text.board_caption(tr, snap.status, snap.awaiting, snap.names)
        if as_text is True:  # discord.py passes the value as Discord sent it
            words = text.board_words(tr, snap.view, snap.names)
            if snap.status is GameStatus.ABANDONED:
                words = caption + "\n" + words
            await send_private(interaction, words)
            return
        # the picture in the channel's language (as posted), the words in the user's
        board = await self.drawer.board_file(snap.view, (), snap.names,
                                             await channel_language(self.service, interaction),
                                             description=text.board_alt(tr, snap.view,
                                                                        snap.names))
        await send_private(interaction, caption, file=board)

    @sanmarco.command(name="status", description="Whose move it is, and since when")
    async def status(self, interaction: Interaction) -> None:
        status = await self.service.status(channel_of(interaction))
        said = text.status_text(user_tr(interaction), status)
        await send_private(interaction, await self.digest_head(interaction, said))

    @sanmarco.command(name="hand", description="Re-open your private panel (only you see it)")
    async def hand(self, interaction: Interaction) -> None:
        channel, pid = channel_of(interaction), pid_of(interaction)
        tr = user_tr(interaction)
        try:
            snap = await self.service.snapshot(channel, pid, turn=True)
        except NotYourTurn:
            snap = await self.service.snapshot(channel, pid)
            answer = text.not_your_turn_here(tr, snap.awaiting, snap.names)
            if snap.seated and snap.view is not None:
                answer += "\n" + text.position_line(tr, snap.view, snap.user)
                answer = await self.digest_head(interaction, answer)
            link = await self.links.url(channel, snap.game_id, pid) if snap.seated else None
            await send_private(interaction, answer, **(
                {"view": screens.with_page_link(tr, None, link, "hand_page")} if link else {}))
            return
        screen = next_screen(tr, snap)
        if screen is None:
            raise NotYourTurn()
        link = await self.links.url(channel, snap.game_id, pid)
        if link is not None:  # the player's own hand in the browser, signed for an hour
            screen = replace(screen, view=screens.with_page_link(tr, screen.view, link,
                                                                 "hand_page"))
        # coming back to one's decision: what happened since one's previous one first
        await send_screen(interaction, replace(
            screen, text=await self.digest_head(interaction, screen.text)))


    # ------------------------------------------------------------------ playing
    @sanmarco.command(name="offers", description="Build and commit your offers "
                                                     "(distributors; only you see it)")
    async def offers(self, interaction: Interaction) -> None:
        snap = await self.service.snapshot(channel_of(interaction), pid_of(interaction),
                                           turn=True)
        if snap.view is None or snap.view["phase"] != "split":
            raise RuleError("action.wrong_phase")
        screen = next_screen(user_tr(interaction), snap)
        if screen is None:
            raise NotYourTurn()
        await send_screen(interaction, screen)

    @sanmarco.command(name="take", description="Take one of the revealed offers")
    @app_commands.describe(offer="The offer's number (1 is the first offer)")
    async def take(self, interaction: Interaction, offer: int) -> None:
        channel = channel_of(interaction)
        # discord.py passes option values as Discord sent them: check the type too.
        if not isinstance(offer, int) or isinstance(offer, bool) or not 1 <= offer <= 10:
            raise BadInput(Code.OFFER_NUMBER)
        # Players see offers numbered from 1 (reveal line, buttons); the engine from 0.
        await self.panels.act(interaction, channel, TakeOffer(offer - 1))

    @take.autocomplete("offer")  # type: ignore[arg-type]  # an int option's autocomplete
    async def _take_autocomplete(self, interaction: Interaction,
                                 current: int) -> list[app_commands.Choice[int]]:
        async def choices() -> list[app_commands.Choice[int]]:
            snap = await self.service.snapshot(channel_of(interaction), pid_of(interaction))
            offers = screens.current_offers(snap.view) if snap.view is not None else []
            return ac.offer_choices(user_tr(interaction), offers, snap.legal)

        return await or_nothing(interaction, choices())

    @sanmarco.command(name="play", description="Play a card: choose the move from the list")
    @app_commands.describe(move="What to do (the list shows only legal moves)",
                           card="Narrow the list to one card")
    async def play(self, interaction: Interaction, move: str, card: str | None = None) -> None:
        channel = channel_of(interaction)
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
            snap = await self.service.snapshot(channel_of(interaction), pid_of(interaction))
            card = getattr(interaction.namespace, "card", None)
            return ac.play_choices(user_tr(interaction), snap.legal, snap.user, snap.version,
                                   str(current or ""), card if isinstance(card, str) else None,
                                   snap.names)

        return await or_nothing(interaction, choices())

    @play.autocomplete("card")
    async def _card_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            snap = await self.service.snapshot(channel_of(interaction), pid_of(interaction))
            return ac.card_choices(user_tr(interaction), snap.legal, str(current or ""))

        return await or_nothing(interaction, choices())
