"""Issue 39's headline: in Debian's headless Chromium at a phone's size (390×844, touch),
a player signs in with Discord (the fake Discord's OAuth2: authorize, token, users/@me),
opens My games, opens the seat page from it, and plays a whole 3-player game only from the
page — a split built by taps, a move taken back by Undo, a stale move refused in words —
while the two other seats are played through the real discord.py bot against the fake
Discord, by its buttons, selects and offer builder. The game lives in its own thread (the
bot's default). Every move made on the page is posted in the thread as a button's would be:
the post ends saying whom the game awaits next. Screenshots of the sign-in, My games and the
seat page at 390 and 1280 px go to $SANMARCO_SCREENSHOTS (else the test's folder).
"""

from __future__ import annotations

import random
import re
import socket
from pathlib import Path
from typing import Any

import pytest

from bot import i18n, text
from tests.bot.conftest import fake, harness  # noqa: F401  (fixtures)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.players import Table, awaited_ids, game_over_words, tag_of
from tests.fakediscord.scenarios import NEW
from tests.web.seatpage import (
    DESK,
    PHONE,
    choices,
    fits_a_phone,
    on_my_decision,
    split_by_taps,
    take_back,
    tap_a_choice,
    tap_from_an_older_version,
    undo_offered,
)
from tests.web.test_browser import _shots, browser  # noqa: F401  (the fixture)

pytest.importorskip("playwright.async_api")
EN = i18n.translations("en")
WORDS = text.sign_in_words(EN)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _sign_in(page: Any, site: str, shots: Path, size: str) -> None:
    """From My games, not signed in: the button, Discord's (fake) page, back signed in."""
    await page.goto(f"{site}/me?lang=en")
    await page.screenshot(path=str(shots / f"signin-{size}.png"), full_page=True)
    button = page.get_by_role("link", name=WORDS.sign_in)
    await (button.tap() if size == "390" else button.click())
    await page.wait_for_selector("form[action^='/signout']")  # back, signed in
    assert page.url == f"{site}/me?lang=en"
    assert WORDS.signed_in_as.format(name="ann") in await page.content()
    await page.screenshot(path=str(shots / f"me-{size}.png"), full_page=True)


