"""What a message shows: its text and its components, built from the service's values.

Plain functions, no I/O: the channel prompt under every post (from the public view only, so
no secret can reach it), the lobby, and the private panels — the distributor's offer
builder and the move chooser (from that player's own snapshot). Each takes ``tr`` first:
the channel's language for what is posted, the user's for a private panel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import text
from bot.cogs.sanmarco.components.custom_ids import Ref, RoundKey
from bot.cogs.sanmarco.components.items import (
    AssignSelect,
    BackButton,
    BuildButton,
    CardSelect,
    CommitButton,
    ComputerButton,
    ConfirmButton,
    GroupSelect,
    JoinButton,
    LeaveButton,
    MoreButton,
    NextButton,
    PickSelect,
    ResetButton,
    SinceButton,
    StartButton,
    TakeButton,
    UndoButton,
)
from bot.cogs.sanmarco.components.practice import EndPracticeButton, SkipLessonsButton
from bot.i18n import Tr
from bot.service.results import GameStatus, Lobby
from bot.text.markup import MAX_BUTTONS_PER_ROW, MAX_OPTION_TEXT, MAX_OPTIONS
from bot.text.prompts import Label
from engine import Action, Doge, card_of
from engine.views import OfferView, PublicView


@dataclass(frozen=True)
class Screen:
    """One message's text and components (None: no components)."""

    text: str
    view: discord.ui.View | None


def _view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def with_page_link(tr: Tr, view: discord.ui.View | None, url: str,
                   label: Label = "page") -> discord.ui.View:
    """``view`` (or a new one) with a link to the game's web page (``label``
    "play_in_browser": to the player's own seat page) on the row of the "since" button,
    else the first row with room (a link button has no custom_id: it opens the page, the
    bot hears nothing); a view with no room left is returned as it was."""
    view = view or discord.ui.View(timeout=None)
    for row in (1, None):  # else the first row with room (a builder's rows hold selects)
        link: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            style=discord.ButtonStyle.link, url=url, label=text.label(tr, label), row=row)
        try:
            view.add_item(link)
            return view
        except ValueError:  # a full row: the decision's buttons come first
            continue
    return view


# ---------------------------------------------------------------------------- the lobby
def lobby(tr: Tr, lob: Lobby, head: str = "") -> Screen:
    """The lobby's text and buttons (a new message or an edit of the lobby); a closed lobby
    has nothing to press."""
    if lob.status is GameStatus.ABANDONED:
        return Screen(head + text.lobby_closed(tr, lob.why or "left"), None)
    ref = Ref(lob.channel_id, lob.game_id, lob.version)
    words = text.lobby_text(tr, lob.players, lob.seats, lob.names, lob.creator)
    asked = [p for p in lob.invited if p not in lob.players]
    if asked and len(lob.players) < lob.seats:  # a rematch: who is asked back
        words += "\n" + text.invited_line(tr, asked)
    return Screen(head + words,
                  _view([JoinButton(ref, text.label(tr, "join")),
                         LeaveButton(ref, text.label(tr, "leave")),
                         ComputerButton(ref, text.label(tr, "add_computer")),
                         StartButton(ref, text.label(tr, "start"))]))


# ---------------------------------------------------------------------------- channel prompts
def round_key(view: PublicView) -> RoundKey:
    return RoundKey(view["passage"], view["round"], view["extra_round"])


def current_offers(view: PublicView) -> list[OfferView]:
    """The revealed offers the decision-maker now chooses from (the engine says which)."""
    choosing = view["choosing"]
    if choosing is None:
        return []
    return list(view["offers"][choosing["column"]]["offers"])


def prompt(tr: Tr, channel: int, game: int, view: PublicView,
           version: int | None = None) -> discord.ui.View | None:
    """The buttons under a channel post for whatever the game awaits now (built from the
    public view only: no secret can reach them). ``version``: the game's version as prompts
    carry it (``Update.version``; the view's own until a move was taken back)."""
    if view["finished"]:
        return None
    ref = Ref(channel, game, view["version"] if version is None else version)
    phase = view["phase"]
    # whoever comes back reads what happened since their own previous decision (a row of
    # its own: the decision's buttons stay one row, 2 of Discord's 5)
    since = SinceButton(ref, text.label(tr, "since"))
    since.row = 1
    if phase == "split":
        return _view([BuildButton(ref, round_key(view), text.label(tr, "build")), since])
    if phase == "choose":
        buttons = [TakeButton(ref, o["index"], text.take_label(tr, o["index"], o["cards"]))
                   for o in current_offers(view) if o["taken_by"] is None]
        if buttons:
            return _view([*buttons[:MAX_BUTTONS_PER_ROW], since])  # one row of offers
    label = text.label(tr, "play_next" if phase == "play" else "your_move")
    return _view([NextButton(ref, label), since])


