"""The "hard" computer player: determinized Monte Carlo search with the normal heuristic as
the playout policy.

For a decision with more than one sensible option:

1. **Candidates.** A handful of actions, the normal heuristic's own choice first: every
   offer to take; for a card to play, each card's best few options by the value of the
   board right after; for a split, the best few splits by the heuristic's split judge
   (``offers.OfferJudge``: the 3-player split's ~56k assignments are scored from subset
   tables, never listed as actions or played out); for victims, the best few removals.
2. **Worlds.** Possible worlds behind the player's private view (``determinize``): the
   unseen cards dealt at random, the unseen committed splits made by the heuristic. The
   same worlds serve every candidate (common random numbers), so candidates are compared
   on the same luck.
3. **Playouts.** In each world a candidate is applied, then everyone — opponents and the
   player alike — plays on with the normal heuristic until the next round begins (or the
   game ends). The end board is valued as the heuristic values boards (projected final
   scores against the field) plus what everyone's limit points are likely to cost
   (``leaf_value``); a finished game counts its real prestige plus a bonus for winning.
4. **Successive halving.** The playouts are spread in rounds; after each, the worse half of
   the candidates is dropped, so most playouts go to the close calls; the best mean wins
   (ties: the earlier candidate, so the heuristic's own choice).

The budget is a fixed number of playouts per decision, so a decision is deterministic for a
given (view, legal actions, seed): the random choices (worlds, dice, tie-breaks) all come
from the seeded ``random.Random`` that ``engine.ai`` passes in. A wall-clock cap
(``Budget.max_seconds``) stops a search that runs far beyond its usual time — a machine
swamped by other work — and then decides from the playouts made so far: responsive, but in
that case no longer reproducible. Set-up decisions (R3 reroll, set-up bridges) and the
passage's banishment are left to the heuristic (see docs/AI.md).
"""

from __future__ import annotations

import heapq
import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Split
from ..game import apply, card_of, legal_actions
from ..state import GameState
from . import heuristic
from .determinize import sample_world
from .model import Board, Evaluator, W, Weights
from .offers import (
    MAX_LIMIT_SUM,
    OfferJudge,
    _labelled,
    _pick2,
    _pick3,
    assignment_for,
    passage_projection,
)

View = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a hard decision may think. ``playouts`` is the fixed budget (deterministic);
    ``max_seconds`` is a wall-clock safety cap (None: no cap, always reproducible);
    ``candidates`` caps the options searched for one play, split or victims decision."""

    playouts: int = 24
    max_seconds: float | None = 2.0
    candidates: int = 6


@dataclass(frozen=True, slots=True)
class Tuning:
    """The search's own numbers (``benchmarks/ai_bench.py --hard --tuning ...`` compares
    them; docs/AI.md has what was tried)."""

    win_bonus: float = 10.0   # a finished playout: the value of winning it
    margin: float = 0.0       # how much better than the heuristic's choice a candidate must be
    symmetric: bool = True    # limit costs count for every player (else the searcher's only)
    phases: tuple[str, ...] = ("split", "choose", "play", "banish_victims")  # searched
    horizon: int = 1          # playouts stop when this many new rounds have begun


HARD = Budget()
T = Tuning()


@dataclass(slots=True)
class Decision:
    """What the search did: the action, the candidates, playouts made, whether the cap hit."""

    action: Action
    candidates: list[Action] = field(default_factory=list)
    means: list[float] = field(default_factory=list)
    playouts: int = 0
    capped: bool = False


def choose(view: View, legal: Sequence[Action], pid: str, rng: random.Random,
           budget: Budget = HARD, weights: Weights = W, tuning: Tuning = T) -> Action:
    """The hard level's action for ``pid``: one of ``legal`` (a split is generated, never
    looked up in ``legal``)."""
    return decide(view, legal, pid, rng, budget, weights, tuning).action


def decide(view: View, legal: Sequence[Action], pid: str, rng: random.Random,
           budget: Budget = HARD, weights: Weights = W, tuning: Tuning = T) -> Decision:
    """``choose`` with what the search did (for tests and benchmarks)."""
    started = time.perf_counter()
    phase = view["phase"]
    if len(legal) == 1:
        return Decision(legal[0])
    if phase not in tuning.phases or budget.playouts <= 0:
        return Decision(heuristic.choose(view, legal, pid, rng, weights))
    candidates = _candidates(view, legal, pid, rng, budget, weights)
    if len(candidates) == 1:
        return Decision(candidates[0], candidates)
    return _halving(view, pid, candidates, rng, budget, weights, tuning, started)


# ---- candidates ---------------------------------------------------------------------------
def _candidates(view: View, legal: Sequence[Action], pid: str, rng: random.Random,
                budget: Budget, weights: Weights) -> list[Action]:
    phase = view["phase"]
    if phase == "split":
        return split_candidates(view, pid, budget.candidates, weights)
    first = heuristic.choose(view, legal, pid, random.Random(rng.getrandbits(64)), weights)
    if phase == "choose":
        return [first] + [a for a in legal if a != first]
    players = list(view["players"])
    me = players.index(pid)
    seat = {p: i for i, p in enumerate(players)}
    ev = Evaluator(view, weights)
    board = Board.from_view(view)
    # each card's options by the value of the board right after (expected, for a Banish)
    by_card: dict[str | None, list[tuple[float, int, Action]]] = {}
    for i, a in enumerate(legal):
        by_card.setdefault(card_of(a), []).append(
            (heuristic.value_after(ev, board, me, seat, a), -i, a))
    ranked = [sorted(opts, reverse=True) for opts in by_card.values()]
    out = [first]
    depth = 0
    while len(out) < budget.candidates and any(depth < len(r) for r in ranked):
        for r in ranked:
            if depth < len(r) and r[depth][2] not in out and len(out) < budget.candidates:
                out.append(r[depth][2])
        depth += 1
    return out


def split_candidates(view: View, pid: str, k: int, weights: Weights = W) -> list[Action]:
    """The ``k`` best splits by the heuristic's judge, told apart by their offers' contents;
    the first is the heuristic's own split. Scores the assignments from subset tables as
    ``offers.best_split`` does; never lists the legal splits."""
    players = list(view["players"])
    me = players.index(pid)
    ev = Evaluator(view, weights)
    board = Board.from_view(view)
    _, deciders = heuristic.my_column(view, pid)
    drawn: list[str] = list(view["private"]["drawn"])
    dec = [players.index(p) for p in deciders]
    judge = OfferJudge(ev, board, view, drawn, [me, *dec])
    n_offers = len(dec) + 1
    lv = judge.limits
    by_key: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[int, ...]] = {}
    for a in _labelled(len(lv), n_offers, canonical=False):
        sums = [0] * n_offers
        has = [False] * n_offers
        for x, v in zip(a, lv, strict=True):
            sums[x] += v
            has[x] = True
        by_key.setdefault((tuple(sums), tuple(has)), a)
    order = [*dec, me]
    av = [judge.action_values[s] for s in order]
    lim = [([[judge.limit_values[s][min(x, MAX_LIMIT_SUM)] for x in sums] for s in order],
            sums, has, la) for (sums, has), la in by_key.items()]
    pick = _pick3 if n_offers == 3 else _pick2
    # a min-heap of the best k by utility; ties keep the first found (as best_split does)
    heap: list[tuple[float, int, tuple[int, ...], tuple[int, ...]]] = []
    seen: set[tuple[tuple[tuple[str, ...], int], ...]] = set()
    n = 0
    for aa in _labelled(len(judge.actions), n_offers, canonical=True):
        masks = [0] * n_offers
        for i, x in enumerate(aa):
            masks[x] |= 1 << i
        act = [[av[p][m] for m in masks] for p in range(n_offers)]
        for lt, lsums, filled, la in lim:
            if not all(masks[i] or filled[i] for i in range(n_offers)):
                continue
            vals = [[a + b for a, b in zip(act[p], lt[p], strict=True)]
                    for p in range(n_offers)]
            u = pick(vals, weights.rival)
            if len(heap) >= k * 4 and u <= heap[0][0] + 1e-9:
                continue
            content = tuple(sorted(
                (tuple(c for c, o in zip(judge.actions, aa, strict=True) if o == j), lsums[j])
                for j in range(n_offers)))
            if content in seen:
                continue
            seen.add(content)
            n += 1
            item = (u, -n, aa, la)
            if len(heap) < k * 4:
                heapq.heappush(heap, item)
            else:
                heapq.heapreplace(heap, item)
    best = sorted(heap, reverse=True)[:k]
    return [Split(assignment_for(drawn, judge, aa, la)) for _, _, aa, la in best]


# ---- playouts -----------------------------------------------------------------------------
def guess_split(weights: Weights) -> Callable[[GameState, str], tuple[int, ...]]:
    """How a sampled world's other distributors split: the normal heuristic's split."""
    def guess(world: GameState, who: str) -> tuple[int, ...]:
        return heuristic.choose_split(world.private_view(who), who, weights).assignment
    return guess


def _policy(state: GameState, pid: str, rng: random.Random, memo: dict[str, Action],
            weights: Weights) -> Action:
    """The normal heuristic, as every player's playout policy. Its choice depends only on
    what the acting player sees, so it is memoised by that view for the whole search: a
    playout repeats the choices other worlds and candidates already met until a hidden card
    or a die makes the worlds differ (in a 3-player round, whose one column is revealed at
    once, that is most of it)."""
    view = state.private_view(pid)
    key = json.dumps(view, sort_keys=True, separators=(",", ":"))
    hit = memo.get(key)
    if hit is None:
        if state.phase == "split":
            hit = heuristic.choose_split(view, pid, weights)
        else:
            hit = heuristic.choose(view, legal_actions(state, pid), pid, rng, weights)
        memo[key] = hit
    return hit


def leaf_value(state: GameState, me: int, weights: Weights = W, tuning: Tuning = T) -> float:
    """What a playout's end is worth to seat ``me``: the heuristic's board value plus the
    expected cost of everyone's limit points; a finished game: real prestige + win bonus."""
    view = state.public_view()
    ev = Evaluator(view, weights)
    if state.finished:
        v = ev.relative([float(p) for p in state.prestige], me)
        if me in state.winners:
            v += tuning.win_bonus / len(state.winners)
        return v
    return ev.value(Board.from_view(view), me) + limit_term(ev, view, me, tuning)


