"""Posts known by their ids, across restarts (issue 37 items 2, 4, 5, 6, 7): renames
remembered by a restarted bot, pings a catch-up owes reaching a message, reminders that are
never taken for an earlier one, reads that fail or come back empty, long backlogs. Through
the real discord.py client against the fake Discord (games in threads, the default, first)."""

from __future__ import annotations

import logging
import re

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord import scenarios_posts as sp
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import findings


async def _clean(fake: FakeDiscord, run: sp.sc.Run) -> None:
    """Every saved change shown once: nothing lost, nothing twice."""
    assert await run.until_caught_up() is not None
    found = await findings(fake, run.service, run.channels, acts=run.acts,
                           expected=run.expected)
    assert not any(f.lost or f.duplicates for f in found), found


async def test_a_restart_between_two_renames_and_a_third_sends_none_into_the_closed_window(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A four-seat lobby in a thread renamed twice (bob's and cid's joins), the bot
    restarted, then dan joins: the third rename waits for Discord's window (no 429), the
    lobby post is current at once, and once the window is over the thread is renamed."""
    run = await sp.restart_between_renames(fake, harness)
    thread = run.channels[0]
    assert fake.rename_refusals == []
    assert len(fake.renames[thread]) == 2 and not fake.threads[thread].name.endswith("dan")
    assert "4/4" in fake.channel_messages(thread)[0].content
    run.now[0] += 601
    fake.clock.advance(601)
    await run.passes(1, every=0.0)
    await until(lambda: fake.threads[thread].name.endswith("cid, dan"),
                what="the third rename once the window is over")
    assert fake.rename_refusals == []


async def test_a_rename_discord_refuses_anyway_never_holds_a_post(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """A moderator renamed the thread twice (the bot knows nothing of it): the bot's rename
    is refused 429 with ~600 s to wait; discord.py raises it at once (no sleep on it), the
    rename waits that long, and the move behind it is posted."""
    caplog.set_level(logging.INFO)
    run = await sp.rename_refused_by_discord(fake, harness)
    thread = run.channels[0]
    assert fake.rename_refusals == [thread]
    fake.rename_refusals.clear()  # the one Discord refused: the bot could not know
    await _clean(fake, run)
    assert re.search(r"holds its rename back for \d+ s", caplog.text)  # retry_after read


async def test_a_seat_handed_over_in_an_outage_pings_its_new_player_past_the_rename(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Two decisions at once in a thread game; Discord fails every post; one player hands
    the seat to eve (a ping owed by the catch-up, and a rename behind it), the other
    decides: when Discord answers again eve is pinged, however the rename is sent."""
    run = await sp.handed_over_in_outage(fake, harness)
    thread = run.channels[0]
    assert sp.pinged_since(fake, thread, fake.users["eve"].id, run.recovered)
    await _clean(fake, run)
    # the rename waits for Discord's window (two renames for the joins): the pings went
    assert [p.post.kind for p in await run.service.pending_posts(thread)] == ["thread"]


async def test_every_reminder_of_a_long_turn_is_shown_though_one_met_an_outage(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Four reminders in two days, the second refused (503) and tried again past Discord's
    nonce window: four reminder posts, none taken for the one before it."""
    run = await sp.reminder_refused_in_outage(fake, harness)
    assert sp.reminders_shown(fake, run.channels[0], run.began) == 4
    await _clean(fake, run)


async def test_a_post_stored_then_told_as_catch_up_text_is_known_by_its_id(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A move's post stored then answered 502, tried again as a catch-up's text past the
    nonce window: Discord has it whole, so it is not shown again."""
    run = await sp.stored_then_told_as_text(fake, harness)
    await _clean(fake, run)


async def test_a_history_read_that_fails_is_tried_again(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sp.history_read(fake, harness, "5xx")
    await _clean(fake, run)
    assert fake.faults.count(route=sp.HISTORY, status=503, injected=True) == 1


async def test_a_history_read_empty_for_lack_of_read_message_history_is_named_once(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """Without Read Message History Discord answers the read with no messages: the post
    goes again (a duplicate, the lesser evil) and the missing permission is named once."""
    caplog.set_level(logging.INFO)
    run = await sp.history_read(fake, harness, "empty")
    assert await run.until_caught_up() is not None
    named = [r for r in caplog.records if "Read Message History" in r.getMessage()]
    assert len(named) == 1 and named[0].levelno == logging.WARNING


async def test_150_waiting_posts_go_in_two_text_messages_then_the_board(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """150 posts (moves, then settings notes) committed while no deliverer ran (more than
    the 100 read at a time): at most two text messages, the counted posts said (here on
    the board of the last move, which goes whole: the notes behind it are told after it)."""
    run, waiting = await sp.long_backlog(fake, harness, posts=150, deliver=False)
    posted = len(fake.channel_messages(run.channels[0]))
    assert waiting == 150
    await harness.bot.get_cog("SanMarco").deliverer.resume()  # type: ignore[union-attr]
    assert await run.until_caught_up() is not None
    new = fake.channel_messages(run.channels[0])[posted:]
    texts = [m for m in new if not m.custom_ids()]
    assert len(texts) <= 2, [m.content[:60] for m in new]
    boards = [m for m in new if m.attachments()]
    assert len(boards) == 1 and "more things happened here" in boards[0].content
    assert new[0] is boards[0] and len(new) <= 4  # the board, the notes told, the newest
    await _clean(fake, run)


async def test_a_whole_game_in_a_thread_with_a_restart_meets_no_refusal(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Joins renaming the thread, a restart, a third join, the game played to its end by
    the computers and the thread archived: Discord refuses no request (no 429)."""
    run = await sp.whole_game_with_restart(fake, harness)
    assert fake.faults.limit_reached, "the channel's post limit never came into play"
    assert sp.refused(fake) == 0, fake.faults.answered
    assert fake.threads[run.channels[0]].archived
