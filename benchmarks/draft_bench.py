"""The half-made split on the seat page: how long storing one change of the split takes
(``POST /g/<token>/seat/draft``, answered with the decision) and how long the read a second
tab polls takes (``GET /g/<token>/seat/decision`` with the stored split placed).

    python benchmarks/draft_bench.py [--changes 200]

A three-player game on an SQLite file in a temporary folder, played through the service to
its first split; its page served by the real application in this process (aiohttp's test
server; the doors' limit on moves off). The distributor's page sends ``--changes`` random
half-made splits, each followed by one read as another tab would make it. Prints p50 and
p95 of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
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


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] * 1000


async def main(changes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        svc = GameService(await open_store(str(Path(folder) / "g.db")), seeds=lambda: 7)
        client = TestClient(TestServer(make_app(svc, WebOptions(
            secret=SECRET, acts_per_minute=0, link_acts_per_minute=0))))
        await client.start_server()
        try:
            await svc.create_lobby(1, CHANNEL, PIDS[0], seats=3, name="Ann")
            for pid, name in zip(PIDS[1:], ("Bob", "Cid"), strict=True):
                await svc.join(CHANNEL, pid, name=name)
            update = await svc.start(CHANNEL, PIDS[0])
            rng = random.Random(1)
            while update.view["phase"] != "split":
                pid = rng.choice(list(update.view["waiting_for"]))
                action = rng.choice(await svc.legal_actions(CHANNEL, pid))
                update = await svc.act(CHANNEL, pid, action, expected_version=update.version)
            me = update.view["waiting_for"][0]
            row = await svc.store.latest_game(CHANNEL)
            assert row is not None
            token = await svc.page_token(row.id)
            page = await client.get(f"/g/{token}/hand?"
                                    f"{hand_query(SECRET, token, me, svc.clock())}")
            body = await page.text()
            csrf = re.search(r'data-csrf="([0-9a-f]+)"', body)
            offers = re.search(r'data-offers="([0-9])"', body)
            assert csrf and offers
            cards = body.count('class="card" data-card=')
            writes: list[float] = []
            reads: list[float] = []
            for _ in range(changes):
                draft = "".join(rng.choice("-" + "".join(map(str, range(int(offers[1])))))
                                for _ in range(cards))
                t = time.perf_counter()
                sent = await client.post(f"/g/{token}/seat/draft", data={
                    "draft": draft, "version": str(update.version)},
                    headers={"X-CSRF-Token": csrf[1]})
                assert sent.status == 200, await sent.text()
                await sent.read()
                writes.append(time.perf_counter() - t)
                t = time.perf_counter()
                got = await client.get(f"/g/{token}/seat/decision")
                assert (await got.json())["draft"] == draft
                reads.append(time.perf_counter() - t)
        finally:
            await client.close()
            await svc.close()
    print(f"draft stored (POST seat/draft), {changes} changes: p50 {_p(writes, 50):.1f} ms, "
          f"p95 {_p(writes, 95):.1f} ms")
    print(f"another tab's read (GET seat/decision): p50 {_p(reads, 50):.1f} ms, "
          f"p95 {_p(reads, 95):.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=200)
    asyncio.run(main(parser.parse_args().changes))
