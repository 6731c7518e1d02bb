"""A seat's page tells the truth about its move's post, through the real discord.py bot
against the fake Discord, a game in its own thread (the bot's default): a move made on the
page while Discord refuses the thread's posts (an outage: 503s) is saved, and the page —
and a second device of the same seat — says it waits for Discord, in the words a button's
answer uses; once Discord answers again the post arrives once and the page says it is
posted. A move sent twice (a double tap, two tabs) counts once: the second is refused
with the stale sentence and nothing changes."""

from __future__ import annotations

import asyncio
import html
import re
import socket
from dataclasses import dataclass

import aiohttp

from bot import text
from bot.i18n import ENGLISH as EN
from tests.bot.conftest import fake, harness  # noqa: F401  (fixtures)
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.faults import CHANNEL_POST
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.players import awaited_ids
from tests.fakediscord.scenarios import NEW

PUBLIC = "https://pages.example"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Seat:
    """A seat's page as a device opened it: its session (the client), the move it offers
    (empty: none) and the version it shows."""

    http: aiohttp.ClientSession
    user: FakeUser
    csrf: str
    version: str
    action: str
    body: str


async def _game_in_thread(fake: FakeDiscord, harness: BotHarness,  # noqa: F811
                          port: int) -> tuple[list[FakeUser], int, str]:
    """Three players start a game in its own thread; its players, thread and page token."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    bot = await harness.start(seed=42, web_port=port, public_url=PUBLIC,
                              web_secret="k" * 64, game_threads=True)
    rec = await fake.slash(users[0], NEW, seats=3)
    found = re.search(r"<#(\d+)>", rec.response.content)
    assert found, rec.response.content
    thread = int(found[1])
    await until(lambda: bool(fake.channel_messages(thread)), what="the lobby is posted")
    lobby = fake.channel_messages(thread)[0]
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    service = bot.service  # type: ignore[attr-defined]
    token = await service.page_token((await service.status(thread)).game_id)
    return users, thread, token


async def _open(fake: FakeDiscord, http: aiohttp.ClientSession,  # noqa: F811
                site: str, user: FakeUser, thread: int) -> Seat:
    """The link ``/sanmarco hand`` gives ``user``, opened: the page's first move."""
    answer = (await fake.slash(user, "sanmarco hand", channel_id=thread)).response
    link = answer.component("Play in the browser")["url"]
    page = await http.get(site + link.removeprefix(PUBLIC))
    body = await page.text()
    csrf = re.search(r'data-csrf="([0-9a-f]+)"', body)
    version = re.search(r'id="decision-body" data-version="([0-9]+)"', body)
    assert page.status == 200 and csrf and version
    offers = re.search(r'class="builder" data-offers="([0-9])"', body)
    if offers:  # the split: card i into offer i mod n
        n = body.count('class="card" data-card=')
        action = "split:" + "".join(str(i % int(offers[1])) for i in range(n))
    else:  # its first choice (none: the game does not await the seat)
        action = html.unescape(next(iter(re.findall(r'data-action="([^"]+)"', body)), ""))
    return Seat(http, user, csrf[1], version[1], action, body)


async def _post_state(seat: Seat, site: str, token: str, version: int) -> dict[str, str]:
    answer = await seat.http.get(f"{site}/g/{token}/seat/post?version={version}")
    assert answer.status == 200
    state: dict[str, str] = (await answer.json())["post"]
    return state


def _jar() -> aiohttp.CookieJar:
    return aiohttp.CookieJar(unsafe=True)  # a browser keeps 127.0.0.1's cookie too


