"""The bot's loop while the computers think, and the listed leaderboard's cost.

    python benchmarks/work_bench.py [--moves 30] [--level hard] [--games 1000]

1. A service on an SQLite file with one human and two computer players of ``--level``: the
   human makes ``--moves`` moves (the first legal one), each followed by the computers'; a
   task ticking every millisecond measures the loop's longest stall and its p99, with the
   computers thinking in Discord's lane as a thread of the bot's process (``discord
   processes 0``, ``asyncio.to_thread`` as before) and as a worker process (1, the bot's
   default on two cores). Same seed, same moves: only where they are thought differs.
2. The leaderboard of ``--games`` listed games folded in the side lane's process (a
   channel listed or unlisted: all again), then one newer game folded onto the kept table.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import ratings  # noqa: E402
from bot.computers import EngineComputers  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import HistoryRow, SQLiteStore  # noqa: E402
from bot.work import DISCORD, RATING, Workers  # noqa: E402


async def stalls(processes: int, moves: int, level: str) -> tuple[float, float, float]:
    """The loop's longest stall and p99 (ms) while ``moves`` moves and the computers'
    replies are played, and the wall time (s)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await SQLiteStore.open(Path(tmp) / "g.db", synchronous="NORMAL")
        svc = GameService(store, computers=EngineComputers(), seeds=lambda: 11)
        svc.work = Workers(discord_processes=processes)
        await svc.create_lobby(1, 10, "111", seats=3, name="Ann", computers=2, level=level)
        gaps: list[float] = []
        stop = False

        async def tick() -> None:
            last = time.perf_counter()
            while not stop:
                await asyncio.sleep(0.001)
                now = time.perf_counter()
                gaps.append((now - last) * 1000)
                last = now

        if processes:  # the worker process started before measuring (as the bot warms up)
            await svc.work.run(DISCORD, ratings.fold, [])
        ticker = asyncio.create_task(tick())
        started = time.perf_counter()
        await svc.start(10, "111")
        for _ in range(moves):
            legal = await svc.legal_actions(10, "111")
            if not legal:
                break
            await svc.act(10, "111", legal[0])
        took = time.perf_counter() - started
        stop = True
        await ticker
        svc.work.close()
        await svc.close()
    gaps.sort()
    return max(gaps), gaps[int(len(gaps) * 0.99)], took


def history(n: int) -> list[HistoryRow]:
    rnd = random.Random(1)
    people = [str(100 + i) for i in range(60)]
    out = []
    for g in range(n):
        seats = tuple(rnd.sample(people, rnd.choice((3, 4))))
        scores = {p: rnd.randint(0, 90) for p in seats}
        best = max(scores.values())
        out.append(HistoryRow(g + 1, 1, 10, 1000.0 + g, seats,
                              tuple(p for p in seats if scores[p] == best), scores))
    return out


async def board(n: int) -> tuple[float, float]:
    """Folding ``n`` games, then one more onto the table (ms), in the side lane's process."""
    games = history(n + 1)
    work = Workers(side_processes=1)
    await work.run(RATING, ratings.fold, games[:2])  # the process started
    started = time.perf_counter()
    table = await work.run(RATING, ratings.fold, games[:n])
    cold = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    warm_table = await work.run(RATING, ratings.rate, table, games[n:])
    warm = (time.perf_counter() - started) * 1000
    assert warm_table == ratings.fold(games)  # the same floats
    work.close()
    return cold, warm


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    for processes in (0, 1):
        worst, p99, took = await stalls(processes, args.moves, args.level)
        where = "a worker process" if processes else "a thread of the bot (as before)"
        print(f"computers ({args.level}) thinking in {where}: loop stall max {worst:.0f} ms, "
              f"p99 {p99:.1f} ms; {args.moves} moves in {took:.1f} s")
    cold, warm = await board(args.games)
    print(f"listed leaderboard, {args.games} games: all folded {cold:.0f} ms; one newer game "
          f"folded onto the kept table {warm:.0f} ms (side lane's process)")


if __name__ == "__main__":
    asyncio.run(main())
