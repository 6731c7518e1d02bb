"""The storm of ``load_bench.py``: one client process of pages' readers, run by it as

    python benchmarks/load_storm.py pictures|streams|check WEB_PORT DB SECONDS STREAMS GAME_FILE

``pictures``: 6 fetchers request every replay picture of the running games in three
languages, over and over (too many for the pages' cache; one refused 503 waits its
Retry-After, as a browser's reload would); ``streams``: ``STREAMS`` event streams held
open across the games; ``check``: 2 posters of ``GAME_FILE`` to ``/check`` every half
second. Prints its counts (``picture 200``, ``check 503``...) as JSON at the end.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import time
from pathlib import Path

LANGS = ("en", "de", "fr")


def _tokens(db: str) -> list[str]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        return [r[0] for r in conn.execute(
            "SELECT page_token FROM games WHERE status = 'running' AND page_token IS NOT NULL")]


def _storm_child(kind: str, web_port: int, db: str, seconds: float, streams: int,
                 game_file: str) -> None:
    """One process of the storm: ``pictures``, ``streams`` or ``check``; prints its counts
    as JSON at the end."""
    import aiohttp

    base = f"http://127.0.0.1:{web_port}"
    counts: dict[str, int] = {}

    def count(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    async def pictures(session: aiohttp.ClientSession, end: float, me: int) -> None:
        """Fetcher ``me`` of 6: steps ``me``, ``me + 6``... of every running game, in
        each language, over and over (each pass finds them drawn again: too many for the
        pages' cache)."""
        while time.perf_counter() < end:
            for token in _tokens(db):
                for n in range(me, 1000, 6):
                    status = 0
                    for lang in LANGS:
                        if time.perf_counter() >= end:
                            return
                        url = f"{base}/g/{token}/replay/{n}.png?lang={lang}"
                        async with session.get(url) as r:
                            await r.read()
                            status = r.status
                            count(f"picture {status}")
                            if status == 503:
                                await asyncio.sleep(float(r.headers.get("Retry-After", 1)))
                    if status == 404:
                        break

    async def stream(session: aiohttp.ClientSession, end: float, token: str) -> None:
        while time.perf_counter() < end:
            try:
                async with session.get(f"{base}/g/{token}/events") as r:
                    count(f"stream {r.status}")
                    async for _ in r.content:
                        if time.perf_counter() >= end:
                            return
            except (TimeoutError, aiohttp.ClientError):
                count("stream error")
                await asyncio.sleep(0.5)

    async def check(session: aiohttp.ClientSession, end: float) -> None:
        body = Path(game_file).read_bytes()
        while time.perf_counter() < end:
            began = time.perf_counter()
            async with session.post(f"{base}/check", data=body) as r:
                await r.read()
                count(f"check {r.status}")
            await asyncio.sleep(max(0.0, 0.5 - (time.perf_counter() - began)))

    async def main() -> None:
        end = time.perf_counter() + seconds
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
            if kind == "pictures":
                jobs = [pictures(session, end, i) for i in range(6)]
            elif kind == "streams":
                tokens = _tokens(db)
                jobs = [stream(session, end, tokens[i % len(tokens)]) for i in range(streams)]
            else:
                jobs = [check(session, end) for _ in range(2)]
            await asyncio.gather(*jobs, return_exceptions=True)
        print(json.dumps(counts), flush=True)

    asyncio.run(main())


if __name__ == "__main__":
    _storm_child(sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]),
                 int(sys.argv[5]), sys.argv[6])
