"""What every button and select does, and the private panels: the lobby buttons, the
distributor's offer builder, the move chooser, and the action path shared with the slash
commands (act, committed with its post → the post delivered → the player's next private
screen).

Nothing is checked here that the service checks (the game, the turn, the version: one place,
``GameService._check_turn``); a handler reads one ``Snapshot`` per click, and only what a
prompt itself is (which round a builder belongs to) is the adapter's to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot import i18n, text
from bot.cogs.sanmarco.components import screens
from bot.cogs.sanmarco.components.custom_ids import Ref, RoundKey
from bot.cogs.sanmarco.components.hand_links import HandLinks
from bot.cogs.sanmarco.shared.answers import (
    NO_PINGS,
    Interaction,
    is_command,
    post_url,
    send_private,
)
from bot.cogs.sanmarco.shared.language import user_tr
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.saved import Delivery, finish_command, mark_saved
from bot.i18n import Tr
from bot.service import GameService, SplitDraft
from bot.service.errors import BadInput, Code, NotYourTurn, ServiceError, StalePrompt
from bot.service.results import GameStatus, Snapshot, Update
from engine import Action, Doge, Split, TakeOffer


def pid_of(interaction: Interaction) -> str:
    return str(interaction.user.id)


def is_manager(interaction: Interaction) -> bool:
    """Manage Channel here: may start or abandon any game of the channel."""
    return bool(interaction.permissions.manage_channels)


def _is_ephemeral_message(interaction: Interaction) -> bool:
    msg = interaction.message
    return bool(msg is not None and msg.flags.ephemeral)


async def send_screen(interaction: Interaction, screen: screens.Screen) -> None:
    """Answer with a private screen as a new message only the user sees; the interaction is
    already deferred (see shared.answers)."""
    kwargs: dict[str, Any] = {}
    if screen.view is not None:
        kwargs["view"] = screen.view
    await send_private(interaction, screen.text, **kwargs)


def next_screen(tr: Tr, snap: Snapshot, *, card: int | None = None, group: int | None = None,
                offset: int = 0, draft: SplitDraft | None = None) -> screens.Screen | None:
    """The private screen for the snapshot's user now (in their language): the offer
    builder while they split (with ``draft``, their half-made split, placed), else the
    move chooser; None when the game does not await them."""
    if not snap.is_awaited or snap.view is None:
        return None
    ref = Ref(snap.channel_id, snap.game_id, snap.version)
    if snap.view["phase"] == "split":
        return _builder(tr, ref, screens.round_key(snap.view), snap,
                        draft.assignment if draft is not None else None)
    if not snap.legal:
        return None
    hand = snap.view["hand"]
    return screens.chooser(tr, ref, snap.user, snap.legal, hand["cards"] if hand else [],
                           snap.names, awaited=snap.awaiting[snap.user], card=card,
                           group=group, offset=offset)


def _builder(tr: Tr, ref: Ref, rkey: RoundKey, snap: Snapshot,
             assignment: Sequence[int | None] | None) -> screens.Screen:
    private = snap.private or {}
    drawn = list(private.get("drawn") or [])
    if not drawn:  # the split is committed, or this player distributes nothing now
        raise NotYourTurn()
    n_offers = int(private.get("offers") or 2)  # the engine says how many
    if assignment is None:
        assignment = (None,) * len(drawn)
    if len(assignment) != len(drawn) or any(a is not None and a >= n_offers
                                            for a in assignment):
        raise StalePrompt()  # a builder of another deal (or a forged one)
    return screens.builder(tr, ref, rkey, drawn, assignment, n_offers)


def _offers(assignment: Sequence[int | None]) -> list[list[int]]:
    """A builder's per-card assignment as the cards' indices per offer."""
    n = max((a + 1 for a in assignment if a is not None), default=0)
    return [[i for i, a in enumerate(assignment) if a == k] for k in range(n)]


def _after(update: Update) -> Snapshot:
    """The acting player's view right after their action (no second read)."""
    status = GameStatus.FINISHED if update.finished else GameStatus.RUNNING
    return Snapshot(update.game_id, update.channel_id, status, update.version, update.view,
                    update.names, {} if update.finished else dict(update.awaiting), None,
                    update.actor, True, update.actor_private, update.actor_legal, frozenset())