def with_practice(tr: Tr, view: discord.ui.View | None, ref: Ref) -> discord.ui.View:
    """``view`` (a practice game's prompt) with Skip explanations and End practice on the
    row of the "since" button (3 of its 5 places; the decision's buttons keep the first)."""
    out = view if view is not None else discord.ui.View(timeout=None)
    for item in (SkipLessonsButton(ref, text.label(tr, "skip_lessons")),
                 EndPracticeButton(ref, text.label(tr, "end_practice"))):
        item.row = 1
        out.add_item(item)
    return out


# ---------------------------------------------------------------------------- offer builder
def builder(tr: Tr, ref: Ref, rkey: RoundKey, drawn: Sequence[str],
            assignment: Sequence[int | None], n_offers: int) -> Screen:
    """The distributor's private builder: one multi-select per offer (its cards pre-selected),
    Commit (once every card has an offer) and Reset. Ephemeral only: it lists secret cards."""
    items: list[discord.ui.Item[Any]] = []
    for k in range(n_offers):
        options = [discord.SelectOption(label=text.builder_option(tr, i, c), value=str(i),
                                        default=assignment[i] == k)
                   for i, c in enumerate(drawn)]
        items.append(AssignSelect(ref, rkey, k, assignment, options,
                                  text.builder_placeholder(tr, k)))
    complete = all(a is not None for a in assignment)
    items.append(CommitButton(ref, rkey, assignment, text.label(tr, "commit"),
                              disabled=not complete))
    items.append(ResetButton(ref, rkey, text.label(tr, "reset")))
    return Screen(text.builder_text(tr, drawn, assignment, n_offers), _view(items))


# ---------------------------------------------------------------------------- move chooser
@dataclass(frozen=True)
class Option:
    """One choice of a select, as the player reads it (label and description together)."""

    label: str
    value: str
    description: str | None = None


MenuPosition = tuple[int | None, int | None]  # (card, group): which screen of the chooser


@dataclass(frozen=True)
class Menu:
    """One screen of the move chooser, without Discord objects (so every screen of every
    decision can be checked quickly). ``kind`` is the select: the card, the target group or
    the move; ``back`` is the screen Back leads to (None: there is none before this one);
    ``more`` the offset of the next page of a long list."""

    title: str
    kind: str  # "card" | "group" | "pick"
    options: tuple[Option, ...]
    card: int | None = None
    group: int | None = None
    back: MenuPosition | None = None
    more: int | None = None


def group_key(tr: Tr, action: Action, names: Mapping[str, str] | None = None) -> str:
    """A target, for splitting a long list of choices into two smaller steps (the same
    groups in every language: a target's words name only that target)."""
    return text.target_of(tr, action, names) or text.describe(tr, action, names)


def _doge_outcome(action: Doge, pid: str) -> tuple[object, ...]:
    """What a Doge route does for its player: where it scores and whom it pays how much
    (two routes with the same outcome are one choice; R11 is about whom to pay)."""
    return (action.target, bool(action.route), text.route_payments(action, pid))


def _pick_options(tr: Tr, indexed: Sequence[tuple[int, Action]], pid: str,
                  names: Mapping[str, str] | None) -> list[Option]:
    out: list[Option] = []
    seen: set[tuple[object, ...]] = set()
    for i, a in indexed:
        if isinstance(a, Doge):
            outcome = _doge_outcome(a, pid)
            if outcome in seen:
                continue
            seen.add(outcome)
            label, desc = text.doge_option(tr, a, pid, names)
            out.append(Option(label, str(i), desc))
            continue
        described = text.describe(tr, a, names)
        if len(described) > MAX_OPTION_TEXT:  # the rest of the sentence goes below it
            out.append(Option(described[:MAX_OPTION_TEXT - 1] + "…", str(i),
                              described[MAX_OPTION_TEXT - 1:][:MAX_OPTION_TEXT]))
        else:
            out.append(Option(described, str(i)))
    return out


