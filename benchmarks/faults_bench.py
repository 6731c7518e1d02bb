"""Figures for issue 11 (faults and abuse): how long the reminder pass holds up the event
loop with 10,000 stored games, and (see the other sections) the answers under faults.

    python benchmarks/faults_bench.py                      # every section
    python benchmarks/faults_bench.py reminders --games 10000 --due 0.01

Prints figures; asserts nothing (the behaviour is asserted by the tests).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import _GAME_COLS, Store, _game  # noqa: E402

HOUR = 3600.0
NOW = 1.8e9


# ---------------------------------------------------------------------------- loop stalls
async def loop_stall(work: Callable[[], Awaitable[Any]], tick: float = 0.001
                     ) -> tuple[float, float]:
    """Run ``work`` while a ticker on the same loop sleeps ``tick`` seconds at a time;
    returns (the longest the ticker was held up beyond its tick, the work's duration), in
    seconds. What every other channel's interactions wait for meanwhile."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    done = False

    async def ticker() -> None:
        nonlocal worst
        while not done:
            before = loop.time()
            await asyncio.sleep(tick)
            worst = max(worst, loop.time() - before - tick)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(tick * 3)
    started = time.perf_counter()
    await work()
    took = time.perf_counter() - started
    done = True
    await task
    return worst, took


# ---------------------------------------------------------------------------- reminders
def _states(n: int) -> list[engine.GameState]:
    """``n`` mid-game states played by the engine alone (stored games are copies)."""
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        state = engine.new_game(["111", "222", "333", "444"][: 3 + seed % 2], seed=seed)
        for _ in range(rng.randint(5, 60)):
            pid = rng.choice(state.waiting_for)
            state, _ = engine.apply(state, pid, rng.choice(engine.legal_actions(state, pid)))
        out.append(state)
    return out


def _fill(path: Path, games: int, due: float) -> int:
    """Bulk-insert ``games`` running games (a share ``due`` of them awaited for longer than
    their 12-hour interval); returns how many are due at NOW."""
    states = _states(24)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    n_due = 0
    rng = random.Random(1)
    for i in range(games):
        state = states[i % len(states)]
        is_due = rng.random() < due
        n_due += is_due
        since = NOW - (13 if is_due else rng.uniform(0, 11.5)) * HOUR
        seats = json.dumps([{"pid": p, "name": f"Player {p}", "computer": False}
                            for p in state.players])
        db.execute(
            "INSERT INTO games (guild_id, channel_id, status, creator, seats, players, seed, "
            "state, version, created_at, last_action_at, awaited_since) "
            "VALUES (1, ?, 'running', '111', ?, ?, 1, ?, ?, ?, ?, ?)",
            (10_000 + i, len(state.players), seats, state.to_json(), state.version,
             since, since, since))
    db.execute("COMMIT")
    db.close()
    return n_due


async def _old_pass(store: Store, now: float) -> int:
    """The reminder pass as it was before issue 11 (for comparison): every waiting game
    read, its row made on the event loop, each due one's state parsed there too."""
    rows = await store._all(
        f"SELECT {_GAME_COLS}, 12.0 FROM games "
        "WHERE status = 'running' AND awaited_since IS NOT NULL")
    due = 0
    for r in rows:
        row = _game(r[:15])
        assert row.awaited_since is not None and row.state is not None
        if now - max(row.awaited_since, row.last_reminded_at or 0.0) >= r[15] * HOUR:
            engine.GameState.from_json(row.state).public_view()
            due += 1
    return due


async def reminders(games: int, due: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        await (await Store.open(path)).close()  # the current schema
        n_due = _fill(path, games, due)
        service = GameService(await Store.open(path))
        try:
            found: list[int] = []

            async def new() -> None:
                found.append(len(await service.due_reminders(NOW)))

            async def old() -> None:
                found.append(await _old_pass(service.store, NOW))

            await new()  # warm the caches once
            found.clear()
            stall_new, took_new = await loop_stall(new)
            stall_old, took_old = await loop_stall(old)
            print(f"reminder pass, {games:,} running games, {n_due} due "
                  f"(found {found[0]} / {found[1]}):")
            print(f"  indexed query, states read in a worker thread: loop stall "
                  f"{stall_new * 1000:.1f} ms, pass {took_new * 1000:.0f} ms "
                  f"(target stall < 50 ms: {'met' if stall_new < 0.05 else 'NOT met'})")
            print(f"  before issue 11 (every waiting game on the loop): loop stall "
                  f"{stall_old * 1000:.0f} ms, pass {took_old * 1000:.0f} ms")
            everything = NOW + 24 * HOUR  # the worst case: every game due at once
            stall_all, took_all = await loop_stall(
                lambda: service.due_reminders(everything))
            print(f"  every one of the {games:,} due at once: loop stall "
                  f"{stall_all * 1000:.1f} ms, pass {took_all * 1000:.0f} ms")
        finally:
            await service.close()


# ---------------------------------------------------------------------------- main
SECTIONS: dict[str, Callable[[argparse.Namespace], Awaitable[None]]] = {
    "reminders": lambda a: reminders(a.games, a.due),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sections", nargs="*", help=f"which figures: {', '.join(SECTIONS)} "
                                                    "(default: all)")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--due", type=float, default=0.01,
                        help="share of the games whose reminder is due")
    args = parser.parse_args()
    for name in args.sections or list(SECTIONS):
        if name not in SECTIONS:
            parser.error(f"no section {name!r}")
        asyncio.run(SECTIONS[name](args))


if __name__ == "__main__":
    main()
