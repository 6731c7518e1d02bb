"""No lost wake-up: a change committed at any moment of a channel's worker's life is sent at
once, its last moments included (the worker letting its lease go), never left for a held
rename's timer or the periodic pass. Through the real discord.py client against the fake
Discord, in the default set-up (a game in a thread of its own)."""

from __future__ import annotations

import re

from bot.service import GameService
from bot.service.posts import Pending
from tests.fakediscord import FakeDiscord
from tests.fakediscord import scenarios as sc
from tests.fakediscord.harness import BotHarness, until


async def test_a_change_committed_while_the_worker_lets_its_lease_go_is_sent_at_once(
        fake: FakeDiscord, any_harness: BotHarness) -> None:
    """A four-seat lobby in its thread: bob and cid join (Discord's two renames), dan joins
    (his rename is held for Discord's window: the worker ends with only it waiting). While
    that worker lets its lease go, dan leaves (committed, and the deliverer woken as an
    interaction does): the lobby shows him gone at once, with no timer and no pass."""
    now = [sc.T0]
    ann, bob, cid, dan = (fake.add_user(n) for n in ("ann", "bob", "cid", "dan"))
    bot = await any_harness.start(seed=42, game_threads=True, clock=lambda: now[0])
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


async def test_a_change_committed_as_another_process_lets_the_channel_go_is_sent_at_once(
        fake: FakeDiscord, any_harness: BotHarness) -> None:
    """Another process's worker holds the channel and has just sent its last post. This
    process's worker, woken, cannot take the lease and reads the channel: nothing waits.
    Just then a player here goes away (a note committed, the deliverer woken) and the other
    process lets the channel go: the note is sent at once, not at the next pass."""
    run = await sc.two_games(fake, any_harness, clock=True)
    here, service = run.channels[0], run.service
    deliverer = any_harness.bot.get_cog("SanMarco").deliverer  # type: ignore[union-attr]
    assert await service.store.take_lease(here, "other:1", 60.0)
    read, hooked = service.pending_posts, []
    ann = next(u for u in run.here.users if u.name == "ann")

    async def reading(channel: int) -> list[Pending]:
        posts = await read(channel)
        if channel == here and not posts and not hooked:
            hooked.append(channel)
            await service.set_away(fake.guild_id, str(ann.id), run.now[0] + 3600.0)
            deliverer.wake(here, fake.guild_id)
            await service.release_lease(here, "other:1")  # the other process is done
        return posts

    service.pending_posts = reading  # type: ignore[method-assign]
    shown = len(fake.channel_messages(here))
    deliverer.wake(here, fake.guild_id)
    await until(lambda: bool(hooked), what="the worker reading the channel")
    await until(lambda: len(fake.channel_messages(here)) > shown, timeout=5.0,
                what="the note sent")
    await deliverer.idle()
    assert await read(here) == []
