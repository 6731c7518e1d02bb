"""Computer players: decision time per kind of decision, and a tournament normal vs easy.

    python benchmarks/ai_bench.py [--games 200] [--jobs 1] [--seed 0]
    python benchmarks/ai_bench.py --variant limit_point=3.0,blur=2 [--games 200] [--jobs 2]

The second form is how the weights of engine/ai/model.py were tuned: all-normal 4-player
games, half the seats with the variant weights and half with the defaults (alternating by
seed); it prints the variant's share of the wins and its mean prestige lead.

Targets (issue 6): the normal player wins >= 70% of 4-player games against three easy ones;
decision p95 <= 200 ms. Seats are drawn by the engine from each game's seed, so rotating
the seeds rotates the normal player's seat. A shared win (R14) counts as a win. Times are
measured in the process that plays (use --jobs 1 for clean times on a busy machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dataclasses  # noqa: E402
import random  # noqa: E402

from engine import apply, card_of, legal_actions, new_game  # noqa: E402
from engine.ai import choose_action, computer_pid, heuristic, level_of  # noqa: E402
from engine.ai.model import W, Weights  # noqa: E402
from engine.cards import card_kind  # noqa: E402

Times = dict[str, list[float]]


def kind_of(state_view: dict[str, object], pid: str, action: object) -> str:
    """The decision's kind as the view says (``play`` split by the card played)."""
    awaiting = state_view["awaiting"]
    assert isinstance(awaiting, dict)
    kind = str(awaiting[pid])
    if kind == "play":
        card = card_of(action)  # type: ignore[arg-type]
        kind = f"play:{card_kind(card) if card else '?'}"
    return kind


def play_game(n: int, seed: int) -> tuple[bool, bool, int, Times]:
    """One game: ai.normal.1 against n-1 easy players. (won, shared, steps, times)."""
    players = [computer_pid("normal", 1)] + [computer_pid("easy", i) for i in range(2, n + 1)]
    s = new_game(players, seed)
    times: Times = defaultdict(list)
    steps = 0
    while not s.finished:
        pid = s.waiting_for[0]
        level = level_of(pid)
        legal_actions(s, pid)  # the engine's enumeration is not the player's thinking time
        t0 = time.perf_counter()
        action = choose_action(s, pid, level=level, seed=seed)
        dt = time.perf_counter() - t0
        if level == "normal":
            times[kind_of(s.public_view(), pid, action)].append(dt)
        s, _ = apply(s, pid, action)
        steps += 1
    winners = s.public_view()["winners"]
    won = players[0] in winners
    return won, won and len(winners) > 1, steps, dict(times)


def _run(args: tuple[int, int]) -> tuple[bool, bool, int, Times]:
    return play_game(*args)


def selfplay_game(args: tuple[int, int, dict[str, float]]) -> tuple[float, float]:
    """All-normal game, variant weights on alternating seats: (win share, prestige lead)."""
    n, seed, changes = args
    variant: Weights = dataclasses.replace(W, **changes)
    players = [computer_pid("normal", i) for i in range(1, n + 1)]
    mine = {p for i, p in enumerate(players) if i % 2 == seed % 2}
    s = new_game(players, seed)
    while not s.finished:
        pid = s.waiting_for[0]
        rng = random.Random(f"{seed}:{pid}:{s.version}")
        action = heuristic.choose(s.private_view(pid), legal_actions(s, pid), pid, rng,
                                  variant if pid in mine else W)
        s, _ = apply(s, pid, action)
    view = s.public_view()
    prestige, winners = view["prestige"], view["winners"]
    share = sum(1 for p in winners if p in mine) / len(winners)
    lead = (sum(prestige[p] for p in mine) / len(mine)
            - sum(prestige[p] for p in players if p not in mine) / (n - len(mine)))
    return share, lead


def selfplay(spec: str, games: int, jobs: int, first: int) -> None:
    changes = {k: float(v) for k, v in (item.split("=") for item in spec.split(","))}
    tasks = [(4, first + g, changes) for g in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(selfplay_game, tasks, chunksize=4))
    else:
        results = [selfplay_game(t) for t in tasks]
    share = sum(r[0] for r in results) / len(results)
    lead = sum(r[1] for r in results) / len(results)
    print(f"variant {changes}: {100 * share:.1f}% of the wins (even: 50%), "
          f"mean prestige lead {lead:+.2f} over {len(results)} games")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per table size")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--variant", help="self-play: weights to compare, e.g. blur=2")
    args = parser.parse_args()
    if args.variant:
        selfplay(args.variant, args.games, args.jobs, args.seed + 1000)
        return
    all_times: Times = defaultdict(list)
    rows = []
    for n in (4, 3):
        tasks = [(n, args.seed + g) for g in range(args.games)]
        t0 = time.perf_counter()
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(pool.map(_run, tasks, chunksize=4))
        else:
            results = [_run(t) for t in tasks]
        wall = time.perf_counter() - t0
        wins = sum(1 for won, _, _, _ in results if won)
        shared = sum(1 for _, sh, _, _ in results if sh)
        for *_, times in results:
            for k, v in times.items():
                all_times[k].extend(v)
        rows.append((n, len(results), wins, shared, wall))
    print("## Tournament: one normal player against easy (random) players\n")
    print("| players | table | games | normal wins | win rate | shared | chance |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for n, games, wins, shared, _ in rows:
        table = "1 normal + " + f"{n - 1} easy"
        print(f"| {n} | {table} | {games} | {wins} | {100 * wins / games:.1f}% | {shared} "
              f"| {100 / n:.0f}% |")
    print("\n## Decision time of the normal player (ms)\n")
    print("| decision | count | p50 | p95 | max |")
    print("| --- | ---: | ---: | ---: | ---: |")
    everything: list[float] = []
    for kind in sorted(all_times):
        v = all_times[kind]
        everything.extend(v)
        print(f"| {kind} | {len(v)} | {1e3 * statistics.median(v):.1f} | "
              f"{1e3 * pct(v, 0.95):.1f} | {1e3 * max(v):.1f} |")
    print(f"| **all** | {len(everything)} | {1e3 * statistics.median(everything):.1f} | "
          f"{1e3 * pct(everything, 0.95):.1f} | {1e3 * max(everything):.1f} |")
    four = rows[0]
    ok_rate = four[2] / four[1] >= 0.70
    worst_p95 = max(pct(v, 0.95) for v in all_times.values())
    print(f"\nTarget 4-player win rate >= 70%: {'met' if ok_rate else 'NOT met'}; "
          f"worst p95 {1e3 * worst_p95:.0f} ms <= 200 ms: "
          f"{'met' if worst_p95 <= 0.2 else 'NOT met'}.")


if __name__ == "__main__":
    main()