class ChannelPosts(Protocol):
    """What a handler asks of the outbox's deliverer (``delivery.worker.Deliverer``): the
    components room sits below delivery, so it names only these three calls."""

    def wake(self, channel: int, guild: int) -> None: ...
    def opened(self, channel: int) -> None: ...
    async def flush(self, channel: int, guild: int) -> Delivery: ...


class Panels:
    """The handlers of every component, over the service, the outbox's deliverer and the
    opener of games' threads."""

    def __init__(self, service: GameService, deliverer: ChannelPosts, opener: Opener,
                 links: HandLinks | None = None) -> None:
        self.service = service
        self.deliverer = deliverer
        self.opener = opener
        self.links = links  # the distributor's own hand in the browser, when offered

    async def current_prompt(self, interaction: Interaction, tr: i18n.Tr,
                             head: str) -> tuple[str, discord.ui.View | None]:
        """An outdated prompt's answer: ``head`` with the current prompt, if one awaits."""
        assert interaction.channel_id is not None
        try:
            snap = await self.service.snapshot(interaction.channel_id, pid_of(interaction))
        except ServiceError:  # no game any more: the sentence alone is the answer
            return head, None
        if snap.view is None or not snap.awaiting:
            return head, None
        return (text.with_current(tr, head, snap.awaiting, snap.names),
                screens.prompt(tr, snap.channel_id, snap.game_id, snap.view, snap.version))

    async def delivered(self, interaction: Interaction, channel: int) -> str | None:
        """Deliver the channel's posts (the change was saved with them) and wait briefly:
        the user's private note if the post is not simply there (it will follow, or the
        bot may not post in the channel), in their language; None if it is."""
        mark_saved(interaction)
        if interaction.guild_id is None:
            return None
        have = interaction.app_permissions
        if have.send_messages and have.view_channel:
            self.deliverer.opened(channel)  # a blocked channel's posts may go again
        delivery = await self.deliverer.flush(channel, interaction.guild_id)
        return delivery.note(user_tr(interaction))

    async def posted(self, interaction: Interaction, channel: int) -> None:
        """After a change that is only posted: tell the user it is done (or what became of
        the post)."""
        await finish_command(interaction, await self.delivered(interaction, channel))

    async def opened(self, interaction: Interaction, thread: int, parent: int,
                     answer: str) -> None:
        """A game opened in a new thread: its first post goes there and the pointer to it
        into ``parent``; the user reads ``answer`` (where it is) and what became of its post
        if it is not simply there."""
        if interaction.guild_id is not None:
            self.deliverer.wake(parent, interaction.guild_id)
        note = await self.delivered(interaction, thread)
        await send_private(interaction, answer + (f"\n{note}" if note else ""))

    # ------------------------------------------------------------------ a rematch
    async def rematch(self, interaction: Interaction, ref: Ref) -> None:
        """The final post's Rematch: a new lobby (in a new thread where the channel's games
        get threads) opened by whoever pressed it, the computer players seated again, the
        other players asked back (each takes their seat with Join)."""
        guild, pid = interaction.guild_id, pid_of(interaction)
        if guild is None:
            raise StalePrompt()
        name = interaction.user.display_name
        plan = await self.service.rematch_of(guild, ref.game, pid)
        home = await self.opener.home(interaction, plan.parent_id or plan.channel_id)
        if home.parent is None:  # the lobby in the finished game's channel (it is free)
            await self.service.open_rematch(guild, home.channel, pid, game_id=ref.game,
                                            name=name)
            note = await self.delivered(interaction, home.channel)
            await send_private(interaction, note or text.posted(user_tr(interaction)))
            return
        self.opener.check(interaction)
        await self.service.check_can_open(guild, pid)
        number = await self.service.reserve_number()
        names = {**plan.names, pid: name}
        thread = await self.opener.make_thread(home.parent, await self.opener.thread_name(
            guild, home.parent, number, [pid, *plan.computers], names))
        await self.service.open_rematch(guild, thread, pid, game_id=ref.game, name=name,
                                        parent=home.parent, number=number)
        await self.opened(interaction, thread, home.parent,
                          text.rematch_opened(user_tr(interaction), number, thread))

    # ------------------------------------------------------------------ a practice game
    async def skip_lessons(self, interaction: Interaction, ref: Ref) -> None:
        """Skip explanations: no lesson from now on (the learner's only)."""
        changed = await self.service.skip_lessons(ref.channel, pid_of(interaction))
        await send_private(interaction, text.lessons_skipped(user_tr(interaction), changed))

    async def end_practice(self, interaction: Interaction, ref: Ref) -> None:
        """End practice: the game is abandoned as ``/sanmarco game abandon`` does (its
        learner opened it), and its thread archived."""
        await self.service.abandon(ref.channel, pid_of(interaction))
        await finish_command(interaction, await self.delivered(interaction, ref.channel))

    # ------------------------------------------------------------------ the action path
    async def act(self, interaction: Interaction, channel: int, action: Action, *,
                  expected_version: int | None = None, game_id: int | None = None) -> None:
        """Apply one action for the user (committed with its post) and tell the channel
        (the interaction is already deferred). The outbox posts a channel's changes in the
        order they were committed; the private panel is updated after the post (or after a
        short wait for it), so a player never acts ahead of the board."""
        pid = pid_of(interaction)
        tr = user_tr(interaction)
        update = await self.service.act(channel, pid, action,
                                        expected_version=expected_version, game_id=game_id)
        note = await self.delivered(interaction, channel)

        def undo(view: discord.ui.View | None) -> discord.ui.View | None:
            """An Undo button while the move may be taken back: on the player's
            private answer, in their language."""
            if not update.undoable:
                return view
            return screens.with_undo(tr, view, update.channel_id, update.game_id,
                                     update.version)

        if _is_ephemeral_message(interaction):
            screen = next_screen(tr, _after(update))
            if screen is not None:
                screen = await self.linked(interaction, screen, Ref(
                    update.channel_id, update.game_id, update.version))
            if screen is None:
                await interaction.edit_original_response(content=text.done(tr),
                                                         view=undo(None))
            else:
                await interaction.edit_original_response(content=screen.text,
                                                         view=undo(screen.view))
            if note:
                await send_private(interaction, note)
        elif is_command(interaction):
            await finish_command(interaction, note, undo(None))
        else:  # a button of the channel post: the private answer carries the Undo
            if update.undoable:
                await send_private(interaction, text.undo_offer(tr), view=undo(None))
            await finish_command(interaction, note)

    async def undo(self, interaction: Interaction, channel: int, *,
                   expected_version: int | None = None, game_id: int | None = None) -> None:
        """Take back the user's last move: the channel reads "… took back: …" and
        gets the board again; the user's private answer is the decision again."""
        pid = pid_of(interaction)
        tr = user_tr(interaction)
        undone = await self.service.undo(channel, pid, expected_version=expected_version,
                                         game_id=game_id)
        update = undone.update
        note = await self.delivered(interaction, channel)
        screen = next_screen(tr, _after(update))
        content = text.undone(tr) + ("\n" + screen.text if screen is not None else "")
        view = screen.view if screen is not None else None
        if _is_ephemeral_message(interaction):
            await interaction.edit_original_response(content=content, view=view,
                                                     allowed_mentions=NO_PINGS)
        else:
            await send_private(interaction, content, **({"view": view} if view else {}))
        if note:
            await send_private(interaction, note)

    async def _show(self, interaction: Interaction, screen: screens.Screen) -> None:
        """A private screen: replaces the clicked panel, or opens a new ephemeral one."""
        if _is_ephemeral_message(interaction):
            await interaction.edit_original_response(content=screen.text, view=screen.view,
                                                     allowed_mentions=NO_PINGS)
        else:
            await send_screen(interaction, screen)

    async def outdated(self, interaction: Interaction) -> None:
        raise StalePrompt()

    # ------------------------------------------------------------------ the lobby
    async def _lobby_click(self, interaction: Interaction, ref: Ref) -> None:
        """The clicked lobby is the message its changes edit (one posted before the outbox
        remembered lobby posts, too); the change itself is the outbox's to show."""
        message = interaction.message
        if message is not None and interaction.guild_id is not None \
                and await self.service.latest_message(ref.game) is None:
            await self.service.remember_post(ref.game, message.id, post_url(
                interaction.guild_id, ref.channel, message.id))
        note = await self.delivered(interaction, ref.channel)
        if note:
            await send_private(interaction, note)

    async def join(self, interaction: Interaction, ref: Ref) -> None:
        await self.service.join(ref.channel, pid_of(interaction),
                                name=interaction.user.display_name, game_id=ref.game)
        await self._lobby_click(interaction, ref)

    async def leave(self, interaction: Interaction, ref: Ref) -> None:
        await self.service.leave(ref.channel, pid_of(interaction), game_id=ref.game)
        await self._lobby_click(interaction, ref)

    async def add_computer(self, interaction: Interaction, ref: Ref) -> None:
        await self.service.add_computer(ref.channel, pid_of(interaction), game_id=ref.game)
        await self._lobby_click(interaction, ref)

    async def start(self, interaction: Interaction, ref: Ref) -> None:
        await self.service.start(ref.channel, pid_of(interaction), game_id=ref.game,
                                 is_admin=is_manager(interaction))
        await self._lobby_click(interaction, ref)

    # ------------------------------------------------------------------ offer builder
    async def _split(self, interaction: Interaction, ref: Ref, rkey: RoundKey) -> Snapshot:
        """The builder outlives the other distributor's commit (same round), nothing else."""
        snap = await self.service.snapshot(ref.channel, pid_of(interaction), game_id=ref.game,
                                           turn=True)
        if snap.view is None or snap.view["phase"] != "split" or \
                screens.round_key(snap.view) != rkey:
            raise StalePrompt()
        return snap

    async def open_builder(self, interaction: Interaction, ref: Ref, rkey: RoundKey) -> None:
        snap = await self._split(interaction, ref, rkey)
        kept = await self.service.split_draft(snap)  # begun here or on the seat page
        screen = _builder(user_tr(interaction), Ref(ref.channel, ref.game, snap.version), rkey,
                          snap, kept.assignment if kept is not None else None)
        await send_screen(interaction, await self.linked(interaction, screen, ref))

    async def reset_builder(self, interaction: Interaction, ref: Ref, rkey: RoundKey) -> None:
        snap = await self._split(interaction, ref, rkey)
        await self.service.drop_split_draft(snap)
        await self._show(interaction, await self.linked(interaction, _builder(
            user_tr(interaction), Ref(ref.channel, ref.game, snap.version), rkey, snap, None),
            ref))

    async def assign(self, interaction: Interaction, ref: Ref, rkey: RoundKey, offer: int,
                     assignment: Sequence[int | None], chosen: Sequence[int]) -> None:
        """One offer's cards chosen: the change made to the stored half-made split (the
        seat page may have changed it since this builder was drawn), else to the one the
        builder carries, then stored for the page and the next builder."""
        snap = await self._split(interaction, ref, rkey)
        kept = await self.service.split_draft(snap)
        new = list(kept.assignment if kept is not None else assignment)
        picked = set(chosen)
        for i in range(len(new)):
            if i in picked:
                new[i] = offer
            elif new[i] == offer:
                new[i] = None
        if offer >= int((snap.private or {}).get("offers") or 2):
            raise StalePrompt()
        screen = _builder(user_tr(interaction), Ref(ref.channel, ref.game, snap.version), rkey,
                          snap, new)  # it must fit this deal
        await self.service.keep_split_draft(snap, _offers(new))
        await self._show(interaction, await self.linked(interaction, screen, ref))

    async def commit(self, interaction: Interaction, ref: Ref, rkey: RoundKey,
                     assignment: Sequence[int | None]) -> None:
        """Commit the offers the builder shows; if the seat page changed them since, the
        builder is shown again with the page's offers, to be committed as they are now."""
        snap = await self._split(interaction, ref, rkey)
        tr = user_tr(interaction)
        _builder(tr, ref, rkey, snap, assignment)  # it must fit this deal
        kept = await self.service.split_draft(snap)
        if kept is not None and kept.assignment != tuple(assignment):
            screen = _builder(tr, Ref(ref.channel, ref.game, snap.version), rkey, snap,
                              kept.assignment)
            screen = replace(screen, text=text.draft_changed(tr) + "\n" + screen.text)
            await self._show(interaction, await self.linked(interaction, screen, ref))
            return
        complete = tuple(a for a in assignment if a is not None)
        if len(complete) != len(assignment):
            raise BadInput(Code.SPLIT_INCOMPLETE)
        await self.act(interaction, ref.channel, Split(complete), game_id=ref.game)
        await self.service.drop_split_draft(snap)

    async def linked(self, interaction: Interaction, screen: screens.Screen,
                     ref: Ref) -> screens.Screen:
        """``screen`` (a private panel) with the "Play in the browser" link to the user's
        seat page, where the bot links pages and the channel has them (never in a practice
        game: it has no page)."""
        link = (await self.links.url(ref.channel, ref.game, pid_of(interaction))
                if self.links is not None else None)
        if link is None:
            return screen
        return replace(screen, view=screens.with_page_link(user_tr(interaction), screen.view,
                                                           link, "play_in_browser"))

    # ------------------------------------------------------------------ offers and cards
    async def take(self, interaction: Interaction, ref: Ref, offer: int) -> None:
        await self.act(interaction, ref.channel, TakeOffer(offer),
                       expected_version=ref.version, game_id=ref.game)

    async def show_chooser(self, interaction: Interaction, ref: Ref, *, card: int | None = None,
                           group: int | None = None, offset: int = 0) -> None:
        snap = await self.service.snapshot(ref.channel, pid_of(interaction), game_id=ref.game,
                                           turn=True, expected_version=ref.version)
        screen = next_screen(user_tr(interaction), snap, card=card, group=group, offset=offset)
        if screen is None:
            raise NotYourTurn()
        await self._show(interaction, await self.linked(interaction, screen, ref))

    async def _legal(self, interaction: Interaction, ref: Ref,
                     index: int | None) -> tuple[Snapshot, Action]:
        """The action an option stands for: an index into the legal actions at the prompt's
        version (the act that follows carries that version too)."""
        snap = await self.service.snapshot(ref.channel, pid_of(interaction), game_id=ref.game,
                                           turn=True, expected_version=ref.version)
        if index is None or index >= len(snap.legal):
            raise StalePrompt()
        return snap, snap.legal[index]

    async def pick(self, interaction: Interaction, ref: Ref, index: int | None,
                   back: screens.MenuPosition = (None, None)) -> None:
        snap, action = await self._legal(interaction, ref, index)
        if isinstance(action, Doge) and action.route and index is not None:
            await self._show(interaction, await self.linked(interaction, screens.confirm(
                user_tr(interaction), ref, index, action, snap.user, snap.names, back), ref))
            return
        await self.act(interaction, ref.channel, action, expected_version=ref.version,
                       game_id=ref.game)

    async def confirm(self, interaction: Interaction, ref: Ref, index: int) -> None:
        _, action = await self._legal(interaction, ref, index)
        await self.act(interaction, ref.channel, action, expected_version=ref.version,
                       game_id=ref.game)
