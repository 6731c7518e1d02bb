"""How an action and a card read: one description of each, as data.

``phrase(action)`` says what an action does as a ``Phrase``: an English sentence template
(a gettext msgid, marked ``N_`` so the bot's catalogue extracts it from here) and the facts
that fill it. A fact is plain text or a number, a ``Player`` (each reader names players in
their own way), a ``Card`` (``card_phrase``), another phrase, or a ``Listing`` of phrases.
``say`` fills a phrase in: by default in English with the players' ids or given names (the
engine's own messages, ``IllegalAction``), and the bot passes its reader's translations and
names (``bot.text``) — so a new kind of action or card is described here, once, for every
language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .actions import (
    Action,
    Banish,
    ChooseBanished,
    DeclineBanishment,
    DiscardCard,
    Doge,
    KeepRolls,
    PlaceAristocrat,
    PlaceBridge,
    Reroll,
    Split,
    TakeOffer,
    TakeOverBridge,
    Transfer,
)
from .board import CANAL_CROSSING_COST
from .cards import card_district, card_kind, limit_value
from .rules.cardplay import route_costs


def N_(message: str) -> str:
    """Marks a sentence for the bot's catalogue (``python -m bot.i18n update`` extracts it);
    it is translated where it is said."""
    return message


@dataclass(frozen=True)
class Player:
    """A player, named as the reader knows them."""

    pid: str


@dataclass(frozen=True)
class Card:
    """A card, named in the reader's words."""

    card: str


@dataclass(frozen=True)
class Phrase:
    """A sentence as data: an English template with named ``{placeholders}`` and its facts."""

    template: str
    facts: tuple[tuple[str, Fact], ...] = ()


@dataclass(frozen=True)
class Listing:
    """Phrases said one after another, separated by commas (``empty``: what is said when
    there are none)."""

    items: tuple[Phrase, ...]
    empty: Phrase | None = None


Fact = str | int | Player | Card | Phrase | Listing


def _phrase(template: str, **facts: Fact) -> Phrase:
    return Phrase(template, tuple(facts.items()))


# Action cards by their names as printed (a district card reads "District: <name>").
CARD_NAMES: dict[str, str] = {
    "bridge": N_("Bridge"), "transfer": N_("Transfer"), "doge": N_("Doge"),
    "banishment": N_("Banishment"),
}


def card_phrase(card: str) -> Phrase:
    """How a card reads: ``District: Castello``, ``Limit 2``, ``Bridge``..."""
    kind = card_kind(card)
    if kind == "district":
        return _phrase(N_("District: {district}"), district=str(card_district(card)))
    if kind == "limit":
        return _phrase(N_("Limit {value}"), value=limit_value(card))
    if kind in CARD_NAMES:
        return _phrase(CARD_NAMES[kind])
    return _phrase("{card}", card=card)


def _from_board(move: Phrase, source: str | None) -> Phrase:
    """R13: a move whose aristocrat comes from a district because the reserve is empty."""
    if not source:
        return move
    return _phrase(N_("{move} (taken from {district}, your reserve is empty)"), move=move,
                   district=source)


