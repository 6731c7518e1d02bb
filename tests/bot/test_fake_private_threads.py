"""The fake Discord's private threads behave as Discord's (FAKE_DISCORD.md, Discord's
"Start Thread without Message" and "Add Thread Member"): made with ``type`` 12 — or with no
``type``, API v10's default — only with Create Private Threads; only members may use them;
the bot adds a member with ``PUT /channels/{id}/thread-members/{user}`` (204), refused in an
archived thread. A fake that accepted more would hide a practice game nobody can see."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.messages import BOT_PERMISSIONS

pytestmark = pytest.mark.asyncio


async def _call(fake: FakeDiscord, method: str, path: str,
                body: dict[str, Any] | None = None) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http, http.request(
            method, f"{fake.api_base}{path}", json=body,
            headers={"Authorization": "Bot fake-token"}) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else None)


async def test_private_thread_members_only(fake: FakeDiscord) -> None:
    learner, other = fake.add_user("learner"), fake.add_user("other")
    status, made = await _call(fake, "POST", f"/channels/{fake.channel_id}/threads",
                               {"name": "practice", "type": 12, "invitable": False})
    assert status == 201 and made["type"] == 12
    assert made["thread_metadata"]["invitable"] is False
    tid = int(made["id"])
    with pytest.raises(AssertionError, match="not a member"):
        await fake.slash(learner, "sanmarco status", channel_id=tid, wait=False)
    status, _ = await _call(fake, "PUT", f"/channels/{tid}/thread-members/{learner.id}")
    assert status == 204 and fake.thread_member_adds == [(tid, learner.id)]
    assert fake.may_see(learner.id, tid) and not fake.may_see(other.id, tid)
    status, body = await _call(fake, "PUT", f"/channels/{tid}/thread-members/999")
    assert (status, body["code"]) == (404, 10007)
    await fake.archive(tid)
    status, body = await _call(fake, "PUT", f"/channels/{tid}/thread-members/{other.id}")
    assert (status, body["code"]) == (400, 50083)


async def test_thread_without_type_is_private(fake: FakeDiscord) -> None:
    status, made = await _call(fake, "POST", f"/channels/{fake.channel_id}/threads",
                               {"name": "no type"})
    assert status == 201 and made["type"] == 12


async def test_private_thread_needs_its_permission(fake: FakeDiscord) -> None:
    fake.bot_permissions &= ~BOT_PERMISSIONS["create_private_threads"]
    status, body = await _call(fake, "POST", f"/channels/{fake.channel_id}/threads",
                               {"name": "practice", "type": 12})
    assert (status, body["code"]) == (403, 50013)
    status, made = await _call(fake, "POST", f"/channels/{fake.channel_id}/threads",
                               {"name": "public", "type": 11})
    assert status == 201 and made["type"] == 11
