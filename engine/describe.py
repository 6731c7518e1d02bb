"""Player-facing sentences for actions (used by the bot's buttons, autocomplete and log)."""

from __future__ import annotations

from collections.abc import Mapping

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
from .cards import card_label


def describe(action: Action, names: Mapping[str, str] | None = None) -> str:
    """A short sentence saying what the action does; ``names`` maps pids to display names."""
    def who(pid: str) -> str:
        return (names or {}).get(pid, pid)

    def src(source: str | None) -> str:
        return f" (taken from {source}, your reserve is empty)" if source else ""

    if isinstance(action, KeepRolls):
        return "Keep your four identical rolls"
    if isinstance(action, Reroll):
        return "Reroll your fourth roll until it differs"
    if isinstance(action, PlaceBridge):
        return f"Build a bridge {action.a} – {action.b}{src(action.source)}"
    if isinstance(action, TakeOverBridge):
        moved = ((action.to_a, action.to_b) != (action.a, action.b))
        where = f", moved to {action.to_a} – {action.to_b}" if moved else ""
        return (f"Take over {who(action.owner)}'s bridge {action.a} – {action.b}{where}"
                f"{src(action.source)}")
    if isinstance(action, Split):
        sizes = [action.assignment.count(k) for k in range(max(action.assignment) + 1)]
        return "Split into offers of " + ", ".join(str(n) for n in sizes) + " cards"
    if isinstance(action, TakeOffer):
        return f"Take offer {action.index + 1}"
    if isinstance(action, PlaceAristocrat):
        hop = f", then over your bridge to {action.hop}" if action.hop else ""
        return f"Place an aristocrat in {action.district}{hop}{src(action.source)}"
    if isinstance(action, Transfer):
        return (f"Replace one of {who(action.victim)}'s aristocrats in {action.district} "
                f"with yours{src(action.source)}")
    if isinstance(action, Doge):
        if not action.route:
            return f"Doge: score {action.target}"
        steps = []
        for c in action.route:
            if c.owner is None:
                steps.append(f"canal to {c.b} ({CANAL_CROSSING_COST} prestige)")
            else:
                steps.append(f"{who(c.owner)}'s bridge to {c.b}")
        return f"Doge to {action.target} via " + ", ".join(steps) + f"; score {action.target}"
    if isinstance(action, Banish):
        return f"Banish in {action.district}"
    if isinstance(action, DeclineBanishment):
        return "No banishment"
    if isinstance(action, ChooseBanished):
        parts = [f"{who(p)} loses {n}" for p, n in action.removed if n]
        return ", ".join(parts) if parts else "No opponent loses an aristocrat"
    if isinstance(action, DiscardCard):
        return f"Discard {card_label(action.card)} (it has no legal effect)"
    return action.encode()


def doge_payments(action: Doge, pid: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """What a Doge route costs pid: the canal crossings, and the tolls per bridge owner in
    the order the route meets them (the rules' own reckoning, R11)."""
    from .rules.cardplay import route_costs

    canal, tolls = route_costs(action.route, pid)
    return canal, tuple(tolls.items())


def doge_cost(action: Doge, pid: str) -> int:
    """What a Doge route costs pid in prestige: 1 per other player's bridge, 2 per canal."""
    canal, tolls = doge_payments(action, pid)
    return canal + sum(n for _, n in tolls)
