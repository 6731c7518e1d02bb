"""A page's live stream, on SQLite and PostgreSQL: every committed version reaches it in
order and none twice, also when another process (here: another service on its own
connections to the same database) makes the moves; a watcher that drops and comes back with
Last-Event-ID misses nothing; many watchers of one game share one poller."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import aiohttp

from bot import i18n
from bot.service import GameService
from bot.web import html
from bot.web.app import HUB
from tests.web.conftest import CHANNEL, make_service, move, start_game, token_of
from tests.web.sse import events_until, next_event


async def _version(svc: GameService) -> int:
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None
    return row.version


async def test_every_committed_version_reaches_the_stream_in_order_none_twice(
        db: str, svc: GameService, client_of: Any) -> None:
    u = await start_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)
    start = await _version(svc)
    stream = await client.get(f"/g/{token}/events")  # from now on
    other = await make_service(db)  # another process's moves, on its own connections
    try:
        rng = random.Random(4)
        for _ in range(12):
            u = await move(other, u, rng)
        end = await _version(other)
        sent = await events_until(stream, end)
    finally:
        await other.close()
    assert [e.id for e in sent] == list(range(start + 1, end + 1))
    log = (await svc.log(CHANNEL)).entries
    # each event carries the board of its version and the log's lines since the one before
    assert sent[-1].data["seq"] == log[-1].seq
    assert sent[-1].data["board"].endswith(f"/replay/{log[-1].seq}.png")
    assert all("Ann" in e.data["facts"] for e in sent)


async def test_a_watcher_that_drops_and_resumes_with_last_event_id_misses_nothing(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)
    first = await _version(svc)
    at_first = (await svc.log(CHANNEL)).entries[-1].seq
    rng = random.Random(6)
    stream = await client.get(f"/g/{token}/events", headers={"Last-Event-ID": str(first)})
    u = await move(svc, u, rng)
    seen = [await next_event(stream)]
    stream.close()  # the reader's connection drops; the game goes on
    for _ in range(5):
        u = await move(svc, u, rng)
    end = await _version(svc)
    back = await client.get(f"/g/{token}/events",
                            headers={"Last-Event-ID": str(seen[-1].id)})
    seen += await events_until(back, end)
    assert [e.id for e in seen] == list(range(first + 1, end + 1))
    # the log's lines arrive once each, in order: every move since the first version
    lines = "".join(line for e in seen for line in e.data.get("lines", []))
    tr = i18n.translations("en")
    replay = await svc.page_replay(token)
    expected = [s.seq for s in replay.steps if s.seq > at_first and html.log_entry(tr, s)]
    assert [int(n) for n in re.findall(r'data-seq="(\d+)"', lines)] == expected


async def test_many_watchers_of_one_game_share_one_poller_and_all_get_each_version(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)
    url = client.make_url(f"/g/{token}/events")
    # one connection each, as 200 browsers (a session holds 100 connections by default)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        streams = await asyncio.gather(*(session.get(url) for _ in range(200)))
        hub = client.server.app[HUB]
        assert len(hub.feeds) == 1 and next(iter(hub.feeds.values())).watchers == 200
        u = await move(svc, u, random.Random(2))
        end = await _version(svc)
        got = await asyncio.gather(*(next_event(s) for s in streams))
        assert {e.id for e in got} == {end}
        for s in streams:
            s.close()
