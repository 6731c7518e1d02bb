"""The end of a round and of a passage (RULES.md §7) and the end of the game (§8)."""

from __future__ import annotations

from ..board import DISTRICT_NAMES, INDEX, LIMIT_OUT, PASSAGES
from ..cards import LIMIT_DECK
from ..phases import Phase
from ..state import Banishment
from . import rounds, scoring
from .work import Work


def _next_seat(w: Work, after: int, among: list[int]) -> int:
    """The next seat clockwise after ``after`` that is in ``among``."""
    for k in range(1, w.n + 1):
        s = (after + k) % w.n
        if s in among:
            return s
    raise AssertionError("nobody left")


def end_round(w: Work) -> None:
    """§7: who is out (10+ limit points), then another round, ONE extra round (R6), or the
    passage ends."""
    assert w.starter is not None
    w.columns, w.steps, w.column = [], [], 0
    w.hand, w.hand_player = [], None
    under = [s for s in w.in_passage if sum(w.limit_cards[s]) < LIMIT_OUT]
    for s in w.in_passage:
        if s not in under:
            w.emit("player_out", player=w.pid(s), limit=sum(w.limit_cards[s]))
    if w.extra_round:
        score_passage(w)
        return
    if len(under) == len(w.in_passage):
        w.starter = _next_seat(w, w.starter, w.in_passage)
        rounds.start_round(w, extra=False)
    elif len(under) in (2, 3):
        w.in_passage = under
        w.starter = _next_seat(w, w.starter, under)  # R6
        rounds.start_round(w, extra=True)
    else:
        score_passage(w)


def score_passage(w: Work) -> None:
    """§7 scoring: the limit bonus, then the single lowest player's banishment."""
    totals = [sum(x) for x in w.limit_cards]
    highest = max(totals)
    bonus = {s: highest - totals[s] for s in range(w.n) if totals[s] < LIMIT_OUT}
    for s, b in bonus.items():
        w.add_prestige(s, b)
    low = min(totals)
    lowest = [s for s in range(w.n) if totals[s] == low]
    banisher = lowest[0] if len(lowest) == 1 else None
    w.emit("passage_scored", passage=w.passage,
           limit={w.pid(s): totals[s] for s in range(w.n)},
           bonus={w.pid(s): b for s, b in bonus.items()},
           banisher=None if banisher is None else w.pid(banisher))
    w.hand, w.hand_player = [], None
    if banisher is None:
        after_passage(w)
    else:
        w.banishment = Banishment(banisher, None, None, "passage")
        w.phase = Phase.BANISH


def after_passage(w: Work) -> None:
    """Reshuffle, reset limits, advance the sundial and start the next passage — or, after
    the third, score every district once and name the winners (R14)."""
    if w.passage >= PASSAGES:
        final_scoring(w)
        return
    # every hand is played out by now: deck + discards are all 62 action cards
    w.action_deck = w.rng.shuffled(w.action_discard + w.action_deck)
    w.action_discard = []
    w.limit_deck = w.rng.shuffled(LIMIT_DECK)
    w.limit_cards = [[] for _ in range(w.n)]
    w.passage += 1
    w.round = 0
    w.in_passage = list(range(w.n))
    assert w.starter is not None
    w.starter = (w.starter + 1) % w.n
    w.emit("passage_started", passage=w.passage, starter=w.pid(w.starter))
    rounds.start_round(w, extra=False)


def final_scoring(w: Work) -> None:
    """§8: every district scored once, in die order; most prestige wins (R14 tie-break)."""
    for d in range(len(DISTRICT_NAMES)):
        scoring.score_district(w, d)
    sm = INDEX["San Marco"]
    w.winners = scoring.winners(w.prestige, w.districts[sm])
    w.phase = Phase.GAME_OVER
    w.banishment = None
    w.emit("game_over", winners=[w.pid(s) for s in w.winners],
           prestige={w.pid(s): w.prestige[s] for s in range(w.n)},
           seed=w.seed)
