"""What a message shows: its text and its components, built from the service's values.

Plain functions, no I/O: the channel prompt under every post (from the public view only, so
no secret can reach it), the lobby, and the private panels — the distributor's offer
builder and the move chooser (from that player's own snapshot).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import text
from bot._results import GameStatus, Lobby
from engine import Action, Doge, card_of, describe, doge_cost
from engine.cards import card_label
from engine.views import OfferView, PublicView

from ._items import (
    MAX_OPTION_TEXT,
    MAX_OPTIONS,
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
    Ref,
    ResetButton,
    RoundKey,
    StartButton,
    TakeButton,
)


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


# ---------------------------------------------------------------------------- the lobby
def lobby(lob: Lobby, head: str = "") -> Screen:
    """The lobby's text and buttons (a new message or an edit of the lobby); a closed lobby
    has nothing to press."""
    if lob.status is GameStatus.ABANDONED:
        return Screen(head + text.LOBBY_CLOSED, None)
    ref = Ref(lob.channel_id, lob.game_id, lob.version)
    return Screen(head + text.lobby_text(lob.players, lob.seats, lob.names), _view([
        JoinButton(ref, text.LABEL_JOIN), LeaveButton(ref, text.LABEL_LEAVE),
        ComputerButton(ref, text.LABEL_ADD_COMPUTER), StartButton(ref, text.LABEL_START)]))


# ---------------------------------------------------------------------------- channel prompts
def round_key(view: PublicView) -> RoundKey:
    return RoundKey(view["passage"], view["round"], view["extra_round"])


def current_offers(view: PublicView) -> list[OfferView]:
    """The revealed offers the decision-maker now chooses from (the engine says which)."""
    choosing = view["choosing"]
    if choosing is None:
        return []
    return list(view["offers"][choosing["column"]]["offers"])


def prompt(channel: int, game: int, view: PublicView) -> discord.ui.View | None:
    """The buttons under a channel post for whatever the game awaits now (built from the
    public view only: no secret can reach them)."""
    if view["finished"]:
        return None
    ref = Ref(channel, game, view["version"])
    phase = view["phase"]
    if phase == "split":
        return _view([BuildButton(ref, round_key(view), text.LABEL_BUILD)])
    if phase == "choose":
        buttons = [TakeButton(ref, o["index"], text.take_label(o["index"], o["cards"]))
                   for o in current_offers(view) if o["taken_by"] is None]
        if buttons:
            return _view(buttons[:5])
    label = text.LABEL_PLAY_NEXT if phase == "play" else text.LABEL_YOUR_MOVE
    return _view([NextButton(ref, label)])


# ---------------------------------------------------------------------------- offer builder
def builder(ref: Ref, rkey: RoundKey, drawn: Sequence[str],
            assignment: Sequence[int | None], n_offers: int) -> Screen:
    """The distributor's private builder: one multi-select per offer (its cards pre-selected),
    Commit (once every card has an offer) and Reset. Ephemeral only: it lists secret cards."""
    items: list[discord.ui.Item[Any]] = []
    for k in range(n_offers):
        options = [discord.SelectOption(label=text.builder_option(i, c), value=str(i),
                                        default=assignment[i] == k)
                   for i, c in enumerate(drawn)]
        items.append(AssignSelect(ref, rkey, k, assignment, options,
                                  text.builder_placeholder(k)))
    complete = all(a is not None for a in assignment)
    items.append(CommitButton(ref, rkey, assignment, text.LABEL_COMMIT, disabled=not complete))
    items.append(ResetButton(ref, rkey, text.LABEL_RESET))
    return Screen(text.builder_text(drawn, assignment, n_offers), _view(items))


# ---------------------------------------------------------------------------- move chooser
def group_key(action: Action, names: Mapping[str, str] | None = None) -> str:
    """A target, for splitting a long list of choices into two smaller steps."""
    return text.target_of(action, names) or describe(action, names)


def option_for(index: int, action: Action, pid: str,
               names: Mapping[str, str] | None = None) -> discord.SelectOption:
    label = describe(action, names)
    desc = None
    if isinstance(action, Doge):
        desc = text.doge_cost_text(doge_cost(action, pid))
    if len(label) > MAX_OPTION_TEXT:
        label, desc = label[:MAX_OPTION_TEXT - 1] + "…", (desc or label[99:199])
    return discord.SelectOption(label=label, value=str(index), description=desc)


def chooser(ref: Ref, pid: str, actions: Sequence[Action], hand: Sequence[str],
            names: Mapping[str, str] | None = None, *, card: int | None = None,
            group: int | None = None, offset: int = 0) -> Screen:
    """The next screen of the "play next card" flow: the card (when there is a choice of
    cards), then the target group (when one card has more than 25 moves), then the move.
    ``actions`` are pid's legal actions at ``ref.version``; option values index them."""
    indexed = list(enumerate(actions))
    played = [card_of(a) for a in actions]
    # Choosing the card first makes sense only when every choice plays a card (not for the
    # passage's banishment, which may also be declined, R16).
    cards = [] if None in played else list(dict.fromkeys(c for c in played if c is not None))
    if cards and card is None and len(cards) > 1:
        opts = [discord.SelectOption(label=card_label(c), value=str(i))
                for i, c in enumerate(cards)]
        return Screen(text.which_card(hand),
                      _view([CardSelect(ref, opts, text.PLACEHOLDER_CARD)]))
    chosen_card: str | None = None
    card_index: int | None = None
    if cards:
        card_index = card if card is not None and card < len(cards) else 0
        chosen_card = cards[card_index]
        indexed = [(i, a) for i, a in indexed if card_of(a) == chosen_card]
    group_index: int | None = None
    if len(indexed) > MAX_OPTIONS:
        groups = list(dict.fromkeys(group_key(a, names) for _, a in indexed))
        if group is None or group >= len(groups):
            opts = [discord.SelectOption(label=g[:MAX_OPTION_TEXT], value=str(j))
                    for j, g in enumerate(groups)][offset:offset + MAX_OPTIONS]
            return Screen(text.choose_target(chosen_card),
                          _view([GroupSelect(ref, card_index, opts, text.PLACEHOLDER_TARGET)]))
        group_index = group
        indexed = [(i, a) for i, a in indexed if group_key(a, names) == groups[group]]
    page = indexed[offset:offset + MAX_OPTIONS]
    items: list[discord.ui.Item[Any]] = [
        PickSelect(ref, card_index, group_index,
                   [option_for(i, a, pid, names) for i, a in page], text.PLACEHOLDER_CHOOSE)]
    if offset + MAX_OPTIONS < len(indexed):
        items.append(MoreButton(ref, card_index, group_index, offset + MAX_OPTIONS,
                                text.LABEL_MORE))
    if card_index is not None or group_index is not None:
        items.append(BackButton(ref, text.LABEL_BACK))
    return Screen(text.choose_what(chosen_card), _view(items))


def confirm(ref: Ref, index: int, description: str) -> Screen:
    """A Doge route is confirmed before it is played: it names every bridge and the toll."""
    return Screen(text.confirm_route(description),
                  _view([ConfirmButton(ref, index, text.LABEL_CONFIRM),
                         BackButton(ref, text.LABEL_BACK)]))
