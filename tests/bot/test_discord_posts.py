"""Posts known by their ids, across restarts (issue 37 items 2, 4, 5, 6, 7): renames
remembered by a restarted bot, pings a catch-up owes reaching a message, reminders that are
never taken for an earlier one, reads that fail or come back empty, long backlogs. Through
the real discord.py client against the fake Discord (games in threads, the default, first)."""

from __future__ import annotations

import logging

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
    assert "holds its rename back" in caplog.text


async def test_a_seat_handed_over_in_an_outage_pings_its_new_player_past_the_rename(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Two decisions at once in a thread game; Discord fails every post; one player hands
    the seat to eve (a ping owed by the catch-up, and a rename behind it), the other
    decides: when Discord answers again eve is pinged, however the rename is sent."""
    run = await sp.handed_over_in_outage(fake, harness)
    thread = run.channels[0]
    assert sp.pinged_since(fake, thread, fake.users["eve"].id, run.recovered)
    # the rename waits for Discord's window (two renames for the joins): the pings went
    assert [p.post.kind for p in await run.service.pending_posts(thread)] == ["thread"]
