"""The San Marco cog: the slash commands (``commands.tree``: ``/sanmarco`` and its groups,
``/sanmarco-server``) and the adapter's lifecycle. The moves played most are here, directly
under ``/sanmarco``; the groups' commands are its bases (``commands.game``, ``commands.seat``,
``commands.history``, ``commands.settings``, ``commands.queue``, ``commands.digest``).

A command reads what a person typed, calls the service (which checks the game and the turn,
and the engine the rules, and commits the change with the posts the channel must see), and
answers privately. Buttons and selects do not pass through here: the cog makes their one
context (``components.clicks.ClickContext``) at load, and a click goes straight to its
handler (docs/CLICK.md). The channel's posts are the outbox's (``delivery.worker``), board
pictures ``delivery.pictures``'s, the periodic pass ``reminders``'. Every interaction is
taken in by ``shared.reception`` (deferred before any store work, so Discord's 3-second limit
holds whatever the database does; any error then ends in one short ephemeral sentence from
``bot.text``, never a traceback; a click Discord delivered too late to answer changes
nothing).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.sanmarco.commands import autocomplete as ac
from bot.cogs.sanmarco.commands.digest import SinceAnswers
from bot.cogs.sanmarco.commands.game import GameCommands
from bot.cogs.sanmarco.commands.history import HistoryCommands, replay_cache
from bot.cogs.sanmarco.commands.inputs import channel_of, or_nothing
from bot.cogs.sanmarco.commands.queue import FindingCommands
from bot.cogs.sanmarco.commands.seat import SeatCommands
from bot.cogs.sanmarco.commands.settings import MovingCommands
from bot.cogs.sanmarco.commands.tree import SANMARCO, SERVER
from bot.cogs.sanmarco.components import screens
from bot.cogs.sanmarco.components.clicks import ClickContext, ClickHost
from bot.cogs.sanmarco.components.hand_links import HandLinks
from bot.cogs.sanmarco.components.items import DYNAMIC_ITEMS
from bot.cogs.sanmarco.components.panels import Panels, next_screen, pid_of, send_screen
from bot.cogs.sanmarco.delivery.compose import Composer
from bot.cogs.sanmarco.delivery.notify import Notifier
from bot.cogs.sanmarco.delivery.pictures import Drawer
from bot.cogs.sanmarco.delivery.worker import Deliverer
from bot.cogs.sanmarco.reminders import Reminders, shards_of
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import channel_language, user_tr
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.reception import Reception
from bot.config import Config
from bot.service import GameService
from bot.service.errors import (
    BadInput,
    Code,
    GameNotStarted,
    NotYourTurn,
    RuleError,
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
        # deferral, the bot stopping, and the one place errors become answers
        self.reception = Reception(self.panels.current_prompt)
        super().__init__()

    # ------------------------------------------------------------------ lifecycle
    async def cog_load(self) -> None:
        self.drawer.start()
        if isinstance(self.bot, ClickHost):  # a click's one context (docs/CLICK.md)
            self.bot.click_context = ClickContext(self.reception, self.panels, self, self.notifier)
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.tree.error(self._tree_error)
        self.reminders.start(self.config.reminder_poll_seconds)

    async def cog_unload(self) -> None:
        self.reminders.stop()
        await self.deliverer.close()
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        if isinstance(self.bot, ClickHost):
            self.bot.click_context = None
        self.drawer.close()

    async def shutdown(self, timeout: float) -> int | None:
        """The bot stops (SIGTERM, SIGINT): no new interaction is taken (``turned_away``),
        the periodic pass and its timers stop, the interactions already being handled
        complete, and the posts in flight get the rest of ``timeout`` s. Returns how many
        posts stay in the outbox for the next start (None: unknown)."""
        self.reception.stopping = True
        self.reminders.stop()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if self.reception.handling:
            await asyncio.wait(set(self.reception.handling), timeout=timeout)
        return await self.deliverer.drain(max(0.0, deadline - loop.time()))

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
        return await self.reception.defer(interaction, ephemeral=True)

    # ------------------------------------------------------------------ errors
    async def _tree_error(self, interaction: Interaction,
                          error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure) and not interaction.response.is_done():
            return  # interaction_check could not even defer it: there is nobody to tell
        original: BaseException = getattr(error, "original", error)
        if isinstance(error, app_commands.TransformerError
                      | app_commands.CommandSignatureMismatch):
            original = BadInput()
        await self.reception.report(interaction, original)

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
