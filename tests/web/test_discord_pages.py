"""The game pages served by the bot itself (SANMARCO_WEB_PORT), through the real discord.py
client against the fake Discord: a game played by buttons while a page watches it; every
committed version reaches the page's stream in order, none twice; the bot is ready while
its gateway is connected; its posts link the page (SANMARCO_PUBLIC_URL) until a manager
turns the channel's pages off (``/sanmarco-server settings pages:``); ``/sanmarco hand``
and the distributor's offer builder link the player's own hand (SANMARCO_WEB_SECRET); a
manager shows the server's page and is told its address."""

from __future__ import annotations

import html
import re
import socket

import aiohttp

from tests.bot.conftest import fake, harness  # noqa: F401  (fixtures)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.players import Table, awaited_ids, tag_of
from tests.fakediscord.scenarios import NEW
from tests.web.sse import events_until


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_game_played_by_buttons_while_its_page_watches(
        fake: FakeDiscord, harness: BotHarness) -> None:  # noqa: F811
    port = _free_port()
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    mod = fake.add_user("mod", manage_channels=True)
    bot = await harness.start(seed=42, web_port=port, public_url="https://pages.example",
                              web_secret="k" * 64)
    service = bot.service  # type: ignore[attr-defined]
    lobby = fake.public_answer(await fake.slash(users[0], NEW))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    row = await service.store.latest_game(fake.channel_id)
    token = await service.page_token(row.id)
    site = f"http://127.0.0.1:{port}"
    # the cookie of a seat's session, though the address is 127.0.0.1 (a browser keeps it)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        ready = await http.get(f"{site}/readyz")
        assert ready.status == 200 and (await ready.json())["gateway"]
        page = await http.get(f"{site}/g/{token}")
        assert page.status == 200 and "ann" in await page.text()
        stream = await http.get(f"{site}/g/{token}/events")
        table = Table(fake, users)
        for _ in range(8):
            assert await table.step()
        await harness.settle()
        end = (await service.store.latest_game(fake.channel_id)).version
        sent = await events_until(stream, end)
        assert [e.id for e in sent] == list(range(row.version + 1, end + 1))
        stream.close()
        metrics = await (await http.get(f"{site}/metrics")).text()
        clicks = re.search(r'sanmarco_interactions_total\{kind="component"\} (\d+)', metrics)
        assert clicks and int(clicks[1]) >= 8 and "sanmarco_answer_seconds_count" in metrics
        # the posts link the page (a link button: the bot hears no click)
        link = fake.last_channel_message().component("Game page")
        assert link["url"] == f"https://pages.example/g/{token}" and "custom_id" not in link
        # /sanmarco hand offers the player's own hand in the browser, signed for them
        status = await service.status(fake.channel_id)
        awaited = next(u for u in users if str(u.id) in status.awaiting)
        answer = (await fake.slash(awaited, "sanmarco hand")).response
        hand = answer.component("Play in the browser")["url"]
        assert hand.startswith(f"https://pages.example/g/{token}/hand?u={awaited.id}&")
        mine = await http.get(site + hand.removeprefix("https://pages.example"))
        assert mine.status == 200 and "Only you see this page" in await mine.text()

        # the distributor's offer builder offers their drawn cards in the browser too
        post = await table.play_until("build")
        dist = table.user(awaited_ids(post)[0])
        build = next(c for c in post.custom_ids() if tag_of(c) == "build")
        panel = (await fake.click(dist, post, build)).response
        assert panel.ephemeral
        link = panel.component("Play in the browser")["url"]
        assert f"/g/{token}/hand?u={dist.id}&" in link

        # a manager shows the server's page: its address, privately
        said = (await fake.slash(mod, "sanmarco-server settings", server_page=True)).response
        server_token = await service.server_page_token(row.guild_id)
        assert f"https://pages.example/s/{server_token}" in said.content and said.ephemeral
        assert (await http.get(f"{site}/s/{server_token}")).status == 200

        # a manager turns the channel's pages off: no page, no link
        await fake.slash(mod, "sanmarco-server settings", pages=False)
        await harness.settle()
        assert "Game pages: off" in fake.last_channel_message().content
        assert (await http.get(f"{site}/g/{token}")).status == 404
        assert await table.step()
        await harness.settle()
        post = fake.last_channel_message()
        assert not any(c.get("label") == "Game page" for r in post.components
                       for c in r.get("components", []))


async def test_moves_made_on_seat_pages_are_posted_and_ping_like_buttons(
        fake: FakeDiscord, harness: BotHarness) -> None:  # noqa: F811
    """Whoever is awaited opens the link ``/sanmarco hand`` gives and makes the move on
    the page: the channel gets the move's post at once, saying (and pinging) whom the game
    awaits next, as a button's would; a split is made on the page too."""
    port = _free_port()
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    bot = await harness.start(seed=42, web_port=port, public_url="https://pages.example",
                              web_secret="k" * 64)
    service = bot.service  # type: ignore[attr-defined]
    lobby = fake.public_answer(await fake.slash(users[0], NEW))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    token = await service.page_token((await service.store.latest_game(fake.channel_id)).id)
    site = f"http://127.0.0.1:{port}"
    kinds = set()
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        for _ in range(12):
            before = await service.status(fake.channel_id)
            user = next(u for u in users if str(u.id) in before.awaiting)
            answer = (await fake.slash(user, "sanmarco hand")).response
            hand = answer.component("Play in the browser")["url"]
            page = await http.get(site + hand.removeprefix("https://pages.example"))
            body = await page.text()
            csrf = re.search(r'data-csrf="([0-9a-f]+)"', body)
            version = re.search(r'id="decision-body" data-version="([0-9]+)"', body)
            assert page.status == 200 and csrf and version
            offers = re.search(r'class="builder" data-offers="([0-9])"', body)
            if offers:  # the split: card i into offer i mod n
                n = body.count('class="card" data-card=')
                action = "split:" + "".join(str(i % int(offers[1])) for i in range(n))
            else:
                action = html.unescape(re.findall(r'data-action="([^"]+)"', body)[0])
            kinds.add(action.split(":")[0])
            posts = len(fake.channel_messages())
            made = await http.post(f"{site}/g/{token}/seat/act", data={
                "action": action, "version": version[1]}, headers={"X-CSRF-Token": csrf[1]})
            assert made.status == 200, await made.text()
            await until(lambda: len(fake.channel_messages()) > posts,  # noqa: B023
                        what="the move's post")
            post = fake.last_channel_message()
            now = await service.status(fake.channel_id)
            assert sorted(awaited_ids(post)) == sorted(int(p) for p in now.awaiting)
            fresh = {p for p in now.awaiting if p not in before.awaiting}
            pinged = set((post.allowed_mentions or {}).get("users") or ())
            assert fresh <= {str(p) for p in pinged}, (fresh, post.allowed_mentions)
    assert "split" in kinds and len(kinds) >= 3
