"""What a player's private panels and the bot's buttons say: the button labels, the
distributor's offer builder (the only place a distributor's drawn cards are written: its
output goes to that distributor's ephemeral message, R15), the card and target choosers,
and a Doge route's cost and confirmation (R11)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from bot.i18n import N_, Tr
from engine import (
    Action,
    Doge,
    PlaceAristocrat,
    PlaceBridge,
    TakeOverBridge,
    Transfer,
    doge_payments,
)
from engine.board import CANAL_CROSSING_COST

from .markup import MAX_OPTION_TEXT, cut
from .names import card_label, cards_text, limit_points, name_of

# A bridge owner's name in what a Doge route costs: as long as this, shorter when the
# description would not fit an option's 100 characters otherwise, never shorter than the least.
NAME_IN_COSTS = 24
MIN_NAME_IN_COSTS = 6

# ---------------------------------------------------------------------------- labels
# The words on buttons and in empty selects: ``label(tr, "join")``.
Label = Literal["join", "leave", "add_computer", "start", "build", "play_next", "your_move",
                "commit", "reset", "more", "back", "confirm", "choose_card", "choose_target",
                "choose", "replay", "game_file", "undo", "rematch", "since", "page",
                "play_in_browser", "review", "skip_lessons", "end_practice"]
LABELS: dict[Label, str] = {
    "join": N_("Join"),
    "leave": N_("Leave"),
    "add_computer": N_("Add computer"),
    "start": N_("Start"),
    "build": N_("Build your offers"),
    "play_next": N_("Play next card"),
    "your_move": N_("Your move"),
    "commit": N_("Commit offers"),
    "reset": N_("Reset"),
    "more": N_("More choices"),
    "back": N_("Back"),
    "confirm": N_("Confirm"),
    "choose_card": N_("Choose a card"),
    "choose_target": N_("Choose a target"),
    "choose": N_("Choose"),
    "replay": N_("Replay"),
    "game_file": N_("Game file"),
    "undo": N_("Undo"),  # take back one's own move while nobody has moved since
    "rematch": N_("Rematch"),  # a finished game's players play again
    # a finished game's player: their own costliest decisions, by the hard computer
    "review": N_("My review"),
    # under a running game's post: what happened since the clicker's previous decision
    "since": N_("Since your last move"),
    # a link to the game's web page (its board, log and replay, live)
    "page": N_("Game page"),
    # a signed link to the player's own seat page: every decision in the browser (an hour,
    # theirs only)
    "play_in_browser": N_("Play in the browser"),
    # under a practice game's post: no more explanations; end the practice game
    "skip_lessons": N_("Skip explanations"),
    "end_practice": N_("End practice"),
}


def label(tr: Tr, key: Label) -> str:
    """A button's label or a select's placeholder."""
    return tr.gettext(LABELS[key])


# ---------------------------------------------------------------------------- prompts
def take_label(tr: Tr, index: int, cards: Sequence[str]) -> str:
    n = len(cards)
    return tr.ngettext("Take offer {number}: {count} card, limit {limit}",
                       "Take offer {number}: {count} cards, limit {limit}", n).format(
        number=index + 1, count=n, limit=limit_points(cards))


def offer_choice(tr: Tr, index: int, cards: Sequence[str]) -> str:
    """An offer in ``/sanmarco take``'s autocomplete, numbered from 1 as players see it."""
    return tr.gettext("Offer {number}: {cards} (limit {limit})").format(
        number=index + 1, cards=cards_text(tr, cards), limit=limit_points(cards))


def builder_text(tr: Tr, drawn: Sequence[str], assignment: Sequence[int | None],
                 n_offers: int) -> str:
    """The distributor's private offer builder (ephemeral only: it lists secret cards)."""
    lines = [tr.gettext("**Your drawn cards** — assign each card to an offer, then commit.")]
    for k in range(n_offers):
        cards = [c for c, a in zip(drawn, assignment, strict=True) if a == k]
        lines.append(tr.gettext("Offer {number}: {cards} — limit {limit}").format(
            number=k + 1, cards=cards_text(tr, cards), limit=limit_points(cards)))
    free = [c for c, a in zip(drawn, assignment, strict=True) if a is None]
    if free:
        lines.append(tr.gettext("Not yet assigned: {cards}").format(cards=cards_text(tr, free)))
    return "\n".join(lines)


def draft_changed(tr: Tr) -> str:
    """A Commit in Discord after the seat page changed the offers: they are shown again."""
    return tr.gettext("Your offers were changed in the browser meanwhile; here they are now. "
                      "Commit them when they are right.")


def builder_option(tr: Tr, index: int, card: str) -> str:
    return f"{index + 1}. {card_label(tr, card)}"


def builder_placeholder(tr: Tr, offer: int) -> str:
    return tr.gettext("Cards in offer {number}").format(number=offer + 1)


def which_card(tr: Tr, hand: Sequence[str]) -> str:
    if hand:
        return tr.gettext("Which card do you play next? Cards still to play: {cards}.").format(
            cards=cards_text(tr, hand))
    return tr.gettext("Which card do you play next?")