async def test_a_whole_game_from_the_seat_page_signed_in_with_discord(
        browser: Any, fake: FakeDiscord, harness: BotHarness,  # noqa: F811
        tmp_path: Path) -> None:
    port = _free_port()
    site = f"http://127.0.0.1:{port}"
    ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
    bot = await harness.start(seed=42, game_threads=True, web_port=port, public_url=site,
                              web_secret="k" * 64, discord_client_id=fake.oauth.client_id,
                              discord_client_secret=fake.oauth.client_secret)
    service = bot.service  # type: ignore[attr-defined]
    fake.oauth.redirects.add(f"{site}/signin/callback")
    fake.oauth.user = ann  # who approves on Discord's page
    opened = await fake.slash(ann, NEW, seats=3)
    found = re.search(r"<#(\d+)>", opened.response.content)
    assert found
    thread = int(found[1])
    await until(lambda: bool(fake.channel_messages(thread)), what="the lobby")
    lobby = fake.channel_messages(thread)[0]
    for user in (bob, cid):
        await fake.click(user, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    row = await service.store.latest_game(thread)
    assert row is not None and row.status == "running"
    token = await service.page_token(row.id)
    me = str(ann.id)

    # signed in on a phone and on a desk; My games names the game and its thread
    shots = _shots(tmp_path)
    desk = await (await browser.new_context(viewport=DESK, bypass_csp=True,
                                            locale="en-US")).new_page()
    await _sign_in(desk, site, shots, "1280")
    phone = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                      bypass_csp=True, locale="en-US")
    page = await phone.new_page()
    await _sign_in(page, site, shots, "390")
    await fits_a_phone(page)
    listed = await page.content()
    assert f"Game {row.id}" in listed and fake.threads[thread].name in listed
    await page.get_by_role("link", name=WORDS.open_seat).tap()
    await page.wait_for_url(f"{site}/g/{token}/seat?lang=en")

    table = Table(fake, [ann, bob, cid], rng=random.Random(7), channel_id=thread)
    rng = random.Random(12)
    splits = stale = mine = undone = others = 0
    shot = False
    while (row := await service.store.latest_game(thread)).status == "running":
        snap = await service.page_seat(token, me)
        waiting = [p for p in snap.view["waiting_for"] if p != me]
        if waiting:  # another seat: through Discord, by the bot's buttons
            user = table.user(int(waiting[0]))
            await until(lambda: user.id in awaited_ids(  # noqa: B023
                fake.last_channel_message(thread)), 30, what="the other seat's prompt")
            post = fake.last_channel_message(thread)
            tags = {tag_of(c) for c in post.custom_ids()}
            if "build" in tags:
                await table.build_offers(user, post)
            elif "take" in tags:
                takes = [c for c in post.custom_ids() if tag_of(c) == "take"]
                await table.click(user, post, rng.choice(takes))
            else:
                await table.play_panel(user, post)
            await harness.settle()
            others += 1
            continue
        await on_my_decision(page, snap.version)
        mine += 1
        await until(lambda: ann.id in awaited_ids(fake.last_channel_message(thread)), 30,
                    what="the post awaiting the page's seat")  # every post before it is in
        posts = len(fake.channel_messages(thread))
        if snap.view["phase"] == "split":
            await split_by_taps(page, len((snap.private or {}).get("drawn") or []))
            if not shot:
                await fits_a_phone(page)
                await page.screenshot(path=str(shots / "seat-signed-in-390.png"), full_page=True)
                await desk.goto(f"{site}/g/{token}/seat?lang=en")
                await desk.screenshot(path=str(shots / "seat-signed-in-1280.png"),
                                      full_page=True)
                shot = True
            await page.locator("#commit").tap()
            splits += 1
        else:
            if not stale and len(await choices(page)) > 1 and snap.version > 0:
                await tap_from_an_older_version(page)
                sending = text.seat_words(EN, row.id).sending
                await page.wait_for_function(  # past "Sending…": the answer
                    "!['', " f"{sending!r}].includes(document.getElementById('said')"
                    ".textContent)")
                assert await page.text_content("#said") == text.refusal(EN, "state.stale")
                assert (await service.page_seat(token, me)).version == snap.version
                assert len(fake.channel_messages(thread)) == posts  # nothing posted
                await page.wait_for_selector(
                    f'#decision-body[data-version="{snap.version}"]', timeout=10_000)
                stale += 1
            await tap_a_choice(page, rng)
        await _posted(fake, service, thread, posts)
        if not undone and snap.view["phase"] != "split" and await undo_offered(page):
            await take_back(page, service, token, me)
            again = await service.page_seat(token, me)
            assert again.is_awaited and set(again.legal) == set(snap.legal)
            undone += 1
    assert row.status == "finished"
    assert game_over_words() in fake.last_channel_message(thread).content
    assert splits >= 1 and stale == 1 and undone == 1 and mine > 10 and others > 10
    assert fake.unknown == [] and fake.errors == []

    # Signing out on the phone ends the desk's session too (another device): both pages
    # offer "Sign in with Discord" again, and the game's seat page asks for it.
    await page.goto(f"{site}/me?lang=en")
    await page.get_by_role("button", name=WORDS.sign_out).tap()
    await page.wait_for_selector(f"text={WORDS.sign_in}")
    assert await page.locator("form[action^='/signout']").count() == 0
    await desk.goto(f"{site}/me?lang=en")
    assert await desk.get_by_role("link", name=WORDS.sign_in).count() == 1
    assert WORDS.signed_in_as.format(name="ann") not in await desk.content()
    await desk.screenshot(path=str(shots / "signed-out-elsewhere-1280.png"), full_page=True)
    await desk.goto(f"{site}/g/{token}/seat?lang=en")
    assert await desk.get_by_role("link", name=WORDS.sign_in).count() == 1


async def _posted(discord: FakeDiscord, service: Any, thread: int, posts: int) -> None:
    """The page's move reached the thread as a button's would: a new post, ending with
    whom the game awaits now (none once it is over)."""
    async def told() -> bool:
        if len(discord.channel_messages(thread)) <= posts:
            return False
        post = discord.last_channel_message(thread)
        if game_over_words() in post.content:
            return True
        status = await service.status(thread)
        return sorted(awaited_ids(post)) == sorted(int(p) for p in status.awaiting)
    await until(told, 30, what="the page move's post, saying who acts next")
