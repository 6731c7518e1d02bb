"""The fake Discord fails as Discord does: the statuses, codes, headers and bodies of its
faults (checked against Discord's API reference and discord.py's handling of them), sent
as plain HTTP so nothing between hides a difference; and the gateway's RESUME replays what
a bot missed."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord

from tests.fakediscord import CHANNEL_POST, FOLLOWUP, POSTS, FakeDiscord
from tests.fakediscord import scenarios as sc
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.messages import most_in_window

AUTH = {"Authorization": "Bot fake-token"}


async def _post(fake: FakeDiscord, channel: int, body: dict[str, Any] | None = None
                ) -> tuple[int, Any, Any]:
    async with aiohttp.ClientSession() as http, http.post(
            f"{fake.api_base}/channels/{channel}/messages", json=body or {"content": "hi"},
            headers=AUTH) as resp:
        data = await resp.json() if resp.content_type == "application/json" else \
            await resp.text()
        return resp.status, data, resp.headers


async def test_an_outage_window_ends_with_the_fakes_clock(fake: FakeDiscord) -> None:
    outage = fake.faults.outage(*POSTS, seconds=20)
    status, body, _ = await _post(fake, fake.channel_id)
    assert status == 503 and isinstance(body, str)  # the edge's text, not JSON
    fake.clock.advance(20)
    assert (await _post(fake, fake.channel_id))[0] == 200
    assert outage.hits == 1 and fake.faults.count(status=503, injected=True) == 1
    assert fake.faults.injected[0].route == CHANNEL_POST
    assert fake.faults.injected[0].channel == fake.channel_id


async def test_a_fault_hits_its_channel_its_times_then_runs_out(fake: FakeDiscord) -> None:
    ran: list[bool] = []
    fake.faults.fail(CHANNEL_POST, status=500, times=2, channel=fake.channel_id,
                     then=lambda: ran.append(True))
    assert (await _post(fake, fake.other_channel_id))[0] == 200
    first, body, _ = await _post(fake, fake.channel_id)
    assert first == 500 and body == {"message": "500: Internal Server Error", "code": 0}
    assert (await _post(fake, fake.channel_id))[0] == 500 and ran == [True]
    assert (await _post(fake, fake.channel_id))[0] == 200


async def test_stored_then_502_keeps_the_message_and_a_nonce_finds_it_again(
        fake: FakeDiscord) -> None:
    fake.faults.stored_then(CHANNEL_POST, status=502)
    body = {"content": "move 7", "nonce": "g1v7", "enforce_nonce": True}
    assert (await _post(fake, fake.channel_id, body))[0] == 502
    status, again, _ = await _post(fake, fake.channel_id, body)
    assert status == 200 and [m.content for m in fake.channel_messages()] == ["move 7"]
    assert again["id"] == str(fake.last_channel_message().id)
    assert fake.deduplicated  # Discord answered the repeat with the first message


async def test_a_429_carries_discords_headers_and_body(fake: FakeDiscord) -> None:
    fake.faults.rate_limit(CHANNEL_POST, retry_after=1.5)
    status, body, headers = await _post(fake, fake.channel_id)
    assert status == 429 and body == {"message": "You are being rate limited.",
                                      "retry_after": 1.5, "global": False}
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
                 "X-RateLimit-Reset-After", "X-RateLimit-Bucket"):
        assert name in headers
    assert headers["X-RateLimit-Scope"] == "user" and headers["Retry-After"] == "2"
    assert headers["Via"]  # what discord.py checks before it waits a 429 out
    fake.faults.rate_limit(CHANNEL_POST, retry_after=0.2, is_global=True)
    status, body, headers = await _post(fake, fake.channel_id)
    assert body["global"] is True and headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    fake.faults.rate_limit(CHANNEL_POST, scope="shared")
    await _post(fake, fake.channel_id)
    assert fake.faults.invalid_requests == 2  # a shared limit's 429 does not count


async def test_five_posts_per_five_seconds_per_channel(fake: FakeDiscord) -> None:
    fake.faults.limit_posts(5, 5.0)
    answers = [await _post(fake, fake.channel_id) for _ in range(6)]
    assert [s for s, _, _ in answers] == [200] * 5 + [429]
    assert answers[4][2]["X-RateLimit-Remaining"] == "0"
    assert answers[5][1]["retry_after"] > 0
    assert (await _post(fake, fake.other_channel_id))[0] == 200  # per channel
    fake.clock.advance(5.0)
    assert (await _post(fake, fake.channel_id))[0] == 200
    assert fake.most_posts_in(fake.channel_id, 5.0) == 5
    assert most_in_window([0.0, 1.0, 4.9, 5.0, 5.1, 9.0], 5.0) == 4


async def test_gone_places_answer_discords_codes(fake: FakeDiscord) -> None:
    fake.deny(fake.channel_id, "view_channel")
    assert (await _post(fake, fake.channel_id))[1] == {"message": "Missing Access",
                                                       "code": 50001}
    fake.allow(fake.channel_id)
    fake.deny(fake.channel_id, "send_messages")
    assert (await _post(fake, fake.channel_id))[:2] == (
        403, {"message": "Missing Permissions", "code": 50013})
    fake.allow(fake.channel_id)
    status, made, _ = await _post(fake, fake.channel_id)
    await fake.delete_message(fake.messages[int(made["id"])], tell=False)
    async with aiohttp.ClientSession() as http, http.patch(
            f"{fake.api_base}/channels/{fake.channel_id}/messages/{made['id']}",
            json={"content": "edited"}, headers=AUTH) as resp:
        assert (resp.status, (await resp.json())["code"]) == (404, 10008)
    await fake.delete_channel(fake.channel_id, tell=False)
    assert (await _post(fake, fake.channel_id))[:2] == (
        404, {"message": "Unknown Channel", "code": 10003})
    assert fake.faults.invalid_requests == 2 and fake.faults.count(injected=True) == 0


async def test_an_archived_thread_refuses_posts_until_unarchived(fake: FakeDiscord) -> None:
    thread = fake.add_thread(fake.channel_id)
    await fake.archive(thread, locked=True)
    assert (await _post(fake, thread))[:2] == (400, {"message": "Thread is archived",
                                                     "code": 50083})
    url = f"{fake.api_base}/channels/{thread}"
    async with aiohttp.ClientSession() as http:
        fake.deny(thread, "manage_threads")
        async with http.patch(url, json={"archived": False}, headers=AUTH) as resp:
            assert resp.status == 403  # locked: only with Manage Threads
        fake.allow(thread)
        async with http.patch(url, json={"archived": False}, headers=AUTH) as resp:
            got = await resp.json()
        assert got["type"] == 11 and got["parent_id"] == str(fake.channel_id)
        assert got["thread_metadata"]["archived"] is False
    assert (await _post(fake, thread))[0] == 200


async def test_a_late_callback_is_10062_and_an_expired_token_50027(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Through the bot: its defer of a click delivered 5 s late is refused; a follow-up on
    an expired token is refused."""
    ann = fake.add_user("ann")
    await harness.start(seed=1)
    rec = await fake.slash(ann, sc.RULES)
    fake.expire_tokens([rec])
    async with aiohttp.ClientSession() as http, http.post(
            f"{fake.api_base}/webhooks/{fake.app_id}/{rec.token}", json={"content": "x"}
    ) as resp:
        assert (resp.status, (await resp.json())["code"]) == (401, 50027)
    assert fake.faults.count(route=FOLLOWUP, code=50027) == 1
    late = fake._base(ann, 2, None)  # a user acts now; Discord delivers it 5 s later
    fake.clock.advance(5.0)
    async with aiohttp.ClientSession() as http, http.post(
            f"{fake.api_base}/interactions/{late.id}/{late.token}/callback",
            json={"type": 5}) as resp:
        assert (resp.status, (await resp.json())["code"]) == (404, 10062)


async def test_resume_replays_what_the_bot_missed(fake: FakeDiscord,
                                                  harness: BotHarness) -> None:
    """A zombie connection: the events dispatched meanwhile arrive after the RESUME, in
    order, and the bot answers them."""
    fake.heartbeat_interval = 100
    ann = fake.add_user("ann")
    await harness.start(seed=1, heartbeat_timeout=1.0)
    fake.zombie()
    recs = [await fake.slash(ann, sc.RULES, wait=False) for _ in range(2)]
    await asyncio.sleep(0.05)
    assert not any(r.answered.is_set() for r in recs)
    await until(lambda: fake.resumes == 1, 15)
    await asyncio.gather(*(asyncio.wait_for(r.completed.wait(), 15) for r in recs))
    assert all(r.response.ephemeral for r in recs)
    assert isinstance(harness.bot, discord.Client) and fake.identifies == 1