def limit_term(ev: Evaluator, view: View, me: int, tuning: Tuning = T) -> float:
    """The passage's limit bonus and banishment projected from today's totals, minus what
    holding limit points costs beyond that (``offers.limit_table``'s terms as a function of
    the totals): per point, going out while the passage goes on, nearing 10."""
    w = ev.w
    players = list(view["players"])
    totals = [int(view["limit"][p]) for p in players]
    extra = bool(view.get("extra_round"))
    cost = []
    for t in totals:
        c = w.limit_point * t
        if t >= 10:
            c += w.out_penalty
        elif not extra:
            c += w.brink * max(0, t - 6)
        cost.append(c)
    own = ev.relative(cost, me) if tuning.symmetric else cost[me]
    return passage_projection(ev, totals, me, w) - own


def playout(world: GameState, pid: str, first: Action, rng: random.Random,
            memo: dict[str, Action], weights: Weights = W, tuning: Tuning = T,
            leaf: Callable[[GameState, int], float] | None = None) -> float:
    """Apply ``first`` in ``world``, let everyone play on with the heuristic until the next
    round begins (``Tuning.horizon`` rounds later) or the game ends, and value the end for
    ``pid`` (``leaf_value``, or ``leaf``: a review's expected final prestige)."""
    me = world.players.index(pid)
    at = (world.passage, world.round)
    rounds = 0
    s, _ = apply(world, pid, first)
    while not s.finished:
        if s.phase == "split" and (s.passage, s.round) != at:
            at = (s.passage, s.round)
            rounds += 1
            if rounds >= tuning.horizon:
                break
        who = s.waiting_for[0]
        s, _ = apply(s, who, _policy(s, who, rng, memo, weights))
    return leaf(s, me) if leaf is not None else leaf_value(s, me, weights, tuning)


def _halving(view: View, pid: str, candidates: list[Action], rng: random.Random,
             budget: Budget, weights: Weights, tuning: Tuning, started: float) -> Decision:
    """Successive halving over ``candidates`` (the heuristic's first) on shared worlds."""
    base = rng.getrandbits(64)
    worlds: list[GameState] = []
    memo: dict[str, Action] = {}
    guess = guess_split(weights)
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    rounds = max(1, (len(candidates) - 1).bit_length())
    left = budget.playouts
    done = 0  # worlds every alive candidate has been played on
    capped = False
    playouts = 0

    def score(c: int) -> float:
        """Mean over the first ``done`` worlds; the heuristic's choice gets the margin."""
        return sum(values[c][:done]) / done + (tuning.margin if c == 0 else 0.0)

    for r in range(rounds):
        per = max(1, left // (len(alive) * (rounds - r)))
        for i in range(done, done + per):
            if i == len(worlds):
                worlds.append(sample_world(view, pid, random.Random(f"{base}:{i}"), guess))
            for c in alive:
                if len(values[c]) > i:
                    continue
                prng = random.Random(f"{base}:{i}:play")
                values[c].append(playout(worlds[i], pid, candidates[c], prng, memo,
                                         weights, tuning))
                playouts += 1
                left -= 1
            if budget.max_seconds is not None and \
                    time.perf_counter() - started > budget.max_seconds:
                capped = True
                done = i + 1 if all(len(values[c]) > i for c in alive) else i
                break
            done = i + 1
        if capped:
            break
        if r < rounds - 1:
            alive.sort(key=lambda c: (-score(c), c))
            alive = sorted(alive[:max(1, (len(alive) + 1) // 2)])
    means = [sum(v) / len(v) if v else float("nan") for v in values]
    if done == 0:
        return Decision(candidates[0], candidates, means, playouts, capped)
    best = max(alive, key=lambda c: (score(c), -c))
    return Decision(candidates[best], candidates, means, playouts, capped)
