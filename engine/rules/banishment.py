"""Banishment (RULES.md §5, R10): name a district, roll, the banisher picks the victims;
or, for the passage's banishment only, decline it (R16)."""

from __future__ import annotations

from ..board import DISTRICT_NAMES
from ..phases import Phase
from ..state import Banishment
from . import options, passage, rounds
from .work import Work


def name_district(w: Work, seat: int, district: int, reason: str) -> None:
    """Roll the die for the named district; ask R10's choice only if there is one."""
    roll = w.rng.die()
    w.emit("banishment_rolled", player=w.pid(seat), district=DISTRICT_NAMES[district],
           roll=roll, reason=reason)
    counts = list(w.districts[district])
    choices = options.victim_choices(counts, seat, roll)
    if len(choices) == 1:
        remove(w, Banishment(seat, district, roll, reason), choices[0])
    else:
        w.banishment = Banishment(seat, district, roll, reason)
        w.phase = Phase.BANISH_VICTIMS


def remove(w: Work, b: Banishment, from_opponents: tuple[int, ...]) -> None:
    """Remove the chosen opponents' aristocrats, then the banisher's own with the rest of
    the roll (R10); all return to their owners' reserves. Then carry on."""
    assert b.district is not None and b.roll is not None
    d = b.district
    removed = list(from_opponents)
    own_loss = min(b.roll - sum(removed), w.districts[d][b.banisher])
    removed[b.banisher] += max(0, own_loss)
    for s, k in enumerate(removed):
        w.districts[d][s] -= k
        w.reserve[s] += k
    w.emit("banished", player=w.pid(b.banisher), district=DISTRICT_NAMES[d], roll=b.roll,
           removed={w.pid(s): k for s, k in enumerate(removed) if k}, reason=b.reason)
    w.banishment = None
    if b.reason == "passage":
        passage.after_passage(w)
    else:
        rounds.advance(w)


def decline(w: Work, seat: int) -> None:
    """R16: the passage's lowest player declines the banishment; the log says so, and the
    passage goes on as after a banishment."""
    w.emit("banishment_declined", player=w.pid(seat), passage=w.passage)
    w.banishment = None
    passage.after_passage(w)