CHOOSER_TITLES: dict[str, str] = {
    "reroll": N_("Your four set-up rolls are all the same: keep them, or reroll the fourth "
                 "(R3)."),
    "bridge": N_("Place a set-up bridge: choose where."),
    "take": N_("Choose an offer."),
    "banish": N_("You have the fewest limit points: name a district to banish from, or "
                 "decline (R16)."),
    "victims": N_("Choose whose aristocrats go (R10)."),
}


def chooser_title(tr: Tr, awaited: str, card: str | None) -> str:
    """The title of a chooser screen: the card being played, or what the game awaits."""
    if awaited == "play":
        if card:
            return tr.gettext("{card}: choose what to do.").format(card=card_label(tr, card))
        return tr.gettext("Choose what to do.")
    title = CHOOSER_TITLES.get(awaited)
    return tr.gettext(title) if title is not None else tr.gettext("Choose what to do.")


def choose_target(tr: Tr, title: str) -> str:
    return tr.gettext("{title} First the target:").format(title=title)


def target_of(tr: Tr, action: Action, names: Mapping[str, str] | None = None) -> str | None:
    """What a move aims at, to group a long list of moves by target (None: no target)."""
    if isinstance(action, PlaceAristocrat):
        if action.hop:
            return tr.gettext("{district}, then {hop}").format(district=action.district,
                                                               hop=action.hop)
        return action.district
    if isinstance(action, PlaceBridge):
        return tr.gettext("Bridge {a} – {b}").format(a=action.a, b=action.b)
    if isinstance(action, TakeOverBridge):
        return tr.gettext("{owner}'s bridge {a} – {b}").format(
            owner=name_of(tr, action.owner, names), a=action.a, b=action.b)
    if isinstance(action, Transfer):
        return tr.gettext("Transfer in {district}").format(district=action.district)
    if isinstance(action, Doge):
        return tr.gettext("Doge to {district}").format(district=action.target)
    return None


def route_payments(action: Doge, pid: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Whom a Doge route pays how much (canal, tolls by owner): two routes with the same
    target and payments are the same choice for their player (R11 is about whom to pay)."""
    canal, tolls = doge_payments(action, pid)
    return canal, tuple(sorted(tolls))


def doge_option(tr: Tr, action: Doge, pid: str, names: Mapping[str, str] | None = None
                ) -> tuple[str, str]:
    """A Doge choice as a select shows it: the target and the districts the route passes
    (label), and what it costs and whom it pays (description) — so no two routes that pay
    different players read the same."""
    if not action.route:
        return (tr.gettext("Doge: score {district}").format(district=action.target),
                tr.gettext("Free"))
    passes = [c.b for c in action.route[:-1]]
    if passes:
        label_text = tr.gettext("Doge to {district} via {districts}").format(
            district=action.target, districts=", ".join(passes))
    else:
        label_text = tr.gettext("Doge to {district}").format(district=action.target)
    canal, tolls = doge_payments(action, pid)
    cost = canal + sum(n for _, n in tolls)
    if not cost:
        return label_text[:MAX_OPTION_TEXT], tr.gettext("Free: only your own bridges")
    return label_text[:MAX_OPTION_TEXT], _costs(tr, cost, canal, tolls, names)


def _costs(tr: Tr, cost: int, canal: int, tolls: Sequence[tuple[str, int]],
           names: Mapping[str, str] | None) -> str:
    """What a route costs and whom it pays, within an option's description: the owners'
    names are shortened as far as it takes (a canal and three long names are over
    Discord's 100 characters, and Discord refuses the whole panel for one)."""
    said = ""
    for width in range(NAME_IN_COSTS, MIN_NAME_IN_COSTS - 1, -1):
        parts = ([tr.gettext("canal {cost}").format(cost=canal)] if canal else []) + [
            f"{cut(name_of(tr, owner, names), width)} {n}" for owner, n in tolls]
        said = tr.gettext("Costs you {cost}: {payments}").format(cost=cost,
                                                                 payments=", ".join(parts))
        if len(said) <= MAX_OPTION_TEXT:
            return said
    return cut(said, MAX_OPTION_TEXT)


def confirm_route(tr: Tr, action: Doge, pid: str,
                  names: Mapping[str, str] | None = None) -> str:
    """The confirmation of a Doge route: every bridge it crosses and whom it pays (R11)."""
    _ = tr.gettext
    lines = [_("**Doge to {district}**, then {district} is scored:").format(
        district=action.target)]
    for c in action.route:
        if c.owner is None:
            lines.append(_("• across the canal {a} → {b}: {cost} prestige").format(
                a=c.a, b=c.b, cost=CANAL_CROSSING_COST))
        elif c.owner == pid:
            lines.append(_("• {a} → {b} over your own bridge: free").format(a=c.a, b=c.b))
        else:
            lines.append(_("• {a} → {b} over {owner}'s bridge: 1 prestige to {owner}").format(
                a=c.a, b=c.b, owner=name_of(tr, c.owner, names)))
    canal, tolls = doge_payments(action, pid)
    cost = canal + sum(n for _, n in tolls)
    lines.append(_("In all it costs you {cost} prestige.").format(cost=cost) if cost
                 else _("It costs you nothing."))
    lines.append(_("Confirm this route?"))
    return "\n".join(lines)


def doge_cost_suffix(tr: Tr, cost: int) -> str:
    if cost:
        return " " + tr.gettext("— costs you {cost} prestige").format(cost=cost)
    return " " + tr.gettext("— free")
