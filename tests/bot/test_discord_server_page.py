"""The server's page lists only the games of channels every member of the server may view
(issue 36 item 5), through the real discord.py client against the fake Discord and the
bot's own web pages: the bot learns who may view a channel from Discord (the @everyone
role's View Channel in the channel's overwrites; a thread: its type and its channel's), keeps
it fresh when Discord says a channel changed, and the page shows no game, name or link of a
private channel or a private thread — until its channel is opened to everyone."""

from __future__ import annotations

import re
import socket

import aiohttp

from bot import i18n, text
from bot.service.errors import Code
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.scenarios import NEW

SITE = "https://pages.example"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _open(fake: FakeDiscord, users: list[FakeUser], channel: int) -> int:
    """A 3-player game opened in ``channel`` (its thread, or the thread itself), started;
    returns where it is played."""
    rec = await fake.slash(users[0], NEW, channel_id=channel, seats=3)
    found = re.search(r"<#(\d+)>", rec.response.content)
    place = int(found[1]) if found else channel
    await until(lambda: bool(fake.channel_messages(place)), what="the lobby")
    lobby = fake.channel_messages(place)[0]
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    return place


async def test_the_server_page_lists_only_what_every_member_may_view(
        fake: FakeDiscord, harness: BotHarness) -> None:
    open_users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    hidden_users = [fake.add_user(n) for n in ("zora", "yuki", "xena")]
    thread_users = [fake.add_user(n) for n in ("wanda", "vera", "ulla")]
    mod = fake.add_user("mod", manage_channels=True)
    secret = fake.add_channel()
    fake.hide(secret)  # @everyone may not view it: a staff channel
    members_only = fake.add_thread(fake.channel_id, name="our corner")
    fake.threads[members_only].private = True  # a private thread of the open channel
    fake.threads[members_only].members |= {u.id for u in thread_users}
    port = _free_port()
    bot = await harness.start(seed=5, game_threads=True, web_port=port, public_url=SITE)
    service = bot.service  # type: ignore[attr-defined]
    shown = await _open(fake, open_users, fake.channel_id)
    hidden = await _open(fake, hidden_users, secret)
    corner = await _open(fake, thread_users, members_only)
    assert corner == members_only and fake.threads[hidden].parent_id == secret
    await harness.settle()
    said = (await fake.slash(mod, "sanmarco-server settings", server_page=True)).response
    address = re.search(r"/s/([0-9a-f]{32})", said.content)
    assert address, said.content
    numbers = {where: (await service.status(where)).game_id
               for where in (shown, hidden, corner)}
    tokens = {where: await service.page_token(numbers[where]) for where in numbers}

    async def page() -> str:
        async with aiohttp.ClientSession() as http:
            got = await http.get(f"http://127.0.0.1:{port}/s/{address[1]}?lang=en")
            assert got.status == 200
            return await got.text()

    def listed(body: str, where: int, users: list[FakeUser]) -> bool:
        marks = [f"#{numbers[where]} ", f"/g/{tokens[where]}", *(u.name for u in users)]
        found = [m in body for m in marks]
        assert all(found) or not any(found), (where, marks, found)  # all or nothing
        return all(found)

    body = await page()
    assert listed(body, shown, open_users)
    assert not listed(body, hidden, hidden_users)
    assert not listed(body, corner, thread_users)
    # the admin opens the staff channel to everyone and closes the first one: Discord says
    # so (CHANNEL_UPDATE), and the page follows
    fake.hide(secret, False)
    fake.hide(fake.channel_id)
    await fake.announce(secret)
    await fake.announce(fake.channel_id)
    await until(lambda: bot.get_channel(secret).permissions_for(  # type: ignore[union-attr]
        bot.get_guild(fake.guild_id).default_role).view_channel,  # type: ignore[union-attr]
        what="the bot's cache knows the change")
    for _ in range(50):  # both changes noted (each CHANNEL_UPDATE is handled on its own)
        body = await page()
        if listed(body, hidden, hidden_users) and not listed(body, shown, open_users):
            break
        await harness.settle()
    assert listed(body, hidden, hidden_users)
    assert not listed(body, shown, open_users)
    assert not listed(body, corner, thread_users)  # a private thread stays private
    # a manager's choice wins, either way; never for a private thread; nobody else's
    refused = (await fake.slash(open_users[1], "sanmarco-server settings",
                                listed="always")).response.content
    assert refused == text.refusal(i18n.ENGLISH, Code.SETTINGS_PERMISSION)
    answer = (await fake.slash(mod, "sanmarco-server settings", listed="always")).response
    assert answer.content == text.channel_listed(i18n.ENGLISH, True)
    await fake.slash(mod, "sanmarco-server settings", channel_id=secret, listed="never")
    body = await page()
    assert listed(body, shown, open_users)  # its channel is closed, but chosen
    assert not listed(body, corner, thread_users)
    assert not listed(body, hidden, hidden_users)
    await fake.slash(mod, "sanmarco-server settings", channel_id=secret, listed="auto")
    assert listed(await page(), hidden, hidden_users)  # as Discord says again: open


async def test_a_channel_closed_while_the_bot_was_away_leaves_the_page_at_its_start(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Discord's word when the bot connects again (GUILD_CREATE) is compared with what it
    stored: a channel an admin closed meanwhile is unlisted before anyone uses it."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    port = _free_port()
    bot = await harness.start(seed=5, game_threads=True, web_port=port, public_url=SITE)
    shown = await _open(fake, users, fake.channel_id)
    await harness.settle()
    service = bot.service  # type: ignore[attr-defined]
    token = await service.set_server_page(fake.guild_id, True)
    number = (await service.status(shown)).game_id
    page = await service.server_page(token)
    assert [g.game_id for g in page.running] == [number]
    await harness.stop()
    fake.hide(fake.channel_id)  # while the bot is away
    bot = await harness.start(seed=5, game_threads=True, web_port=port, public_url=SITE)
    service = bot.service  # type: ignore[attr-defined]

    async def unlisted() -> bool:
        return not (await service.server_page(token)).running

    await until(unlisted, what="the closed channel's game unlisted")
    async with aiohttp.ClientSession() as http:
        body = await (await http.get(f"http://127.0.0.1:{port}/s/{token}?lang=en")).text()
    assert f"#{number} " not in body and "ann" not in body
