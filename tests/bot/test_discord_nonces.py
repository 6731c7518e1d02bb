"""Discord's nonces as Discord keeps them (by author, for a few minutes: the fake's
``nonce_window``), through the fake Discord with the real discord.py client: every DM of
one post has a nonce of its own, so each player whose decision it starts gets their own DM;
a post Discord stored and answered 5xx, tried again after the window, shows once, as does
one a process sent just before it died and sends again after the window when it starts."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CHANNEL_POST
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table
from tests.fakediscord.scenarios import (
    NEW,
    NONCE_WINDOW,
    dm_posts,
    dm_requests,
    dms_lost,
    stored_past_the_nonce_window,
    two_dms_of_one_post,
)

from .test_service import Clock


async def test_each_player_gets_their_own_dm_of_one_post(fake: FakeDiscord,
                                                          harness: BotHarness) -> None:
    run = await two_dms_of_one_post(fake, harness)
    assert len(dm_posts(fake)) < len(dm_requests(fake)), "no post DMed two players"
    assert dms_lost(fake) == []
    assert not fake.deduplicated
    assert [p for f in await run.findings() for p in f.duplicates + f.lost] == []


async def test_a_post_stored_then_503_and_retried_past_the_nonce_window_shows_once(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await stored_past_the_nonce_window(fake, harness)
    assert await run.until_caught_up() is not None
    assert [p for f in await run.findings() for p in f.problems()] == []
    here = run.channels[0]
    assert fake.faults.count(route=CHANNEL_POST, status=503, channel=here, injected=True) >= 1
    nonces = [m.nonce for m in fake.channel_messages(here) if m.nonce]
    assert len(nonces) == len(set(nonces))
    assert any(r.method == "GET" and r.channel == here and r.route.endswith("/messages")
               for r in fake.requests), "the bot did not look for its post"


async def test_a_post_taken_before_a_crash_and_sent_again_past_the_window_shows_once(
        fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies after Discord took a move's post but before the outbox let it go,
    and starts again after Discord forgot the nonce: the post is found in the channel, not
    made again."""
    fake.nonce_window = NONCE_WINDOW
    clock = Clock()
    bot = await harness.start(seed=42, clock=clock)
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    table = Table(fake, users)
    lobby = fake.public_answer(await fake.slash(users[0], NEW))
    for user in users[1:]:
        await table.click(user, lobby, lobby.component("join")["custom_id"])
    await table.click(users[0], lobby, lobby.component("start")["custom_id"])
    cog = bot.get_cog("SanMarco")  # type: ignore[attr-defined]

    async def dies(*args: object, **kwargs: object) -> None:
        raise asyncio.CancelledError  # the process is gone before the outbox lets it go

    with monkeypatch.context() as patch:
        patch.setattr(cog.service, "posts_sent", dies)
        assert await table.step()
        await harness.settle()
    assert await cog.service.pending_posts(fake.channel_id)
    shown = len(fake.channel_messages())
    await harness.stop()
    fake.clock.advance(600.0)  # down for ten minutes
    clock.t += 600.0
    await harness.start(seed=42, clock=clock)
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    for _ in range(100):
        if not await cog.service.pending_posts(fake.channel_id):
            break
        await asyncio.sleep(0.05)
    assert await cog.service.pending_posts(fake.channel_id) == []
    assert len(fake.channel_messages()) == shown
    nonces = Counter(m.nonce for m in fake.channel_messages() if m.nonce)
    assert [n for n, times in nonces.items() if times > 1] == []
