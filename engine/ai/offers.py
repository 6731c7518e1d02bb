"""Offers: what limit points cost, which offer to take, and how to split (RULES.md §4, §7).

A split is judged by what the splitter is left with after every decision-maker has taken
the offer that is best *for them*, minus part of what they took: the aim is that the
chooser's best pick is not better for them than the rest is for the splitter.

The 3-player split has ~56k labelled assignments. They are never played out one by one:
action cards and limit cards add up separately, so each player's worth of every subset of
the action cards is computed once (``playout.subset_values``, a tree over ≤ 64 subsets),
limit points are a table by sum, and offers are only ever told apart by content, so
assignments that merely relabel the offers are skipped.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ..board import LIMIT_OUT
from ..cards import is_limit, limit_value
from .model import Board, Evaluator, Weights
from .playout import play_order, subset_values

MAX_LIMIT_SUM = 13


def passage_projection(ev: Evaluator, totals: Sequence[int], seat: int,
                       w: Weights) -> float:
    """The limit bonus and the lowest player's banishment (§7) as if the passage ended
    with these totals, relative to the field. Someone must reach 10 before a normal passage
    ends, so the highest total is taken as at least 10."""
    high = max(max(totals), LIMIT_OUT)
    low = min(totals)
    lowest = [s for s, t in enumerate(totals) if t == low]
    gains = []
    for s, t in enumerate(totals):
        g = float(high - t) if t < LIMIT_OUT else 0.0
        if len(lowest) == 1 and lowest[0] == s:
            g += w.banish_bonus
        gains.append(g)
    return ev.relative(gains, seat)


def limit_table(ev: Evaluator, view: Mapping[str, Any], seat: int) -> list[float]:
    """``out[k]``: what taking k more limit points now is worth to ``seat`` (≤ 0 mostly)."""
    w = ev.w
    players = list(view["players"])
    totals = [int(view["limit"][p]) for p in players]
    extra_round = bool(view.get("extra_round"))
    others_in = sum(1 for p in view.get("in_passage", players) if p != players[seat])
    base = passage_projection(ev, totals, seat, w)
    out = []
    mine = totals[seat]
    for k in range(MAX_LIMIT_SUM + 1):
        t = list(totals)
        t[seat] = mine + k
        v = passage_projection(ev, t, seat, w) - base - w.limit_point * k
        if not extra_round:
            if mine + k >= LIMIT_OUT > mine and others_in >= 2:
                v -= w.out_penalty
            if mine + k < LIMIT_OUT:
                v -= w.brink * (max(0, mine + k - 6) - max(0, mine - 6))
        out.append(v)
    return out


class OfferJudge:
    """Everyone's worth of every part of one distributor's cards, from the board now."""

    def __init__(self, ev: Evaluator, board: Board, view: Mapping[str, Any],
                 cards: Sequence[str], seats: Sequence[int]) -> None:
        self.actions = sorted((c for c in cards if not is_limit(c)), key=play_order)
        self.limits = [limit_value(c) for c in cards if is_limit(c)]
        self.action_values = {s: subset_values(ev, board, s, self.actions) for s in seats}
        self.limit_values = {s: limit_table(ev, view, s) for s in seats}

    def mask_of(self, cards: Sequence[str]) -> int:
        """The subset mask of these action cards (limit cards ignored)."""
        mask, used = 0, 0
        for c in cards:
            if is_limit(c):
                continue
            for i, a in enumerate(self.actions):
                if a == c and not (used >> i) & 1:
                    used |= 1 << i
                    mask |= 1 << i
                    break
        return mask

    def worth(self, seat: int, cards: Sequence[str]) -> float:
        """What an offer (its action and limit cards) is worth to ``seat``."""
        total = sum(limit_value(c) for c in cards if is_limit(c))
        return (self.action_values[seat][self.mask_of(cards)]
                + self.limit_values[seat][min(total, MAX_LIMIT_SUM)])


def _labelled(n_items: int, k: int, canonical: bool) -> list[tuple[int, ...]]:
    """Assignments of n items to k offers; ``canonical`` keeps one per relabelling."""
    out = []
    for a in itertools.product(range(k), repeat=n_items):
        if canonical:
            seen: list[int] = []
            for x in a:
                if x not in seen:
                    seen.append(x)
            if seen != list(range(len(seen))):
                continue
        out.append(a)
    return out


def best_split(judge: OfferJudge, me: int, deciders: Sequence[int], rival: float
               ) -> tuple[tuple[int, ...], tuple[int, ...], float]:
    """The best split as (offer of each action card in ``judge.actions`` order, offer of each
    limit card in ``judge.limits`` order, its worth to the splitter)."""
    k = len(deciders) + 1
    na, nl = len(judge.actions), len(judge.limits)
    lv = judge.limits
    # limit assignments matter only by each offer's sum and whether it is empty
    by_key: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[int, ...]] = {}
    for a in _labelled(nl, k, canonical=False):
        sums = [0] * k
        has = [False] * k
        for x, v in zip(a, lv, strict=True):
            sums[x] += v
            has[x] = True
        by_key.setdefault((tuple(sums), tuple(has)), a)
    limit_opts = [(sums, has, a) for (sums, has), a in by_key.items()]
    players = [*deciders, me]
    av = [judge.action_values[s] for s in players]
    cap = MAX_LIMIT_SUM
    # per limit option: each player's limit worth of each offer
    lim = [([[judge.limit_values[s][min(x, cap)] for x in sums] for s in players], has, la)
           for sums, has, la in limit_opts]
    best: tuple[float, tuple[int, ...], tuple[int, ...]] | None = None
    pick = _pick3 if k == 3 else _pick2
    for aa in _labelled(na, k, canonical=True):
        masks = [0] * k
        for i, x in enumerate(aa):
            masks[x] |= 1 << i
        act = [[av[p][m] for m in masks] for p in range(k)]
        for lt, filled, la in lim:
            if not all(masks[i] or filled[i] for i in range(k)):
                continue
            vals = [[a + b for a, b in zip(act[p], lt[p], strict=True)] for p in range(k)]
            u = pick(vals, rival)
            if best is None or u > best[0] + 1e-9:
                best = (u, aa, la)
    assert best is not None
    return best[1], best[2], best[0]


def _pick2(v: list[list[float]], rival: float) -> float:
    """Two offers: the decision-maker (row 0) takes their best; ties go against the
    splitter (row 1). Returns the splitter's worth minus ``rival`` times the taker's."""
    d, me = v
    if d[0] > d[1] + 1e-9 or (abs(d[0] - d[1]) <= 1e-9 and me[0] >= me[1]):
        return me[1] - rival * d[0]
    return me[0] - rival * d[1]


def _pick3(v: list[list[float]], rival: float) -> float:
    """Three offers: decision-maker 1 (row 0), then 2 (row 1) take their best; the splitter
    (row 2) keeps the last. Ties go against the splitter."""
    d1, d2, me = v
    best_u = None
    top = max(d1)
    for o1 in range(3):
        if d1[o1] < top - 1e-9:
            continue
        a, b = [o for o in range(3) if o != o1]
        if d2[a] > d2[b] + 1e-9 or (abs(d2[a] - d2[b]) <= 1e-9 and me[a] >= me[b]):
            o2, last = a, b
        else:
            o2, last = b, a
        u = me[last] - rival * (d1[o1] + d2[o2])
        if best_u is None or u < best_u:
            best_u = u
    assert best_u is not None
    return best_u


def assignment_for(drawn: Sequence[str], judge: OfferJudge, action_offers: Sequence[int],
                   limit_offers: Sequence[int]) -> tuple[int, ...]:
    """Map the split found over the judge's card order back onto the drawn cards' order."""
    pool_a: dict[str, list[int]] = {}
    for c, o in zip(judge.actions, action_offers, strict=True):
        pool_a.setdefault(c, []).append(o)
    pool_l: dict[int, list[int]] = {}
    for v, o in zip(judge.limits, limit_offers, strict=True):
        pool_l.setdefault(v, []).append(o)
    out = []
    for c in drawn:
        out.append(pool_l[limit_value(c)].pop(0) if is_limit(c) else pool_a[c].pop(0))
    return tuple(out)
