"""Who may start a game: only the player who opened the lobby, or someone with
Manage Channel; if the opener left, the next seated person in join order. The lobby post
says who can start."""

from __future__ import annotations

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service.errors import Code
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness


async def test_only_the_opener_starts_and_the_lobby_says_so_bug(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A player who did not open the game pressed Start and the game began."""
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    await harness.start(seed=3)
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new", seats=3))
    assert f"<@{ann.id}> (or anyone with Manage Channel) starts the game" in lobby.content
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    rec = await fake.click(bob, lobby, lobby.component("start")["custom_id"])
    assert rec.response.ephemeral
    assert rec.response.content == text.refusal(EN, Code.NOT_CREATOR)
    rec = await fake.slash(cid, "sanmarco game start", fill=True)
    assert rec.response.ephemeral
    assert rec.response.content == text.refusal(EN, Code.NOT_CREATOR)
    assert (await harness.bot.service.status(fake.channel_id)).status == "lobby"
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    assert (await harness.bot.service.status(fake.channel_id)).status == "running"


async def test_after_the_opener_leaves_the_next_seated_person_starts(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    dan = fake.add_user("dan")
    await harness.start(seed=3)
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new", seats=4))
    for u in (bob, cid, dan):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("leave")["custom_id"])
    assert f"<@{bob.id}> (or anyone with Manage Channel) starts the game" in lobby.content
    rec = await fake.click(cid, lobby, lobby.component("start")["custom_id"])
    assert rec.response.content == text.refusal(EN, Code.NOT_CREATOR)
    await fake.click(bob, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    assert (await harness.bot.service.status(fake.channel_id)).status == "running"


async def test_a_channel_manager_starts_a_lobby_they_do_not_sit_in(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    mod = fake.add_user("mod", manage_channels=True)
    await harness.start(seed=3)
    await fake.slash(ann, "sanmarco game new", seats=3)
    await fake.slash(bob, "sanmarco game join")
    rec = await fake.slash(mod, "sanmarco game start", fill=True)
    await harness.settle()
    assert "San Marco begins" in fake.public_answer(rec).content
    status = await harness.bot.service.status(fake.channel_id)
    assert status.status == "running" and len(status.players) == 3
