"""Finding players and playing again, through the real discord.py client against the fake
Discord: ``/sanmarco-server queue join|leave|list`` (a table found opens its game in a new
thread, seated and started, everyone pinged), an entry that expires after a day, tables
computers fill after a wait, and the final post's Rematch (a new lobby in a new thread, the
same players asked back, each seated when they press Join)."""

from __future__ import annotations

import re

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import FILL_AFTER
from bot.service.errors import Code
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import prompt_problems
from tests.fakediscord.messages import FakeUser
from tests.fakediscord.players import awaited_ids

JOIN = "sanmarco-server queue join"
LIST = "sanmarco-server queue list"
HOUR = 3600.0


def thread_named(content: str) -> int:
    found = re.search(r"<#(\d+)>", content)
    assert found, content
    return int(found[1])


async def first_post(fake: FakeDiscord, thread: int) -> FakeMessage:
    await until(lambda: bool(fake.channel_messages(thread)), what="the thread's first post")
    return fake.channel_messages(thread)[0]


async def test_the_queue_forms_a_four_player_game_from_four_seeks_across_two_channels(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Four players ask for a table of four, two in each of two channels; the fourth
    completes it: the game opens in a new thread of that player's channel, all four seated
    and the game started, its first post pinging every one of them (and naming who acts
    next, with the buttons of that decision); the queue is empty again."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cid", "dan")]
    await harness.start(seed=7, game_threads=True)
    service = harness.bot.service  # type: ignore[union-attr]
    here, there = fake.channel_id, fake.other_channel_id
    for n, (user, channel) in enumerate(zip(users[:3], (here, here, there), strict=True)):
        rec = await fake.slash(user, JOIN, channel_id=channel, players=4)
        assert rec.response.content.startswith("You are in this server's queue (4 players)")
        assert f"{n + 1} of 4 waiting" in rec.response.content
    listed = (await fake.slash(users[3], LIST, channel_id=there)).response.content
    assert all(f"<@{u.id}>" in listed for u in users[:3])
    rec = await fake.slash(users[3], JOIN, channel_id=there, players=4)
    thread = thread_named(rec.response.content)
    assert rec.response.content.startswith("Your table is complete: San Marco #")
    assert fake.threads[thread].parent_id == there  # where the table was completed
    status = await service.status(thread)
    assert status.status == "running" and set(status.players) == {str(u.id) for u in users}
    post = await first_post(fake, thread)
    assert post.pinged() >= {u.id for u in users}  # everyone, not only who acts first
    assert text.found_in_queue(EN, [str(u.id) for u in users], 0) in post.content
    assert awaited_ids(post) and not prompt_problems([post])
    await until(lambda: any(f"<#{thread}>" in m.content for m in fake.channel_messages(there)),
                what="the pointer in the channel")
    assert fake.threads[thread].name == f"San Marco #{status.game_id} · ann, bob, cid, dan"
    assert fake.renames.get(thread) is None  # named once, as it was made
    assert await service.queue(fake.guild_id) == []
    empty = await fake.slash(users[0], LIST)
    assert empty.response.content == text.queue_text(EN, [])


