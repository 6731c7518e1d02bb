"""The two decks. Cards are plain strings so that views, events and JSON stay simple.

Action cards: ``district:<name>``, ``bridge``, ``transfer``, ``doge``, ``banishment``.
Limit cards: ``limit:1``, ``limit:2``, ``limit:3``.
"""

from __future__ import annotations

from .board import DISTRICT_NAMES

BRIDGE = "bridge"
TRANSFER = "transfer"
DOGE = "doge"
BANISHMENT = "banishment"


def district_card(name: str) -> str:
    return f"district:{name}"


def is_limit(card: str) -> bool:
    return card.startswith("limit:")


def limit_value(card: str) -> int:
    return int(card.split(":", 1)[1])


def card_district(card: str) -> str | None:
    """The district named on a district card, else None."""
    return card.split(":", 1)[1] if card.startswith("district:") else None


def card_kind(card: str) -> str:
    """``district``, ``bridge``, ``transfer``, ``doge``, ``banishment`` or ``limit``."""
    return card.split(":", 1)[0]


# RULES.md §1: 62 action cards and 28 limit cards, in a fixed order before shuffling.
ACTION_DECK: tuple[str, ...] = (
    tuple(district_card(n) for n in DISTRICT_NAMES for _ in range(5))
    + (BRIDGE,) * 6 + (TRANSFER,) * 12 + (DOGE,) * 10 + (BANISHMENT,) * 4
)
LIMIT_DECK: tuple[str, ...] = ("limit:1",) * 8 + ("limit:2",) * 10 + ("limit:3",) * 10
ALL_CARDS = frozenset(ACTION_DECK) | frozenset(LIMIT_DECK)

_ORDER = {c: i for i, c in enumerate(dict.fromkeys(ACTION_DECK + LIMIT_DECK))}


def card_order(card: str) -> int:
    """Sort key: district cards in die order, then bridge, transfer, Doge, banishment, limits."""
    return _ORDER[card]
