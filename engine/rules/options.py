"""What each action card can legally do now (RULES.md §5) — the one place these rules live.

Functions read a GameState or a rules Work alike (same attribute names), so ``legal_actions``
and the R7 check inside ``apply`` share them.
"""

from __future__ import annotations

from typing import Any

from ..actions import (
    Action,
    Banish,
    Crossing,
    DeclineBanishment,
    Doge,
    PlaceAristocrat,
    PlaceBridge,
    TakeOverBridge,
    Transfer,
)
from ..board import (
    CANAL_CROSSING_COST,
    DISTRICT_NAMES,
    INDEX,
    MAX_BRIDGES_PER_PAIR,
    PAIRS,
    TOTAL_BRIDGES,
)
from ..cards import BANISHMENT, BRIDGE, DOGE, TRANSFER, card_district

PAIR_IDX: tuple[tuple[int, int], ...] = tuple((INDEX[a], INDEX[b]) for a, b in PAIRS)

Game = Any  # a GameState or a Work: both expose districts, bridges, reserve, doge, players


def sources(g: Game, seat: int, dest: int | None = None) -> list[int | None]:
    """R13: where an aristocrat comes from: the reserve, or (reserve empty) any district
    holding one of the player's own (never a bridge) other than ``dest``, the district where
    it ends up (None: it ends on a bridge). Empty: the card has no legal effect (R7)."""
    if g.reserve[seat] > 0:
        return [None]
    return [d for d in range(6) if g.districts[d][seat] > 0 and d != dest]


def _name(d: int | None) -> str | None:
    return None if d is None else DISTRICT_NAMES[d]


def legal_pairs_for_new_bridge(g: Game, seat: int) -> list[tuple[int, int]]:
    """R2: pairs with fewer than 3 bridges where the player owns none."""
    out = []
    for a, b in PAIR_IDX:
        on = [o for x, y, o in g.bridges if x == a and y == b]
        if len(on) < MAX_BRIDGES_PER_PAIR and seat not in on:
            out.append((a, b))
    return out


def district_options(g: Game, seat: int, district: int) -> list[Action]:
    """District card: into the district, optionally then over one of one's own bridges.
    R13: with an empty reserve the aristocrat comes from anywhere but where it ends up (the
    hop's far district, else the card's)."""
    hops: list[int | None] = [None]
    for a, b, o in g.bridges:
        if o == seat and district in (a, b):
            hops.append(b if a == district else a)
    return [PlaceAristocrat(DISTRICT_NAMES[district], _name(h), _name(src))
            for h in hops for src in sources(g, seat, district if h is None else h)]


def bridge_options(g: Game, seat: int) -> list[Action]:
    """Bridge card: a new bridge while the supply lasts, else a take-over (R9). The
    aristocrat ends on the bridge, so any district with one of the player's own is a source
    (R13)."""
    srcs = sources(g, seat)
    if len(g.bridges) < TOTAL_BRIDGES:
        return [PlaceBridge(DISTRICT_NAMES[a], DISTRICT_NAMES[b], _name(src))
                for a, b in legal_pairs_for_new_bridge(g, seat) for src in srcs]
    out: list[Action] = []
    for a, b, owner in g.bridges:
        if owner == seat:
            continue
        for ta, tb in PAIR_IDX:
            on = [o for x, y, o in g.bridges if x == ta and y == tb]
            if (ta, tb) == (a, b):
                ok = seat not in on  # stays: R9, the player must not own one here already
            else:
                ok = seat not in on and len(on) < MAX_BRIDGES_PER_PAIR
            if ok:
                out.extend(TakeOverBridge(DISTRICT_NAMES[a], DISTRICT_NAMES[b],
                                          g.players[owner], DISTRICT_NAMES[ta],
                                          DISTRICT_NAMES[tb], _name(src)) for src in srcs)
    return out


