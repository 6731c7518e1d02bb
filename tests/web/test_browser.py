"""A game's page in a real browser: Debian's headless Chromium driven by playwright's client
(never ``playwright install``: no browser is downloaded). The page loads and shows the board
and the awaited player, follows a move without a reload, the replay slider steps, the
language switch works; screenshots at a phone's width (390 px) and a desktop's are written
to $SANMARCO_SCREENSHOTS (else the test's temporary folder) to be looked at. Pages are
opened with ``bypass_csp``: the page's policy forbids evaluating strings, which playwright's
waits do.

Without Chromium these tests are skipped with how to get it, except where CI is set: there
a missing browser fails them (.ci/run installs it).
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from aiohttp import web

from bot.service import GameService
from bot.web import WebOptions, make_app
from tests.web.conftest import (
    make_service,
    move,
    start_game,
    token_of,
    undo_and_play_otherwise,
)
from tests.web.conftest import play_until as until

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium() -> str:
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if path is None:
        how = ("Chromium is missing: apt-get update && apt-get install -y chromium "
               "(Debian's package; playwright drives it, nothing is downloaded)")
        if os.environ.get("CI"):
            pytest.fail(how)
        pytest.skip(how)
    return path


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    path = _chromium()
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("playwright is missing: pip install -e '.[dev]'")
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=path, args=ARGS)
        yield chromium
        await chromium.close()


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[GameService, str]]:
    """A four-player game in its second round on an SQLite file, its pages on a port."""
    service = await make_service(str(tmp_path / "g.db"))
    runner = web.AppRunner(make_app(service, WebOptions(poll=0.1)))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    yield service, f"http://127.0.0.1:{port}"
    await runner.cleanup()
    await service.close()


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SANMARCO_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def test_the_page_in_a_browser_follows_the_game_and_steps_through_the_replay(
        browser: Any, served: tuple[GameService, str], tmp_path: Path) -> None:
    svc, site = served
    u = await start_game(svc)
    rng = random.Random(3)
    u = await until(svc, u, rng, lambda u: u.view["round"] >= 2)
    token = await token_of(svc)
    page = await browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True,
                                  locale="en-US", timezone_id="Europe/Berlin")
    await page.goto(f"{site}/g/{token}")
    await page.wait_for_function("document.getElementById('board').naturalWidth > 0")
    awaited = await page.text_content(".facts .now")
    names = {"111111111111111111": "Ann", "222222222222222222": "Bob",
             "333333333333333333": "Cid", "444444444444444444": "Dee"}
    assert awaited and any(names[p] in awaited for p in u.view["waiting_for"])
    # the times are the reader's own (Europe/Berlin here), not UTC
    assert "UTC" not in (await page.text_content("#log time") or "UTC")
    shots = _shots(tmp_path)
    await page.screenshot(path=str(shots / "phone.png"), full_page=True)

    # a move made meanwhile: the page follows without a reload
    await page.evaluate("window.stillHere = true")
    version = await page.get_attribute("body", "data-version")
    svc.clock.t += 600  # type: ignore[attr-defined]  # ten minutes later
    u = await move(svc, u, rng)
    while (await svc.page_game(token)).awaited_since != svc.clock.t:  # type: ignore[attr-defined]
        u = await move(svc, u, rng)  # until a new decision starts (not the split's second)
    now = (await svc.page_game(token)).version
    await page.wait_for_function(
        f"document.body.dataset.version === '{now}'", timeout=10_000)
    assert version != str(now)
    assert await page.evaluate("window.stillHere === true")
    # "waiting since" follows the stream: the new decision's start, in the reader's time
    since = datetime.fromtimestamp(svc.clock.t, UTC)  # type: ignore[attr-defined]
    stamp = since.isoformat().replace("+00:00", "Z")
    assert await page.get_attribute("#timing time", "datetime") == stamp
    assert since.astimezone(ZoneInfo("Europe/Berlin")).strftime("%-I:%M") in (
        await page.text_content("#timing") or "")
    assert await page.get_attribute("#slider", "max") == str(u.version)

    # the replay slider steps back and shows that step's board
    before = await page.get_attribute("#frame", "src")
    await page.focus("#slider")
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowLeft")
    assert await page.get_attribute("#frame", "src") != before
    assert (await page.text_content("#step") or "").startswith(f"Step {u.version - 2} of")
    await page.wait_for_function("document.getElementById('frame').naturalWidth > 0")

    # the language switch
    await page.click("text=Deutsch")
    await page.wait_for_load_state()
    assert "Partie" in (await page.text_content("h1") or "")
    assert await page.get_attribute("html", "lang") == "de"

    desktop = await browser.new_page(viewport={"width": 1280, "height": 900}, locale="fr-FR",
                                     bypass_csp=True)
    await desktop.goto(f"{site}/g/{token}")
    await desktop.wait_for_function("document.getElementById('board').naturalWidth > 0")
    assert "Le plateau" in (await desktop.text_content("main") or "")
    await desktop.screenshot(path=str(shots / "desktop.png"), full_page=True)


async def test_a_finished_games_file_is_checked_in_the_browser(
        browser: Any, served: tuple[GameService, str], tmp_path: Path) -> None:
    svc, site = served
    u = await start_game(svc, 3)
    await until(svc, u, random.Random(5), lambda u: u.finished)
    token = await token_of(svc)
    page = await browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    await page.goto(f"{site}/g/{token}?lang=en")
    await page.click("#check")
    await page.wait_for_function("document.getElementById('verdict').textContent !== ''")
    verdict = await page.text_content("#verdict") or ""
    assert verdict.startswith("Checked:"), verdict
    # checked again and again: past the client's limit the page says so in words
    said = []
    for _ in range(6):
        await page.evaluate("document.getElementById('verdict').textContent = ''")
        await page.click("#check")
        await page.wait_for_function(
            "document.getElementById('verdict').textContent !== ''")
        said.append(await page.text_content("#verdict") or "")
    assert any("too often" in v for v in said), said
    assert await page.get_attribute("#verdict", "class") == "bad"
    await page.screenshot(path=str(_shots(tmp_path) / "finished-phone.png"), full_page=True)


async def test_a_servers_page_in_the_browser(
        browser: Any, served: tuple[GameService, str], tmp_path: Path) -> None:
    svc, site = served
    u = await start_game(svc, 3)
    await until(svc, u, random.Random(5), lambda u: u.finished)
    await svc.see_channel(1, 10, everyone=True)  # a channel every member may view: listed
    token = await svc.set_server_page(1, True)
    page = await browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    await page.goto(f"{site}/s/{token}?lang=en")
    assert "San Marco on this server" in (await page.text_content("h1") or "")
    assert "UTC" not in (await page.text_content("main") or "UTC")  # the reader's time
    await page.screenshot(path=str(_shots(tmp_path) / "server-phone.png"), full_page=True)


async def test_a_lobbys_page_becomes_the_games_page_when_it_starts(
        browser: Any, served: tuple[GameService, str]) -> None:
    svc, site = served
    await svc.create_lobby(1, 10, "111111111111111111", seats=3, name="Ann")
    for pid, name in (("222222222222222222", "Bob"), ("333333333333333333", "Cid")):
        await svc.join(10, pid, name=name)
    token = await token_of(svc)
    page = await browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    await page.goto(f"{site}/g/{token}?lang=en")
    assert "has not started yet" in (await page.text_content("main") or "")
    await svc.start(10, "111111111111111111")
    await page.wait_for_selector("#board", timeout=10_000)  # reloaded by itself
    await page.wait_for_function("document.getElementById('board').naturalWidth > 0")


async def test_hostile_names_show_as_typed_in_the_browser(
        browser: Any, served: tuple[GameService, str], tmp_path: Path) -> None:
    """Issue 36: names that look like Discord markup or HTML are text on the page (the
    log, the facts), nothing runs, nothing is bold that was not meant to be."""
    svc, site = served
    names = ("<t:99999999999999999>", "**x**", "</script><script>x()</script>",
             "<img src=x onerror=y()>")
    await svc.create_lobby(1, 10, "111111111111111111", seats=4, name=names[0])
    for pid, name in zip(("222222222222222222", "333333333333333333",
                          "444444444444444444"), names[1:], strict=True):
        await svc.join(10, pid, name=name)
    u = await svc.start(10, "111111111111111111")
    await until(svc, u, random.Random(4), lambda u: u.view["round"] >= 1)
    token = await token_of(svc)
    page = await browser.new_page(viewport={"width": 390, "height": 844}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    answer = await page.goto(f"{site}/g/{token}")
    assert answer is not None and answer.status == 200
    await page.wait_for_selector("#log li")
    said = await page.inner_text("#log")
    facts = await page.inner_text("#facts")
    for name in names:
        assert name in said and name in facts, name
    assert await page.locator("main strong, main script, main img:not(#board):not(#frame)"
                              ).count() == 0
    assert await page.locator("#log li").count() == await page.locator("#log time").count()
    assert not errors
    await page.screenshot(path=str(_shots(tmp_path) / "hostile-names.png"), full_page=True)


async def _board_shot(page: Any) -> bytes:
    await page.wait_for_function(
        "(() => { const b = document.getElementById('board');"
        " return b.complete && b.naturalWidth > 0; })()")
    shot: bytes = await page.locator("#board").screenshot()
    return shot


async def test_after_an_undo_and_another_move_the_open_page_a_new_tab_and_the_replay_agree(
        browser: Any, served: tuple[GameService, str], tmp_path: Path) -> None:
    """Issue 36: a move taken back and played otherwise: the open page, its replay slider
    and a new tab all show the new board, never the cached old one."""
    svc, site = served
    u = await start_game(svc)
    rng = random.Random(11)
    u = await until(svc, u, rng, lambda u: u.view["round"] >= 1)
    token = await token_of(svc)
    page = await browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US",
                                  bypass_csp=True)
    await page.goto(f"{site}/g/{token}")
    _, instead = await undo_and_play_otherwise(svc, u, rng)
    # the open page saw the move later taken back (its picture cached), then the new one
    await page.wait_for_function(
        f"Number(document.body.dataset.version) >= {instead.version}", timeout=15_000)
    row = await svc.store.latest_game(10)
    assert row is not None
    src = await page.get_attribute("#board", "src") or ""
    assert f"/v/{row.version}/" in src, src
    assert f"/v/{row.version}/" in (await page.get_attribute("#frame", "src") or "")
    shot = await _board_shot(page)
    await page.screenshot(path=str(_shots(tmp_path) / "after-undo.png"), full_page=True)

    fresh = await browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US",
                                   bypass_csp=True)
    await fresh.goto(f"{site}/g/{token}")
    assert await fresh.get_attribute("#board", "src") == src
    assert await _board_shot(fresh) == shot  # the open page shows what a new tab shows

    # the replay slider: a step back and forward again shows the new step, not the old
    await page.focus("#slider")
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowRight")
    assert await page.get_attribute("#frame", "src") == src