async def test_a_page_move_while_discord_is_down_is_saved_then_posted_once(
        fake: FakeDiscord, harness: BotHarness) -> None:  # noqa: F811
    port = _free_port()
    users, thread, token = await _game_in_thread(fake, harness, port)
    service = harness.bot.service  # type: ignore[union-attr]
    site = f"http://127.0.0.1:{port}"
    status = await service.status(thread)
    user = next(u for u in users if str(u.id) in status.awaiting)
    async with aiohttp.ClientSession(cookie_jar=_jar()) as phone, \
            aiohttp.ClientSession(cookie_jar=_jar()) as laptop:
        seat = await _open(fake, phone, site, user, thread)
        posts = len(fake.channel_messages(thread))
        outage = fake.faults.outage(CHANNEL_POST, channel=thread)
        made = await phone.post(f"{site}/g/{token}/seat/act", data={
            "action": seat.action, "version": seat.version},
            headers={"X-CSRF-Token": seat.csrf})
        assert made.status == 200, await made.text()
        answer = await made.json()
        version = answer["version"]
        assert version > int(seat.version)
        # saved at once: being sent, or already known to wait for Discord
        assert answer["post"]["state"] in ("saved", "waiting")
        assert answer["post"]["said"] == text.post_state(EN, answer["post"]["state"])
        assert "saved" in answer["post"]["said"].lower()

        async def waits() -> bool:
            return (await _post_state(seat, site, token, version))["state"] == "waiting"

        await until(waits, what="the page says the post waits for Discord")
        said = (await _post_state(seat, site, token, version))["said"]
        assert said == text.post_pending(EN)  # a button's words for the same case
        assert "sorry" not in said.lower()
        # a second device of the seat (its own session) says the same, on its first load
        other = await _open(fake, laptop, site, user, thread)
        assert other.version == str(version)
        assert html.escape(text.post_pending(EN), quote=False) in other.body
        assert 'data-state="waiting"' in other.body
        assert len(fake.channel_messages(thread)) == posts  # nothing reached the thread

        outage.stop()  # Discord is back: the deliverer's next try takes it

        async def sent() -> bool:
            return (await _post_state(seat, site, token, version))["state"] == "sent"

        await until(sent, 30, what="the page says the post is in the channel")
        assert (await _post_state(seat, site, token, version))["said"] == text.posted(EN)
        await until(lambda: len(fake.channel_messages(thread)) > posts, what="the post")
        await harness.settle()
        await asyncio.sleep(0.3)
        new = fake.channel_messages(thread)[posts:]
        assert len(new) == 1  # once, though its first tries failed
        now = await service.status(thread)
        assert sorted(awaited_ids(new[0])) == sorted(int(p) for p in now.awaiting)
        # the laptop's page, asked again, says posted too (the same state everywhere)
        again = await (await laptop.get(f"{site}/g/{token}/seat/decision")).json()
        assert again["version"] == version and again["post"]["state"] == "sent"
        assert (await phone.get(f"{site}/g/{token}/seat/post?version=1e3")).status == 400
    async with aiohttp.ClientSession() as stranger:  # the seat's session only
        refused = await stranger.get(f"{site}/g/{token}/seat/post?version={version}")
        assert refused.status == 403
        assert (await refused.json())["said"] == text.seat_refused(EN, "session")


async def test_a_move_sent_twice_from_two_tabs_counts_once(
        fake: FakeDiscord, harness: BotHarness) -> None:  # noqa: F811
    port = _free_port()
    users, thread, token = await _game_in_thread(fake, harness, port)
    service = harness.bot.service  # type: ignore[union-attr]
    site = f"http://127.0.0.1:{port}"
    status = await service.status(thread)
    user = next(u for u in users if str(u.id) in status.awaiting)
    async with aiohttp.ClientSession(cookie_jar=_jar()) as http:
        seat = await _open(fake, http, site, user, thread)
        game = (await service.status(thread)).game_id
        logged = len(await service.store.actions(game))
        posts = len(fake.channel_messages(thread))

        async def send() -> tuple[int, dict[str, object]]:
            r = await http.post(f"{site}/g/{token}/seat/act", data={
                "action": seat.action, "version": seat.version},
                headers={"X-CSRF-Token": seat.csrf})
            return r.status, await r.json()

        answers = sorted(await asyncio.gather(send(), send()), key=lambda a: a[0])
        assert [a[0] for a in answers] == [200, 409]
        assert answers[1][1]["said"] == text.refusal(EN, "state.stale")
        await harness.settle()
        await until(lambda: len(fake.channel_messages(thread)) > posts, what="the post")
        await asyncio.sleep(0.3)
        assert len(fake.channel_messages(thread)) == posts + 1  # one post
        assert len(await service.store.actions(game)) == logged + 1  # one move
        assert answers[0][1]["version"] == (await service.page_seat(
            token, str(user.id))).version


async def test_a_page_move_whose_post_discord_holds_back_with_a_429_says_it_waits(
        fake: FakeDiscord, harness: BotHarness) -> None:  # noqa: F811
    """Discord slow: a 429 on the thread's post (waited out by discord.py, then sent).
    Past the 2.5 s a button's answer waits, the page says the post waits for Discord;
    then posted, once."""
    port = _free_port()
    users, thread, token = await _game_in_thread(fake, harness, port)
    service = harness.bot.service  # type: ignore[union-attr]
    site = f"http://127.0.0.1:{port}"
    status = await service.status(thread)
    user = next(u for u in users if str(u.id) in status.awaiting)
    async with aiohttp.ClientSession(cookie_jar=_jar()) as phone:
        seat = await _open(fake, phone, site, user, thread)
        posts = len(fake.channel_messages(thread))
        fake.faults.rate_limit(CHANNEL_POST, retry_after=4.0, channel=thread)
        made = await phone.post(f"{site}/g/{token}/seat/act", data={
            "action": seat.action, "version": seat.version},
            headers={"X-CSRF-Token": seat.csrf})
        assert made.status == 200, await made.text()
        version = (await made.json())["version"]
        seen: list[str] = []

        async def posted() -> bool:
            seen.append((await _post_state(seat, site, token, version))["state"])
            return seen[-1] == "sent"

        await until(posted, 30, what="the post, after the 429")
        assert "waiting" in seen and "gone" not in seen and "blocked" not in seen
        await until(lambda: len(fake.channel_messages(thread)) > posts, what="the post")
        await asyncio.sleep(0.3)
        assert len(fake.channel_messages(thread)) == posts + 1
