"""``/sanmarco-server stats player:`` follows ``history``'s rule (DESIGN "private things are
reachable by their owners only"), through the real discord.py client against the fake
Discord, games in threads (the default), on SQLite and PostgreSQL: another player's record
counts the games of the listed channels and of the place it is asked in (a staff channel's
games of a player are no member's business elsewhere, not even as a count); one's own
record counts every game one played, wherever one asks. ``history`` lists its ten past any
number of newer private games."""

from __future__ import annotations

from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness

from .test_discord_listing_privacy import _finished, numbers
from .test_stats import finish


async def test_stats_of_another_player_count_a_private_channels_games_only_there(
        fake: FakeDiscord, any_harness: BotHarness) -> None:
    harness = any_harness
    zora, bob = fake.add_user("zora"), fake.add_user("bob")  # zora plays; bob asks
    secret = fake.add_channel()
    fake.hide(secret)  # @everyone may not view it: a staff channel
    await harness.start(seed=5, game_threads=True)
    await _finished(fake, harness, zora, fake.channel_id)
    hidden_at, _ = await _finished(fake, harness, zora, secret)

    async def record(user: FakeUser, channel: int, **player: str) -> str:
        rec = await fake.slash(user, "sanmarco-server stats", channel_id=channel, **player)
        assert rec.ephemeral
        return rec.response.content

    about_zora = {"player": f"<@{zora.id}>"}
    # asked in the open channel: the open channel's game only
    seen = await record(bob, fake.channel_id, **about_zora)
    assert "All games: 1 game," in seen, seen
    # asked in the staff channel or its game's thread (who asks there can view it): both
    for where in (secret, hidden_at):
        seen = await record(bob, where, **about_zora)
        assert "All games: 2 games," in seen, seen
    # her own record, wherever she asks (with or without naming herself): every game
    for options in ({}, about_zora):
        seen = await record(zora, fake.channel_id, **options)
        assert "All games: 2 games," in seen, seen


async def test_history_lists_ten_past_many_newer_private_games(
        fake: FakeDiscord, any_harness: BotHarness) -> None:
    """A server whose newest fifty finished games are a staff channel's: ``history`` in the
    open channel still lists its ten newest listed games (a read of four times the limit,
    then a filter, listed none), and in the staff channel the staff channel's newest ten."""
    harness = any_harness
    bob = fake.add_user("bob")
    secret = fake.add_channel()
    fake.hide(secret)
    await harness.start(seed=5, game_threads=True)
    for where in (fake.channel_id, secret):  # the bot notes who may view each
        await fake.slash(bob, "sanmarco-server history", channel_id=where)
    service = harness.bot.service  # type: ignore[attr-defined]
    players = ["100", "200", "300"]
    listed = [await finish(service, players, ["100"], {"100": 1}, guild=fake.guild_id,
                           channel=fake.channel_id, at=1000.0 + k) for k in range(12)]
    hidden = [await finish(service, players, ["100"], {"100": 1}, guild=fake.guild_id,
                           channel=secret, at=2000.0 + k) for k in range(50)]
    rec = await fake.slash(bob, "sanmarco-server history", channel_id=fake.channel_id)
    assert numbers(rec.response.content) == set(listed[2:]), rec.response.content
    rec = await fake.slash(bob, "sanmarco-server history", channel_id=secret)
    assert numbers(rec.response.content) == set(hidden[-10:]), rec.response.content
