"""The split made in Discord and on the seat page interchangeably, through the real discord.py
client against the fake Discord and the bot's own pages: the offer builder, ``/sanmarco
hand`` and the move chooser carry a "Play in the browser" link button that opens that
seat's page; a
split begun in the Discord builder is finished on the page, one begun on the page is
finished in Discord (the builder shows the page's offers; a Commit of offers the page has
changed since shows them again first), and the channel gets the post a button's commit
gives."""

from __future__ import annotations

import re
import socket
from collections.abc import Sequence
from typing import Any

import aiohttp

from bot import text
from bot.i18n import ENGLISH as EN
from tests.bot.conftest import fake, harness  # noqa: F401  (fixtures)
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.players import Table, awaited_ids, tag_of
from tests.fakediscord.scenarios import NEW

SITE = "https://pages.example"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _asg(panel: FakeMessage, k: int) -> str:
    return next(c for c in panel.custom_ids() if tag_of(c) == "asg"
                and c.split(":")[4].split(",")[1] == str(k))


def _tagged(panel: FakeMessage, tag: str) -> dict[str, Any]:
    return next(c for c in panel.all_components() if tag_of(c.get("custom_id", "")) == tag)


def _revealed(view: Any) -> list[list[str]]:
    """The offers the split revealed, each as its sorted cards."""
    column = view["offers"][view["choosing"]["column"]]
    return sorted(sorted(o["cards"]) for o in column["offers"])


def _expected(drawn: Sequence[str], assignment: Sequence[int], n: int) -> list[list[str]]:
    return sorted(sorted(c for c, a in zip(drawn, assignment, strict=True) if a == k)
                  for k in range(n))


def _shape(post: FakeMessage) -> tuple[object, ...]:
    """What a reveal post is, whatever the cards: what it says, its buttons' kinds."""
    return ("has split their cards" in post.content, "'s offers: 1:" in post.content,
            sorted(tag_of(c) for c in post.custom_ids()),
            any(c.get("label") == "Game page" for c in post.all_components()))


