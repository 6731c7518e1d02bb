"""A thread per game: ``/sanmarco game new`` in a text channel opens the game in a new public
thread of it (the lobby its first post, a one-line pointer in the channel), named after the
game's number and seats and renamed within Discord's two renames per ten minutes, archived
once the game is over; any number of games per channel. Through the real discord.py client
against the fake Discord, which makes threads as Discord does (``tests/fakediscord/
threads.py``); every test also checks at teardown that each post naming who acts next ends
with it and carries that decision's buttons (``invariants.all_prompt_problems``)."""

from __future__ import annotations

import asyncio
import re

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service.errors import Code
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import check_invariants, findings, prompt_problems
from tests.fakediscord.messages import BOT_PERMISSIONS
from tests.fakediscord.players import Table

NEW = "sanmarco game new"
WEEK = 10080  # minutes: the longest auto-archive Discord offers


def thread_of(rec: InteractionRecord) -> int:
    """The thread the private answer to opening a game names."""
    found = re.search(r"<#(\d+)>", rec.response.content)
    assert found, rec.response.content
    return int(found[1])


async def lobby_in(fake: FakeDiscord, thread: int) -> FakeMessage:
    """The lobby: the first post of the game's thread."""
    await until(lambda: bool(fake.channel_messages(thread)), what="the lobby is posted")
    return fake.channel_messages(thread)[0]


async def open_in_thread(fake: FakeDiscord, users: list[FakeUser], *, seats: int = 3,
                         start: bool = True) -> tuple[int, FakeMessage]:
    """``/sanmarco game new`` in the first channel, the others Join, the opener Starts."""
    rec = await fake.slash(users[0], NEW, seats=seats)
    thread = thread_of(rec)
    lobby = await lobby_in(fake, thread)
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    if start:
        await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    return thread, lobby


