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
from tests.web.seatpage import (
    PHONE,
    choices,
    fits_a_phone,
    moved_on,
    on_my_decision,
    split_by_taps,
    take_back,
    tap_a_choice,
    tap_from_an_older_version,
    undo_offered,
)
from tests.web.test_browser import _shots, browser  # noqa: F401  (the fixture)

pytest.importorskip("playwright.async_api")
SECRET = "b" * 64
EN = i18n.translations("en")
WORDS = text.seat_words(EN, 1)  # the page of game 1


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[GameService, str]]:
    service = await make_service(str(tmp_path / "g.db"))
    runner = web.AppRunner(make_app(service, WebOptions(poll=0.05, secret=SECRET)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield service, f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()
    await service.close()


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
            if me not in snap.view["waiting_for"]:  # the tab says it is not the seat's turn
                await page.wait_for_function(f"document.title === {WORDS.title!r}")
            pid = rng.choice(others)
            await svc.act(CHANNEL, pid, rng.choice(await svc.legal_actions(CHANNEL, pid)))
            continue
        await on_my_decision(page, snap.version)
        await page.wait_for_function(  # said aloud: the decision is the seat's
            f"document.getElementById('yours').textContent === {WORDS.yours!r}")
        assert await page.title() == WORDS.mine_title  # and a background tab says so
        mine += 1
        if snap.view["phase"] == "split":
            drawn = list((snap.private or {}).get("drawn") or [])
            offers = await split_by_taps(page, len(drawn))
            limit = text.limit_points([c for i, c in enumerate(drawn) if i % offers == 0])
            assert (await page.text_content('.offer[data-offer="0"] .sum') or "").endswith(
                f" {limit}")
            if not shot:  # mid-split: the screenshots, and what the others received
                await fits_a_phone(page)
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
            if not stale and len(await choices(page)) > 1:  # from an older version
                await fits_a_phone(page)
                await page.screenshot(path=str(shots / "seat-390-choose.png"), full_page=True)
                await tap_from_an_older_version(page)
                await page.wait_for_function(
                    "document.getElementById('said').textContent === "
                    f"{text.refusal(EN, 'state.stale')!r}")
                assert (await svc.page_seat(token, me)).version == snap.version
                await page.wait_for_selector(
                    f'#decision-body[data-version="{snap.version}"]', timeout=10_000)
                stale += 1
            await tap_a_choice(page, rng)
        await moved_on(svc, token, me, snap.version)
        if not undone and snap.view["phase"] != "split" and await undo_offered(page):
            await take_back(page, svc, token, me)
            again = await svc.page_seat(token, me)
            assert again.is_awaited and set(again.legal) == set(snap.legal)
            undone += 1
    assert (await svc.page_game(token)).status == "finished"
    assert splits >= 1 and stale == 1 and undone == 1 and mine > 10


async def _body(response: Any, into: list[str]) -> None:
    try:
        into.append(await response.text())
    except Exception:  # a picture, or a page left meanwhile
        into.append("")
