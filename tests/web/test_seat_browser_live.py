"""A seat's page in Debian's headless Chromium at a phone's size, honest when things fail:
two tabs of the same seat show the same state (a move made in one shows in the other, with
whether its post reached the channel: saved, waiting for Discord, posted — the deliverer's
calls played by hand, the service's clock moved on); the page's server goes away and
comes back: the page says the connection is lost in its live region, and on return catches
up to the moves made meanwhile without a reload (and a move tapped while it is away is
said not to have gone, and can be made once it is back). Screenshots go to $SANMARCO_SCREENSHOTS
(else the test's folder)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot import i18n, text
from bot.links import hand_query
from bot.service import GameService
from bot.web import WebOptions, make_app
from tests.web.conftest import CHANNEL, Clock, make_service, start_game, token_of
from tests.web.test_browser import _shots, browser  # noqa: F401  (the fixture)

pytest.importorskip("playwright.async_api")
SECRET = "b" * 64
EN = i18n.translations("en")
PHONE = {"width": 390, "height": 844}
LOST = EN.gettext("Connection lost; trying again…")  # the page's live line (bot.text.page)
LIVE = EN.gettext("Live: this page follows the game as it is played.")


class Site:
    """The pages of one service on a fixed port, stopped and started again at will (the
    server going away, as a restart or a lost network does to a reader)."""

    def __init__(self, service: GameService, port: int) -> None:
        self.service = service
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.runner: web.AppRunner | None = None

    async def start(self) -> None:
        self.runner = web.AppRunner(make_app(self.service, WebOptions(poll=0.05,
                                                                      secret=SECRET)))
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port, reuse_address=True).start()

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    service = await make_service(str(tmp_path / "g.db"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    served = Site(service, port)
    await served.start()
    yield served
    await served.stop()
    await service.close()


async def _text_is(page: Any, selector: str, words: str) -> None:
    await page.wait_for_function(
        "([s, w]) => (document.querySelector(s) || {}).textContent === w",
        arg=[selector, words], timeout=15_000)


async def _version_is(page: Any, version: int) -> None:
    await page.wait_for_selector(f'#decision-body[data-version="{version}"]', timeout=15_000)


async def _all_sent(svc: GameService) -> None:
    """The deliverer's part: Discord took every waiting post."""
    await svc.posts_sent([p.id for p in await svc.pending_posts(CHANNEL)])


async def test_two_tabs_agree_and_a_lost_connection_says_so_and_catches_up(
        browser: Any, site: Site, tmp_path: Path) -> None:  # noqa: F811
    svc = site.service
    clock = svc.clock
    assert isinstance(clock, Clock)
    u = await start_game(svc, 3)
    await _all_sent(svc)
    token = await token_of(svc)
    me = u.view["waiting_for"][0]  # the set-up's first bridge
    phone = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                      bypass_csp=True, locale="en-US")
    first = await phone.new_page()
    await first.goto(f"{site.url}/g/{token}/hand?"
                     f"{hand_query(SECRET, token, me, svc.clock())}&lang=en")
    second = await phone.new_page()  # a second tab: the same session
    await second.goto(f"{site.url}/g/{token}/seat?lang=en")
    for tab in (first, second):
        await _version_is(tab, u.version)
        await tab.evaluate("window.notReloaded = true")

    # a move in the first tab: both tabs show the next version and that it is saved
    await first.locator("#decision-body button.act").first.tap()
    moved = await svc.page_seat(token, me)
    for _ in range(200):
        if moved.version != u.version:
            break
        await asyncio.sleep(0.025)
        moved = await svc.page_seat(token, me)
    assert moved.version != u.version
    for tab in (first, second):
        await _version_is(tab, moved.version)
        await _text_is(tab, "#posted", text.post_state(EN, "saved"))
    # Discord does not take it for a while: both say it waits, in a button's words
    clock.t += 10
    for tab in (first, second):
        await _text_is(tab, "#posted", text.post_pending(EN))
    shots = _shots(tmp_path)
    await first.screenshot(path=str(shots / "seat-390-post-waiting.png"), full_page=True)
    desk = await (await browser.new_context(viewport={"width": 1280, "height": 900},
                                            bypass_csp=True, locale="en-US")).new_page()
    await desk.goto(f"{site.url}/g/{token}/hand?"
                    f"{hand_query(SECRET, token, me, svc.clock())}&lang=en")
    await _text_is(desk, "#posted", text.post_pending(EN))  # a second device, from its load
    await desk.screenshot(path=str(shots / "seat-1280-post-waiting.png"))
    await _all_sent(svc)  # Discord took it: both say posted, without a reload
    for tab in (first, second, desk):
        await _text_is(tab, "#posted", text.posted(EN))

    # the server goes away: the live line says so
    await site.stop()
    for tab in (first, second):
        await _text_is(tab, "#live", LOST)
    # said where the reader is, scrolled down to the log too
    await first.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    top = await first.evaluate("document.getElementById('live').getBoundingClientRect().top")
    assert 0 <= top < 10
    await first.screenshot(path=str(shots / "seat-390-connection-lost.png"))
    # meanwhile the game moves on (the other seats, through the service) to this seat
    later = await svc.page_seat(token, me)
    while not later.is_awaited:
        assert later.view is not None
        other = later.view["waiting_for"][0]
        await svc.act(CHANNEL, other, (await svc.legal_actions(CHANNEL, other))[0],
                      expected_version=later.version)
        later = await svc.page_seat(token, me)
    await site.start()  # back: both tabs catch up (Last-Event-ID) and say they are live
    for tab in (first, second):
        await _version_is(tab, later.version)
        await _text_is(tab, "#live", LIVE)
        await _text_is(tab, "#yours", text.seat_words(EN, 1).yours)  # said aloud
        assert await tab.evaluate("window.notReloaded === true")
    await first.screenshot(path=str(shots / "seat-390-caught-up.png"), full_page=True)

    # a move tapped while the server is away: the page says the connection is lost,
    # nothing is made; back, the page is as it was and the move can be made
    await site.stop()
    await _text_is(first, "#live", LOST)
    await first.locator("#decision-body button.act").first.tap()
    await _text_is(first, "#said", LOST)
    assert (await svc.page_seat(token, me)).version == later.version
    await site.start()
    await _text_is(first, "#live", LIVE)
    await _text_is(first, "#said", "")
    await first.locator("#decision-body button.act").first.tap()
    for tab in (first, second):
        await _text_is(tab, "#posted", text.post_state(EN, "saved"))
    assert (await svc.page_seat(token, me)).version != later.version
