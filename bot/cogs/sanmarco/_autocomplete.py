"""Autocomplete lists: only legal choices, from the service's legal_actions (no rules here).

A list is built for the user who is typing, from that user's own legal actions, so a
distributor's secret cards never reach anybody else's list (R15).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from discord import app_commands

from engine import Action, Doge, card_of, describe, doge_cost
from engine.cards import card_label

MAX_CHOICES = 25


def action_value(action: Action, version: int, index: int) -> str:
    """What the option carries: the action's text, or ``#version.index`` if that is too long
    for Discord's 100-character choice values."""
    text = action.encode()
    return text if len(text) <= 100 else f"#{version}.{index}"


def action_name(action: Action, pid: str, names: Mapping[str, str] | None = None,
                limit: int = 100) -> str:
    """describe() plus, for a Doge route, what it costs pid (R11) — kept when the text is
    cut to ``limit`` characters, so the toll is always shown."""
    text = describe(action, names)
    suffix = ""
    if isinstance(action, Doge) and action.route:
        cost = doge_cost(action, pid)
        suffix = f" — costs you {cost} prestige" if cost else " — free"
    if len(text) + len(suffix) > limit:
        text = text[:limit - len(suffix) - 1] + "…"
    return text + suffix


def _matches(current: str, *texts: str) -> bool:
    words = current.lower().split()
    hay = " ".join(texts).lower()
    return all(w in hay for w in words)


def play_choices(actions: Sequence[Action], pid: str, version: int, current: str,
                 card: str | None = None,
                 names: Mapping[str, str] | None = None) -> list[app_commands.Choice[str]]:
    """Choices for ``/sanmarco play move``: the legal moves, filtered by the typed text and
    by the card chosen in the ``card`` option, if any."""
    out: list[app_commands.Choice[str]] = []
    for i, a in enumerate(actions):
        if a.kind in ("split", "take"):
            continue  # those have their own commands
        if card and card_of(a) != card:
            continue
        name = action_name(a, pid, names)
        if not _matches(current, name, a.encode()):
            continue
        out.append(app_commands.Choice(name=name, value=action_value(a, version, i)))
        if len(out) == MAX_CHOICES:
            break
    return out


def card_choices(actions: Sequence[Action], current: str) -> list[app_commands.Choice[str]]:
    """The distinct cards the player can play now."""
    cards = list(dict.fromkeys(c for a in actions if (c := card_of(a)) is not None))
    return [app_commands.Choice(name=card_label(c), value=c) for c in cards
            if _matches(current, card_label(c), c)][:MAX_CHOICES]


def offer_choices(offers: Sequence[Mapping[str, object]],
                  legal: Sequence[Action]) -> list[app_commands.Choice[int]]:
    """The revealed offers the player may take now, numbered from 1 as players see them
    (``/sanmarco take`` subtracts 1, so a number typed by hand means the same offer)."""
    from ._text import cards_text, limit_points  # local: keeps module import light

    allowed = {getattr(a, "index", None) for a in legal if a.kind == "take"}
    out = []
    for o in offers:
        k = int(o["index"])  # type: ignore[call-overload]
        if k not in allowed:
            continue
        cards = list(o.get("cards") or [])  # type: ignore[call-overload]
        name = f"Offer {k + 1}: {cards_text(cards)} (limit {limit_points(cards)})"
        out.append(app_commands.Choice(name=name[:100], value=k + 1))
    return out[:MAX_CHOICES]
