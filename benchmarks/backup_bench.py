"""What one backup costs as a bot's history grows: a copy and its check of a file holding
``--games`` finished games (the check replays every one of them, each hour).

    python benchmarks/backup_bench.py [--games 1000] [--played 10]

``--played`` distinct games are played to their end through the service (random legal
moves, computers in every seat but one), then copied row for row under new ids and
channels until the file holds ``--games`` (each copy replays like its original). Prints the
file's size, the copy's and the check's seconds (``bot.backup.take``: the online copy, the
integrity check, every game replayed), per game too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.backup import check_file, take  # noqa: E402
from bot.config import Backups, Keep  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import SQLiteStore  # noqa: E402
from tests.bot.test_service import Clock, RandomComputers  # noqa: E402


async def _play(path: str, games: int) -> None:
    clock = Clock()
    seeds = iter(range(1000, 1000 + games))
    svc = GameService(await SQLiteStore.open(path, synchronous="NORMAL"), clock,
                      computers=RandomComputers(1), seeds=lambda: next(seeds))
    rng = random.Random(3)
    try:
        for channel in range(1, games + 1):
            await svc.create_lobby(1, channel, "111", seats=3, name="Ann")
            u = await svc.start(channel, "111", fill_with_computers=True)
            while not u.finished:
                clock.t += 60
                u = await svc.act(channel, "111", rng.choice(await svc.legal_actions(channel,
                                                                                  "111")))
    finally:
        await svc.close()


def _replicate(path: str, played: int, games: int) -> None:
    """Copies of the played games under new ids and channels until ``games`` are stored."""
    conn = sqlite3.connect(path, isolation_level=None)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    offset = played
    conn.execute("BEGIN")
    while offset < games:
        n = min(played, games - offset)
        picked = ", ".join(f"{c} + {offset}" if c in ("id", "channel_id")
                           else "NULL" if c == "rematch_of" else c for c in columns)
        conn.execute(f"INSERT INTO games ({', '.join(columns)}) SELECT {picked} FROM games "
                     f"WHERE id <= {n}")
        conn.execute(f"INSERT INTO actions SELECT game_id + {offset}, seq, pid, action, at "
                     f"FROM actions WHERE game_id <= {n}")
        offset += n
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--played", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "sanmarco.db")
        asyncio.run(_play(db, args.played))
        _replicate(db, args.played, args.games)
        actions = sqlite3.connect(db).execute("SELECT count(*) FROM actions").fetchone()[0]
        began = time.perf_counter()
        result = take(db, Backups((Keep(24, "h"),), os.path.join(tmp, "backups")), time.time())
        total = time.perf_counter() - began
        began = time.perf_counter()
        check_file(result.path)  # the check alone, again on the copy
        check = time.perf_counter() - began
    print(f"backup_bench: {args.games} finished games ({args.played} played, the rest "
          f"copies), {actions} logged actions")
    print(f"  file: {result.size / 1e6:.1f} MB")
    print(f"  take (copy + check + rename): {total:.2f} s; its check: {result.check}")
    print(f"  check alone (integrity + replay of every game): {check:.2f} s, "
          f"{check / args.games * 1000:.1f} ms per game")


if __name__ == "__main__":
    main()
