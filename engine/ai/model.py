"""A small mutable picture of the board and a value function for the computer player.

The picture is built from ``state.private_view(pid)`` only: what that player may see (R15).
It never holds a deck order, another player's drawn cards or the seed, so nothing the
look-ahead does can peek at them.

The value of a board for a player is a projected final score: prestige now, plus each
district's *expected* points (majorities blurred by the aristocrats still to come) times
how often that district will still be scored, plus the bridges' worth (tolls, hops). A
player's value is that projection minus a blend of the opponents' mean and best, since only
beating the leader wins.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import (
    CANAL_CROSSING_COST,
    DISTRICT_NAMES,
    DISTRICTS,
    INDEX,
    LIMIT_OUT,
    TOTAL_BRIDGES,
)
from ..rules import options
from ..rules.options import PAIR_IDX
from ..rules.scoring import district_points

IDX = INDEX  # the board's one district-index table, under the name the AI modules use
FIRST: tuple[int, ...] = tuple(d.first for d in DISTRICTS)
SECOND: tuple[int, ...] = tuple(d.second for d in DISTRICTS)
DEGREE: tuple[int, ...] = tuple(sum(1 for p in PAIR_IDX if d in p) for d in range(6))
DOGES_PER_PASSAGE = 5.5  # ~35 of the 62 action cards are drawn per passage; 10 are Doges


@dataclass(frozen=True, slots=True)
class Weights:
    """The tunable numbers of the heuristic (benchmarks/ai_bench.py measures them)."""

    mean_weight: float = 0.85    # opponents' mean vs best in a player's value
    bridge_base: float = 1.2     # a bridge's worth early in the game (hops, tolls)
    bridge_central: float = 0.25  # ... per canal of its two districts (more Doge traffic)
    bridge_doge: float = 0.8     # ... if it touches the Doge's district now
    bridge_presence: float = 0.3  # ... per end where its owner has aristocrats (hops)
    doge_share: float = 0.1      # how much the Doge scorings still to come weigh
    blur: float = 1.6            # how much the majorities are blurred early in the game
    limit_point: float = 2.0     # extra cost of a limit point beyond the passage projection
    out_penalty: float = 4.0     # going out of the passage in a normal round: offers lost
    brink: float = 0.6           # per limit point above 6 while still in (risk of going out)
    banish_bonus: float = 2.0    # being the single lowest limit total at the passage end
    rival: float = 0.5           # splitter: how much a decision-maker's gain hurts


W = Weights()


class Board:
    """Counts, bridges, reserves, prestige, Doge and limit totals, by seat index."""

    __slots__ = ("bridges", "counts", "doge", "limits", "n", "prestige", "reserve")

    def __init__(self, n: int, counts: list[list[int]], bridges: list[tuple[int, int, int]],
                 reserve: list[int], prestige: list[float], doge: int | None,
                 limits: list[int]) -> None:
        self.n = n
        self.counts = counts
        self.bridges = bridges
        self.reserve = reserve
        self.prestige = prestige
        self.doge = doge
        self.limits = limits

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Board:
        players: list[str] = list(view["players"])
        n = len(players)
        seat = {p: i for i, p in enumerate(players)}
        counts = [[int(view["districts"][name][p]) for p in players] for name in DISTRICT_NAMES]
        bridges = sorted((min(IDX[b["a"]], IDX[b["b"]]), max(IDX[b["a"]], IDX[b["b"]]),
                          seat[b["owner"]]) for b in view["bridges"])
        doge = None if view["doge"] is None else IDX[view["doge"]]
        return cls(n, counts, bridges, [int(view["reserve"][p]) for p in players],
                   [float(view["prestige"][p]) for p in players], doge,
                   [int(view["limit"][p]) for p in players])

    def copy(self) -> Board:
        return Board(self.n, [row[:] for row in self.counts], self.bridges[:],
                     self.reserve[:], self.prestige[:], self.doge, self.limits[:])

    # ---- changes (the rules' effects, for the look-ahead) ----------------------------
    def sources(self, seat: int, dest: int | None = None) -> list[int | None]:
        """R13: the reserve, or (empty) any district holding one of the player's own other
        than ``dest``, where the aristocrat ends up (None: on a bridge)."""
        if self.reserve[seat] > 0:
            return [None]
        return [d for d in range(6) if self.counts[d][seat] > 0 and d != dest]

    def take(self, seat: int, source: int | None) -> None:
        if source is None:
            self.reserve[seat] -= 1
        else:
            self.counts[source][seat] -= 1

    def place(self, seat: int, dest: int, source: int | None) -> None:
        self.take(seat, source)
        self.counts[dest][seat] += 1

    def transfer(self, seat: int, d: int, victim: int, source: int | None) -> None:
        self.counts[d][victim] -= 1
        self.reserve[victim] += 1
        self.place(seat, d, source)

    def build(self, seat: int, a: int, b: int, source: int | None) -> None:
        self.take(seat, source)
        self.bridges.append((min(a, b), max(a, b), seat))

    def take_over(self, seat: int, old: tuple[int, int, int], a: int, b: int,
                  source: int | None) -> None:
        self.bridges.remove(old)
        self.reserve[old[2]] += 1
        self.build(seat, a, b, source)

    def score(self, d: int) -> None:
        for s, p in enumerate(district_points(self.counts[d], FIRST[d], SECOND[d])):
            self.prestige[s] += p

    def doge_to(self, seat: int, target: int, payees: Sequence[int], canal: int) -> None:
        """Move the Doge (tolls to ``payees``, ``canal`` to no one) and score the target."""
        for owner in payees:
            if owner != seat:
                self.prestige[seat] -= 1
                self.prestige[owner] += 1
        self.prestige[seat] -= canal
        self.doge = target
        self.score(target)

    def banish(self, seat: int, d: int, removed: Sequence[int], roll: int) -> None:
        """R10: the opponents' chosen losses, then the banisher's own with the rest."""
        vec = list(removed)
        vec[seat] += max(0, min(roll - sum(removed), self.counts[d][seat]))
        for s, k in enumerate(vec):
            self.counts[d][s] -= k
            self.reserve[s] += k

    # ---- what the board allows ----------------------------------------------------------
    def new_bridge_pairs(self, seat: int) -> list[tuple[int, int]]:
        """R2: pairs with fewer than three bridges, none of them the player's (the rules'
        own function: this board has the same ``bridges`` shape)."""
        return options.legal_pairs_for_new_bridge(self, seat)

    def bridges_full(self) -> bool:
        return len(self.bridges) >= TOTAL_BRIDGES

    def doge_targets(self, seat: int) -> list[tuple[int, int, tuple[int, ...], int]]:
        """The cheapest way to each district the Doge can reach: (target, cost, payees,
        canal). Own bridges are free, others' cost 1; a bridgeless start may cross a canal
        for 2 (RULES.md §5)."""
        if self.doge is None:
            return [(d, 0, (), 0) for d in range(6)]
        start = self.doge
        edge: dict[tuple[int, int], int] = {}  # pair -> owner to pay (seat if own: free)
        for a, b, o in self.bridges:
            if o == seat or (a, b) not in edge:
                edge[(a, b)] = o
        best: dict[int, tuple[int, tuple[int, ...], int]] = {start: (0, (), 0)}
        if not any(start in (a, b) for a, b, _ in self.bridges):
            for a, b in PAIR_IDX:
                if start in (a, b):
                    best[b if a == start else a] = (CANAL_CROSSING_COST, (),
                                                    CANAL_CROSSING_COST)
        # Dijkstra with costs 0/1: tiny graph, so a simple relaxation loop is enough.
        changed = True
        while changed:
            changed = False
            for (a, b), o in edge.items():
                for x, y in ((a, b), (b, a)):
                    if x not in best or y == start:
                        continue
                    cost, payees, canal = best[x]
                    step = 0 if o == seat else 1
                    cand = (cost + step, payees + (() if o == seat else (o,)), canal)
                    if y not in best or cand[0] < best[y][0]:
                        best[y] = cand
                        changed = True
        return [(d, c, p, k) for d, (c, p, k) in sorted(best.items())]


# ---- the value of a board --------------------------------------------------------------
_EXP_CACHE: dict[tuple[tuple[int, ...], int], tuple[tuple[float, ...], tuple[float, ...]]] = {}
_GAP = 3  # more aristocrats still to come are at most +2: a gap of 3 can no longer close


def _noise(level: int) -> list[tuple[int, float]]:
    """Per-player chances of +0/+1/+2 more aristocrats in a district before it scores."""
    v = level / 10
    return [(0, 1 - 0.5 * v), (1, 0.3 * v), (2, 0.2 * v)]


def _canonical(counts: Sequence[int]) -> tuple[list[int], tuple[int, ...]]:
    """Seats from most to fewest aristocrats, and the counts with every gap the blur cannot
    close shrunk to ``_GAP``: far fewer distinct keys, the same expected points."""
    order = sorted(range(len(counts)), key=lambda s: -counts[s])
    out: list[int] = []
    prev_in = prev_out = 0
    for s in reversed(order):
        c = counts[s]
        if c > 0:
            prev_out += min(c - prev_in, _GAP)
            prev_in = c
        out.append(prev_out if c > 0 else 0)
    out.reverse()
    return order, tuple(out)


def _chances(key: tuple[int, ...], blur: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """For canonical counts: each position's chance of the first place and of a second-place
    score (tied first or alone second), with every count blurred."""
    n = len(key)
    p1 = [0.0] * n
    p2 = [0.0] * n
    steps = _noise(blur) if blur else [(0, 1.0)]
    for combo in itertools.product(steps, repeat=n):
        prob = 1.0
        c = list(key)
        for s, (inc, p) in enumerate(combo):
            prob *= p
            if c[s] > 0 or inc > 1:  # a newcomer needs a couple of cards to matter
                c[s] += inc
        if prob == 0.0:
            continue
        for s, pts in enumerate(district_points(c, 2, 1)):
            if pts == 2:
                p1[s] += prob
            elif pts == 1:
                p2[s] += prob
    return tuple(p1), tuple(p2)


def expected_points(d: int, counts: tuple[int, ...], blur: int) -> tuple[float, ...]:
    """Each player's expected points in district ``d`` if every count may still grow a
    little (``blur`` 0-10). Cached by canonical counts, shared by all districts."""
    order, key = _canonical(counts)
    hit = _EXP_CACHE.get((key, blur))
    if hit is None:
        if len(_EXP_CACHE) > 200_000:
            _EXP_CACHE.clear()
        hit = _EXP_CACHE[(key, blur)] = _chances(key, blur)
    p1, p2 = hit
    first, second = FIRST[d], SECOND[d]
    out = [0.0] * len(counts)
    for pos, s in enumerate(order):
        out[s] = first * p1[pos] + second * p2[pos]
    return tuple(out)


class Evaluator:
    """Projected scores of a board, with the weights of this moment of the game."""

    def __init__(self, view: Mapping[str, Any], weights: Weights = W) -> None:
        self.w = weights
        passage = int(view.get("passage", 1))
        limits = view.get("limit") or {}
        top = max(limits.values()) if limits else 0
        progress = min(1.0, top / LIMIT_OUT) if view.get("round", 0) else 0.0
        if view.get("extra_round"):
            progress = max(progress, 0.9)
        passages_left = max(0.0, 3 - passage + (1 - progress))
        if view.get("phase") in ("setup_reroll", "setup_bridges"):
            passages_left = 3.0
        self.passages_left = passages_left
        doges_left = DOGES_PER_PASSAGE * passages_left * weights.doge_share
        total_first = sum(FIRST)
        self.future = tuple(1.0 + doges_left * FIRST[d] / total_first for d in range(6))
        self.blur = max(0, min(10, round(10 * weights.blur * passages_left / 3)))
        frac = passages_left / 3
        doge = view.get("doge")
        self.doge = None if doge is None else IDX[doge]
        self.bridge_frac = frac
        self.presence = weights.bridge_presence * frac
        self._bridge: dict[tuple[int, int, int | None], float] = {}
        self._dist: dict[tuple[int, ...], tuple[float, ...]] = {}

    def bridge_value(self, a: int, b: int, doge: int | None) -> float:
        key = (a, b, doge)
        hit = self._bridge.get(key)
        if hit is None:
            w = self.w
            v = w.bridge_base + w.bridge_central * (DEGREE[a] + DEGREE[b] - 6)
            if doge is not None and doge in (a, b):
                v += w.bridge_doge
            hit = self._bridge[key] = max(0.0, v) * self.bridge_frac
        return hit

    def _district(self, d: int, counts: list[int]) -> tuple[float, ...]:
        key = (d, *counts)
        hit = self._dist.get(key)
        if hit is None:
            f = self.future[d]
            hit = self._dist[key] = tuple(f * p for p in
                                          expected_points(d, tuple(counts), self.blur))
        return hit

    def scores(self, b: Board) -> list[float]:
        """Each player's projected final score."""
        c = b.counts
        dist = self._district
        parts = (b.prestige, dist(0, c[0]), dist(1, c[1]), dist(2, c[2]), dist(3, c[3]),
                 dist(4, c[4]), dist(5, c[5]))
        s = [sum(col) for col in zip(*parts, strict=True)]
        presence = self.presence
        doge = b.doge
        value = self.bridge_value
        for x, y, o in b.bridges:
            s[o] += value(x, y, doge) + presence * ((c[x][o] > 0) + (c[y][o] > 0))
        return s

    def value(self, b: Board, seat: int) -> float:
        return self.relative(self.scores(b), seat)

    def relative(self, s: Sequence[float], seat: int) -> float:
        """A player's score against the field: minus a blend of the others' mean and best."""
        others = [v for i, v in enumerate(s) if i != seat]
        mw = self.w.mean_weight
        return s[seat] - mw * sum(others) / len(others) - (1 - mw) * max(others)
