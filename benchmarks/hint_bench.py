"""Hints and reviews (issue 32): how long a hint takes, per kind of decision, and how long a
review of a whole game takes.

    python benchmarks/hint_bench.py [--games 4] [--every 2] [--reviews 2] [--seed 0]
                                    [--playouts N] [--cap SECONDS]

Plays ``--games`` games of normal players (3 and 4 players alternating, seeds from
``--seed``) and asks for a hint (``engine.ai.advice.advise`` with the hint budget,
``advice.HINT`` unless ``--playouts``/``--cap`` change it) at every ``--every``-th decision
with a choice, in every phase; prints wall time p50/p95/max per kind of decision and overall,
the CPU time of this thread, how often the wall-clock cap cut a search short, and the load
average before and after (the machine is shared). Then reviews one seat of the first
``--reviews`` games (``advice.review`` with ``advice.REVIEW``) and prints each review's time.
Target: hint p95 <= 1 s on 2 cores. One process, one thread: the figures are one hint's.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameState, apply, legal_actions, new_game  # noqa: E402
from engine.ai import choose_action  # noqa: E402
from engine.ai.advice import HINT, REVIEW, advise, review  # noqa: E402
from engine.game import card_of  # noqa: E402


def _kind(state: GameState, pid: str) -> str:
    """The decision's kind as ``ai_bench`` names them (play:<card kind>, split (n players))."""
    phase = str(state.phase)
    if phase == "play":
        legal = legal_actions(state, pid)
        card = card_of(legal[0]) or "?"
        return "play:" + card.split(":")[0]
    if phase in ("split", "choose"):
        return f"{'take' if phase == 'choose' else phase} ({len(state.players)} players)"
    return phase


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--reviews", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--playouts", type=int, default=None)
    ap.add_argument("--cap", type=float, default=None)
    args = ap.parse_args()
    budget = HINT
    if args.playouts is not None:
        budget = dataclasses.replace(budget, playouts=args.playouts)
    if args.cap is not None:
        budget = dataclasses.replace(budget, max_seconds=args.cap or None)
    print(f"hint budget: {budget}; review budget: {REVIEW}")
    load0 = os.getloadavg()
    wall: dict[str, list[float]] = defaultdict(list)
    cpu: list[float] = []
    logs: list[tuple[list[str], int, list[tuple[str, str]]]] = []
    capped = 0
    for g in range(args.games):
        n = 3 if g % 2 == 0 else 4
        players = [str(100 + i) for i in range(n)]
        seed = args.seed + g
        s = new_game(players, seed)
        log: list[tuple[str, str]] = []
        k = 0
        while not s.finished:
            pid = s.waiting_for[0]
            legal = legal_actions(s, pid)
            if len(legal) > 1:
                if k % args.every == 0:
                    view = s.private_view(pid)
                    t0, c0 = time.perf_counter(), time.thread_time()
                    advise(view, legal, pid, seed=seed, budget=budget)
                    dt = time.perf_counter() - t0
                    cpu.append(time.thread_time() - c0)
                    wall[_kind(s, pid)].append(dt)
                    if budget.max_seconds is not None and dt > budget.max_seconds:
                        capped += 1
                k += 1
            action = choose_action(s, pid, level="normal", seed=seed)
            log.append((pid, action.encode()))
            s, _ = apply(s, pid, action)
        logs.append((players, seed, log))
        print(f"game {g + 1}/{args.games}: {n} players, {len(log)} actions", flush=True)
    load1 = os.getloadavg()
    every = [x for xs in wall.values() for x in xs]
    print("\nhint time (ms), wall:")
    print(f"{'decision':<22} {'count':>6} {'p50':>7} {'p95':>7} {'max':>7}")
    for kind in sorted(wall):
        xs = wall[kind]
        print(f"{kind:<22} {len(xs):>6} {1000 * statistics.median(xs):>7.0f} "
              f"{1000 * _pct(xs, 0.95):>7.0f} {1000 * max(xs):>7.0f}")
    print(f"{'all':<22} {len(every):>6} {1000 * statistics.median(every):>7.0f} "
          f"{1000 * _pct(every, 0.95):>7.0f} {1000 * max(every):>7.0f}")
    print(f"CPU (this thread): p50 {1000 * statistics.median(cpu):.0f} ms, "
          f"p95 {1000 * _pct(cpu, 0.95):.0f} ms; capped by the wall clock: {capped}")
    print(f"load average before {load0[0]:.2f}, after {load1[0]:.2f} ({os.cpu_count()} cores)")
    for players, seed, log in logs[:args.reviews]:
        pid = players[0]
        t0 = time.perf_counter()
        r = review(players, seed, log, pid, budget=REVIEW, advice_seed=seed)
        dt = time.perf_counter() - t0
        print(f"review of {len(players)}-player game seed {seed} for {pid}: {dt:.1f} s "
              f"({r.decisions} decisions looked at, {len(r.mistakes)} named, losses "
              f"{[m.loss for m in r.mistakes]})", flush=True)


if __name__ == "__main__":
    main()
