"""Issue 36, "hostile input gets text, never markup or a 500", through the real application:
display names that look like Discord markup or HTML show exactly as typed on the page and in
its stream; a number in an address that is not ASCII digits is a 400 page; every answer,
aiohttp's own errors and a fault of ours included, is a page in the reader's language with
the security headers, and a fault is logged once with its traceback."""

from __future__ import annotations

import json
import logging
import random
from html.parser import HTMLParser
from typing import Any

import pytest

from bot.service import GameService, ServiceError
from bot.web.games import Games
from bot.web.guard import SECURITY
from tests.web.conftest import CHANNEL, GUILD, PIDS, token_of
from tests.web.conftest import play_until as until
from tests.web.sse import events_until

HOSTILE = ("<t:99999999999999999>", "**x**", "</script><script>x()</script>",
           "<b>&amp;</b> <@1>")


class _Text(HTMLParser):
    """A page's elements and its text inside ``#log`` (as a browser shows it)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.log: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag in ("br", "img", "input", "meta", "link"):
            return  # no end tag
        if self._depth or ("id", "log") in attrs:
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.log.append(data)


def _parsed(body: str) -> _Text:
    parser = _Text()
    parser.feed(body)
    return parser


async def _hostile_game(svc: GameService) -> Any:
    await svc.create_lobby(GUILD, CHANNEL, PIDS[0], seats=4, name=HOSTILE[0])
    for pid, name in zip(PIDS[1:], HOSTILE[1:], strict=True):
        await svc.join(CHANNEL, pid, name=name)
    u = await svc.start(CHANNEL, PIDS[0])
    return await until(svc, u, random.Random(4), lambda u: u.view["round"] >= 1)


def _secure(answer: Any) -> None:
    for key, value in SECURITY.items():
        assert answer.headers.get(key) == value, (answer.status, key)


async def test_hostile_names_show_as_typed_on_the_page_and_in_its_stream(
        svc: GameService, client_of: Any) -> None:
    u = await _hostile_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)
    page = await client.get(f"/g/{token}?lang=en")
    body = await page.text()
    assert page.status == 200, body[:500]
    parsed = _parsed(body)
    said = "".join(parsed.log)
    for name in HOSTILE:
        assert name in said  # as typed, as text
    # no element a name could have made: one script (ours), no bold Discord markup
    assert parsed.tags.count("script") == 1 and "strong" not in parsed.tags
    the_log = body[body.index('<ul id="log">'):]
    the_log = the_log[:the_log.index("</ul>")]
    assert the_log.count("<time ") == the_log.count("<li data-seq=")  # one per log entry

    stream = await client.get(f"/g/{token}/events?lang=en&after={u.version - 2}")
    assert stream.status == 200
    sent = await events_until(stream, u.version)
    stream.close()
    for event in sent:
        pieces = event.data.get("lines") or [event.data.get("log", "")]
        html = "".join(p for p in pieces if p) + event.data.get("facts", "")
        shown = _parsed(f'<ul id="log">{html}</ul>')
        assert "script" not in shown.tags and "strong" not in shown.tags
    facts = "".join(_parsed(f'<ul id="log">{sent[-1].data["facts"]}</ul>').log)
    assert all(name in facts for name in HOSTILE)


@pytest.mark.parametrize("path", [
    "/g/{t}/events?after=²", "/g/{t}/events?after=-1", "/g/{t}/v/²/replay/0.png",
    "/g/{t}/v/1/replay/².png", "/g/{t}/replay/².png", "/g/{t}/replay/1234567.png",
    "/g/{t}/v/1e3/replay/0.png", "/g/{t}/hand?u=1&e=²&s=0", "/g/{t}/hand?u=١&e=1&s=0",
    "/g/{t}/v/9999999999/replay/0.png"])
async def test_a_number_in_an_address_that_is_not_ascii_digits_is_a_400_page(
        svc: GameService, client_of: Any, path: str) -> None:
    await _hostile_game(svc)
    client = await client_of(svc, secret="k" * 32)
    answer = await client.get(path.format(t=await token_of(svc)),
                              headers={"Accept-Language": "de"})
    body = await answer.text()
    assert answer.status == 400 and answer.content_type == "text/html", body[:300]
    assert '<html lang="de">' in body and "Traceback" not in body
    _secure(answer)


async def test_a_last_event_id_that_is_not_digits_is_a_400(
        svc: GameService, client_of: Any) -> None:
    await _hostile_game(svc)
    client = await client_of(svc)
    answer = await client.get(f"/g/{await token_of(svc)}/events",
                              headers={"Last-Event-ID": "٣"})
    assert answer.status == 400
    _secure(answer)


async def test_aiohttps_own_errors_are_pages_with_the_security_headers(
        svc: GameService, client_of: Any) -> None:
    await _hostile_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)
    for method, path, kwargs, status in [
            ("GET", "/nowhere", {}, 404),
            ("POST", f"/g/{token}", {}, 405),
            ("POST", "/check", {"data": b"x" * (2 * 1024 * 1024)}, 413)]:
        answer = await client.request(method, path, **kwargs)
        body = await answer.text()
        assert answer.status == status and answer.content_type == "text/html", (path, body)
        assert "<!doctype html>" in body and "<h1>" in body
        _secure(answer)
    assert (await client.post(f"/g/{token}")).headers.get("Allow") == "GET,HEAD"
    for ok in ("/healthz", f"/g/{token}/board.png", "/favicon.ico"):
        _secure(await client.get(ok))


async def test_a_fault_of_ours_is_a_500_page_logged_once_with_its_traceback(
        svc: GameService, client_of: Any, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    await _hostile_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)

    async def broken(self: Games, token: str, at_least: int | None = None) -> Any:
        raise OverflowError("year 3170843 is out of range")

    monkeypatch.setattr(Games, "seen", broken)
    with caplog.at_level(logging.ERROR):
        answer = await client.get(f"/g/{token}?lang=fr")
    body = await answer.text()
    assert answer.status == 500 and '<html lang="fr">' in body
    assert "out of range" not in body and "Traceback" not in body
    _secure(answer)
    faults = [r for r in caplog.records if r.exc_info]
    assert len(faults) == 1 and "out of range" in caplog.text


async def test_a_fault_inside_a_started_stream_ends_it_logged_once(
        svc: GameService, client_of: Any, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    u = await _hostile_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)

    def broken(self: Games, *args: Any) -> bytes:
        raise OverflowError("year 3170843 is out of range")

    monkeypatch.setattr(Games, "event", broken)
    with caplog.at_level(logging.ERROR):
        stream = await client.get(f"/g/{token}/events?after={u.version - 2}")
        said = await stream.read()  # the stream ends
    assert stream.status == 200 and said == b"retry: 2000\n\n"
    assert len([r for r in caplog.records if r.exc_info]) == 1


async def test_a_busy_answer_from_the_workers_is_a_503_with_retry_after(
        svc: GameService, client_of: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the pictures' workers raise with a ``retry_after`` (they are busy) is a 503
    page saying when to come back."""
    await _hostile_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)

    class Busy(Exception):
        retry_after = 3.2

    async def busy(self: Games, *args: Any) -> bytes:
        raise Busy()

    monkeypatch.setattr(Games, "picture", busy)
    answer = await client.get(f"/g/{token}/board.png?lang=en")
    assert answer.status == 503 and answer.headers["Retry-After"] == "3"
    assert "Busy just now" in await answer.text()
    _secure(answer)


async def test_a_busy_service_error_is_a_503_with_its_retry_after(
        svc: GameService, client_of: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The service's "busy" refusal (a ServiceError with ``retry_after``: the worker lanes
    could not start the job) is a 503 page saying when to come back, not the store's."""
    await _hostile_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)

    async def busy(self: Games, *args: Any) -> bytes:
        raise ServiceError("busy", retry_after=7)

    monkeypatch.setattr(Games, "picture", busy)
    answer = await client.get(f"/g/{token}/board.png?lang=de")
    assert answer.status == 503 and answer.headers["Retry-After"] == "7"
    assert "Gerade ausgelastet" in await answer.text()
    _secure(answer)


async def test_the_check_answers_hostile_files_with_a_verdict(
        svc: GameService, client_of: Any) -> None:
    client = await client_of(svc, checks_per_minute=0)  # no limit here
    for body in (b"\xff\xfe", b"[]", json.dumps({"seed": "²"}).encode(), b"{" * 5000):
        answer = await client.post("/check?lang=en", data=body)
        assert answer.status == 200
        assert (await answer.json())["ok"] is False
