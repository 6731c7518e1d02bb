"""Advice for a person: the hard computer's choice with the runner-up and a reason, and the
review of a finished game (a player's costliest decisions).

    advice = advise(view, legal, pid, seed=7, budget=HINT)
    advice.best.action, advice.best.reason       # Reason(kind="leads_district", ...)
    mistakes = review(players, seed, actions, pid, budget=REVIEW)

Like every decision of ``engine.ai`` a hint reads only the caller's private view and legal
actions (R15); ``seed`` seeds the search's own randomness (never the game's seed). A reason
is a structured value built from what the model computed (per-district expected points
before and after, prestige, tolls, limit points), never words: ``bot.text`` words it.
Where the search does not search a phase (set-up, the passage's banishment), the
heuristic's candidates are ranked by the model's value of the board after them.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import (
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
    decode,
)
from ..board import BY_DIE, DISTRICT_NAMES, LIMIT_OUT
from ..cards import card_district, is_limit, limit_value
from ..describe import doge_payments
from ..game import apply, legal_actions, start_game
from ..state import GameState
from . import heuristic, search
from .determinize import sample_world
from .model import FIRST, IDX, Board, Evaluator, W
from .playout import play_card
from .search import Budget

View = Mapping[str, Any]

# A hint's budget: the hard level's playouts, capped at 0.9 s of wall time so a hint
# answers within a second (benchmarks/hint_bench.py); a review's is smaller per decision.
HINT = Budget(playouts=24, max_seconds=0.9, candidates=6)
REVIEW = Budget(playouts=8, max_seconds=0.4, candidates=4)
REVIEW_WORLDS = 8  # worlds the played move and the better one are compared on
TOP = 3  # decisions a review names
MIN_LOSS = 0.5  # prestige: a smaller loss rounds to nothing, so a review does not name it

# Every kind of reason (``bot.text.advice`` has words for each).
REASON_KINDS: tuple[str, ...] = (
    "leads_district", "gains_district", "doge_scores", "cheaper_route", "banishes_rival",
    "takes_from_rival", "bridge", "limit_points", "offer_value", "split_offers",
    "keep_rolls", "reroll", "declines_banishment", "discard", "only_move", "playouts")


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is good, as the model sees it: ``kind`` one of ``REASON_KINDS``;
    ``district``/``other`` district names, ``rival`` a player's pid, ``card`` one of the
    caller's own (or a revealed offer's) cards; ``points`` the prestige it is about
    (expected at the district's next scoring, gained now, saved...), one decimal."""

    kind: str
    district: str | None = None
    other: str | None = None
    rival: str | None = None
    card: str | None = None
    points: float = 0.0


@dataclass(frozen=True, slots=True)
class Choice:
    """A ranked candidate: the action, its value as the search (or the model) computed it
    for the caller, and why."""

    action: Action
    value: float
    reason: Reason


