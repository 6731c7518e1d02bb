"""No lost wake-up: a change committed at any moment of a channel's worker's life is sent at
once, its last moments included (the worker letting its lease go), never left for a held
rename's timer or the periodic pass. Through the real discord.py client against the fake
Discord, in the default set-up (a game in a thread of its own)."""

from __future__ import annotations

import re

from bot.service import GameService
from tests.fakediscord import FakeDiscord
from tests.fakediscord import scenarios as sc
from tests.fakediscord.harness import BotHarness, until


async def test_a_change_committed_while_the_worker_lets_its_lease_go_is_sent_at_once(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A four-seat lobby in its thread: bob and cid join (Discord's two renames), dan joins
    (his rename is held for Discord's window: the worker ends with only it waiting). While
    that worker lets its lease go, dan leaves (committed, and the deliverer woken as an
    interaction does): the lobby shows him gone at once, with no timer and no pass."""
    now = [sc.T0]
    ann, bob, cid, dan = (fake.add_user(n) for n in ("ann", "bob", "cid", "dan"))
    bot = await harness.start(seed=42, game_threads=True, clock=lambda: now[0])
    rec = await fake.slash(ann, "sanmarco game new", seats=4)
    found = re.search(r"<#(\d+)>", rec.response.content)
    assert found
    thread = int(found[1])
    await until(lambda: bool(fake.channel_messages(thread)), what="the lobby")
    lobby = fake.channel_messages(thread)[0]
    for user in (bob, cid):
        await fake.click(user, lobby, lobby.component("join")["custom_id"])
    await until(lambda: len(fake.renames.get(thread, [])) == 2, what="two renames")
    deliverer = bot.get_cog("SanMarco").deliverer  # type: ignore[union-attr]
    service: GameService = deliverer.service
    release, hooked = service.release_lease, []

    async def committing(channel: int, owner: str) -> None:
        """The worker lets its lease go: dan leaves just then (once)."""
        if channel == thread and not hooked and await service.pending_posts(thread):
            hooked.append(owner)
            await service.leave(thread, str(dan.id))
            deliverer.wake(thread, fake.guild_id)
        await release(channel, owner)

    service.release_lease = committing  # type: ignore[method-assign]
    await fake.click(dan, lobby, lobby.component("join")["custom_id"])
    await until(lambda: bool(hooked), what="the worker letting its lease go")
    assert len(fake.renames[thread]) == 2  # dan's rename waits for Discord's window
    await until(lambda: "3/4" in lobby.content, timeout=5.0, what="dan gone from the lobby")
    await deliverer.idle()
    assert fake.rename_refusals == []
    assert [p.post.kind.value for p in await service.pending_posts(thread)] == ["thread"]
