"""The "normal" computer player: one sensible rule per kind of decision.

Every decision reads only the player's own view (``state.private_view(pid)``) and the legal
actions; options are compared by the value function of ``model`` after playing them on the
board picture. Ties are broken by the caller's seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

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
)
from ..board import BY_DIE, CANAL_CROSSING_COST
from ..cards import BANISHMENT
from ..game import card_of
from .model import IDX, Board, Evaluator, W, Weights
from .offers import OfferJudge, assignment_for, best_split
from .playout import banish_expectation, play_card, play_order

T = TypeVar("T")
View = Mapping[str, Any]


def _argmax(items: Sequence[T], score: Callable[[T], float], rng: random.Random) -> T:
    """The best item; equal scores are broken by the seeded rng."""
    scored = [(score(x), i) for i, x in enumerate(items)]
    top = max(v for v, _ in scored)
    best = [i for v, i in scored if v >= top - 1e-9]
    return items[best[0] if len(best) == 1 else rng.choice(best)]


def choose(view: View, legal: Sequence[Action], pid: str, rng: random.Random,
           weights: Weights = W) -> Action:
    """The heuristic's action for ``pid`` (one of ``legal``); ``weights`` for tuning."""
    if len(legal) == 1:
        return legal[0]
    players = list(view["players"])
    me = players.index(pid)
    ev = Evaluator(view, weights)
    board = Board.from_view(view)
    phase = view["phase"]
    if phase == "setup_reroll":
        return _reroll(view, pid, me, ev, board)
    if phase == "split":
        return _split(view, me, ev, board)
    if phase == "choose":
        return _take(view, legal, me, ev, board, rng)
    if phase == "play":
        return _play(view, legal, me, ev, board, rng)
    if phase == "banish_victims":
        return _victims(view, legal, me, ev, board, rng)
    seat = {p: i for i, p in enumerate(players)}
    if phase == "banish":
        return _banish(legal, me, ev, board, seat, rng)
    # set-up bridges: the best board after the action
    return _argmax(legal, lambda a: value_after(ev, board, me, seat, a), rng)


def _banish(legal: Sequence[Action], me: int, ev: Evaluator, board: Board,
            seat: Mapping[str, int], rng: random.Random) -> Action:
    """The passage's banishment: the district whose banishment is worth most; R16: declined
    only when every district's banishment is worth less than doing nothing."""
    named = [a for a in legal if isinstance(a, Banish)]
    best = _argmax(named, lambda a: value_after(ev, board, me, seat, a), rng)
    decline = next((a for a in legal if isinstance(a, DeclineBanishment)), None)
    if decline is not None and value_after(ev, board, me, seat, best) < ev.value(board, me) - 1e-9:
        return decline
    return best


def value_after(ev: Evaluator, board: Board, me: int, seat: Mapping[str, int], a: Action) -> float:
    """The value for ``me`` of the board after action ``a`` (expected, for a banishment)."""
    if isinstance(a, Banish):
        d = IDX[a.district]
        return banish_expectation(ev, board, me, d) if any(board.counts[d]) \
            else ev.value(board, me)
    return ev.value(board_after(board, me, seat, a), me)


def _src(a: PlaceAristocrat | PlaceBridge | TakeOverBridge | Transfer) -> int | None:
    return None if a.source is None else IDX[a.source]


def board_after(board: Board, me: int, seat: Mapping[str, int], a: Action) -> Board:
    """The board picture after a legal action (not a banishment: that one is a chance)."""
    b = board.copy()
    if isinstance(a, PlaceAristocrat):
        b.place(me, IDX[a.hop or a.district], _src(a))
    elif isinstance(a, PlaceBridge):
        b.build(me, IDX[a.a], IDX[a.b], _src(a))
    elif isinstance(a, TakeOverBridge):
        x, y = sorted((IDX[a.a], IDX[a.b]))
        b.take_over(me, (x, y, seat[a.owner]), IDX[a.to_a], IDX[a.to_b], _src(a))
    elif isinstance(a, Transfer):
        b.transfer(me, IDX[a.district], seat[a.victim], _src(a))
    elif isinstance(a, Doge):
        payees = [seat[c.owner] for c in a.route if c.owner is not None]
        canal = CANAL_CROSSING_COST * sum(1 for c in a.route if c.owner is None)
        b.doge_to(me, IDX[a.target], payees, canal)
    return b