async def test_three_games_at_once_in_threads_of_one_channel_played_to_the_end(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Nine players, one channel, three games: each its own thread (a week's auto-archive,
    the lobby its first post, named "San Marco #n · ann, bob, cid" after its seats), one
    pointer line each in the channel; all three played to the end by buttons at the same
    time, and each thread archived once its game is over."""
    names = ("ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal", "ida")
    users = [fake.add_user(n) for n in names]
    await harness.start(seed=11, game_threads=True)
    service = harness.bot.service  # type: ignore[union-attr]
    tables: list[Table] = []
    for k in range(3):
        seated = users[3 * k:3 * k + 3]
        thread, lobby = await open_in_thread(fake, seated)
        tables.append(Table(fake, seated, channel_id=thread))
        assert fake.threads[thread].parent_id == fake.channel_id
        number = (await service.status(thread)).game_id
        want = f"San Marco #{number} · " + ", ".join(u.name for u in seated)
        await until(lambda t=thread, w=want: fake.threads[t].name == w,  # type: ignore[misc]
                    what="the thread is named after its seats")
    made = fake.made_threads
    assert [m["auto_archive_duration"] for m in made] == [WEEK] * 3
    assert [m["type"] for m in made] == [11] * 3  # public threads
    pointers = fake.channel_messages(fake.channel_id)
    assert [re.findall(r"<#(\d+)>", m.content) for m in pointers] == [
        [str(t.channel_id)] for t in tables]
    assert all("opened San Marco #" in m.content and not m.custom_ids() for m in pointers)

    async def play(table: Table) -> None:
        for _ in range(400):
            if not await table.step():
                return
        raise AssertionError("the game did not end")

    await asyncio.gather(*(play(table) for table in tables))  # the three at once
    await harness.settle()
    for table in tables:
        thread = table.channel_id
        assert thread is not None
        assert (await service.status(thread)).finished
        await until(lambda t=thread: fake.threads[t].archived,  # type: ignore[misc]
                    what="a finished game's thread is archived")
        assert not prompt_problems(fake.channel_messages(thread))
    for found in await findings(fake, service, [t.channel_id for t in tables
                                                if t.channel_id]):
        # (a long post tells the first of its events and refers to the log for the rest,
        # so "every version shown" is the outage tests' to check, on short games)
        assert not found.duplicates and not found.stale and not found.unpinged, \
            found.problems()
    assert len(fake.channel_messages(fake.channel_id)) == 3  # nothing else in the channel


async def test_a_game_whose_thread_discord_archived_goes_on_at_the_next_move(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Discord archives a thread nobody posted in for its auto-archive time: the next move,
    made by a button of its last post, counts and its post lands (the thread opened again),
    pinging whoever is awaited."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    await harness.start(seed=5, game_threads=True)
    thread, _ = await open_in_thread(fake, users)
    table = Table(fake, users, channel_id=thread)
    assert await table.step()
    await harness.settle()
    await fake.archive(thread)
    before = len(fake.channel_messages(thread))
    assert await table.step()  # a click in the archived thread
    await until(lambda: len(fake.channel_messages(thread)) > before,
                what="the move's post in the archived thread")
    assert not fake.threads[thread].archived
    service = harness.bot.service  # type: ignore[union-attr]
    await check_invariants(fake, service, [thread], acts=table.interactions)


async def test_seats_rename_the_thread_within_discords_two_renames_per_ten_minutes(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Three joins to a four-seat lobby in quick succession: the thread is renamed twice at
    once and the third rename waits for Discord's ten minutes (the lobby's post is current
    meanwhile); a rename a later change makes moot is never made."""
    now = [1_700_000_000.0]
    users = [fake.add_user(n) for n in ("ann", "bob", "cid", "dan")]
    await harness.start(seed=5, game_threads=True, clock=lambda: now[0])
    thread, lobby = await open_in_thread(fake, users, seats=4, start=False)
    await until(lambda: "4/4" in lobby.content, what="the lobby shows four seats taken")
    await until(lambda: len(fake.renames.get(thread, [])) == 2, what="two renames")
    number = (await harness.bot.service.status(thread)).game_id  # type: ignore[union-attr]
    assert fake.threads[thread].name == f"San Marco #{number} · ann, bob, cid"
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    now[0] += 601  # Discord's ten minutes are over: the last rename is made
    fake.clock.advance(601)
    await cog.reminders.run_once()
    await until(lambda: fake.threads[thread].name.endswith("cid, dan"),
                what="the third rename")
    assert fake.rename_refusals == []
    # dan leaves and joins again before the outbox runs: the rename the leave asked for is
    # moot, none is made (the name is right as it is)
    service = harness.bot.service  # type: ignore[union-attr]
    await service.leave(thread, str(users[3].id))
    await service.join(thread, str(users[3].id), name="dan")
    await cog.reminders.run_once()
    assert len(fake.renames[thread]) == 3 and fake.threads[thread].name.endswith("cid, dan")
    assert "4/4" in lobby.content


async def test_an_abandoned_lobby_loses_its_buttons_and_its_thread_is_archived(
        fake: FakeDiscord, harness: BotHarness) -> None:
    users = [fake.add_user(n) for n in ("ann", "bob")]
    fake.bot_permissions |= BOT_PERMISSIONS["manage_threads"]  # it may lock threads too
    await harness.start(seed=5, game_threads=True)
    thread, lobby = await open_in_thread(fake, users, start=False)
    await fake.slash(users[0], "sanmarco game abandon", channel_id=thread)
    await until(lambda: fake.threads[thread].archived, what="the thread is archived")
    assert fake.threads[thread].locked  # where the bot may: nobody posts there any more
    assert lobby.custom_ids() == [] and "closed: it was abandoned" in lobby.content


async def test_run_inside_a_thread_the_game_lives_there_and_the_setting_keeps_one_per_channel(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """In a thread a member made, ``/sanmarco game new`` opens the game right there (no new
    thread, never renamed or archived: it is theirs); with games in threads off for a
    channel, the game lives in the channel, one at a time."""
    mod = fake.add_user("mod", manage_channels=True)
    ann = fake.add_user("ann")
    own = fake.add_thread(fake.channel_id, name="our games")
    await harness.start(seed=5, game_threads=True)
    await fake.slash(ann, NEW, channel_id=own)
    await until(lambda: bool(fake.channel_messages(own)), what="the lobby in the thread")
    assert fake.made_threads == [] and fake.threads[own].name == "our games"
    rec = await fake.slash(mod, "sanmarco-server settings", channel_id=fake.other_channel_id,
                           threads=False)
    assert rec.response.content == text.posted(EN)
    shown = await fake.slash(ann, "sanmarco-server settings",
                             channel_id=fake.other_channel_id)
    assert text.threads_line(EN, False) in shown.response.content
    await fake.slash(ann, NEW, channel_id=fake.other_channel_id)
    await until(lambda: any(m.custom_ids() for m in fake.channel_messages(
        fake.other_channel_id)), what="the lobby in the channel")
    assert fake.made_threads == []
    again = await fake.slash(mod, NEW, channel_id=fake.other_channel_id)
    assert again.response.content == text.refusal(EN, Code.GAME_EXISTS)


# ---------------------------------------------------------------------- refusals
async def test_a_full_server_and_a_missing_permission_are_told_and_nothing_is_made(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Discord's 1,000 active threads reached (160006), or the bot without Create Public
    Threads or Send Messages in Threads: the player reads why, in one sentence, and no
    lobby or thread is left behind."""
    ann = fake.add_user("ann")
    await harness.start(seed=5, game_threads=True)
    service = harness.bot.service  # type: ignore[union-attr]
    fake.thread_limit = 0  # the server's active threads are at Discord's limit
    rec = await fake.slash(ann, NEW)
    assert rec.response.content == text.refusal(EN, Code.THREAD_LIMIT)
    assert [r.code for r in fake.requests if r.route.endswith("/threads")] == [160006]
    fake.thread_limit = 1000
    for permission, name in (("create_public_threads", "Create Public Threads"),
                             ("send_messages_in_threads", "Send Messages in Threads")):
        fake.deny(fake.channel_id, permission)
        rec = await fake.slash(ann, NEW)
        assert rec.response.content == text.refusal(EN, Code.THREAD_PERMISSION,
                                                    {"permission": permission})
        assert f"**{name}**" in rec.response.content
        fake.allow(fake.channel_id)
    assert fake.made_threads == [] and await service.lobbies(fake.guild_id) == []
    rec = await fake.slash(ann, NEW)  # all is well again
    assert rec.response.content.startswith("Done: San Marco #")


async def test_the_servers_lobbies_are_listed_with_their_free_seats_and_links(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
    await harness.start(seed=5, game_threads=True)
    empty = await fake.slash(cid, "sanmarco-server lobbies")
    assert empty.response.content == text.lobbies_text(EN, [])
    first, lobby = await open_in_thread(fake, [ann, bob], seats=4, start=False)
    second = thread_of(await fake.slash(bob, NEW, channel_id=fake.other_channel_id))
    await lobby_in(fake, second)
    listed = (await fake.slash(cid, "sanmarco-server lobbies")).response.content
    lines = listed.splitlines()[1:]
    assert len(lines) == 2
    assert f"<#{first}>" in lines[0] and "2 seats free" in lines[0]
    assert f"<#{second}>" in lines[1] and "2 seats free" in lines[1]
    assert "discord.com/channels/" in lines[0]  # the link to its post
