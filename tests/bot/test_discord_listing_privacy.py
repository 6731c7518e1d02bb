"""``/sanmarco-server history``, ``lobbies`` and ``leaderboard`` follow the server page's rule
(issue 36 item 5, DESIGN "private things are reachable by their owners only"), through the
real discord.py client against the fake Discord, games in threads (the default): a member
hears of the games of channels every member may view, and of the place they ask in (a
channel and its public threads, or a thread and its channel) — never of another private
channel's or a private thread's games, players or lobbies, nor plays one back by number;
the leaderboard ranks the listed channels' players only (no one known only from a private
channel)."""

from __future__ import annotations

import re

from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness, until

NUMBER = re.compile(r"(?<![<\d])#(\d+)")  # a game's number, not a channel's mention


def numbers(content: str) -> set[int]:
    return {int(n) for n in NUMBER.findall(content)}


async def _lobby(fake: FakeDiscord, user: FakeUser, channel: int, **options: object) -> int:
    """``user`` opens a lobby in ``channel`` (its new thread, or the thread itself);
    returns where it is."""
    rec = await fake.slash(user, "sanmarco game new", channel_id=channel, **options)
    found = re.search(r"<#(\d+)>", rec.response.content)
    place = int(found[1]) if found else channel
    await until(lambda: bool(fake.channel_messages(place)), what="the lobby")
    return place


async def _finished(fake: FakeDiscord, harness: BotHarness, user: FakeUser,
                    channel: int) -> tuple[int, int]:
    """``user`` and two computers play a game in ``channel``'s thread to its end (``user``
    hands the seat to a computer); returns the thread and the game's number."""
    place = await _lobby(fake, user, channel, seats=3, computers=2, level="easy")
    await fake.slash(user, "sanmarco game start", channel_id=place)
    await harness.settle()
    service = harness.bot.service  # type: ignore[attr-defined]
    number = (await service.status(place)).game_id
    await fake.slash(user, "sanmarco seat replace", channel_id=place, player=str(user.id))
    await harness.settle()
    assert (await service.status(place)).finished
    return place, int(number)


async def test_history_lobbies_and_leaderboard_name_a_private_channels_games_only_there(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, zora = fake.add_user("ann"), fake.add_user("zora")  # zora plays in private only
    lia, kim = fake.add_user("lia"), fake.add_user("kim")  # their lobbies wait
    bob = fake.add_user("bob")  # a member who asks
    secret = fake.add_channel()
    fake.hide(secret)  # @everyone may not view it: a staff channel
    corner = fake.add_thread(fake.channel_id, name="our corner")
    fake.threads[corner].private = True  # a private thread of the open channel
    fake.threads[corner].members |= {kim.id}
    await harness.start(seed=5, game_threads=True)
    shown_at, shown = await _finished(fake, harness, ann, fake.channel_id)
    hidden_at, hidden = await _finished(fake, harness, zora, secret)
    assert fake.threads[hidden_at].parent_id == secret
    await _lobby(fake, lia, fake.channel_id, seats=4)
    await _lobby(fake, zora, secret, seats=4)
    await _lobby(fake, kim, corner, seats=4)
    await harness.settle()
    service = harness.bot.service  # type: ignore[attr-defined]
    lobby_of = {lob.players[0]: lob.game_id for lob in await service.lobbies(fake.guild_id)}
    open_lobby, staff_lobby, corner_lobby = (lobby_of[str(u.id)] for u in (lia, zora, kim))

    async def ask(user: FakeUser, command: str, channel: int) -> str:
        rec = await fake.slash(user, command, channel_id=channel)
        assert rec.ephemeral
        return rec.response.content

    # a member in the open channel (or its game's thread): the open channel's only
    for where in (fake.channel_id, shown_at):
        history = await ask(bob, "sanmarco-server history", where)
        assert numbers(history) == {shown} and str(zora.id) not in history
        lobbies = await ask(bob, "sanmarco-server lobbies", where)
        assert numbers(lobbies) == {open_lobby}, lobbies
        assert str(zora.id) not in lobbies and str(kim.id) not in lobbies
    board = await ask(bob, "sanmarco-server leaderboard", fake.channel_id)
    assert f"<@{ann.id}>" in board and str(zora.id) not in board
    rated = await service.leaderboard(fake.guild_id, listed=True)
    assert str(ann.id) in {r.player for r in rated}
    assert str(zora.id) not in {r.player for r in rated}
    # asked in the staff channel, or its game's thread: its games too (who asks there can
    # view it); never the private thread's lobby elsewhere
    for where in (secret, hidden_at):
        assert numbers(await ask(zora, "sanmarco-server history", where)) == {shown, hidden}
        assert numbers(await ask(zora, "sanmarco-server lobbies", where)) == {
            open_lobby, staff_lobby}
    # the private thread's lobby is told inside it only
    assert numbers(await ask(kim, "sanmarco-server lobbies", corner)) == {
        open_lobby, corner_lobby}
    # by number, a game is played back where history names it; elsewhere it is a number
    # that names no game (nothing of it told)
    for command in ("sanmarco-server gamefile", "sanmarco-server replay"):
        rec = await fake.slash(bob, command, channel_id=fake.channel_id, game=hidden)
        assert "no finished game by that number" in rec.response.content
        assert not rec.response.files
    rec = await fake.slash(zora, "sanmarco-server gamefile", channel_id=secret, game=hidden)
    assert rec.response.files
    rec = await fake.slash(bob, "sanmarco-server gamefile", channel_id=hidden_at, game=shown)
    assert rec.response.files  # a listed game: from anywhere
    # the leaderboard is the server's, wherever it is asked: listed games only
    assert str(zora.id) not in await ask(zora, "sanmarco-server leaderboard", secret)
    # once the staff channel is opened to everyone, everyone hears of its games
    fake.hide(secret, False)
    await fake.announce(secret)
    await until(lambda: harness.bot.get_channel(secret).permissions_for(  # type: ignore
        harness.bot.get_guild(fake.guild_id).default_role).view_channel,  # type: ignore
        what="the bot's cache knows the change")
    await ask(zora, "sanmarco-server history", secret)  # an interaction there: noted
    await harness.settle()
    assert numbers(await ask(bob, "sanmarco-server history", fake.channel_id)) == {
        shown, hidden}
    assert f"<@{zora.id}>" in await ask(bob, "sanmarco-server leaderboard", fake.channel_id)
