"""The practice game's seed: the one whose first rounds show each idea earliest.

    python benchmarks/practice_seed.py [--seeds 300] [--start 0] [--show SEED]

For each seed, a 3-player game (the learner first, then two normal computer players, as
``bot.service.teaching.practice`` seats them) is played twice: by a learner who follows the
explanations (plays the normal computer's move for their seat) and by one who clicks random
legal moves. After each of the learner's moves (and at the start) the computers move, and
the lessons due then are read exactly as the service reads them (``lessons.step``). A seed's
score is the sum, over both learners and every lesson, of the round (counted across
passages from 1) in which the lesson is first shown; a lesson never shown counts 20 rounds.
A seed is skipped when it asks the learner to keep or reroll four equal set-up rolls (R3,
no lesson) or when a post's lessons would be longer than ``--longest`` characters in some
language (a decision that needs many lessons at once leaves too little room for its
story). The lowest score wins; ``--show`` prints the lessons by round for one seed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import engine
from bot import i18n, text
from bot.computers import EngineComputers
from bot.service.teaching.lessons import TOPICS, Taught, Topic, decision_topics, step
from bot.service.teaching.practice import PRACTICE_COMPUTERS, PRACTICE_LEVEL
from engine import Action, Event, GameState
from engine.ai import computer_pid

LEARNER = "100000000000000001"  # a Discord id's shape
NEVER = 20  # the round a lesson never shown counts as
Chooser = Callable[[GameState], Action]


def lessons_length(topics: tuple[Topic, ...]) -> int:
    """The characters a post's lessons take, in its longest language."""
    return max(sum(len(line) + 1 for line in text.lessons_text(i18n.translations(lang),
                                                                 topics))
               for lang in i18n.LANGUAGES)


LONGEST: list[int] = [0]  # the longest post's lessons in the last play


def play(seed: int, learner_move: Chooser) -> dict[Topic, int] | None:
    """The round in which each lesson is first shown, or None if the learner meets R3
    (``LONGEST`` keeps the longest post's lessons, in characters)."""
    LONGEST[0] = 0
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
        if state.phase == "setup_reroll":
            return None
        awaited = not state.finished and LEARNER in state.waiting_for
        decision = decision_topics(state.private_view(LEARNER) if awaited else None)
        topics, taught = step(pending, decision, taught)
        LONGEST[0] = max(LONGEST[0], lessons_length(topics))
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
    parser.add_argument("--longest", type=int, default=1150,
                        help="skip a seed with a post whose lessons are longer (characters)")
    args = parser.parse_args()
    if args.show is not None:
        for who, move in (("follower", follower), ("clicker", clicker(args.show))):
            first = play(args.show, move)
            print(f"seed {args.show} {who}:", "R3" if first is None else
                  f"score {score(first)}, longest lessons {LONGEST[0]} | {by_round(first)}")
        return
    began = time.perf_counter()
    best: tuple[int, int] | None = None
    skipped = 0
    for seed in range(args.start, args.start + args.seeds):
        a = play(seed, follower)
        longest = LONGEST[0]
        b = play(seed, clicker(seed))
        longest = max(longest, LONGEST[0])
        if a is None or b is None or longest > args.longest:
            skipped += 1
            continue
        total = score(a) + score(b)
        if best is None or total < best[0]:
            best = (total, seed)
            print(f"seed {seed}: score {total} (follower {score(a)}, clicker {score(b)})",
                  flush=True)
    print(f"{args.seeds} seeds ({skipped} skipped: R3 or too long a post) in "
          f"{time.perf_counter() - began:.0f} s; best {best}")


if __name__ == "__main__":
    main()
