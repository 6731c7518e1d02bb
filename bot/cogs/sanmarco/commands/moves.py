"""The moves played most, directly under ``/sanmarco``: ``board`` and ``status`` (looking),
``hand`` (one's private panel again), ``offers``, ``take`` and ``play`` (playing), with their
autocomplete of legal choices only.

A base of the cog like ``commands.game``: deferred privately by the cog's
``interaction_check`` before the body runs; an action goes the way a button's does
(``Panels.act``, docs/CLICK.md).
"""

from __future__ import annotations

from dataclasses import replace

from discord import app_commands

from bot import text
from bot.cogs.sanmarco.commands import autocomplete as ac
from bot.cogs.sanmarco.commands.digest import SinceAnswers
from bot.cogs.sanmarco.commands.inputs import channel_of, or_nothing
from bot.cogs.sanmarco.commands.tree import SANMARCO
from bot.cogs.sanmarco.components import screens
from bot.cogs.sanmarco.components.hand_links import HandLinks
from bot.cogs.sanmarco.components.panels import Panels, next_screen, pid_of, send_screen
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import channel_language, user_tr
from bot.service.errors import BadInput, Code, GameNotStarted, NotYourTurn, RuleError, StalePrompt
from bot.service.results import GameStatus
from engine import Action, MalformedAction, TakeOffer, decode

MAX_MOVE_TEXT = 200  # longer text is not a move; refused before parsing


class MoveCommands(SinceAnswers):
    """The cog's commands for looking and playing (the digest heads ``hand`` and
    ``status``: ``SinceAnswers``)."""

    panels: Panels
    links: HandLinks

    # ------------------------------------------------------------------ looking
    @SANMARCO.command(name="board", description="Show the board (only you see it)")
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

    @SANMARCO.command(name="status", description="Whose move it is, and since when")
    async def status(self, interaction: Interaction) -> None:
        status = await self.service.status(channel_of(interaction))
        said = text.status_text(user_tr(interaction), status)
        await send_private(interaction, await self.digest_head(interaction, said))

    @SANMARCO.command(name="hand", description="Re-open your private panel (only you see it)")
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
            await send_private(interaction, answer, **({"view": screens.with_page_link(
                tr, None, link, "play_in_browser")} if link else {}))
            return
        screen = next_screen(tr, snap, draft=await self.service.split_draft(snap))
        if screen is None:
            raise NotYourTurn()
        link = await self.links.url(channel, snap.game_id, pid)
        if link is not None:  # the player's own hand in the browser, signed for an hour
            screen = replace(screen, view=screens.with_page_link(tr, screen.view, link,
                                                                 "play_in_browser"))
        # coming back to one's decision: what happened since one's previous one first
        await send_screen(interaction, replace(
            screen, text=await self.digest_head(interaction, screen.text)))


    # ------------------------------------------------------------------ playing
    @SANMARCO.command(name="offers", description="Build and commit your offers "
                                                     "(distributors; only you see it)")
    async def offers(self, interaction: Interaction) -> None:
        snap = await self.service.snapshot(channel_of(interaction), pid_of(interaction),
                                           turn=True)
        if snap.view is None or snap.view["phase"] != "split":
            raise RuleError("action.wrong_phase")
        screen = next_screen(user_tr(interaction), snap,
                             draft=await self.service.split_draft(snap))
        if screen is None:
            raise NotYourTurn()
        link = await self.links.url(snap.channel_id, snap.game_id, pid_of(interaction))
        if link is not None:  # the same split on the seat page
            screen = replace(screen, view=screens.with_page_link(
                user_tr(interaction), screen.view, link, "play_in_browser"))
        await send_screen(interaction, screen)

    @SANMARCO.command(name="take", description="Take one of the revealed offers")
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

    @SANMARCO.command(name="play", description="Play a card: choose the move from the list")
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
