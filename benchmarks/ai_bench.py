"""Computer players: decision time per kind of decision, and tournaments.

    python benchmarks/ai_bench.py [--games 200] [--jobs 1] [--seed 0]
    python benchmarks/ai_bench.py --variant limit_point=3.0,blur=2 [--games 200] [--jobs 2]
    python benchmarks/ai_bench.py --hard [--games 200] [--jobs 2] [--playouts N]
                                 [--tuning margin=0.5,symmetric=0]
    python benchmarks/ai_bench.py --hard-timing [--games 8] [--playouts N]

``--hard`` is the hard level's tournament: one hard player against normal ones (4 players:
1 hard + 3 normal; 3 players: 1 hard + 2 normal), the hard seat rotating exactly (game g puts
it in seat g mod n; the engine's seat draw from the seed is undone), every game reproducible
from its seed. It measures strength only, so it runs over ``--jobs`` processes and without
the wall-clock cap (``Budget.max_seconds=None``: fully deterministic). ``--hard-timing``
measures the hard player's decision times in this one process (wall and CPU time per
decision kind, and the machine's load average before and after, since the machine is shared).

The second form is how the weights of engine/ai/model.py were tuned: all-normal 4-player
games, half the seats with the variant weights and half with the defaults (alternating by
seed); it prints the variant's share of the wins and its mean prestige lead.

Targets (a normal player worth playing against, quick enough not to keep a table waiting):
the normal player wins >= 70% of 4-player games against three easy ones; decision p95 <=
200 ms. Seats are drawn by the engine from each game's seed, so rotating
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
import os  # noqa: E402
import random  # noqa: E402

from engine import apply, card_of, legal_actions, new_game  # noqa: E402
from engine.ai import choose_action, computer_pid, heuristic, level_of, search  # noqa: E402
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


# ---- the hard level --------------------------------------------------------------------
HardSpec = tuple[int, int, tuple[int, int], dict[str, object], bool]
# n, seed, (playouts, candidates) (0: default), tuning changes, timed


def seated(wanted: list[str], seed: int) -> list[str]:
    """The player list to give ``new_game`` so that the seats come out as ``wanted``: the
    engine's seat draw depends only on the seed and the number of players."""
    probe = new_game([f"p{i}" for i in range(len(wanted))], seed).players
    out = [""] * len(wanted)
    for seat, name in enumerate(probe):
        out[int(name[1:])] = wanted[seat]
    return out


def hard_game(spec: HardSpec) -> dict[str, object]:
    """One game, ai.hard.1 in seat (seed mod n) against normal players. Returns whether it
    won, its prestige lead over the others' mean and (``timed``) each hard decision's kind,
    wall and CPU time, playouts and whether the wall-clock cap stopped it."""
    n, seed, (playouts, candidates), changes, timed = spec
    hard = computer_pid("hard", 1)
    others = [computer_pid("normal", i) for i in range(2, n + 1)]
    wanted = others[:seed % n] + [hard] + others[seed % n:]
    s = new_game(seated(wanted, seed), seed)
    assert s.players.index(hard) == seed % n
    tuning = search.Tuning(**changes)  # type: ignore[arg-type]
    budget = _budget(playouts, candidates, timed)
    decisions: list[tuple[str, float, float, int, bool]] = []
    while not s.finished:
        pid = s.waiting_for[0]
        legal = legal_actions(s, pid)  # the engine's enumeration is not the player's time
        if pid != hard:
            action = choose_action(s, pid, level="normal", seed=seed)
        else:
            view = s.private_view(pid)
            t0, c0 = time.perf_counter(), time.thread_time()
            # the same seeding as engine.ai.choose_from_view
            d = search.decide(view, legal, pid, random.Random(f"{seed}:{pid}:{s.version}"),
                              budget, tuning=tuning)
            wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
            action = d.action
            if timed:
                kind = kind_of(view, pid, action)
                if kind in ("split", "take"):
                    kind += f" ({n} players)"
                decisions.append((kind, wall, cpu, d.playouts, d.capped))
        s, _ = apply(s, pid, action)
    view = s.public_view()
    prestige, winners = view["prestige"], view["winners"]
    lead = prestige[hard] - sum(prestige[p] for p in others) / len(others)
    return {"n": n, "seed": seed, "won": hard in winners,
            "shared": hard in winners and len(winners) > 1, "lead": lead,
            "decisions": decisions}


def _budget(playouts: int, candidates: int, capped: bool) -> search.Budget:
    """The default budget with the command line's changes; no wall-clock cap unless
    ``capped`` (strength runs must be reproducible)."""
    base = search.HARD
    return dataclasses.replace(base, playouts=playouts or base.playouts,
                               candidates=candidates or base.candidates,
                               max_seconds=base.max_seconds if capped else None)


def _parse_changes(spec: str | None) -> dict[str, object]:
    """``margin=0.5,symmetric=0,phases=split+choose`` -> search.Tuning's changes."""
    out: dict[str, object] = {}
    for k, v in (item.split("=") for item in (spec or "").split(",") if item):
        out[k] = tuple(v.split("+")) if k == "phases" else bool(float(v)) \
            if k == "symmetric" else float(v)
    return out


