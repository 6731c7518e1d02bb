"""Issue 36, "limits at every door" (the web's): the token buckets on a clock of their own
(no test sleeps), then through the real application: pictures per client and per game link,
file checks per client, event streams per client and in all, each refusal a page in the
reader's language with ``Retry-After`` (429: this client's; 503: everyone's); a trusted
proxy's header names the client only when the options say so; a client that sends its
headers or its body too slowly is cut off."""

from __future__ import annotations

import asyncio
import random
import socket
from typing import Any

import pytest
from aiohttp import web

from bot.service import GameService
from bot.web import WebOptions
from bot.web.doors import Buckets, Refused, Streams
from bot.web.serve import serve
from tests.web.conftest import Clock, start_game, token_of
from tests.web.conftest import play_until as until


def test_a_bucket_grants_a_burst_then_one_per_period_and_says_how_long_to_wait() -> None:
    clock = Clock(100.0)
    bucket = Buckets(per_minute=6, burst=3, clock=clock)  # one every 10 s
    assert [bucket.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take("a") == pytest.approx(10.0)
    assert bucket.take("b") == 0.0  # another key: its own bucket
    clock.t += 5
    assert bucket.take("a") == pytest.approx(5.0)
    clock.t += 5
    assert bucket.take("a") == 0.0
    clock.t += 3600  # a long pause refills up to the burst, no more
    assert [bucket.take("a") for _ in range(4)][-1] > 0
    assert Buckets(per_minute=0, burst=1, clock=clock).take("a") == 0.0  # 0: no limit


def test_a_bucket_forgets_the_least_recent_keys_past_its_bound() -> None:
    bucket = Buckets(per_minute=60, burst=1, clock=Clock(), keys=3)
    for key in "abcd":
        bucket.take(key)
    assert bucket.take("a") == 0.0  # forgotten: a fresh bucket
    assert bucket.take("d") > 0  # remembered: still empty


def test_streams_are_capped_per_client_and_in_all() -> None:
    streams = Streams(per_client=2, total=3)
    streams.enter("a")
    streams.enter("a")
    with pytest.raises(Refused) as per_client:
        streams.enter("a")
    assert per_client.value.status == 429
    streams.enter("b")
    with pytest.raises(Refused) as everyone:
        streams.enter("c")
    assert everyone.value.status == 503 and everyone.value.retry_after >= 1
    streams.leave("a")
    streams.enter("c")
    assert streams.count == 3 and streams.open == {"a": 1, "b": 1, "c": 1}


async def _started(svc: GameService) -> str:
    u = await start_game(svc)
    await until(svc, u, random.Random(2), lambda u: u.view["round"] >= 1)
    return await token_of(svc)


async def test_pictures_over_a_clients_limit_are_refused_with_retry_after(
        svc: GameService, client_of: Any) -> None:
    token = await _started(svc)
    client = await client_of(svc, pictures_per_minute=4, link_pictures_per_minute=100)
    got = [await client.get(f"/g/{token}/board.png") for _ in range(3)]
    assert [g.status for g in got] == [200, 200, 429]
    refused = got[-1]
    assert int(refused.headers["Retry-After"]) >= 1
    body = await refused.text()
    assert refused.content_type == "text/html" and "Too many requests" in body
    german = await client.get(f"/g/{token}/replay/0.png", headers={"Accept-Language": "de"})
    assert german.status == 429 and '<html lang="de">' in await german.text()
    # another address's X-Forwarded-For does not help: no trusted proxy is configured
    spoofed = await client.get(f"/g/{token}/board.png",
                               headers={"X-Forwarded-For": "203.0.113.9"})
    assert spoofed.status == 429
    assert (await client.get(f"/g/{token}?lang=en")).status == 200  # the page itself


async def test_behind_a_trusted_proxy_each_client_and_each_link_has_its_limit(
        svc: GameService, client_of: Any) -> None:
    token = await _started(svc)
    client = await client_of(svc, client_header="X-Forwarded-For", pictures_per_minute=4,
                             link_pictures_per_minute=12)  # a link's burst: 6
    statuses = []
    for n in range(8):  # eight readers of one link, one picture each
        answer = await client.get(f"/g/{token}/board.png", headers={
            "X-Forwarded-For": f"198.51.100.7, 203.0.113.{n}"})
        statuses.append(answer.status)
    assert statuses == [200] * 6 + [429] * 2
    assert (await client.get(f"/g/{token}/board.png", headers={
        "X-Forwarded-For": "203.0.113.99"})).status == 429  # the link's limit


async def test_file_checks_over_a_clients_limit_are_refused(
        svc: GameService, client_of: Any) -> None:
    client = await client_of(svc, checks_per_minute=2)  # a burst of 1
    first = await client.post("/check?lang=en", data=b"{}")
    assert first.status == 200 and (await first.json())["ok"] is False
    second = await client.post("/check?lang=en", data=b"{}")
    assert second.status == 429 and int(second.headers["Retry-After"]) >= 1


async def test_event_streams_are_capped_per_client_and_in_all(
        svc: GameService, client_of: Any) -> None:
    token = await _started(svc)
    client = await client_of(svc, client_header="X-Client", streams_per_client=2, streams=3)

    def stream(who: str) -> Any:
        return client.get(f"/g/{token}/events?lang=en", headers={"X-Client": who})

    first, second = await stream("a"), await stream("a")
    assert (first.status, second.status) == (200, 200)
    third = await stream("a")
    assert third.status == 429 and "Retry-After" in third.headers
    other = await stream("b")
    assert other.status == 200
    full = await stream("c")
    assert full.status == 503 and "Busy just now" in await full.text()
    first.close()
    for _ in range(100):  # the server sees the reader leave
        again = await stream("c")
        if again.status == 200:
            break
        await asyncio.sleep(0.05)
    assert again.status == 200
    for s in (second, other, again):
        s.close()


async def _server(svc: GameService, **options: Any) -> tuple[web.AppRunner, int]:
    runner = await serve(svc, 0, options=WebOptions(poll=0.05, **options))
    return runner, runner.addresses[0][1]


async def _closed(sock: socket.socket, within: float) -> bytes:
    """What the server sent before it closed the connection (or a TimeoutError)."""
    loop = asyncio.get_running_loop()
    got = b""
    async with asyncio.timeout(within):
        while chunk := await loop.sock_recv(sock, 4096):
            got += chunk
    return got


async def test_a_client_sending_its_headers_too_slowly_is_cut_off(svc: GameService) -> None:
    runner, port = await _server(svc, header_seconds=0.5)
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, ("127.0.0.1", port))
        await loop.sock_sendall(sock, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and no more
        assert await _closed(sock, 10.0) == b""
    finally:
        sock.close()
        await runner.cleanup()


async def test_a_body_sent_too_slowly_is_answered_408(svc: GameService) -> None:
    runner, port = await _server(svc, body_seconds=0.3, header_seconds=30)
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, ("127.0.0.1", port))
        await loop.sock_sendall(sock, b"POST /check HTTP/1.1\r\nHost: x\r\n"
                                      b"Content-Length: 1000\r\n\r\n{\"seed\":")
        said = b""
        async with asyncio.timeout(10.0):  # the answer, without waiting for the rest
            while b"\r\n\r\n" not in said:
                said += await loop.sock_recv(sock, 4096)
        assert said.startswith(b"HTTP/1.1 408"), said[:200]
        assert b"Connection: close" in said
        assert b"Content-Security-Policy" in said
    finally:
        sock.close()
        await runner.cleanup()
