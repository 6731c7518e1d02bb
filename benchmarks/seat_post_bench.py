"""A decision made on the seat page to its post in the channel, through the fake Discord:
the real discord.py bot (``SanMarcoBot``, in this process, its pages on a port, games in
threads as by default), every seat of a few 3-player games played only from its page — an
HTTP POST to ``/g/<token>/seat/act`` as the page's script sends it, with its session's
cookie and CSRF token — and timed until the move's post (its board, the Now line and the
next player's ping) is made in the game's thread by the outbox's deliverer. Also the seat
page's first load: its HTML, script and style, and the board picture, each timed and
weighed as a browser fetches them (an empty cache).

    PYTHONPATH=. python benchmarks/seat_post_bench.py [--games 3] [--moves 40]

Prints the p50, p95 and max of page-move → post, and the first load's times and bytes.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from bot.links import hand_query  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fakediscord.harness import BotHarness, point_discord_at, until  # noqa: E402
from tests.fakediscord.scenarios import NEW  # noqa: E402

SECRET = "k" * 64
PUBLIC = "https://pages.example"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _choice(body: str, rng: random.Random) -> str | None:
    """A move the decision's HTML offers (the split: card i into offer i mod n)."""
    offers = re.search(r'class="builder" data-offers="([0-9])"', body)
    if offers:
        n = body.count('class="card" data-card=')
        return "split:" + "".join(str(i % int(offers[1])) for i in range(n))
    actions = [html.unescape(a) for a in re.findall(r'data-action="([^"]+)"', body)]
    return rng.choice(actions) if actions else None


async def _first_load(http: aiohttp.ClientSession, site: str, link: str,
                      loads: list[dict[str, float]]) -> str:
    """The seat page as a browser first loads it; returns its CSRF token."""
    took: dict[str, float] = {}
    started = time.perf_counter()
    page = await http.get(link)  # the signed link: a session, then the page (303)
    body = await page.text()
    took["html_ms"] = (time.perf_counter() - started) * 1000
    took["html_bytes"] = len(body.encode())
    assets = 0
    begun = time.perf_counter()
    for name in ("page.css", "page.js", "seat.js"):
        assets += len(await (await http.get(f"{site}/static/{name}")).read())
    took["assets_ms"] = (time.perf_counter() - begun) * 1000
    took["assets_bytes"] = assets
    board = re.search(r'id="board" src="([^"]+)"', body)
    if board:
        begun = time.perf_counter()
        picture = await (await http.get(site + html.unescape(board[1]))).read()
        took["board_ms"] = (time.perf_counter() - begun) * 1000
        took["board_bytes"] = len(picture)
    took["total_ms"] = (time.perf_counter() - started) * 1000
    loads.append(took)
    csrf = re.search(r'data-csrf="([0-9a-f]+)"', body)
    assert csrf, body[:300]
    return csrf[1]


async def _game(fake: FakeDiscord, bot: object, site: str, n: int, moves: int,
                times: list[float], loads: list[dict[str, float]],
                refused: list[int]) -> None:
    """One game in its own thread, every seat played from its page."""
    users = [fake.add_user(f"g{n}p{k}") for k in range(3)]
    rec = await fake.slash(users[0], NEW, seats=3)
    thread = int(re.search(r"<#(\d+)>", rec.response.content)[1])  # type: ignore[index]
    await until(lambda: bool(fake.channel_messages(thread)), what="the lobby")
    lobby = fake.channel_messages(thread)[0]
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    service = bot.service  # type: ignore[attr-defined]
    game = (await service.status(thread)).game_id
    token = await service.page_token(game)
    await until(lambda: len(fake.channel_messages(thread)) >= 2, what="the start's post")
    rng = random.Random(n)
    # each player a browser of their own address (behind the proxy the bot is told of), as
    # the pages' per-client limits count them
    sessions = {u.id: aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                            headers={"X-Forwarded-For": f"10.0.{n}.{k}"})
                for k, u in enumerate(users)}
    csrf: dict[int, str] = {}
    try:
        for _ in range(moves):
            status = await service.status(thread)
            if not status.awaiting:
                break
            user = next(u for u in users if str(u.id) == rng.choice(list(status.awaiting)))
            http = sessions[user.id]
            if user.id not in csrf:
                query = hand_query(SECRET, token, str(user.id), time.time())
                csrf[user.id] = await _first_load(http, site,
                                                  f"{site}/g/{token}/hand?{query}", loads)
            shown = await (await http.get(f"{site}/g/{token}/seat/decision")).json()
            action = _choice(shown["html"], rng)
            if action is None:  # (the seat's decision is not offered: it waits)
                await asyncio.sleep(0.01)
                continue
            before = len(fake.channel_messages(thread))
            started = time.monotonic()
            made = await http.post(f"{site}/g/{token}/seat/act", data={
                "action": action, "version": str(shown["version"])},
                headers={"X-CSRF-Token": csrf[user.id]})
            if made.status != 200:  # refused: counted, not timed
                refused.append(made.status)
                continue
            await until(lambda t=thread, b=before: len(fake.channel_messages(t)) > b,
                        30, what="the move's post")
            post = fake.channel_messages(thread)[before]
            times.append((post.t_made - started) * 1000)
    finally:
        for http in sessions.values():
            await http.close()


async def main(games: int, moves: int) -> None:
    fake = FakeDiscord()
    await fake.start()
    point_discord_at(fake)
    port = _free_port()
    times: list[float] = []
    loads: list[dict[str, float]] = []
    refused: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        harness = BotHarness(fake, Path(tmp) / "bench.db")
        bot = await harness.start(seed=7, web_port=port, public_url=PUBLIC,
                                  web_secret=SECRET, game_threads=True,
                                  outbox_wait_seconds=2.5,
                                  web_proxy_header="X-Forwarded-For")
        try:
            for n in range(games):
                await _game(fake, bot, f"http://127.0.0.1:{port}", n, moves, times, loads,
                            refused)
        finally:
            await harness.stop()
            await fake.close()
    times.sort()
    print(f"{len(times)} decisions made on the seat page -> their post in the thread "
          f"(real bot, fake Discord, {games} games): p50 {statistics.median(times):.0f} ms, "
          f"p95 {times[min(len(times) - 1, int(len(times) * 0.95))]:.0f} ms, "
          f"max {times[-1]:.0f} ms; {len(refused)} refused {sorted(set(refused))}")
    for key in ("html", "assets", "board", "total"):
        ms = sorted(d[f"{key}_ms"] for d in loads if f"{key}_ms" in d)
        size = [d[f"{key}_bytes"] for d in loads if f"{key}_bytes" in d]
        weight = f", {statistics.median(size) / 1024:.1f} KiB" if size else ""
        print(f"seat page first load, {key}: p50 {statistics.median(ms):.0f} ms, "
              f"max {ms[-1]:.0f} ms{weight} ({len(ms)} loads)")
    total = [d["html_bytes"] + d["assets_bytes"] + d.get("board_bytes", 0) for d in loads]
    print(f"seat page first load, everything: {statistics.median(total) / 1024:.1f} KiB "
          "(HTML + style + scripts + board picture)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=40, help="page moves per game at most")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.moves))
