"""A page's live stream, on SQLite and PostgreSQL: every committed version reaches it in
order and none twice, also when another process (here: another service on its own
connections to the same database) makes the moves; a watcher that drops and comes back with
Last-Event-ID misses nothing; many watchers of one game share one poller."""

from __future__ import annotations

import asyncio
import random
import re
import socket
from typing import Any

import aiohttp
from aiohttp import web

from bot import i18n
from bot.service import GameService
from bot.web import WebOptions, html, make_app
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
    # 200 browsers behind a trusted proxy that names each (a client holds 8 streams at most)
    client = await client_of(svc, client_header="X-Forwarded-For")
    token = await token_of(svc)
    url = client.make_url(f"/g/{token}/events")
    # one connection each, as 200 browsers (a session holds 100 connections by default)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        streams = await asyncio.gather(*(session.get(url, headers={
            "X-Forwarded-For": f"198.51.100.{n}"}) for n in range(200)))
        hub = client.server.app[HUB]
        assert len(hub.feeds) == 1 and next(iter(hub.feeds.values())).watchers == 200
        u = await move(svc, u, random.Random(2))
        end = await _version(svc)
        got = await asyncio.gather(*(next_event(s) for s in streams))
        assert {e.id for e in got} == {end}
        for s in streams:
            s.close()


async def test_a_reader_that_does_not_read_is_let_go(svc: GameService) -> None:
    """A stream whose reader stops reading (the sockets' buffers full) is ended after the
    write timeout: it holds neither the game's feed nor the server. (Small buffers, so that
    a few of a game's events fill them.)"""
    u = await start_game(svc)
    token = await token_of(svc)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    app = make_app(svc, WebOptions(poll=0.05, write_seconds=0.3))

    @web.middleware
    async def small_buffers(request: web.Request, handler: Any) -> web.StreamResponse:
        assert request.transport is not None
        conn = request.transport.get_extra_info("socket")
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        request.transport.set_write_buffer_limits(high=4096)
        return await handler(request)  # type: ignore[no-any-return]

    app.middlewares.append(small_buffers)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.SockSite(runner, listener).start()
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # before the window opens
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, listener.getsockname())
        _, writer = await asyncio.open_connection(sock=sock)
        writer.write(f"GET /g/{token}/events?after=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        hub = runner.app[HUB]
        for _ in range(200):  # the stream follows the game
            if hub.feeds:
                break
            await asyncio.sleep(0.01)
        assert hub.feeds
        rng = random.Random(9)
        while hub.feeds and not u.finished:  # events it never reads
            u = await move(svc, u, rng)
            await asyncio.sleep(0.01)
        for _ in range(100):
            if not hub.feeds:
                break
            await asyncio.sleep(0.05)
        assert not hub.feeds and not u.finished  # let go, long before the game ended
        writer.close()
    finally:
        await runner.cleanup()