def chooser_menu(tr: Tr, pid: str, actions: Sequence[Action], hand: Sequence[str],
                 names: Mapping[str, str] | None = None, *, awaited: str = "play",
                 card: int | None = None, group: int | None = None,
                 offset: int = 0) -> Menu:
    """The next screen of the move chooser: the card (when there is a choice of cards),
    then the target group (when one card has more than 25 moves), then the move.
    ``actions`` are pid's legal actions; option values index them; ``awaited`` is what the
    game waits for from pid (the title says it)."""
    played = [card_of(a) for a in actions]
    indexed = list(enumerate(actions))
    # Choosing the card first makes sense only when every choice plays a card (not for the
    # passage's banishment, which may also be declined, R16).
    cards = ([] if None in played or awaited != "play"
             else list(dict.fromkeys(c for c in played if c is not None)))
    if len(cards) > 1 and (card is None or card >= len(cards)):
        return Menu(text.which_card(tr, hand), "card",
                    tuple(Option(text.card_label(tr, c), str(i)) for i, c in enumerate(cards)))
    chosen_card: str | None = None
    card_index: int | None = None
    back: MenuPosition | None = (None, None) if len(cards) > 1 else None
    if cards:
        card_index = card if card is not None and card < len(cards) else 0
        chosen_card = cards[card_index]
        indexed = [(i, a) for i, a in indexed if played[i] == chosen_card]
    title = text.chooser_title(tr, awaited, chosen_card)
    if len(indexed) > MAX_OPTIONS:
        keys = {i: group_key(tr, a, names) for i, a in indexed}
        groups = list(dict.fromkeys(keys.values()))
        if group is None or group >= len(groups):
            page = groups[offset:offset + MAX_OPTIONS]
            more = offset + MAX_OPTIONS if offset + MAX_OPTIONS < len(groups) else None
            return Menu(text.choose_target(tr, title), "group",
                        tuple(Option(g[:MAX_OPTION_TEXT], str(offset + j))
                              for j, g in enumerate(page)),
                        card_index, None, back, more)
        indexed = [(i, a) for i, a in indexed if keys[i] == groups[group]]
        back = (card_index, None)
    else:
        group = None
    options = _pick_options(tr, indexed, pid, names)
    page_options = options[offset:offset + MAX_OPTIONS]
    more = offset + MAX_OPTIONS if offset + MAX_OPTIONS < len(options) else None
    return Menu(title, "pick", tuple(page_options), card_index, group, back, more)


def chooser(tr: Tr, ref: Ref, pid: str, actions: Sequence[Action], hand: Sequence[str],
            names: Mapping[str, str] | None = None, *, awaited: str = "play",
            card: int | None = None, group: int | None = None, offset: int = 0) -> Screen:
    """The chooser screen with its components (see ``chooser_menu``)."""
    menu = chooser_menu(tr, pid, actions, hand, names, awaited=awaited, card=card,
                        group=group, offset=offset)
    opts = [discord.SelectOption(label=o.label, value=o.value, description=o.description)
            for o in menu.options]
    items: list[discord.ui.Item[Any]]
    if menu.kind == "card":
        items = [CardSelect(ref, opts, text.label(tr, "choose_card"))]
    elif menu.kind == "group":
        items = [GroupSelect(ref, menu.card, opts, text.label(tr, "choose_target"))]
    else:
        items = [PickSelect(ref, menu.card, menu.group, opts, text.label(tr, "choose"))]
    if menu.more is not None:
        items.append(MoreButton(ref, menu.card, menu.group, menu.more, text.label(tr, "more")))
    if menu.back is not None:
        items.append(BackButton(ref, *menu.back, label=text.label(tr, "back")))
    return Screen(menu.title, _view(items))


def confirm(tr: Tr, ref: Ref, index: int, action: Doge, pid: str, names: Mapping[str, str],
            back: MenuPosition) -> Screen:
    """A Doge route is confirmed before it is played: the screen names every bridge it
    crosses and whom it pays (R11); Back returns to the list it was chosen from."""
    return Screen(text.confirm_route(tr, action, pid, names),
                  _view([ConfirmButton(ref, index, text.label(tr, "confirm")),
                         BackButton(ref, *back, label=text.label(tr, "back"))]))


# ---------------------------------------------------------------------------- taking back
# The Undo button on the private answer to one's own move (while nobody has moved since).
def with_undo(tr: Tr, view: discord.ui.View | None, channel: int, game: int,
              version: int) -> discord.ui.View:
    """``view`` (or a new one) with an Undo button for the move that made ``version``, in
    the language of ``tr`` (the player's: it is on their private answer)."""
    out = view if view is not None else discord.ui.View(timeout=None)
    out.add_item(UndoButton(Ref(channel, game, version), text.label(tr, "undo")))
    return out
