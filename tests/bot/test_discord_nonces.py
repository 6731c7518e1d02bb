"""Discord's nonces as Discord keeps them (by author, for a few minutes: the fake's
``nonce_window``), through the fake Discord with the real discord.py client: every DM of
one post has a nonce of its own, so each player whose decision it starts gets their own DM;
a post Discord stored and answered 5xx, tried again after the window, shows once."""

from __future__ import annotations

from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CHANNEL_POST
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.scenarios import (
    dm_posts,
    dm_requests,
    dms_lost,
    stored_past_the_nonce_window,
    two_dms_of_one_post,
)


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
