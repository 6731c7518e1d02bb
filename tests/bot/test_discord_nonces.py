"""Discord's nonces as Discord keeps them (by author, for a few minutes; the fake's
``nonce_window``), through the fake Discord with the real discord.py client: every DM of
one post has a nonce of its own, so each player whose decision it starts gets their own DM;
a post Discord stored and answered 5xx, tried again after the window, shows once."""

from __future__ import annotations

from collections import defaultdict

from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CHANNEL_POST
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table
from tests.fakediscord.scenarios import NEW, start_bot


def _dm_requests(fake: FakeDiscord) -> dict[tuple[int, str], int]:
    """(DM channel, nonce) of every DM the bot sent, and how often."""
    asked: dict[tuple[int, str], int] = defaultdict(int)
    for rec in fake.requests:
        if rec.route == CHANNEL_POST and rec.channel in fake.dm_channels and rec.json:
            asked[(rec.channel, str(rec.json.get("nonce")))] += 1
    return asked


async def test_each_player_gets_their_own_dm_of_one_post(fake: FakeDiscord,
                                                          harness: BotHarness) -> None:
    run = await start_bot(fake, harness)
    for name in ("ann", "bob", "cid", "dan"):  # four: two distributors split at once
        await run.service.set_notify_mode(fake.guild_id, str(fake.users[name].id), "dm")
    users = [fake.users[name] for name in ("ann", "bob", "cid", "dan")]
    lobby = fake.public_answer(await fake.slash(users[0], NEW, seats=4))
    for user in users[1:]:
        await fake.click(user, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, users)
    shared = False
    for _ in range(60):
        assert await table.step()
        await harness.settle()
        asked = _dm_requests(fake)
        posts: dict[str, set[int]] = defaultdict(set)  # a post's nonce -> its DM channels
        for channel, nonce in asked:
            posts[nonce.split("d")[0]].add(channel)
        shared = any(len(channels) > 1 for channels in posts.values())
        if shared:
            break
    assert shared, "no post started two players' decisions"
    for (channel, nonce), _ in _dm_requests(fake).items():
        mine = [m for m in fake.dms(fake.dm_channels[channel]) if m.nonce == nonce]
        assert mine, f"the DM {nonce} never reached {fake.dm_channels[channel].name}"
    assert not fake.deduplicated
