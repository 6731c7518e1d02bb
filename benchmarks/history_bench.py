"""``/sanmarco-server history`` on a server with many private channels' games: how long the
service's read takes, and how many games it lists of the ten asked for, on SQLite and on
PostgreSQL. Prints figures; asserts nothing.

    python benchmarks/history_bench.py [--games 3000] [--listed 300] [--asks 200]

The guild's finished games are stored straight into a migrated SQLite file (one
transaction; each game in a thread of its own, noted as the bot notes threads), then copied
into the tests' embedded PostgreSQL with ``bot.migrate``. Two layouts: ``newest private``
(the listed games are the oldest: every private game is newer than them, the worst case:
the read walks past every private game) and ``mixed`` (the listed games spread over time at
random). Each ask is
``past_games(guild, 10, here=(the open channel,))``, as the command asks in the open
channel; ``stats`` is ``player_stats`` of a player of every game asked by someone else
there. The query plan of the history read is printed for each store.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.migrate import copy  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import HistoryRow, Seat, open_store  # noqa: E402
from bot.store.queries import history_values, seats_json  # noqa: E402
from tests.pgserver import PgServer  # noqa: E402

GUILD = 1
OPEN, STAFF = 10, 11  # everyone may view OPEN; STAFF is a staff channel
THREADS = 1_000_000  # the games' threads' ids start here
PLAYERS = ("100", "200", "300")
ASKER = "999"


def _fill(path: Path, games: int, listed: int, layout: str) -> None:
    """``games`` finished games, ``listed`` of them in OPEN's threads, the rest in STAFF's."""
    rng = random.Random(3)
    if layout == "newest private":
        open_games = set(range(1, listed + 1))
    else:
        open_games = set(rng.sample(range(1, games + 1), listed))
    seats = json.loads(seats_json([Seat(p, f"Name {p}") for p in PLAYERS]))
    db = sqlite3.connect(path)
    with db:
        db.executemany("INSERT INTO channel_views (channel_id, guild_id, parent_id, everyone, "
                       "private_thread, seen_at) VALUES (?, ?, NULL, ?, 0, 0)",
                       [(OPEN, GUILD, 1), (STAFF, GUILD, 0)])
        for n in range(1, games + 1):
            parent = OPEN if n in open_games else STAFF
            thread, at = THREADS + n, 1000.0 + n
            db.execute("INSERT INTO games (id, guild_id, channel_id, parent_id, status, creator, "
                       "seats, players, seed, state, version, created_at, last_action_at, "
                       "ended_at) VALUES (?, ?, ?, ?, 'finished', ?, 3, ?, 1, NULL, 2, ?, ?, ?)",
                       (n, GUILD, thread, parent, PLAYERS[0], json.dumps(seats), at, at, at))
            history = HistoryRow(n, GUILD, thread, at, PLAYERS, (PLAYERS[n % 3],),
                                 {p: 40 + k for k, p in enumerate(PLAYERS)})
            db.execute("INSERT INTO history (game_id, guild_id, channel_id, finished_at, "
                       "players, winners, scores) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       history_values(history))
            db.execute("INSERT INTO channel_views (channel_id, guild_id, parent_id, everyone, "
                       "private_thread, seen_at) VALUES (?, ?, ?, ?, 0, 0)",
                       (thread, GUILD, parent, int(parent == OPEN)))
    db.close()


async def _time(call: Callable[[], Awaitable[int]], asks: int) -> tuple[list[float], int]:
    times, got = [], 0
    for _ in range(asks):
        start = time.perf_counter()
        got = await call()
        times.append(time.perf_counter() - start)
    return times, got


def _line(what: str, times: list[float], got: str) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return (f"  {what:<24} p50 {statistics.median(times) * 1000:7.2f} ms   "
            f"p95 {p95 * 1000:7.2f} ms   {got}")


async def _measure(where: str, name: str, asks: int) -> None:
    service = GameService(await open_store(where))
    try:
        here = (OPEN,)

        async def history() -> int:
            return len(await service.past_games(GUILD, 10, here=here))

        async def stats() -> int:
            kw: dict[str, object] = {}
            params = inspect.signature(service.player_stats).parameters
            if "here" in params:  # (the service before the stats followed the listing)
                kw = {"here": here, "asker": ASKER}
            return (await service.player_stats(GUILD, PLAYERS[1], **kw)).overall.games  # type: ignore[arg-type]

        times, got = await _time(history, asks)
        print(_line(f"{name} history", times, f"{got} of 10 listed"))
        times, got = await _time(stats, max(1, asks // 10))
        print(_line(f"{name} stats (another)", times, f"{got} games counted"))
        sql, params = _history_sql(service)
        explain = "EXPLAIN QUERY PLAN " if name == "sqlite" else "EXPLAIN "
        for row in await service.store.query_sql(explain + sql, *params):
            print("     ", row[-1])
    finally:
        await service.close()


def _history_sql(service: GameService) -> tuple[str, tuple[object, ...]]:
    """The history read as the store runs it (``Store.past_games``' listing, without the
    columns it reads), compiled for the store's backend: for its plan."""
    store = service.store
    try:
        from bot.store.pages import listing
    except ImportError:  # (the store before the listing was in its queries: no filter)
        joins, where, params = "", "TRUE", ()
    else:
        joins, where, params = listing(store.dialect, (OPEN,))
    sql = (f"SELECT h.game_id FROM history h JOIN games g ON g.id = h.game_id {joins} "
           f"WHERE h.guild_id = ? AND {where} ORDER BY h.finished_at DESC, h.game_id DESC "
           "LIMIT ?")
    return sql, (GUILD, *params, 10)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--listed", type=int, default=300)
    parser.add_argument("--asks", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        server = await asyncio.to_thread(PgServer.start, tmp / "pg")
        try:
            for k, layout in enumerate(("newest private", "mixed")):
                path = tmp / f"h{k}.db"
                store = await open_store(str(path))  # the bot's schema, migrated
                await store.close()
                _fill(path, args.games, args.listed, layout)
                url = await asyncio.to_thread(server.new_url, f"hist{k}_")
                await copy(str(path), url, audit=False)
                pg = await open_store(url)  # its statistics, as autovacuum would gather
                await pg.execute_sql("ANALYZE")
                await pg.close()
                print(f"{layout}: {args.games} finished games, {args.listed} listed")
                await _measure(str(path), "sqlite", args.asks)
                await _measure(url, "postgres", args.asks)
        finally:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