@dataclass(frozen=True, slots=True)
class Advice:
    """The hard level's choice (``best``) and the runner-up (None: only one sensible move);
    ``searched``: whether playouts ranked them (else the model's board value)."""

    pid: str
    phase: str
    best: Choice
    runner_up: Choice | None
    searched: bool


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision that cost: log step ``seq`` (1-based, the game file's), the move
    ``played``, the hard computer's ``better`` one, the ``loss`` in prestige (how much more
    final prestige ``better`` was expected to bring the player) and why ``better``. So both
    moves can be told apart: ``drawn``, the player's own cards at a split (theirs to see,
    and the game is over); ``offers``, the cards of each offer at a take."""

    seq: int
    phase: str
    played: Action
    better: Action
    loss: float
    reason: Reason
    drawn: tuple[str, ...] = ()
    offers: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Review:
    """A player's costliest decisions of a finished game, worst first (at most ``TOP``);
    ``decisions``: how many of their decisions had a choice and were looked at."""

    pid: str
    mistakes: tuple[Mistake, ...]
    decisions: int


def advise(view: View, legal: Sequence[Action], pid: str, *, seed: int,
           budget: Budget = HINT) -> Advice:
    """The hard level's choice for ``pid``'s decision and the runner-up, each with its value
    and reason. Reads only ``view`` (``pid``'s private view) and ``legal`` (R15). Raises
    ValueError when ``pid`` has nothing to decide."""
    if not legal:
        raise ValueError(f"{pid!r} has nothing to decide now")
    v = view
    rng = random.Random(f"{seed}:{pid}:{v['version']}")
    phase = str(v["phase"])
    ranked, searched = _ranked(v, legal, pid, rng, budget)
    best_action, best_value = ranked[0]
    # the runner-up is a different move, not the same one by other means (an offer with
    # the same cards, a split that only relabels the offers, a route with the same tolls)
    other = next((r for r in ranked[1:] if not same_move(v, pid, r[0], best_action)), None)
    best = Choice(best_action, round(best_value, 2),
                  reason_for(v, pid, best_action, None if other is None else other[0],
                             best_value - (other[1] if other else 0.0)))
    runner = None if other is None else Choice(
        other[0], round(other[1], 2), reason_for(v, pid, other[0], None, 0.0))
    return Advice(pid, phase, best, runner, searched)


def _ranked(view: View, legal: Sequence[Action], pid: str,
            rng: random.Random, budget: Budget) -> tuple[list[tuple[Action, float]], bool]:
    """The candidates, best first, with their values: the search's means where it searches,
    else the model's value after each action."""
    if len(legal) == 1:
        return [(legal[0], 0.0)], False
    phase = view["phase"]
    if phase in search.T.phases and budget.playouts > 0:
        d = search.decide(view, legal, pid, rng, budget)
        if len(d.candidates) > 1:
            pairs = [(a, m) for a, m in zip(d.candidates, d.means, strict=True) if m == m]
            best = next(m for a, m in pairs if a == d.action)
            rest = sorted((p for p in pairs if p[0] != d.action), key=lambda p: -p[1])
            return [(d.action, best), *rest], True
        return [(d.action, 0.0)], True
    return _by_model(view, legal, pid, rng), False


def _by_model(view: View, legal: Sequence[Action], pid: str,
              rng: random.Random) -> list[tuple[Action, float]]:
    """The heuristic's choice first, then the other actions by the model's value after."""
    players = list(view["players"])
    me = players.index(pid)
    ev = Evaluator(view)
    board = Board.from_view(view)
    seat = {p: i for i, p in enumerate(players)}
    first = heuristic.choose(view, legal, pid, rng)

    def value(a: Action) -> float:
        if isinstance(a, KeepRolls):
            return ev.value(board, me)
        if isinstance(a, Reroll):
            return _reroll_value(view, pid, me, ev, board)
        if isinstance(a, DeclineBanishment):
            return ev.value(board, me)
        if isinstance(a, Split):
            return ev.value(board, me)
        return heuristic.value_after(ev, board, me, seat, a)

    rest = sorted(((a, value(a)) for a in legal if a != first), key=lambda p: -p[1])
    return [(first, value(first)), *rest]


def _reroll_value(view: View, pid: str, me: int, ev: Evaluator,
                  board: Board) -> float:
    rolls = view["setup_rolls"]
    home = IDX[BY_DIE[rolls[pid][3]].name]
    vals = []
    for r in range(1, 7):
        if IDX[BY_DIE[r].name] != home:
            b = board.copy()
            b.counts[home][me] -= 2
            b.counts[IDX[BY_DIE[r].name]][me] += 2
            vals.append(ev.value(b, me))
    return sum(vals) / len(vals)


def same_move(view: View, pid: str, a: Action, b: Action) -> bool:
    """Whether two legal actions do the same for ``pid``: equal, or a split into the same
    offers in another order, or offers with the same cards, or Doge routes to the same
    district paying the same tolls to the same players (R11: whom to pay is the choice)."""
    if a == b:
        return True
    if isinstance(a, Split) and isinstance(b, Split):
        drawn = list(view.get("private", {}).get("drawn", ()))
        return len(drawn) == len(a.assignment) == len(b.assignment) and \
            _offers_of(drawn, a.assignment) == _offers_of(drawn, b.assignment)
    if isinstance(a, TakeOffer) and isinstance(b, TakeOffer):
        offers = _column(view)
        return a.index < len(offers) and b.index < len(offers) and \
            sorted(offers[a.index]) == sorted(offers[b.index])
    if isinstance(a, Doge) and isinstance(b, Doge):
        return a.target == b.target and doge_payments(a, pid) == doge_payments(b, pid)
    return False


def _offers_of(drawn: Sequence[str], assignment: Sequence[int]) -> list[list[str]]:
    """A split's offers as sorted card lists, in a canonical order."""
    offers: dict[int, list[str]] = {}
    for card, k in zip(drawn, assignment, strict=True):
        offers.setdefault(k, []).append(card)
    return sorted(sorted(o) for o in offers.values())


def _column(view: View) -> list[tuple[str, ...]]:
    """The cards of each offer of the column being chosen from, by index (none: [])."""
    choosing = view.get("choosing")
    if choosing is None:
        return []
    column = view["offers"][choosing["column"]]["offers"]
    return [tuple(o["cards"]) for o in sorted(column, key=lambda o: int(o["index"]))]


def expected_prestige(state: GameState, me: int) -> float:
    """Seat ``me``'s expected final prestige at a playout's end, as the model projects it
    (its prestige now, the points its aristocrats and bridges are expected to bring, and the
    limit bonus the passage's end would pay from today's totals, §7); a finished game: its
    real prestige. A review counts its losses in these points, not in the search's value
    (measured against the field, with a win bonus)."""
    if state.finished:
        return float(state.prestige[me])
    view = state.public_view()
    own = Evaluator(view).scores(Board.from_view(view))[me]
    totals = [int(view["limit"][p]) for p in view["players"]]
    high = max(max(totals), LIMIT_OUT)
    return own + (float(high - totals[me]) if totals[me] < LIMIT_OUT else 0.0)


# ---- reasons --------------------------------------------------------------------------------
def reason_for(view: View, pid: str, action: Action, other: Action | None,
               margin: float) -> Reason:
    """What ``action`` does for ``pid`` as the model sees it (``other``: the runner-up it is
    compared with, ``margin``: its value over it). An effect too small to name (under half
    a point) gives the search's own verdict instead (``playouts``)."""
    reason = _effect(view, pid, action, other, margin)
    if reason.kind in _SIZED and reason.points < 0.5:
        return Reason("playouts", points=round(max(0.0, margin), 1))
    return reason


_SIZED = frozenset({"gains_district", "takes_from_rival", "doge_scores", "bridge",
                    "banishes_rival"})


def _effect(view: View, pid: str, action: Action, other: Action | None,
            margin: float) -> Reason:
    players = list(view["players"])
    me = players.index(pid)
    seat = {p: i for i, p in enumerate(players)}
    ev = Evaluator(view)
    board = Board.from_view(view)
    gap = round(max(0.0, margin), 1)
    match action:
        case PlaceAristocrat(district=district, hop=hop):
            return _district_reason(ev, board, heuristic.board_after(board, me, seat, action), me,
                                    IDX[hop or district])
        case Transfer(district=district, victim=victim):
            after = heuristic.board_after(board, me, seat, action)
            d = IDX[district]
            return Reason("takes_from_rival", district, rival=victim,
                          points=_r(_exp(ev, after, d, me) - _exp(ev, board, d, me)))
        case PlaceBridge(a=a, b=b) | TakeOverBridge(to_a=a, to_b=b):
            return Reason("bridge", a, b,
                          points=_r(ev.bridge_value(min(IDX[a], IDX[b]), max(IDX[a], IDX[b]),
                                                    board.doge)))
        case Doge(target=target):
            after = heuristic.board_after(board, me, seat, action)
            if isinstance(other, Doge) and other.target == target and \
                    _tolls(other) > _tolls(action):
                return Reason("cheaper_route", target, points=_tolls(other) - _tolls(action))
            return Reason("doge_scores", target,
                          points=_r(after.prestige[me] - board.prestige[me]))
        case Banish(district=district):
            d = IDX[district]
            rival = max((s for s in range(board.n) if s != me),
                        key=lambda s: (board.counts[d][s], -s))
            gain = heuristic.value_after(ev, board, me, seat, action) - ev.value(board, me)
            return Reason("banishes_rival", district, rival=players[rival], points=_r(gain))
        case ChooseBanished(removed=removed):
            ban = view["banishment"]
            district = str(ban["district"])
            hit = max(removed, key=lambda r: r[1], default=None)
            return Reason("banishes_rival", district, rival=hit[0] if hit else None,
                          points=float(hit[1]) if hit else 0.0)
        case DeclineBanishment():
            return Reason("declines_banishment", points=gap)
        case DiscardCard(card=card):
            return Reason("discard", card=card, points=gap)
        case KeepRolls():
            return Reason("keep_rolls", points=gap)
        case Reroll():
            return Reason("reroll", points=gap)
        case Split():
            return Reason("split_offers", points=gap)
        case TakeOffer(index=index):
            return _take_reason(view, ev, board, me, index, other, gap)
    return Reason("playouts", points=gap)


def _take_reason(view: View, ev: Evaluator, board: Board, me: int,
                 index: int, other: Action | None, gap: float) -> Reason:
    """An offer: fewer limit points than the runner-up's, else what its best card does."""
    offers = view["offers"]
    choosing = view["choosing"]
    column = offers[choosing["column"]]
    cards = {int(o["index"]): list(o["cards"]) for o in column["offers"]}
    mine = cards.get(index, [])
    limit = sum(limit_value(c) for c in mine if is_limit(c))
    if isinstance(other, TakeOffer) and other.index in cards:
        theirs = sum(limit_value(c) for c in cards[other.index] if is_limit(c))
        if theirs > limit:
            return Reason("limit_points", points=float(theirs - limit))
    best: tuple[float, Reason] | None = None
    for card in (c for c in mine if not is_limit(c)):
        after, extra = play_card(ev, board, me, card)
        for d in range(6):
            r = _district_reason(ev, board, after, me, d)
            if r.points + extra > (best[0] if best else 0.05):
                best = (r.points + extra, Reason(r.kind, r.district, card=card,
                                                 points=r.points))
    if best is not None and card_district(best[1].card or "") is not None:
        return best[1]
    return Reason("offer_value", points=gap, card=best[1].card if best else None)


def _district_reason(ev: Evaluator, before: Board, after: Board, me: int, d: int) -> Reason:
    """Leading a district now (worth its first-place points at its next scoring), else the
    expected points gained there."""
    name = DISTRICT_NAMES[d]
    if _leads(after, d, me) and not _leads(before, d, me):
        return Reason("leads_district", name, points=float(FIRST[d]))
    return Reason("gains_district", name,
                  points=_r(_exp(ev, after, d, me) - _exp(ev, before, d, me)))


def _leads(b: Board, d: int, me: int) -> bool:
    mine = b.counts[d][me]
    return mine > 0 and all(mine > c for s, c in enumerate(b.counts[d]) if s != me)


def _exp(ev: Evaluator, b: Board, d: int, me: int) -> float:
    return ev._district(d, b.counts[d])[me]


def _tolls(a: Doge) -> int:
    return sum(1 if c.owner is not None else 2 for c in a.route)


def _r(x: float) -> float:
    return round(x, 1)


# ---- the review of a finished game -----------------------------------------------------------
def review(players: Sequence[str], seed: int, actions: Sequence[tuple[str, str]], pid: str,
           *, budget: Budget = REVIEW, worlds: int = REVIEW_WORLDS,
           advice_seed: int = 0, skip: Collection[int] = ()) -> Review:
    """``pid``'s costliest decisions of a finished game (``players``, ``seed``, the log's
    ``(pid, encoded action)`` pairs, as ``engine.replay`` takes them): each decision with a
    choice is advised from ``pid``'s view then (``budget``); where the played move differs
    from the advice, both are compared on the same ``worlds`` sampled worlds (the model's
    value where the search does not search), and the value lost is the difference. One
    mistake per round at most (a wrong card early in a round makes the next decisions of the
    round look as costly): the round's costliest.
    ``skip``: steps not to judge (moves the computer made for the player)."""
    state, _ = start_game(list(players), seed)
    worst: dict[tuple[int, int, bool], Mistake] = {}  # the costliest of each round
    looked = 0
    for seq, (who, text) in enumerate(actions, start=1):
        action = decode(text)
        if who == pid and not state.finished and seq not in skip:
            legal = legal_actions(state, pid)
            if len(legal) > 1 or state.phase == "split":
                looked += 1
                m = _judge(state.private_view(pid), legal, pid, action, seq, budget, worlds,
                           advice_seed)
                at = (state.passage, state.round, state.extra_round)
                if m is not None and (at not in worst or m.loss > worst[at].loss):
                    worst[at] = m
        state, _ = apply(state, who, action)
    found = sorted(worst.values(), key=lambda m: (-m.loss, m.seq))
    return Review(pid, tuple(found[:TOP]), looked)


def _judge(view: View, legal: Sequence[Action], pid: str, played: Action,
           seq: int, budget: Budget, worlds: int, advice_seed: int) -> Mistake | None:
    """The decision's loss: None when the hard choice was played or the played move is as
    good on the shared worlds."""
    advice = advise(view, legal, pid, seed=advice_seed, budget=budget)
    better = advice.best.action
    if same_move(view, pid, better, played):
        return None
    if advice.searched:
        rng = random.Random(f"{advice_seed}:{pid}:{view['version']}:review")
        base = rng.getrandbits(64)
        memo: dict[str, Action] = {}
        guess = search.guess_split(W)
        vb = vp = 0.0
        for i in range(worlds):
            world = sample_world(view, pid, random.Random(f"{base}:{i}"), guess)
            vb += search.playout(world, pid, better, random.Random(f"{base}:{i}:p"), memo,
                                 leaf=expected_prestige)
            vp += search.playout(world, pid, played, random.Random(f"{base}:{i}:p"), memo,
                                 leaf=expected_prestige)
        loss = (vb - vp) / worlds
    else:
        values = dict(_by_model(view, legal, pid, random.Random(advice_seed)))
        loss = values.get(better, 0.0) - values.get(played, values.get(better, 0.0))
    if loss < MIN_LOSS:
        return None
    reason = reason_for(view, pid, better, played, loss)
    drawn = tuple(view.get("private", {}).get("drawn", ())) if isinstance(played, Split) \
        else ()
    offers = tuple(_column(view)) if isinstance(played, TakeOffer) else ()
    return Mistake(seq, str(view["phase"]), played, better, round(loss, 2), reason, drawn,
                   offers)


__all__ = ["HINT", "REASON_KINDS", "REVIEW", "Advice", "Choice", "Mistake", "Reason", "Review",
           "advise", "expected_prestige", "reason_for", "review", "same_move"]