def hard_tournament(games: int, jobs: int, first: int, playouts: int, candidates: int,
                    tuning: str | None) -> None:
    changes = _parse_changes(tuning)
    budget = _budget(playouts, candidates, False)
    print(f"## Tournament: one hard player against normal players\n\nbudget {budget}, "
          f"tuning {search.Tuning(**changes)}; {jobs} processes; "  # type: ignore[arg-type]
          f"load average before {os.getloadavg()[0]:.2f}\n")
    print("| players | table | games | hard wins | win rate | shared | chance | "
          "mean lead | target |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for n, target in ((4, 0.40), (3, 0.50)):
        tasks: list[HardSpec] = [(n, first + g, (playouts, candidates), changes, False)
                                 for g in range(games)]
        t0 = time.perf_counter()
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                results = list(pool.map(hard_game, tasks, chunksize=1))
        else:
            results = [hard_game(t) for t in tasks]
        wall = time.perf_counter() - t0
        wins = sum(1 for r in results if r["won"])
        shared = sum(1 for r in results if r["shared"])
        lead = statistics.mean(float(r["lead"]) for r in results)  # type: ignore[arg-type]
        rate = wins / len(results)
        print(f"| {n} | 1 hard + {n - 1} normal | {len(results)} | {wins} | "
              f"{100 * rate:.1f}% | {shared} | {100 / n:.0f}% | {lead:+.1f} | "
              f"≥ {100 * target:.0f}%: {'met' if rate >= target else 'NOT met'} |",
              flush=True)
        print(f"<!-- {n} players: {wall:.0f} s, seeds {first}-{first + games - 1}, "
              f"load average after {os.getloadavg()[0]:.2f} -->", flush=True)


def hard_timing(games: int, first: int, playouts: int, candidates: int) -> None:
    """Decision times of the hard player in this process, with the default wall-clock cap."""
    load0 = os.getloadavg()
    rows: dict[str, list[tuple[float, float, int, bool]]] = defaultdict(list)
    t0 = time.perf_counter()
    for g in range(games):
        for n in (4, 3):
            r = hard_game((n, first + g, (playouts, candidates), {}, True))
            for kind, wall, cpu, k, capped in r["decisions"]:  # type: ignore[attr-defined]
                rows[kind].append((wall, cpu, k, capped))
    load1 = os.getloadavg()
    budget = _budget(playouts, candidates, True)
    print(f"## Decision time of the hard player (ms), wall / CPU\n\n{games} games of 4 "
          f"and {games} of 3 players (seeds {first}-{first + games - 1}), one process, "
          f"budget {budget}; {time.perf_counter() - t0:.0f} s; load average (1/5/15 min) "
          f"before {load0[0]:.2f}/{load0[1]:.2f}/{load0[2]:.2f}, after "
          f"{load1[0]:.2f}/{load1[1]:.2f}/{load1[2]:.2f} on {os.cpu_count()} cores\n")
    print("| decision | count | wall p50 | wall p95 | wall max | CPU p50 | CPU p95 | CPU max "
          "| playouts | capped |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    everything: list[tuple[float, float, int, bool]] = []
    for kind in sorted(rows):
        everything.extend(rows[kind])
        print(_timing_row(kind, rows[kind]))
    print(_timing_row("**all**", everything))
    walls = [w for w, _, _, _ in everything]
    ok = pct(walls, 0.95) <= 1.0 and max(walls) <= 2.5
    print(f"\nTarget wall p95 <= 1 s and max <= 2.5 s: {'met' if ok else 'NOT met'}.")


def _timing_row(kind: str, v: list[tuple[float, float, int, bool]]) -> str:
    wall = [x[0] for x in v]
    cpu = [x[1] for x in v]
    return (f"| {kind} | {len(v)} | {1e3 * statistics.median(wall):.0f} | "
            f"{1e3 * pct(wall, 0.95):.0f} | {1e3 * max(wall):.0f} | "
            f"{1e3 * statistics.median(cpu):.0f} | {1e3 * pct(cpu, 0.95):.0f} | "
            f"{1e3 * max(cpu):.0f} | {statistics.mean(x[2] for x in v):.0f} | "
            f"{sum(1 for x in v if x[3])} |")


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
    parser.add_argument("--hard", action="store_true", help="tournament: hard vs normal")
    parser.add_argument("--hard-timing", action="store_true",
                        help="decision times of the hard player (one process)")
    parser.add_argument("--playouts", type=int, default=0,
                        help="hard: playouts per decision (0: the default budget)")
    parser.add_argument("--candidates", type=int, default=0,
                        help="hard: most candidates per decision (0: the default budget)")
    parser.add_argument("--tuning", help="hard: search.Tuning changes, e.g. margin=0.5")
    args = parser.parse_args()
    if args.hard:
        hard_tournament(args.games, args.jobs, args.seed, args.playouts, args.candidates,
                        args.tuning)
        return
    if args.hard_timing:
        hard_timing(args.games, args.seed, args.playouts, args.candidates)
        return
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
