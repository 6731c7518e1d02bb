"""A seat played from its page in Debian's headless Chromium at a phone's size with touch
events: one player makes every decision of a whole 3-player game only by tapping on the
page (the split built card by card into offers, a stale move refused in words), while the
other two seats are played through the service; the page follows them live; one move is
taken back by the page's Undo. Mid-split,
nothing the other seat's page or the public page receives holds the distributor's cards.
Screenshots at 390 and 1280 px go to $SANMARCO_SCREENSHOTS (else the test's folder).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot import i18n, text
from bot.links import hand_query
from bot.service import GameService
from bot.web import WebOptions, make_app
from tests.web.conftest import CHANNEL, PIDS, make_service, start_game, token_of
from tests.web.test_browser import _shots, browser  # noqa: F401  (the fixture)

PlaywrightTimeout = pytest.importorskip("playwright.async_api").TimeoutError
SECRET = "b" * 64
EN = i18n.translations("en")
PHONE = {"width": 390, "height": 844}


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[GameService, str]]:
    service = await make_service(str(tmp_path / "g.db"))
    runner = web.AppRunner(make_app(service, WebOptions(poll=0.05, secret=SECRET)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield service, f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()
    await service.close()


async def _changed(svc: GameService, token: str, me: str, version: int) -> None:
    """Wait until the game has moved on from ``version`` (the page's move was made)."""
    for _ in range(400):
        if (await svc.page_seat(token, me)).version != version:
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"the page's move at version {version} was not made")


async def _fits_a_phone(page: Any) -> None:
    """No horizontal scrolling; every visible button at least 44 px each way."""
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = await page.evaluate("""Array.from(document.querySelectorAll('button'))
        .map(b => b.getBoundingClientRect()).filter(r => r.width > 0)
        .filter(r => r.width < 44 || r.height < 44).length""")
    assert small == 0


async def test_one_seat_plays_a_whole_game_from_its_page_by_taps(
        browser: Any, site: tuple[GameService, str], tmp_path: Path) -> None:  # noqa: F811
    svc, url = site
    await start_game(svc, 3)
    token = await token_of(svc)
    me, other = PIDS[0], PIDS[1]
    phone = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                      bypass_csp=True, locale="en-US")
    page = await phone.new_page()
    await page.goto(f"{url}/g/{token}/hand?{hand_query(SECRET, token, me, svc.clock())}"
                    "&lang=en")
    assert page.url.endswith(f"/g/{token}/seat?lang=en")  # the signature left the address

    # the other seat's page and the public page, recording every answer they receive
    seen: list[str] = []
    watchers = []
    for address in (f"/g/{token}/hand?{hand_query(SECRET, token, other, svc.clock())}"
                    "&lang=en", f"/g/{token}?lang=en"):
        watcher = await (await browser.new_context(viewport=PHONE,
                                                   bypass_csp=True)).new_page()
        watcher.on("response", lambda r: None if "/events" in r.url or "/static/" in r.url
                   else asyncio.ensure_future(_body(r, seen)))
        await watcher.goto(url + address)
        watchers.append(watcher)

    rng = random.Random(12)
    splits = stale = mine = undone = 0
    shot = False
    shots = _shots(tmp_path)
    while (await svc.page_game(token)).status == "running":
        snap = await svc.page_seat(token, me)
        assert snap.view is not None
        others = [p for p in snap.view["waiting_for"] if p != me]
        if others:  # the other seats, through the service
            pid = rng.choice(others)
            await svc.act(CHANNEL, pid, rng.choice(await svc.legal_actions(CHANNEL, pid)))
            continue
        await page.wait_for_selector(
            f'#decision-body[data-version="{snap.version}"][data-mine="yes"]', timeout=15_000)
        await page.wait_for_function(  # said aloud: the decision is the seat's
            f"document.getElementById('yours').textContent === {text.seat_words(EN, 1).yours!r}")
        mine += 1
        if snap.view["phase"] == "split":
            drawn = list((snap.private or {}).get("drawn") or [])
            offers = int(await page.get_attribute(".builder", "data-offers") or 0)
            for i in range(len(drawn)):  # a card, then the offer it goes into
                await page.locator(f'.card[data-card="{i}"]').tap()
                await page.locator(f'.offer[data-offer="{i % offers}"] .target').tap()
            limit = text.limit_points([c for i, c in enumerate(drawn) if i % offers == 0])
            assert (await page.text_content('.offer[data-offer="0"] .sum') or "").endswith(
                f" {limit}")
            if not shot:  # mid-split: the screenshots, and what the others received
                await _fits_a_phone(page)
                await page.screenshot(path=str(shots / "seat-390.png"), full_page=True)
                desk = await (await browser.new_context(
                    viewport={"width": 1280, "height": 900}, bypass_csp=True)).new_page()
                await desk.goto(f"{url}/g/{token}/hand?"
                                f"{hand_query(SECRET, token, me, svc.clock())}&lang=en")
                await desk.screenshot(path=str(shots / "seat-1280.png"), full_page=True)
                await asyncio.sleep(0.3)
                seen.clear()  # (the other seat's own split of an earlier round is its own)
                for watcher in watchers:
                    await watcher.reload()
                await asyncio.sleep(0.5)
                labels = [f">{i + 1}. {text.card_label(EN, c)}</button>"
                          for i, c in enumerate(drawn)]
                assert len(seen) >= 2  # both pages (and the other seat's decision)
                assert not any(all(label in body for label in labels) or "data-card=" in body
                               for body in seen)
                shot = True
            await page.locator("#commit").tap()
            splits += 1
        else:
            choices = page.locator("#decision-body button.act:visible")
            if await choices.count() == 0:  # a long list: its groups are folded
                await page.locator("#decision-body summary").first.tap()
            count = await choices.count()
            if not stale and count > 1:  # a move from an older version of the page
                await _fits_a_phone(page)
                await page.screenshot(path=str(shots / "seat-390-choose.png"), full_page=True)
                await page.evaluate("""(() => { const d = document.getElementById(
                    'decision-body'); d.dataset.version = String(d.dataset.version - 1); })()""")
                await choices.first.tap()
                await page.wait_for_function(
                    "document.getElementById('said').textContent === "
                    f"{text.refusal(EN, 'state.stale')!r}")
                assert (await svc.page_seat(token, me)).version == snap.version
                await page.wait_for_selector(
                    f'#decision-body[data-version="{snap.version}"]', timeout=10_000)
                stale += 1
                choices = page.locator("#decision-body button.act:visible")
                count = await choices.count()
            await choices.nth(rng.randrange(count)).tap()
        await _changed(svc, token, me, snap.version)
        if not undone and snap.view["phase"] != "split":
            try:  # the move may be taken back (it drew and revealed nothing: R5)
                await page.wait_for_selector("#undo:visible", timeout=3_000)
            except PlaywrightTimeout:
                continue
            made = (await svc.page_seat(token, me)).version
            await page.locator("#undo").tap()
            await _changed(svc, token, me, made)
            again = await svc.page_seat(token, me)
            assert again.is_awaited and set(again.legal) == set(snap.legal)
            await page.wait_for_selector("#undo", state="hidden")
            undone += 1
    assert (await svc.page_game(token)).status == "finished"
    assert splits >= 1 and stale == 1 and undone == 1 and mine > 10


async def _body(response: Any, into: list[str]) -> None:
    try:
        into.append(await response.text())
    except Exception:  # a picture, or a page left meanwhile
        into.append("")