def _reroll(view: View, pid: str, me: int, ev: Evaluator, board: Board) -> Action:
    """R3: keep four equal rolls (8 aristocrats in one district) unless moving two of them
    to a random other district is worth more on average."""
    roll = view["setup_rolls"][pid][3]
    home = IDX[BY_DIE[roll].name]
    keep = ev.value(board, me)
    moved = []
    for r in range(1, 7):
        if r != roll:
            b = board.copy()
            b.counts[home][me] -= 2
            b.counts[IDX[BY_DIE[r].name]][me] += 2
            moved.append(ev.value(b, me))
    return Reroll() if sum(moved) / len(moved) > keep + 1e-9 else KeepRolls()


def my_column(view: View, me: str) -> tuple[list[str], list[str]]:
    """All the players and the decision-makers ``me`` splits for, while ``me`` is a
    distributor whose split is still to make (raises ValueError otherwise)."""
    for role in view["roles"]:
        if role["distributor"] == me and not view["split_committed"].get(me, True):
            return list(view["players"]), list(role["decision_makers"])
    raise ValueError("not a distributor with a split to make")


def choose_split(view: View, pid: str, weights: Weights = W) -> Split:
    """The heuristic's split for distributor ``pid``, without ever listing the legal splits
    (the hard level's playouts call this for every distributor they simulate)."""
    me = list(view["players"]).index(pid)
    return _split(view, me, Evaluator(view, weights), Board.from_view(view))


def _split(view: View, me: int, ev: Evaluator, board: Board) -> Split:
    """Split so that each decision-maker's best pick leaves the splitter the most."""
    players, deciders = my_column(view, view["players"][me])
    drawn: list[str] = list(view["private"]["drawn"])
    dec = [players.index(p) for p in deciders]
    judge = OfferJudge(ev, board, view, drawn, [me, *dec])
    action_offers, limit_offers, _ = best_split(judge, me, dec, ev.w.rival)
    return Split(assignment_for(drawn, judge, action_offers, limit_offers))


def _take(view: View, legal: Sequence[Action], me: int, ev: Evaluator, board: Board,
          rng: random.Random) -> Action:
    """Take the offer worth most: its cards played well, minus what its limit points cost."""
    column = view["offers"][view["choosing"]["column"]]
    cards = [c for o in column["offers"] for c in o["cards"]]
    judge = OfferJudge(ev, board, view, cards, [me])
    offers = {o["index"]: o["cards"] for o in column["offers"]}

    def worth(a: Action) -> float:
        assert isinstance(a, TakeOffer)
        return judge.worth(me, offers[a.index])

    return _argmax(legal, worth, rng)


def _play(view: View, legal: Sequence[Action], me: int, ev: Evaluator, board: Board,
          rng: random.Random) -> Action:
    """Which card first and how: for each card, its best option, then the rest of the hand
    played in the usual order; the card whose line ends best is played now."""
    seat = {p: i for i, p in enumerate(view["players"])}
    hand: list[str] = list(view["hand"]["cards"])
    by_card: dict[str, list[Action]] = {}
    for a in legal:
        card = card_of(a)
        assert card is not None
        by_card.setdefault(card, []).append(a)
    lines: list[tuple[Action, float]] = []
    for card, acts in by_card.items():
        first: Action
        if isinstance(acts[0], DiscardCard):
            first, after, extra = acts[0], board, 0.0
        elif card == BANISHMENT:
            v0 = ev.value(board, me)
            first = _argmax(acts, lambda a: value_after(ev, board, me, seat, a), rng)
            after, extra = board, value_after(ev, board, me, seat, first) - v0
        else:
            first = _argmax(acts, lambda a: value_after(ev, board, me, seat, a), rng)
            after, extra = board_after(board, me, seat, first), 0.0
        rest = list(hand)
        rest.remove(card)
        for c in sorted(rest, key=play_order):
            after, x = play_card(ev, after, me, c)
            extra += x
        lines.append((first, ev.value(after, me) + extra))
    return _argmax([a for a, _ in lines], dict(lines).__getitem__, rng)


def _victims(view: View, legal: Sequence[Action], me: int, ev: Evaluator, board: Board,
             rng: random.Random) -> Action:
    """R10: take the aristocrats whose loss helps most (usually the nearest rival's)."""
    ban = view["banishment"]
    d, roll = IDX[ban["district"]], int(ban["roll"])
    seat = {p: i for i, p in enumerate(view["players"])}

    def score(a: Action) -> float:
        assert isinstance(a, ChooseBanished)
        vec = [0] * board.n
        for p, k in a.removed:
            vec[seat[p]] = k
        b = board.copy()
        b.banish(me, d, vec, roll)
        return ev.value(b, me)

    return _argmax(legal, score, rng)