async def test_a_second_seek_is_refused_and_leave_takes_the_player_out(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann = fake.add_user("ann")
    await harness.start(seed=7, game_threads=True)
    await fake.slash(ann, JOIN, players=3)
    again = await fake.slash(ann, JOIN, channel_id=fake.other_channel_id, players=4)
    assert again.response.content == text.refusal(EN, Code.QUEUE_ALREADY)
    left = await fake.slash(ann, "sanmarco-server queue leave")
    assert left.response.content == text.queue_left(EN)
    left = await fake.slash(ann, "sanmarco-server queue leave")
    assert left.response.content == text.refusal(EN, Code.NOT_SEEKING)


async def test_a_seek_without_the_thread_permissions_is_refused(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann = fake.add_user("ann")
    await harness.start(seed=7, game_threads=True)
    fake.deny(fake.channel_id, "create_public_threads")
    rec = await fake.slash(ann, JOIN, players=3)
    assert rec.response.content == text.refusal(EN, Code.THREAD_PERMISSION,
                                                {"permission": "create_public_threads"})
    assert await harness.bot.service.queue(fake.guild_id) == []  # type: ignore[union-attr]


async def test_a_queue_entry_expires_after_a_day_and_computers_fill_after_a_wait(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """An entry a day old is gone (the list no longer shows it, nobody is matched with it);
    a player who lets computers fill gets a game with computers after a wait, in a thread of
    the channel they asked in, started at once."""
    now = [1_700_000_000.0]
    ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
    await harness.start(seed=7, game_threads=True, clock=lambda: now[0])
    service = harness.bot.service  # type: ignore[union-attr]
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    await fake.slash(ann, JOIN, players=3)
    now[0] += 25 * HOUR
    assert await service.queue(fake.guild_id) == []  # expired: not shown
    for user in (bob, cid):
        rec = await fake.slash(user, JOIN, players=3, channel_id=fake.other_channel_id)
        assert "of 3 waiting" in rec.response.content  # ann is not counted any more
    await cog.reminders.run_once()
    assert [s.pid for s in await service.queue(fake.guild_id)] == [str(bob.id), str(cid.id)]
    rows = await service.store.query_sql("SELECT pid FROM seekers")
    assert (str(ann.id),) not in rows  # dropped by the periodic pass
    await fake.slash(ann, "sanmarco-server queue leave", channel_id=fake.other_channel_id)
    await fake.slash(cid, "sanmarco-server queue leave", channel_id=fake.other_channel_id)
    await fake.slash(ann, JOIN, players=3, computers=True)
    now[0] += FILL_AFTER + 60  # ann has waited long enough: computers take the seats
    await cog.reminders.run_once()
    thread = fake.made_threads[-1]["id"]
    assert fake.threads[thread].parent_id == fake.channel_id
    post = await first_post(fake, thread)
    assert ann.id in post.pinged()
    status = await service.status(thread)
    assert status.status == "running" and len(status.computers) == 2
    assert [s.pid for s in await service.queue(fake.guild_id)] == [str(bob.id)]


async def _started_with_a_computer(fake: FakeDiscord, harness: BotHarness, ann: FakeUser,
                                   bob: FakeUser) -> int:
    """A game in a thread (the bot's default) of ann, bob and a computer, started: its
    thread."""
    await harness.start(seed=7, game_threads=True)
    rec = await fake.slash(ann, "sanmarco game new", computers=1)
    thread = thread_named(rec.response.content)
    lobby = await first_post(fake, thread)
    await fake.click(bob, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    return thread


async def _final_post(fake: FakeDiscord, thread: int) -> FakeMessage:
    """The game's final post, once it is there."""
    await until(lambda: any("Game over!" in m.content for m in fake.channel_messages(thread)),
                what="the final post")
    return next(m for m in fake.channel_messages(thread) if "Game over!" in m.content)


async def test_rematch_opens_a_new_lobby_in_a_new_thread_with_the_same_players_asked_back(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """ann and bob play with a computer; both hand their seats to the computer, which plays
    to the end. bob presses Rematch on the final post: a new lobby in a new thread of the
    same channel, bob its opener, the computer seated again, ann asked back (pinged) and
    seated when she presses Join; the finished game's thread is archived; a second press
    finds the rematch already open."""
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    thread = await _started_with_a_computer(fake, harness, ann, bob)
    service = harness.bot.service  # type: ignore[union-attr]
    for user in (ann, bob):
        await fake.slash(user, "sanmarco seat replace", channel_id=thread, player=str(user.id))
    final = await _final_post(fake, thread)
    assert [c["label"] for c in final.all_components()] == ["Rematch", "Replay", "Game file",
                                                            "My review"]
    await until(lambda: fake.threads[thread].archived, what="the finished game's thread")
    pressed = await fake.click(bob, final, final.component("again")["custom_id"])
    again = thread_named(pressed.private[-1].content)
    assert pressed.private[-1].content.startswith("Rematch: San Marco #")
    assert again != thread and fake.threads[again].parent_id == fake.channel_id
    rematch = await first_post(fake, again)
    assert ann.id in rematch.pinged() and f"<@{ann.id}>" in rematch.content
    status = await service.status(again)
    assert status.creator == str(bob.id) and len(status.players) == 2  # bob and the computer
    await fake.click(ann, rematch, rematch.component("join")["custom_id"])
    await until(lambda: "3/3" in rematch.content, what="ann seated")
    assert "Asked back" not in rematch.content  # everyone asked back is seated
    second = await fake.click(ann, final, final.component("again")["custom_id"])
    assert second.private[-1].content == text.refusal(EN, Code.REMATCH_OPEN,
                                                      {"channels": str(again)})
    assert len(fake.made_threads) == 2
    pointer = fake.channel_messages(fake.channel_id)[-1]
    assert f"<#{again}>" in pointer.content and "rematch" in pointer.content


async def test_a_player_who_handed_their_seat_over_may_ask_for_the_rematch(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """ann hands her seat to cid mid-game (`/sanmarco seat replace`); bob and cid then hand
    theirs to the computer, which plays to the end. ann, listed in the game's history,
    presses Rematch (she read "Only this game's players can ask for a rematch."): a new
    lobby opens with ann seated in the seat she played and bob asked back; cid, who took
    ann's seat over, is not asked (the seats are the game's)."""
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    thread = await _started_with_a_computer(fake, harness, ann, bob)
    service = harness.bot.service  # type: ignore[union-attr]
    await fake.slash(ann, "sanmarco seat replace", channel_id=thread, player=str(ann.id),
                     by=cid)
    for user in (bob, cid):
        await fake.slash(user, "sanmarco seat replace", channel_id=thread, player=str(user.id))
    final = await _final_post(fake, thread)
    pressed = await fake.click(ann, final, final.component("again")["custom_id"])
    assert pressed.private[-1].content.startswith("Rematch: San Marco #"), \
        [m.content for m in pressed.private]
    again = thread_named(pressed.private[-1].content)
    rematch = await first_post(fake, again)
    assert bob.id in rematch.pinged() and cid.id not in rematch.pinged()
    status = await service.status(again)
    assert status.creator == str(ann.id)
    assert str(ann.id) in status.players and str(cid.id) not in status.players