def phrase(action: Action) -> Phrase | Listing:
    """What ``action`` does, as a phrase to say in the reader's language."""
    if isinstance(action, KeepRolls):
        return _phrase(N_("Keep your four identical rolls"))
    if isinstance(action, Reroll):
        return _phrase(N_("Reroll your fourth roll until it differs"))
    if isinstance(action, PlaceBridge):
        return _from_board(_phrase(N_("Build a bridge {a} – {b}"), a=action.a, b=action.b),
                           action.source)
    if isinstance(action, TakeOverBridge):
        if (action.to_a, action.to_b) != (action.a, action.b):
            move = _phrase(N_("Take over {owner}'s bridge {a} – {b}, moved to {to_a} – {to_b}"),
                           owner=Player(action.owner), a=action.a, b=action.b,
                           to_a=action.to_a, to_b=action.to_b)
        else:
            move = _phrase(N_("Take over {owner}'s bridge {a} – {b}"),
                           owner=Player(action.owner), a=action.a, b=action.b)
        return _from_board(move, action.source)
    if isinstance(action, Split):
        sizes = [action.assignment.count(k) for k in range(max(action.assignment) + 1)]
        return _phrase(N_("Split into offers of {sizes} cards"),
                       sizes=", ".join(str(n) for n in sizes))
    if isinstance(action, TakeOffer):
        return _phrase(N_("Take offer {number}"), number=action.index + 1)
    if isinstance(action, PlaceAristocrat):
        if action.hop:
            move = _phrase(N_("Place an aristocrat in {district}, then over your bridge to "
                              "{hop}"), district=action.district, hop=action.hop)
        else:
            move = _phrase(N_("Place an aristocrat in {district}"), district=action.district)
        return _from_board(move, action.source)
    if isinstance(action, Transfer):
        return _from_board(_phrase(
            N_("Replace one of {player}'s aristocrats in {district} with yours"),
            player=Player(action.victim), district=action.district), action.source)
    if isinstance(action, Doge):
        if not action.route:
            return _phrase(N_("Doge: score {district}"), district=action.target)
        steps = tuple(
            _phrase(N_("canal to {district} ({cost} prestige)"), district=c.b,
                    cost=CANAL_CROSSING_COST) if c.owner is None
            else _phrase(N_("{owner}'s bridge to {district}"), owner=Player(c.owner),
                         district=c.b)
            for c in action.route)
        # the last step names the district scored: said once (not "Doge to X via Y's
        # bridge to X; score X")
        return _phrase(N_("Doge via {steps}; score there"), steps=Listing(steps))
    if isinstance(action, Banish):
        return _phrase(N_("Banish in {district}"), district=action.district)
    if isinstance(action, DeclineBanishment):
        return _phrase(N_("No banishment"))
    if isinstance(action, ChooseBanished):
        return Listing(tuple(_phrase(N_("{player} loses {count}"), player=Player(p), count=n)
                             for p, n in action.removed if n),
                       _phrase(N_("No opponent loses an aristocrat")))
    if isinstance(action, DiscardCard):
        return _phrase(N_("Discard {card} (it has no legal effect)"), card=Card(action.card))
    return _phrase("{move}", move=action.encode())


def _english(template: str) -> str:
    return template


def say(words: Phrase | Listing, gettext: Callable[[str], str] = _english,
        player: Callable[[str], str] = str) -> str:
    """A phrase filled in: ``gettext`` translates each template (default: the English
    itself), ``player`` names a player id."""
    def fact(value: Fact) -> str:
        if isinstance(value, Phrase | Listing):
            return say(value, gettext, player)
        if isinstance(value, Player):
            return player(value.pid)
        if isinstance(value, Card):
            return say(card_phrase(value.card), gettext, player)
        return str(value)

    if isinstance(words, Listing):
        if not words.items:
            return "" if words.empty is None else say(words.empty, gettext, player)
        return ", ".join(say(p, gettext, player) for p in words.items)
    return gettext(words.template).format(**{k: fact(v) for k, v in words.facts})


def card_label(card: str) -> str:
    """A player-facing name for a card, in English."""
    return say(card_phrase(card))


def describe(action: Action, names: Mapping[str, str] | None = None) -> str:
    """A short sentence in English saying what the action does; ``names`` maps pids to
    display names."""
    return say(phrase(action), player=lambda pid: (names or {}).get(pid, pid))


def doge_payments(action: Doge, pid: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """What a Doge route costs pid: the canal crossings, and the tolls per bridge owner in
    the order the route meets them (the rules' own reckoning, R11)."""
    canal, tolls = route_costs(action.route, pid)
    return canal, tuple(tolls.items())


def doge_cost(action: Doge, pid: str) -> int:
    """What a Doge route costs pid in prestige: 1 per other player's bridge, 2 per canal."""
    canal, tolls = doge_payments(action, pid)
    return canal + sum(n for _, n in tolls)
