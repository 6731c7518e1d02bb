"""Scoring a district (RULES.md §6) and the winners (§8, R14)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..board import DISTRICT_NAMES, DISTRICTS

if TYPE_CHECKING:  # views import this module, and Work imports the state and its views
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


def ranking(prestige: Sequence[int], san_marco: Sequence[int]) -> list[tuple[int, int]]:
    """(seat, rank) best first: most prestige, then most aristocrats in San Marco (§8);
    players still tied share a rank (R14) and are listed in seat order. The one place this
    order lives: the winners and the views' standings both come from it."""
    def key(s: int) -> tuple[int, int]:
        return (-prestige[s], -san_marco[s])

    order = sorted(range(len(prestige)), key=lambda s: (key(s), s))
    out: list[tuple[int, int]] = []
    for i, s in enumerate(order):
        rank = out[-1][1] if out and key(order[i - 1]) == key(s) else i + 1
        out.append((s, rank))
    return out


def winners(prestige: Sequence[int], san_marco: Sequence[int]) -> list[int]:
    """Most prestige; tie: most aristocrats in San Marco; still tied: shared win (R14)."""
    return sorted(s for s, rank in ranking(prestige, san_marco) if rank == 1)