async def test_a_split_begun_in_one_is_finished_in_the_other(
        fake: FakeDiscord, harness: BotHarness) -> None:  # noqa: F811
    port = _free_port()
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    bot = await harness.start(seed=42, web_port=port, public_url=SITE, web_secret="k" * 64)
    service = bot.service  # type: ignore[attr-defined]
    lobby = fake.public_answer(await fake.slash(users[0], NEW))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    token = await service.page_token((await service.store.latest_game(fake.channel_id)).id)
    site = f"http://127.0.0.1:{port}"
    table = Table(fake, users)
    reveals: list[FakeMessage] = []

    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async def open_page(link: str) -> tuple[str, str]:
            """The seat page a "Play in the browser" link opens: (its CSRF token, version)."""
            assert link.startswith(f"{SITE}/g/{token}/hand?")
            page = await http.get(site + link.removeprefix(SITE))
            body = await page.text()
            assert page.status == 200 and "Only you see this page" in body
            csrf = re.search(r'data-csrf="([0-9a-f]+)"', body)
            version = re.search(r'id="decision-body" data-version="([0-9]+)"', body)
            assert csrf and version
            return csrf[1], version[1]

        async def decision() -> dict[str, Any]:
            return dict(await (await http.get(f"{site}/g/{token}/seat/decision")).json())

        # --- begun in Discord, finished on the page
        post = await table.play_until("build")
        dist = table.user(awaited_ids(post)[0])
        drawn = list((await service.private_view(fake.channel_id, str(dist.id)))
                     ["private"]["drawn"])
        n = 3  # three offers with three players (RULES §4)
        panel = (await table.click(dist, post, next(c for c in post.custom_ids()
                                                    if tag_of(c) == "build"))).response
        assert panel.ephemeral
        link = panel.component("Play in the browser")
        assert "custom_id" not in link and f"u={dist.id}&" in link["url"]
        await table.select(dist, panel, _asg(panel, 0), ["0", "1"])
        await table.select(dist, panel, _asg(panel, 2), ["2"])
        # the builder's own edit keeps the link (a panel's rows stay within Discord's 5)
        assert panel.component("Play in the browser")["url"].startswith(SITE)
        assert len(panel.components) <= 5
        csrf, version = await open_page(panel.component("Play in the browser")["url"])
        begun = await decision()
        assert begun["draft"] == "002" + "-" * (len(drawn) - 3)
        assignment = [i % n for i in range(len(drawn))]
        posts = len(fake.channel_messages())
        made = await http.post(f"{site}/g/{token}/seat/act", data={
            "action": "split:" + "".join(map(str, assignment)), "version": version},
            headers={"X-CSRF-Token": csrf})
        assert made.status == 200, await made.text()
        await until(lambda: len(fake.channel_messages()) > posts, what="the split's post")
        reveals.append(fake.last_channel_message())
        assert _revealed(await service.public_view(fake.channel_id)) == _expected(
            drawn, assignment, n)

        # --- begun on the page, finished in Discord
        post = await table.play_until("build")
        dist = table.user(awaited_ids(post)[0])
        drawn = list((await service.private_view(fake.channel_id, str(dist.id)))
                     ["private"]["drawn"])
        hand = (await fake.slash(dist, "sanmarco hand")).response  # the same link there
        csrf, version = await open_page(hand.component("Play in the browser")["url"])
        begun_here = "1" + "-" * (len(drawn) - 1)
        sent = await http.post(f"{site}/g/{token}/seat/draft", data={
            "draft": begun_here, "version": version}, headers={"X-CSRF-Token": csrf})
        assert sent.status == 200, await sent.text()
        panel = (await table.click(dist, post, next(c for c in post.custom_ids()
                                                    if tag_of(c) == "build"))).response
        first = drawn[0]
        assert re.search(rf"Offer 2: [^\n]*{re.escape(text.card_label(EN, first))}",
                         panel.content), panel.content
        assert [o["value"] for o in _tagged(panel, "asg")["options"] if o.get("default")] == []
        assert panel.component("Play in the browser")["url"].startswith(SITE)
        for k in range(n):  # the rest round-robin; card 0 stays in offer 2
            await table.select(dist, panel, _asg(panel, k),
                               [str(i) for i in range(len(drawn))
                                if (i % n == k and i != 0) or (i == 0 and k == 1)])
        assert (await decision())["draft"].startswith("1")
        # meanwhile the page changes it: Discord's Commit shows the page's offers first
        changed = [(i + 1) % n for i in range(len(drawn))]
        sent = await http.post(f"{site}/g/{token}/seat/draft", data={
            "draft": "".join(map(str, changed)), "version": version},
            headers={"X-CSRF-Token": csrf})
        assert sent.status == 200
        posts = len(fake.channel_messages())
        await table.click(dist, panel, _tagged(panel, "commit")["custom_id"])
        assert panel.content.startswith(text.draft_changed(EN)), panel.content
        assert len(fake.channel_messages()) == posts  # nothing committed yet
        await table.click(dist, panel, _tagged(panel, "commit")["custom_id"])
        assert panel.content == text.done(EN)
        await harness.settle()
        reveals.append(fake.last_channel_message())
        assert _revealed(await service.public_view(fake.channel_id)) == _expected(
            drawn, changed, n)
        assert (await decision()).get("draft") is None  # committed: nothing half-made

        # --- the move chooser's private answer carries the link too
        post = await table.play_until("next")
        player = table.user(awaited_ids(post)[0])
        chooser = await table.click(player, post, next(c for c in post.custom_ids()
                                                       if tag_of(c) == "next"))
        panel = chooser.response if chooser.messages else chooser.updated
        assert panel is not None and panel.ephemeral
        assert f"u={player.id}&" in panel.component("Play in the browser")["url"]
        assert len(panel.components) <= 5

        # --- a button-only split, for the post it gives
        post = await table.play_until("build")
        dist = table.user(awaited_ids(post)[0])
        await table.build_offers(dist, post)
        await harness.settle()
        reveals.append(fake.last_channel_message())
    assert _shape(reveals[0]) == _shape(reveals[1]) == _shape(reveals[2])
    assert _shape(reveals[2])[:2] == (True, True)


async def test_a_practice_game_offers_no_page(
        fake: FakeDiscord, harness: BotHarness) -> None:  # noqa: F811
    """A practice game has no page: its private panels carry no "Play in the browser"."""
    user = fake.add_user("ann")
    await harness.start(seed=42, web_port=_free_port(), public_url=SITE, web_secret="k" * 64)
    rec = await fake.slash(user, "sanmarco game learn")
    found = re.search(r"<#(\d+)>", rec.response.content)
    assert found, rec.response.content
    thread = int(found[1])
    await until(lambda: bool(fake.channel_messages(thread)), what="the first practice post")
    answer = (await fake.slash(user, "sanmarco hand", channel_id=thread)).response
    assert answer.ephemeral and answer.content
    assert not any(c.get("label") == "Play in the browser" for c in answer.all_components())
