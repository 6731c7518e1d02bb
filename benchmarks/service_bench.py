"""How fast is ``GameService.act`` (load, apply, save; no image) in a file that already holds
1,000 games, and how many bytes does a finished game cost in the database?

    python benchmarks/service_bench.py                 # synchronous=FULL (the default)
    python benchmarks/service_bench.py --sync NORMAL   # what NORMAL would give
    python benchmarks/service_bench.py --games 1000 --acts 3000

Target: p95 of act() ≤ 20 ms on the development machine. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import (  # noqa: E402
    HistoryRow,
    LogRow,
    Seat,
    SQLiteStore,
    Store,  # noqa: E402
)

PLAYERS = [("111", "222", "333"), ("111", "222", "333", "444")]


def _random_game(seed: int, players: tuple[str, ...], stop_after: int | None
                 ) -> tuple[engine.GameState, list[LogRow]]:
    """A game played by the engine alone (fast), with the log rows the service would write."""
    rng = random.Random(seed)
    state = engine.new_game(list(players), seed=seed)
    rows: list[LogRow] = []
    while not state.finished and (stop_after is None or len(rows) < stop_after):
        pid = rng.choice(state.waiting_for)
        action = rng.choice(engine.legal_actions(state, pid))
        state, _ = engine.apply(state, pid, action)
        rows.append(LogRow(state.version, pid, action.encode(), 1.7e9 + len(rows)))
    return state, rows


async def fill(store: Store, games: int, running: int) -> list[int]:
    """Store ``games`` games through the store API: the first ``running`` stop mid-game (they
    are the ones the benchmark plays on), the rest are finished. Returns running channels."""
    channels = []
    for i in range(games):
        players = PLAYERS[i % 2]
        is_running = i < running
        state, rows = _random_game(i, players, stop_after=30 if is_running else None)
        row = await store.create_game(1, 1000 + i, Seat(players[0], "P"), len(players), 1.7e9)
        view = state.public_view()
        fields = {"players": tuple(Seat(p, f"Player {p}") for p in players), "seed": i,
                  "state": state.to_json(), "last_action_at": 1.7e9,
                  "status": "running" if is_running else "finished",
                  "awaited_since": 1.7e9 if is_running else None}
        history = None if is_running else HistoryRow(
            row.id, 1, 1000 + i, 1.7e9, tuple(view["players"]), tuple(view["winners"]),
            dict(view["prestige"]))
        await store.commit(row.id, 0, fields=fields, actions=rows, history=history)
        if is_running:
            channels.append(1000 + i)
    return channels


async def measure_act(path: Path, channels: list[int], acts: int, sync: str,
                      seed: int) -> list[float]:
    """Milliseconds per act() call, random legal actions spread over the running games."""
    return await measure(await SQLiteStore.open(path, synchronous=sync), channels, acts, seed)


async def measure(store: Store, channels: list[int], acts: int, seed: int) -> list[float]:
    """Milliseconds per act() call over the running games of ``store`` (any backend)."""
    svc = GameService(store)
    rng = random.Random(seed)
    times: list[float] = []
    live = list(channels)
    try:
        while len(times) < acts and live:
            channel = rng.choice(live)
            view = await svc.public_view(channel)
            if view["finished"]:
                live.remove(channel)
                continue
            pid = rng.choice(view["waiting_for"])
            action = rng.choice(await svc.legal_actions(channel, pid))
            t = time.perf_counter()
            await svc.act(channel, pid, action, expected_version=view["version"])
            times.append((time.perf_counter() - t) * 1000)
    finally:
        await svc.close()
    return times


def file_bytes(path: Path) -> int:
    """Bytes of the database once the WAL is folded in and free pages are dropped."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    page_size, pages = (db.execute("PRAGMA page_size").fetchone()[0],
                        db.execute("PRAGMA page_count").fetchone()[0])
    db.close()
    return int(page_size * pages)


async def bytes_per_finished_game(tmp: Path, n: int) -> float:
    """Database growth per finished game played through the service (fresh file). Each
    game's posts leave the outbox once it ends, as the bot's deliverer lets them go once
    Discord took them (a delivered post is deleted; what stays is the game)."""
    path = tmp / "size.db"
    svc = GameService(await SQLiteStore.open(path, synchronous="NORMAL"),
                      seeds=iter(range(10**6)).__next__)
    empty = file_bytes(path)
    rng = random.Random(1)
    try:
        for g in range(n):
            players = PLAYERS[g % 2]
            await svc.create_lobby(1, g, players[0], seats=len(players))
            for p in players[1:]:
                await svc.join(g, p, name=f"Player {p}")
            u = await svc.start(g, players[0])
            while not u.finished:
                pid = rng.choice(u.view["waiting_for"])
                u = await svc.act(g, pid, rng.choice(await svc.legal_actions(g, pid)))
            while pending := await svc.pending_posts(g):
                await svc.posts_sent([p.id for p in pending])
    finally:
        await svc.close()
    return (file_bytes(path) - empty) / n


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games stored before measuring")
    ap.add_argument("--running", type=int, default=50, help="of which running (played on)")
    ap.add_argument("--acts", type=int, default=3000, help="act() calls to time")
    ap.add_argument("--sync", default="FULL", choices=["FULL", "NORMAL"])
    ap.add_argument("--size-games", type=int, default=30,
                    help="finished games played for the bytes-per-game figure")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        path = tmp / "bench.db"
        t = time.perf_counter()
        store = await SQLiteStore.open(path, synchronous="NORMAL")
        channels = await fill(store, args.games, args.running)
        await store.close()
        fill_s = time.perf_counter() - t
        size = file_bytes(path)
        print(f"stored {args.games} games ({args.games - args.running} finished, "
              f"{args.running} running) in {fill_s:.1f} s; file {size / 1e6:.1f} MB "
              f"({size / args.games / 1024:.1f} KiB per game)")

        times = await measure_act(path, channels, args.acts, args.sync, seed=7)
        print(f"act() over {len(times)} calls, synchronous={args.sync}: "
              f"p50 {statistics.median(times):.2f} ms, p95 {pct(times, 95):.2f} ms, "
              f"p99 {pct(times, 99):.2f} ms, max {max(times):.2f} ms (target p95 <= 20 ms)")

        per_game = await bytes_per_finished_game(tmp, args.size_games)
        print(f"database bytes per finished game (played through the service, "
              f"{args.size_games} games, after VACUUM): {per_game / 1024:.1f} KiB")
        print(f"python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}, "
              f"cpus {os.cpu_count()}")


if __name__ == "__main__":
    asyncio.run(main())
