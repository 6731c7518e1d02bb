"""The game pages: how long a page takes to answer, and how long a committed move takes to
reach a thousand watchers' streams.

    python benchmarks/web_bench.py [--watchers 1000] [--pages 200] [--moves 10]

A four-player game on an SQLite file in a temporary folder is played to its second passage
through the service; the pages are served on a loopback port by the real application
(``bot.web.make_app``, its poller at its default of once a second) in this process, and
read by aiohttp clients in the same process (so the figures include the clients' own work).

- page render: ``GET /g/<token>`` (the whole HTML: facts, log, replay slider) ``--pages``
  times in turn, after a first request that plays the replay once; p50, p95 and max. Then
  the board picture of a step not drawn yet (a render), and a cached one.
- commit to watchers: ``--watchers`` streams follow the game (one connection each); a move
  is committed ``--moves`` times and the time from the commit's return to the last of the
  watchers reading its event is measured (the poller's wait of up to a second included:
  that is what a watcher sees; each move follows the last event, so in step with the
  poller: close to a whole second), p50 and max, and the fan-out alone (from the poller
  finding the version to the last watcher reading it); and the process's resident memory
  grown by the watchers and their clients.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from bot.service import GameService  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.web import WebOptions, make_app  # noqa: E402

PIDS = ("111111111111111111", "222222222222222222", "333333333333333333",
        "444444444444444444")


async def _game(svc: GameService, rng: random.Random) -> str:
    await svc.create_lobby(1, 10, PIDS[0], seats=4, name="Ann")
    for pid, name in zip(PIDS[1:], ("Bob", "Cid", "Dee"), strict=True):
        await svc.join(10, pid, name=name)
    u = await svc.start(10, PIDS[0])
    while u.view["passage"] < 2 and not u.finished:
        u = await _move(svc, rng)
    row = await svc.store.latest_game(10)
    assert row is not None
    return await svc.page_token(row.id)


async def _move(svc: GameService, rng: random.Random):  # type: ignore[no-untyped-def]
    status = await svc.status(10)
    pid = rng.choice(list(status.awaiting))
    return await svc.act(10, pid, rng.choice(await svc.legal_actions(10, pid)))


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _reader(session: aiohttp.ClientSession, url: str, seen: dict[int, float],
                  wanted: asyncio.Event, counts: dict[int, int], total: int) -> None:
    async with session.get(url) as response:
        async for raw in response.content:
            line = raw.decode()
            if line.startswith("id: "):
                version = int(line[4:])
                counts[version] = counts.get(version, 0) + 1
                if counts[version] == total:
                    seen[version] = time.perf_counter()
                    wanted.set()


async def main(watchers: int, pages: int, moves: int) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        svc = GameService(await open_store(str(Path(folder) / "bench.db")))
        token = await _game(svc, rng)
        # every watcher is this process's one address: the per-client stream cap lifted
        runner = web.AppRunner(make_app(svc, WebOptions(
            streams_per_client=watchers, streams=watchers)), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            started = time.perf_counter()
            await (await http.get(f"{base}/g/{token}")).read()
            first = time.perf_counter() - started
            times = []
            for _ in range(pages):
                started = time.perf_counter()
                answer = await http.get(f"{base}/g/{token}")
                await answer.read()
                times.append(time.perf_counter() - started)
            steps = (await svc.log(10)).entries[-1].seq
            started = time.perf_counter()
            await (await http.get(f"{base}/g/{token}/replay/{steps // 2}.png")).read()
            drawn = time.perf_counter() - started
            started = time.perf_counter()
            await (await http.get(f"{base}/g/{token}/replay/{steps // 2}.png")).read()
            cached = time.perf_counter() - started
            print(f"game at step {steps}; page: first {first * 1000:.0f} ms (plays the "
                  f"replay), then p50 {statistics.median(times) * 1000:.1f} ms, p95 "
                  f"{_p(times, 0.95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
                  f"over {pages}")
            print(f"board picture: drawn {drawn * 1000:.0f} ms, cached {cached * 1000:.1f} ms")

            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            seen: dict[int, float] = {}
            counts: dict[int, int] = {}
            wanted = asyncio.Event()
            url = f"{base}/g/{token}/events"
            readers = [asyncio.create_task(_reader(http, url, seen, wanted, counts, watchers))
                       for _ in range(watchers)]
            while runner.app is not None and sum(
                    f.watchers for f in runner.app[_hub_key()].feeds.values()) < watchers:
                await asyncio.sleep(0.05)
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            delays = []
            fanouts = []
            feed = next(iter(runner.app[_hub_key()].feeds.values()))
            for _ in range(moves):
                wanted.clear()
                await _move(svc, rng)
                committed = time.perf_counter()
                row = await svc.store.latest_game(10)
                assert row is not None
                while feed.version < row.version:  # the poller's look at the store
                    await asyncio.sleep(0.001)
                found = time.perf_counter()
                while row.version not in seen:
                    await asyncio.wait_for(wanted.wait(), 30)
                    wanted.clear()
                delays.append(seen[row.version] - committed)
                fanouts.append(seen[row.version] - found)
            print(f"{watchers} watchers (one connection each; +{grown / 1024:.0f} MB resident "
                  f"for them and their clients): commit to the last watcher's event "
                  f"p50 {statistics.median(delays) * 1000:.0f} ms, max "
                  f"{max(delays) * 1000:.0f} ms over {moves} moves (poll every 1 s); from the "
                  f"poller finding it to the last watcher: p50 "
                  f"{statistics.median(fanouts) * 1000:.0f} ms, max "
                  f"{max(fanouts) * 1000:.0f} ms")
            for r in readers:
                r.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
        await runner.cleanup()
        await svc.close()


def _hub_key():  # type: ignore[no-untyped-def]
    from bot.web.app import HUB
    return HUB


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(main(args.watchers, args.pages, args.moves))
