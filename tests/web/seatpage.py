"""A player at the seat page in Chromium (playwright's async API), as the whole-game browser
tests drive it: the phone's size and what a page at that size must pass, a split built by
taps, a choice tapped by what it does, and the page's Undo. (tests/web/test_seat_browser.py
plays the other seats through the service; tests/web/test_signin_browser.py through the
real bot in Discord.)"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.service import GameService

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
MIN_TARGET = 44  # px each way: the smallest button a thumb is given


async def fits_a_phone(page: Any) -> None:
    """No horizontal scrolling; every visible button and link button at least 44 px."""
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = await page.evaluate(f"""Array.from(document.querySelectorAll(
            'button, a.button, .languages a'))
        .map(b => b.getBoundingClientRect()).filter(r => r.width > 0)
        .filter(r => r.width < {MIN_TARGET} || r.height < {MIN_TARGET}).length""")
    assert small == 0


async def on_my_decision(page: Any, version: int, timeout: float = 30) -> None:
    """The page shows ``version``'s decision, and says it is the seat's."""
    await page.wait_for_selector(
        f'#decision-body[data-version="{version}"][data-mine="yes"]',
        timeout=timeout * 1000)


async def split_by_taps(page: Any, cards: int) -> int:
    """Tap each drawn card, then an offer, round-robin (card i into offer i mod offers);
    returns how many offers there are. Committing is the caller's (it may look first)."""
    offers = int(await page.get_attribute(".builder", "data-offers") or 0)
    assert offers > 0
    for i in range(cards):
        await page.locator(f'.card[data-card="{i}"]').tap()
        await page.locator(f'.offer[data-offer="{i % offers}"] .target').tap()
    return offers


async def unfold(page: Any) -> None:
    """Open the first folded group when a long list of choices shows none."""
    if await page.locator("#decision-body button.act:visible").count() == 0:
        await page.locator("#decision-body summary").first.tap()


async def choices(page: Any) -> list[str]:
    """The visible choices, by what each does (its action's text)."""
    await unfold(page)
    return [str(await b.get_attribute("data-action")) for b in
            await page.locator("#decision-body button.act:visible").all()]


async def tap_a_choice(page: Any, rng: random.Random) -> str:
    """Tap one of the visible choices, picked by what it does (a live refresh may redraw
    the buttons between reading and tapping them); returns it."""
    chosen = rng.choice(await choices(page))
    await page.locator(f'#decision-body button.act[data-action="{chosen}"]:visible'
                       ).first.tap()
    return chosen


async def tap_from_an_older_version(page: Any) -> None:
    """The page shown one version behind and its first choice pressed, in one go (a live
    refresh between the two would make the page current again): a stale move."""
    await page.evaluate("""(() => { const d = document.getElementById('decision-body');
        d.dataset.version = String(d.dataset.version - 1);
        d.querySelector('button.act').click(); })()""")


async def moved_on(service: GameService, token: str, me: str, version: int,
                   seconds: float = 30) -> None:
    """Wait until the game has moved on from ``version`` (a move or a take-back made)."""
    for _ in range(int(seconds / 0.025)):
        if (await service.page_seat(token, me)).version != version:
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"the game stayed at version {version}")


async def undo_offered(page: Any) -> bool:
    """Whether the page offers Undo after the seat's move (a move that drew or revealed
    nothing may be taken back: R5)."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:
        await page.wait_for_selector("#undo:visible", timeout=3_000)
    except PlaywrightTimeout:
        return False
    return True


async def take_back(page: Any, service: GameService, token: str, me: str) -> None:
    """Tap Undo: the game moves back to the seat's decision and the page hides Undo."""
    made = (await service.page_seat(token, me)).version
    await page.locator("#undo").tap()
    await moved_on(service, token, me, made)
    await page.wait_for_selector("#undo", state="hidden")
