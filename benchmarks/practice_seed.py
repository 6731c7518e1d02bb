"""The practice game's seed: the one whose first rounds show each idea earliest.

    python benchmarks/practice_seed.py [--seeds 300] [--start 0] [--show SEED]

For each seed, a 3-player game (the learner first, then two normal computer players, as
``bot.service.teaching.practice`` seats them) is played twice: by a learner who follows the
explanations (plays the normal computer's move for their seat) and by one who clicks random
legal moves. After each of the learner's moves (and at the start) the computers move, and
the lessons due then are read exactly as the service reads them (``lessons.step``). A seed's
score is the sum, over both learners and every lesson, of the round (counted across
passages from 1) in which the lesson is first shown; a lesson never shown counts 20 rounds,
and a seed that asks the learner to keep or reroll four equal set-up rolls (R3, no lesson)
is skipped. The lowest score wins; ``--show`` prints the lessons by round for one seed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import engine
from bot.computers import EngineComputers
from bot.service.teaching.lessons import TOPICS, Taught, Topic, step
from bot.service.teaching.practice import PRACTICE_COMPUTERS, PRACTICE_LEVEL
from engine import Action, Event, GameState
from engine.ai import computer_pid

LEARNER = "100000000000000001"  # a Discord id's shape
NEVER = 20  # the round a lesson never shown counts as
Chooser = Callable[[GameState], Action]


def play(seed: int, learner_move: Chooser) -> dict[Topic, int] | None:
    """The round in which each lesson is first shown, or None if the learner meets R3."""
    ai = EngineComputers()
    pids = [LEARNER, *(computer_pid(PRACTICE_LEVEL, n + 1) for n in range(PRACTICE_COMPUTERS))]
    state, events = engine.start_game(pids, seed=seed)
    taught = Taught()
    rounds = 0
    first: dict[Topic, int] = {}
    pending: list[Event] = list(events)
    while True:
        while not state.finished and any(p != LEARNER for p in state.waiting_for):
            pid = next(p for p in state.waiting_for if p != LEARNER)
            state, evs = engine.apply(state, pid, ai.choose(state, pid))
            pending += evs
        rounds += sum(e.type == "round_started" for e in pending)
        decision = () if state.finished else engine.legal_actions(state, LEARNER)
        if any(a.kind in ("keep", "reroll") for a in decision):
            return None
        topics, taught = step(pending, decision, taught)
        for t in topics:
            first[t] = max(rounds, 1)
        if state.finished:
            return first
        state, evs = engine.apply(state, LEARNER, learner_move(state))
        pending = list(evs)


def follower(state: GameState) -> Action:
    return EngineComputers().choose(state, LEARNER)


def clicker(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda state: rng.choice(engine.legal_actions(state, LEARNER))


def score(first: dict[Topic, int]) -> int:
    return sum(first.get(t, NEVER) for t in TOPICS)


def by_round(first: dict[Topic, int]) -> str:
    rounds: dict[int, list[str]] = {}
    for t in TOPICS:
        rounds.setdefault(first.get(t, NEVER), []).append(t)
    return "; ".join(f"r{r}: {', '.join(ts)}" if r != NEVER else f"never: {', '.join(ts)}"
                     for r, ts in sorted(rounds.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--show", type=int, default=None)
    args = parser.parse_args()
    if args.show is not None:
        for who, move in (("follower", follower), ("clicker", clicker(args.show))):
            first = play(args.show, move)
            print(f"seed {args.show} {who}:", "R3" if first is None else
                  f"score {score(first)} | {by_round(first)}")
        return
    began = time.perf_counter()
    best: tuple[int, int] | None = None
    skipped = 0
    for seed in range(args.start, args.start + args.seeds):
        a = play(seed, follower)
        b = play(seed, clicker(seed))
        if a is None or b is None:
            skipped += 1
            continue
        total = score(a) + score(b)
        if best is None or total < best[0]:
            best = (total, seed)
            print(f"seed {seed}: score {total} (follower {score(a)}, clicker {score(b)})",
                  flush=True)
    print(f"{args.seeds} seeds ({skipped} skipped: R3) in {time.perf_counter() - began:.0f} s;"
          f" best {best}")


if __name__ == "__main__":
    main()
