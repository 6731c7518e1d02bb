"""A signed-in player's My games: how long ``GET /me`` takes when the store holds many
running games (one read through the running games' index, the games awaiting the reader
first, at most 50 rows and the count of the rest), and the page's size; and a heavy player
seated in more games than the page lists: whether every game awaiting them is listed.

    python benchmarks/my_games_bench.py [--games 600] [--asks 200] [--heavy 120]

Three-player games started through the service on an SQLite file in a temporary folder,
their players drawn from a pool of 200 people, plus ``--heavy`` games where the first of
them plays a seat; the pages served by the real application in this process (aiohttp's
test server) with a signed-in session cookie. Prints the store's query plan, the page's
bytes, the answers' p50 and p95, and the heavy player's games awaiting them: listed / all.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from bot.links import user_session  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.web import WebOptions, make_app  # noqa: E402

SECRET = "b" * 64
PEOPLE = [str(300_000_000_000_000_000 + n) for n in range(200)]


async def main(games: int, asks: int, heavy: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(await open_store(str(Path(folder) / "b.db")))
        rng = random.Random(1)
        made = time.perf_counter()
        for n in range(games):
            seats = rng.sample(PEOPLE, 3)
            channel = 1000 + n
            await service.create_lobby(1 + n % 5, channel, seats[0], seats=3, name="p0")
            for k, pid in enumerate(seats[1:], 1):
                await service.join(channel, pid, name=f"p{k}")
            await service.start(channel, seats[0])
        for n in range(heavy):  # the first person plays these too
            seats = [PEOPLE[0], *rng.sample(PEOPLE[1:], 2)]
            rng.shuffle(seats)
            channel = 1000 + games + n
            await service.create_lobby(1 + n % 5, channel, seats[0], seats=3, name="p0")
            for k, pid in enumerate(seats[1:], 1):
                await service.join(channel, pid, name=f"p{k}")
            await service.start(channel, seats[0])
        print(f"{games + heavy} running games made in {time.perf_counter() - made:.1f} s")
        db = service.store
        seated = db.dialect.seat_pid.format(players="g.players")
        awaited = db.dialect.seat_awaited.format(players="g.players", awaiting="g.awaiting")
        plan = await db._fetch(lambda r: str(r[-1]), "EXPLAIN QUERY PLAN SELECT g.id, "
                               "count(*) OVER () FROM games g "
                               "LEFT JOIN channel_settings s ON s.channel_id = g.channel_id "
                               f"WHERE g.status = 'running' AND NOT g.practice AND {seated} "
                               f"ORDER BY CASE WHEN g.awaiting IS NULL OR {awaited} THEN 0 "
                               "ELSE 1 END, coalesce(g.awaited_since, g.last_action_at), g.id "
                               "LIMIT ?", (PEOPLE[0], PEOPLE[0], 50))
        print("query plan:", " | ".join(plan))
        awaiting_heavy = 0
        for n in range(games + heavy):
            try:
                view = await service.public_view(1000 + n)
            except Exception:
                continue
            awaiting_heavy += PEOPLE[0] in view["waiting_for"]
        options = WebOptions(secret=SECRET, client_id="1", client_secret="x")
        client: TestClient = TestClient(TestServer(make_app(service, options)))  # type: ignore[type-arg]
        await client.start_server()
        try:
            seconds, size = [], 0
            for n in range(asks):
                who = PEOPLE[n % len(PEOPLE)]
                cookie = user_session(SECRET, who, "p", service.clock(), f"n{n}")
                started = time.perf_counter()
                answer = await client.get("/me?lang=en", cookies={"sanmarco_user": cookie})
                body = await answer.read()
                seconds.append(time.perf_counter() - started)
                assert answer.status == 200
                size = max(size, len(body))
            cuts = statistics.quantiles(seconds, n=20)
            print(f"GET /me over {asks} asks: p50 {statistics.median(seconds) * 1000:.1f} ms, "
                  f"p95 {cuts[18] * 1000:.1f} ms; the largest page {size} bytes")
            cookie = user_session(SECRET, PEOPLE[0], "p", service.clock(), "heavy")
            page = await (await client.get("/me?lang=en",
                                           cookies={"sanmarco_user": cookie})).text()
            listed, mine = page.count('class="game-line'), page.count('class="game-line awaits')
            print(f"the heavy player: {listed} games listed, {mine} of the {awaiting_heavy} "
                  "games awaiting them")
        finally:
            await client.close()
            await service.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--asks", type=int, default=200)
    parser.add_argument("--heavy", type=int, default=120)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.asks, args.heavy))
