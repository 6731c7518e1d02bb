"""Engine speed: random full games per second (4 and 3 players) and apply's median µs.

    python benchmarks/engine_bench.py [--games 200]

Target: >= 20 random 4-player games/s on one core (the computer players and the tests'
random playouts play thousands of games).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import apply, legal_actions, new_game


def random_game(n: int, seed: int, apply_times: list[float] | None = None) -> int:
    rng = random.Random(seed)
    s = new_game([str(1000 + i) for i in range(n)], seed)
    steps = 0
    while not s.finished:
        pid = s.waiting_for[0]
        action = rng.choice(legal_actions(s, pid))
        t0 = time.perf_counter()
        s, _ = apply(s, pid, action)
        if apply_times is not None:
            apply_times.append(time.perf_counter() - t0)
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    for n in (4, 3):
        random_game(n, 0)  # warm caches (the split enumerations)
        t0 = time.perf_counter()
        steps = sum(random_game(n, seed) for seed in range(args.games))
        dt = time.perf_counter() - t0
        print(f"{n} players: {args.games / dt:7.1f} random games/s "
              f"({steps / args.games:.0f} actions per game, legal_actions + apply)")
    times: list[float] = []
    for seed in range(50):
        random_game(4, seed, times)
    print(f"apply (4 players): median {statistics.median(times) * 1e6:.0f} µs, "
          f"p95 {sorted(times)[int(len(times) * 0.95)] * 1e6:.0f} µs over {len(times)} calls")


if __name__ == "__main__":
    main()