def transfer_options(g: Game, seat: int) -> list[Action]:
    """Transfer card: any opposing aristocrat in any district, replaced by one's own (R13:
    with an empty reserve, never one taken from that same district)."""
    out: list[Action] = []
    for d in range(6):
        srcs = sources(g, seat, d)
        for victim in range(len(g.players)):
            if victim != seat and g.districts[d][victim] > 0:
                out.extend(Transfer(DISTRICT_NAMES[d], g.players[victim], _name(src))
                           for src in srcs)
    return out


def doge_routes(g: Game, seat: int) -> list[tuple[int, tuple[Crossing, ...], int]]:
    """Every (target, route, cost) of a Doge card now.

    First Doge: any district, no route. Later: stay (score here), or a simple path over
    bridges (R11: the route names each bridge, so whom to pay). Only from a district with no
    bridge at all: the 2-point canal crossing to a neighbour, then optionally bridges.
    R17: routes never enter a district twice (no loops, no return to the start): a
    revisiting route only ever pays a superset of the tolls of an allowed one.
    """
    if g.doge is None:
        return [(d, (), 0) for d in range(6)]
    start = g.doge
    out: list[tuple[int, tuple[Crossing, ...], int]] = [(start, (), 0)]
    players = g.players

    def walk(at: int, visited: frozenset[int], route: tuple[Crossing, ...], cost: int) -> None:
        for a, b, owner in g.bridges:
            if at not in (a, b):
                continue
            nxt = b if a == at else a
            if nxt in visited:
                continue
            step = Crossing(DISTRICT_NAMES[at], DISTRICT_NAMES[nxt], players[owner])
            c = cost + (0 if owner == seat else 1)
            r = route + (step,)
            out.append((nxt, r, c))
            walk(nxt, visited | {nxt}, r, c)

    if any(start in (a, b) for a, b, _ in g.bridges):
        walk(start, frozenset({start}), (), 0)
    else:
        for a, b in PAIR_IDX:
            if start in (a, b):
                nb = b if a == start else a
                step = Crossing(DISTRICT_NAMES[start], DISTRICT_NAMES[nb], None)
                out.append((nb, (step,), CANAL_CROSSING_COST))
                walk(nb, frozenset({start, nb}), (step,), CANAL_CROSSING_COST)
    return out


def doge_options(g: Game, seat: int) -> list[Action]:
    return [Doge(DISTRICT_NAMES[t], r) for t, r, _ in doge_routes(g, seat)]


def banish_options(passage: bool = False) -> list[Action]:
    """Banishment: any district may be named. R16: the passage's banishment is a right, so
    it may also be declined (a banishment card must be played, R7)."""
    named: list[Action] = [Banish(name) for name in DISTRICT_NAMES]
    return named + [DeclineBanishment()] if passage else named


def card_options(g: Game, seat: int, card: str) -> list[Action]:
    """Every legal play of one action card; empty means no legal effect (R7)."""
    district = card_district(card)
    if district is not None:
        return district_options(g, seat, INDEX[district])
    if card == BRIDGE:
        return bridge_options(g, seat)
    if card == TRANSFER:
        return transfer_options(g, seat)
    if card == DOGE:
        return doge_options(g, seat)
    if card == BANISHMENT:
        return banish_options()
    raise ValueError(f"{card!r} is not an action card")


def victim_choices(counts: list[int], banisher: int, roll: int) -> list[tuple[int, ...]]:
    """R10: the ways to remove ``roll`` opposing aristocrats (capped by what is there).

    Returns per-seat removal vectors of opponents only; the banisher's own losses follow
    from the rest of the roll.
    """
    opp = [s for s in range(len(counts)) if s != banisher and counts[s] > 0]
    total = sum(counts[s] for s in opp)
    take = min(roll, total)
    results: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == len(opp):
            if left == 0:
                vec = [0] * len(counts)
                for s, k in zip(opp, acc, strict=True):
                    vec[s] = k
                results.append(tuple(vec))
            return
        rest = sum(counts[s] for s in opp[i + 1:])
        for k in range(min(left, counts[opp[i]]), -1, -1):
            if left - k <= rest:
                rec(i + 1, left - k, acc + [k])

    rec(0, take, [])
    return results
