"""A seat played from its page: the seat page's first load (its size) and how long a move
sent from the page takes to be answered (the service's ``act``, committed with its post,
then the seat's next decision rendered).

    python benchmarks/seat_bench.py [--games 3]

Three-player games on an SQLite file in a temporary folder, their pages served by the real
application in this process (aiohttp's test server; the doors' limit on moves off); one
seat plays every decision through ``POST /g/<token>/seat/act`` (a random choice of those
its page offers), the others through the service. Prints the first page's bytes (plus the
script and style it loads), and the moves' p50 and p95.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from bot.links import hand_query  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.web import WebOptions, make_app  # noqa: E402

PIDS = ("111111111111111111", "222222222222222222", "333333333333333333")
SECRET = "b" * 64
CHANNEL = 10


async def _game(folder: Path, n: int, times: list[float]) -> int:
    """One game with its seat played from the page; returns the first page's bytes."""
    svc = GameService(await open_store(str(folder / f"g{n}.db")), seeds=lambda: 1000 + n)
    client = TestClient(TestServer(make_app(svc, WebOptions(secret=SECRET,
                                                            acts_per_minute=0,
                                                            link_acts_per_minute=0))))
    await client.start_server()
    try:
        await svc.create_lobby(1, CHANNEL, PIDS[0], seats=3, name="Ann")
        for pid, name in zip(PIDS[1:], ("Bob", "Cid"), strict=True):
            await svc.join(CHANNEL, pid, name=name)
        await svc.start(CHANNEL, PIDS[0])
        row = await svc.store.latest_game(CHANNEL)
        assert row is not None
        token = await svc.page_token(row.id)
        rng = random.Random(n)
        first = 0
        while (status := await svc.status(CHANNEL)).awaiting:
            pid = rng.choice(list(status.awaiting))
            if pid != PIDS[0]:
                await svc.act(CHANNEL, pid, rng.choice(await svc.legal_actions(CHANNEL, pid)))
                continue
            page = await client.get(
                f"/g/{token}/hand?{hand_query(SECRET, token, pid, svc.clock())}&lang=en")
            body = await page.text()
            first = first or len(body.encode())
            csrf = re.search(r'data-csrf="(\w+)"', body)
            version = re.search(r'data-version="(\d+)" data-mine', body)
            assert csrf and version
            actions = [html.unescape(a) for a in re.findall(r'data-action="([^"]+)"', body)]
            if not actions:  # the split: card i into offer i mod n
                cards = body.count('class="card" data-card=')
                offers = re.search(r'data-offers="(\d)"', body)
                assert offers
                actions = ["split:" + "".join(str(i % int(offers[1])) for i in range(cards))]
            started = time.perf_counter()
            made = await client.post(f"/g/{token}/seat/act", data={
                "action": rng.choice(actions), "version": version[1]},
                headers={"X-CSRF-Token": csrf[1]})
            times.append(time.perf_counter() - started)
            assert made.status == 200, await made.text()
        return first
    finally:
        await client.close()
        await svc.close()


async def main(games: int) -> None:
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        sizes = [await _game(Path(tmp), n, times) for n in range(games)]
    static = Path(__file__).resolve().parent.parent / "bot" / "web" / "static"
    assets = sum((static / f).stat().st_size for f in ("page.js", "seat.js", "page.css"))
    times.sort()
    print(f"seat page, first load: {max(sizes)} bytes of HTML (+ {assets} bytes of script "
          "and style, cached five minutes)")
    print(f"{len(times)} moves from the page: p50 {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {times[int(len(times) * 0.95)] * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    asyncio.run(main(parser.parse_args().games))
