"""Autocomplete lists: only legal choices, from the user's own snapshot (no rules here).

A list is built for the user who is typing, from that user's own legal actions, so a
distributor's secret cards never reach anybody else's list (R15), in that user's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from discord import app_commands

from bot import text
from bot.i18n import Tr
from bot.text.markup import MAX_CHOICE_TEXT as MAX_VALUE
from bot.text.markup import MAX_CHOICES
from engine import Action, Doge, TakeOffer, card_of, doge_cost
from engine.views import OfferView


def action_value(action: Action, version: int, index: int) -> str:
    """What the option carries: the action's text, or ``#version.index`` if that is too long
    for Discord's 100-character choice values."""
    encoded = action.encode()
    return encoded if len(encoded) <= MAX_VALUE else f"#{version}.{index}"


def action_name(tr: Tr, action: Action, pid: str, names: Mapping[str, str] | None = None,
                limit: int = MAX_VALUE) -> str:
    """describe() plus, for a Doge route, what it costs pid (R11) — kept when the text is
    cut to ``limit`` characters, so the toll is always shown."""
    described = text.describe(tr, action, names)
    suffix = ""
    if isinstance(action, Doge) and action.route:
        suffix = text.doge_cost_suffix(tr, doge_cost(action, pid))
    if len(described) + len(suffix) > limit:
        described = described[:limit - len(suffix) - 1] + "…"
    return described + suffix


def _matches(current: str, *texts: str) -> bool:
    words = current.lower().split()
    hay = " ".join(texts).lower()
    return all(w in hay for w in words)


def play_choices(tr: Tr, actions: Sequence[Action], pid: str, version: int, current: str,
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
        name = action_name(tr, a, pid, names)
        if not _matches(current, name, a.encode()):
            continue
        out.append(app_commands.Choice(name=name, value=action_value(a, version, i)))
        if len(out) == MAX_CHOICES:
            break
    return out


def card_choices(tr: Tr, actions: Sequence[Action],
                 current: str) -> list[app_commands.Choice[str]]:
    """The distinct cards the player can play now."""
    cards = list(dict.fromkeys(c for a in actions if (c := card_of(a)) is not None))
    return [app_commands.Choice(name=text.card_label(tr, c), value=c) for c in cards
            if _matches(current, text.card_label(tr, c), c)][:MAX_CHOICES]


def offer_choices(tr: Tr, offers: Sequence[OfferView],
                  legal: Sequence[Action]) -> list[app_commands.Choice[int]]:
    """The revealed offers the player may take now, numbered from 1 as players see them
    (``/sanmarco take`` subtracts 1, so a number typed by hand means the same offer)."""
    allowed = {a.index for a in legal if isinstance(a, TakeOffer)}
    return [app_commands.Choice(name=text.offer_choice(tr, o["index"], o["cards"])[:MAX_VALUE],
                                value=o["index"] + 1)
            for o in offers if o["index"] in allowed][:MAX_CHOICES]
