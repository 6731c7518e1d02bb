"""Resolving the action cards (RULES.md §5) once ``apply`` has checked they are legal."""

from __future__ import annotations

from collections import Counter

from ..actions import Crossing, Doge, PlaceAristocrat, PlaceBridge, TakeOverBridge, Transfer
from ..board import CANAL_CROSSING_COST, DISTRICT_NAMES, INDEX
from ..events import Event
from . import scoring
from .work import Work


def _idx(name: str | None) -> int | None:
    return None if name is None else INDEX[name]


def place_aristocrat(w: Work, seat: int, a: PlaceAristocrat) -> None:
    """District card: into the district, then optionally over one's own bridge."""
    d = INDEX[a.district]
    w.take_aristocrat(seat, _idx(a.source))
    dest = INDEX[a.hop] if a.hop else d
    w.districts[dest][seat] += 1
    w.emit("aristocrat_placed", player=w.pid(seat), district=a.district, hop=a.hop,
           source=a.source)


def new_bridge(w: Work, seat: int, a: PlaceBridge) -> None:
    x, y = sorted((INDEX[a.a], INDEX[a.b]))
    w.take_aristocrat(seat, _idx(a.source))
    w.bridges.append((x, y, seat))
    w.emit("bridge_built", player=w.pid(seat), a=DISTRICT_NAMES[x], b=DISTRICT_NAMES[y],
           setup=False, source=a.source)


def take_over_bridge(w: Work, seat: int, a: TakeOverBridge) -> None:
    """R9: the player's aristocrat replaces the owner's, which goes home to the reserve."""
    x, y = sorted((INDEX[a.a], INDEX[a.b]))
    owner = w.players.index(a.owner)
    w.bridges.remove((x, y, owner))
    w.reserve[owner] += 1
    w.take_aristocrat(seat, _idx(a.source))
    tx, ty = sorted((INDEX[a.to_a], INDEX[a.to_b]))
    w.bridges.append((tx, ty, seat))
    w.emit("bridge_taken_over", player=w.pid(seat), owner=a.owner, a=DISTRICT_NAMES[x],
           b=DISTRICT_NAMES[y], to_a=DISTRICT_NAMES[tx], to_b=DISTRICT_NAMES[ty],
           source=a.source)


def transfer(w: Work, seat: int, a: Transfer) -> None:
    d = INDEX[a.district]
    victim = w.players.index(a.victim)
    w.districts[d][victim] -= 1
    w.reserve[victim] += 1
    w.take_aristocrat(seat, _idx(a.source))
    w.districts[d][seat] += 1
    w.emit("transferred", player=w.pid(seat), district=a.district, victim=a.victim,
           source=a.source)


def route_costs(route: tuple[Crossing, ...], payer: str) -> tuple[int, Counter[str]]:
    """What a Doge route costs ``payer``: the canal crossings (paid to no one) and the tolls
    per bridge owner — 1 per crossing of another player's bridge, own bridges free (R11)."""
    tolls: Counter[str] = Counter()
    canal = 0
    for c in route:
        if c.owner is None:
            canal += CANAL_CROSSING_COST
        elif c.owner != payer:
            tolls[c.owner] += 1
    return canal, tolls


def doge(w: Work, seat: int, a: Doge) -> None:
    """Move (or first place) the Doge, pay tolls and the canal crossing (R11, R12), score."""
    start = w.doge
    target = INDEX[a.target]
    canal, tolls = route_costs(a.route, w.pid(seat))
    w.doge = target
    w.events.append(Event("doge_moved", {
        "player": w.pid(seat), "from": None if start is None else DISTRICT_NAMES[start],
        "to": a.target, "route": [c.encode() for c in a.route]}))
    if canal:
        w.add_prestige(seat, -canal)
        w.emit("canal_crossed", player=w.pid(seat), cost=canal)
    for owner, amount in sorted(tolls.items(), key=lambda kv: w.players.index(kv[0])):
        w.add_prestige(seat, -amount)
        w.add_prestige(w.players.index(owner), amount)
        w.emit("toll_paid", payer=w.pid(seat), owner=owner, amount=amount)
    scoring.score_district(w, target)
