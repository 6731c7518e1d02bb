"""Scoring a district (RULES.md §6) and the winners (§8, R14)."""

from __future__ import annotations

from collections.abc import Sequence

from ..board import DISTRICT_NAMES, DISTRICTS
from .work import Work


def district_points(counts: Sequence[int], first: int, second: int) -> list[int]:
    """Points per seat for one district's counts.

    Most alone: ``first``. Tied for most: each tied player ``second``, nobody else. Otherwise
    the next count alone gets ``second``; tied for second: nobody. (4-3-1 → 8,6,0; 2-2-1 →
    6,6,0; 5-3-3 → 8,0,0 for San Marco.)
    """
    points = [0] * len(counts)
    present = sorted({c for c in counts if c > 0}, reverse=True)
    if not present:
        return points
    top = [s for s, c in enumerate(counts) if c == present[0]]
    if len(top) > 1:
        for s in top:
            points[s] = second
        return points
    points[top[0]] = first
    if len(present) > 1:
        runner = [s for s, c in enumerate(counts) if c == present[1]]
        if len(runner) == 1:
            points[runner[0]] = second
    return points


def score_district(w: Work, district: int) -> None:
    """Score one district now and tell it with a ``district_scored`` event."""
    d = DISTRICTS[district]
    pts = district_points([w.districts[district][s] for s in range(w.n)], d.first, d.second)
    for s, p in enumerate(pts):
        w.add_prestige(s, p)
    w.emit("district_scored", district=DISTRICT_NAMES[district],
           points={w.pid(s): p for s, p in enumerate(pts) if p})


def winners(prestige: Sequence[int], san_marco: Sequence[int]) -> list[int]:
    """Most prestige; tie: most aristocrats in San Marco; still tied: shared win (R14)."""
    best = max(prestige)
    tied = [s for s, p in enumerate(prestige) if p == best]
    most_sm = max(san_marco[s] for s in tied)
    return [s for s in tied if san_marco[s] == most_sm]
