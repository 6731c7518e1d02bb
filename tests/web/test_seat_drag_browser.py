"""The split on a desktop in headless Chromium (1280 px, a mouse): cards dragged into offers
and back to the drawn cards (HTML5 drag and drop), the offers' limits following; the
half-made split is kept by the server, so a second tab shows it at once, and a change made
elsewhere (Discord's builder, through the same service call) reaches the open page without a
reload; the split is then committed from the page. A screenshot of the built split at
1280 px goes to $SANMARCO_SCREENSHOTS (else the test's folder).
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
from engine import Split
from tests.web.conftest import CHANNEL, make_service, start_game, token_of
from tests.web.conftest import play_until as until
from tests.web.test_browser import _shots, browser  # noqa: F401  (the fixture)

pytest.importorskip("playwright.async_api")
SECRET = "d" * 64
EN = i18n.translations("en")
DESK = {"width": 1280, "height": 1600}  # (tall: a drag needs no scrolling)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[GameService, str]]:
    service = await make_service(str(tmp_path / "g.db"))
    runner = web.AppRunner(make_app(service, WebOptions(poll=0.05, secret=SECRET)))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield service, f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()
    await service.close()


async def _draft(svc: GameService, token: str, me: str) -> str:
    kept = await svc.split_draft(await svc.page_seat(token, me))
    return "" if kept is None else "".join("-" if a is None else str(a)
                                           for a in kept.assignment)


async def _until_draft(svc: GameService, token: str, me: str, want: str) -> None:
    for _ in range(200):
        if await _draft(svc, token, me) == want:
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"the stored draft is {await _draft(svc, token, me)!r}, not {want!r}")


async def _drag(page: Any, card: int, target: str) -> None:
    """Drag card ``card`` onto ``target`` with the mouse (press, move over, release)."""
    await page.hover(f'.card[data-card="{card}"]')
    await page.mouse.down()
    await page.hover(target)
    await page.mouse.up()


async def _in(page: Any, offer: str) -> list[int]:
    """The cards' indices the page shows in ``offer`` ("": the loose ones)."""
    found = await page.eval_on_selector_all(
        f'.builder .offer[data-offer="{offer}"] .card', "cs => cs.map(c => c.dataset.card)")
    return sorted(int(i) for i in found)


async def test_cards_are_dragged_into_offers_and_the_split_is_shared(
        browser: Any, site: tuple[GameService, str], tmp_path: Path) -> None:  # noqa: F811
    svc, url = site
    u = await start_game(svc, 3)
    u = await until(svc, u, random.Random(8), lambda u: u.view["phase"] == "split")
    me = u.view["waiting_for"][0]
    token = await token_of(svc)
    drawn = list((await svc.private_view(CHANNEL, me))["private"]["drawn"])
    link = f"{url}/g/{token}/hand?{hand_query(SECRET, token, me, svc.clock())}&lang=en"
    desk = await browser.new_context(viewport=DESK, bypass_csp=True, locale="en-US")
    page = await desk.new_page()
    await page.goto(link)
    await page.wait_for_selector('#decision-body[data-mine="yes"] .builder')
    loose = "-" * len(drawn)

    # a card dragged into offer 2, another into offer 1, the first dragged back
    await _drag(page, 0, '.offer[data-offer="1"]')
    await _drag(page, 6, '.offer[data-offer="0"]')
    assert await _in(page, "1") == [0] and await _in(page, "0") == [6]
    limit = text.limit_points([drawn[6]])
    assert (await page.text_content('.offer[data-offer="0"] .sum') or "").endswith(f" {limit}")
    await _until_draft(svc, token, me, "1" + "-" * 5 + "0" + "-" * (len(drawn) - 7))
    await _drag(page, 0, '.offer.pool')
    assert await _in(page, "1") == [] and 0 in await _in(page, "")
    want = loose[:6] + "0" + loose[7:]
    await _until_draft(svc, token, me, want)

    # a second tab (its session) and a second device show the same half-made split at once
    tab = await desk.new_page()
    await tab.goto(f"{url}/g/{token}/seat?lang=en")
    device = await (await browser.new_context(viewport=DESK, bypass_csp=True)).new_page()
    await device.goto(link)
    for other in (tab, device):
        await other.wait_for_selector(f'.builder[data-draft="{want}"]')
        assert await _in(other, "0") == [6]
        await other.close()

    # changed elsewhere (as the Discord builder does): the open page follows, no reload
    await svc.keep_split_draft(await svc.page_seat(token, me), [[1], [2, 6]])
    elsewhere = "-01" + loose[3:6] + "1" + loose[7:]
    await page.wait_for_selector(f'.builder[data-draft="{elsewhere}"]', timeout=15_000)
    assert await _in(page, "1") == [2, 6] and await _in(page, "0") == [1]

    # the rest: a card dragged into each offer, the others by a click on the card then the
    # offer (the two ways mix), then committed from the page
    offers = int(await page.get_attribute(".builder", "data-offers") or 0)
    for i in range(len(drawn)):
        if i < offers:
            await _drag(page, i, f'.offer[data-offer="{i % offers}"]')
        else:
            await page.click(f'.card[data-card="{i}"]')
            await page.click(f'.offer[data-offer="{i % offers}"] .target')
    assert await _in(page, "") == []
    await page.screenshot(path=str(_shots(tmp_path) / "seat-1280-dragged.png"), full_page=True)
    assert await page.is_enabled("#commit")
    version = (await svc.page_seat(token, me)).version
    await page.click("#commit")
    for _ in range(400):
        if (await svc.page_seat(token, me)).version != version:
            break
        await asyncio.sleep(0.025)
    log = await svc.log(CHANNEL)
    assert log.entries[-1].action == "split" or any(e.action == "split" and e.pid == me
                                                   for e in log.entries[-4:])
    assert await _draft(svc, token, me) == ""


async def test_a_split_on_the_page_goes_on_when_the_other_distributor_commits(
        browser: Any, site: tuple[GameService, str]) -> None:  # noqa: F811
    """Four players, two distributors splitting at once (R5): the other's commit moves the
    game on, and this seat's half-made split goes on at the new version, not lost."""
    svc, url = site
    u = await start_game(svc, 4)
    u = await until(svc, u, random.Random(8), lambda u: u.view["phase"] == "split"
                    and len(u.view["waiting_for"]) == 2)
    me, other = u.view["waiting_for"][0], u.view["waiting_for"][1]
    token = await token_of(svc)
    drawn = list((await svc.private_view(CHANNEL, me))["private"]["drawn"])
    page = await (await browser.new_context(viewport=DESK, bypass_csp=True)).new_page()
    await page.goto(f"{url}/g/{token}/hand?{hand_query(SECRET, token, me, svc.clock())}")
    await page.wait_for_selector('#decision-body[data-mine="yes"] .builder')
    await _drag(page, 1, '.offer[data-offer="1"]')
    await page.click('.card[data-card="0"]')
    await page.click('.offer[data-offer="0"] .target')
    # the other distributor commits at once (before or while this page stores its split)
    their = (await svc.private_view(CHANNEL, other))["private"]
    offers = int(their["offers"])
    await svc.act(CHANNEL, other, Split(tuple(i % offers for i in range(len(their["drawn"])))))
    moved = (await svc.page_seat(token, me)).version
    assert moved != u.version
    await page.wait_for_selector(f'#decision-body[data-version="{moved}"] .builder')
    await _until_draft(svc, token, me, "01" + "-" * (len(drawn) - 2))
    assert await _in(page, "0") == [0] and await _in(page, "1") == [1]
