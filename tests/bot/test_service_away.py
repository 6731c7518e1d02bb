"""Players away from a server's games, through the service on both stores with an injected
clock: a holiday is not a no-show. While away, a player's decisions are not timed out (up to
the channel's cap from each decision's start, then the timer runs as usual) and they are not
reminded; a vote to replace them opens only after the cap; coming back early gives them the
whole timer again from then; every running game of theirs on the server is told."""

from __future__ import annotations

import pytest

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import MAX_AWAY, GameService
from bot.service._timers import decision_due
from bot.service.errors import Code, ServiceError
from bot.service.posts import CameBack, Post, PostKind, WentAway
from bot.store import Settings

from .test_service import HOUR, Clock
from .test_service_days import _refused, _service, _start

A, B, C, D = "111", "222", "333", "444"
DAY = 24 * HOUR


async def _posts(svc: GameService, channel: int = 10) -> list[Post]:
    return [p.post for p in await svc.pending_posts(channel)]


async def _awaited(svc: GameService, channel: int = 10) -> str:
    return next(iter((await svc.status(channel)).awaiting))


# ---------------------------------------------------------------------- the moment
def test_the_moment_a_decision_times_out_for_a_player_away() -> None:
    """The turn timer counts an away player's decision from their return, within the
    channel's cap from the decision's start; a cap of 0 does not wait."""
    six = Settings(1, turn_timer_hours=6)
    t = 1_000_000.0
    assert decision_due(t, six) == t + 6 * HOUR
    assert decision_due(t, six, t - HOUR) == t + 6 * HOUR  # back before it started
    assert decision_due(t, six, t + 5 * DAY) == t + 3 * DAY  # away past the cap
    assert decision_due(t, six, t + DAY) == t + DAY + 6 * HOUR  # back within it: a new timer
    assert decision_due(t, six, t + 3 * DAY - HOUR) == t + 3 * DAY  # never past the cap
    long = Settings(1, turn_timer_hours=96)
    assert decision_due(t, long, t + 5 * DAY) == t + 96 * HOUR  # the timer is longer
    assert decision_due(t, Settings(1, turn_timer_hours=6, away_cap_hours=0),
                        t + 5 * DAY) == t + 6 * HOUR
    assert decision_due(t, Settings(1), t + DAY) is None  # no timer at all
    # the cap never ends inside quiet hours (UTC 22-07 here): it ends when they end
    quiet = Settings(1, turn_timer_hours=6, quiet_start=22, quiet_end=7,
                     away_cap_hours=23)
    start = 1_700_006_400.0  # 2023-11-15 00:00 UTC, inside quiet hours
    assert decision_due(start, quiet) == start + 13 * HOUR  # 07:00 + 6 hours
    assert decision_due(start, quiet, start + 5 * DAY) == start + 31 * HOUR  # 07:00 next


# ---------------------------------------------------------------------- the timer
async def test_away_five_days_with_a_six_hour_timer_waits_the_cap_then_times_out(
        db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.set_settings(10, turn_timer_hours=6, reminder_hours=0)
        first = await _start(svc)
        [absent] = first.view["waiting_for"]
        started = clock.t
        away = await svc.set_away(1, absent, clock.t + 5 * DAY)
        assert (away.until, [g.channel_id for g in away.games]) == (clock.t + 5 * DAY, [10])
        clock.t = started + 6 * HOUR + 1  # the timer alone would have run out
        assert await svc.due_timers(clock.t) == []
        clock.t = started + 3 * DAY - 1
        assert await svc.due_timers(clock.t) == []
        clock.t = started + 3 * DAY  # the channel's cap: the timer runs as usual
        [due] = await svc.due_timers(clock.t)
        assert due.pids == (absent,)
        out = await svc.time_out(10, game_id=due.game_id, version=due.version)
        assert [p for p, _ in out.defaults] == [absent]
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_back_early_gives_the_whole_timer_again_from_then(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.set_settings(10, turn_timer_hours=6, reminder_hours=0)
        first = await _start(svc)
        [absent] = first.view["waiting_for"]
        started = clock.t
        await svc.set_away(1, absent, clock.t + 5 * DAY)
        clock.t = started + 7 * HOUR
        assert await svc.due_timers(clock.t) == []  # the timer pass defers it to the cap
        clock.t = started + DAY
        back = await svc.back(1, absent)
        assert back.until is None and [g.game_id for g in back.games] == [first.game_id]
        assert await svc.away(1, [absent]) == {}
        clock.t = started + DAY + 6 * HOUR - 1
        assert await svc.due_timers(clock.t) == []
        clock.t = started + DAY + 6 * HOUR  # six hours after coming back, not at the cap
        [due] = await svc.due_timers(clock.t)
        assert due.pids == (absent,)
        assert await _refused(svc.back(1, absent)) == Code.NOT_AWAY
    finally:
        await svc.close()


async def test_two_awaited_players_one_away_the_other_times_out_alone(db: str) -> None:
    """Two distributors split at once: the one present is timed out as usual, the one away
    is waited for."""
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.set_settings(10, turn_timer_hours=6, reminder_hours=0)
        update = await _start(svc, (A, B, C, D))
        for _ in range(400):  # moves until two distributors split at once
            waiting = update.view["waiting_for"]
            if len(waiting) == 2:
                break
            pid = waiting[0]
            update = await svc.act(10, pid, (await svc.legal_actions(10, pid))[0])
        waiting = list(update.view["waiting_for"])
        assert len(waiting) == 2, waiting
        away, present = waiting
        await svc.set_away(1, away, clock.t + 5 * DAY)
        clock.t += 6 * HOUR
        [due] = await svc.due_timers(clock.t)
        assert due.pids == (present,)
        out = await svc.time_out(10, game_id=due.game_id, version=due.version)
        assert [p for p, _ in out.defaults] == [present]
        assert away in (await svc.status(10)).awaiting
    finally:
        await svc.close()


# ---------------------------------------------------------------------- reminders
async def test_no_reminder_while_away_and_none_read_again_before_the_interval(
        db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.set_settings(10, reminder_hours=12)
        first = await _start(svc)
        [absent] = first.view["waiting_for"]
        await svc.set_away(1, absent, clock.t + 2 * DAY)
        clock.t += 13 * HOUR
        assert await svc.due_reminders(clock.t) == []
        row = await svc.store.active_game(10)
        assert row is not None and row.last_reminded_at == clock.t  # passed over, quietly
        assert await svc.store.due_games(clock.t + 11 * HOUR) == []
        clock.t += 2 * DAY  # back (the away time is over): reminded again
        [reminder] = await svc.due_reminders(clock.t)
        assert reminder.pids == (absent,)
    finally:
        await svc.close()


# ---------------------------------------------------------------------- the vote
async def test_a_vote_against_an_away_player_opens_only_after_the_cap(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        first = await _start(svc)
        [target] = first.view["waiting_for"]
        voter = next(p for p in (A, B, C) if p != target)
        started = clock.t
        await svc.set_away(1, target, clock.t + 5 * DAY)
        clock.t = started + 13 * HOUR  # past the reminder interval, but they are away
        with pytest.raises(ServiceError) as refused:
            await svc.vote_replace(10, voter, target)
        assert refused.value.code == Code.AWAY_TOO_EARLY
        assert refused.value.params == {"opens": int(started + 3 * DAY) + 1}
        assert "opens <t:" in text.refusal(EN, refused.value.code, refused.value.params)
        clock.t = started + 3 * DAY
        vote = await svc.vote_replace(10, voter, target)
        assert (vote.votes, vote.needed, vote.replaced) == (1, 2, False)
        # a channel manager, or the player themselves, needs no wait, away or not
        assert (await svc.vote_replace(10, target, target)).replaced
    finally:
        await svc.close()


async def test_a_player_back_early_is_waited_for_the_interval_again(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        first = await _start(svc)
        [target] = first.view["waiting_for"]
        voter = next(p for p in (A, B, C) if p != target)
        started = clock.t
        await svc.set_away(1, target, clock.t + 5 * DAY)
        clock.t = started + DAY
        await svc.back(1, target)
        clock.t = started + DAY + 12 * HOUR - 1
        assert await _refused(svc.vote_replace(10, voter, target)) == Code.TOO_EARLY
        clock.t = started + DAY + 12 * HOUR
        assert (await svc.vote_replace(10, voter, target)).votes == 1
    finally:
        await svc.close()


# ---------------------------------------------------------------------- what is told
async def test_every_running_game_on_the_server_is_told_and_status_shows_it(
        db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.set_settings(10, timezone="Europe/Rome", turn_timer_hours=6)
        await _start(svc, channel=10)
        await _start(svc, channel=20)
        await svc.create_lobby(1, 30, A, seats=3)  # a lobby is not told
        await _start(svc, channel=40, guild=2)  # another server is not
        before = {c: len(await _posts(svc, c)) for c in (10, 20, 30, 40)}
        prompts = (await svc.status(10)).version
        until = clock.t + 5 * DAY
        away = await svc.set_away(1, A, until)
        assert sorted(g.channel_id for g in away.games) == [10, 20]
        for channel, zone, waits in ((10, "Europe/Rome", 72.0), (20, "UTC", 0.0)):
            posts = await _posts(svc, channel)
            assert len(posts) == before[channel] + 1
            note = posts[-1]
            assert note.kind is PostKind.NOTE and note.lines == (
                WentAway(A, until, zone, waits),)
            assert note.view is not None and note.awaiting  # with the Now line and buttons
            assert note.version == (await svc.status(channel)).version
        assert len(await _posts(svc, 30)) == before[30]
        assert len(await _posts(svc, 40)) == before[40]
        assert (await svc.status(10)).version == prompts  # the buttons stay valid
        status = await svc.status(10)
        assert status.away == {A: until} and status.timezone == "Europe/Rome"
        shown = text.status_text(EN, status)
        assert f"<@{A}> is away until {text.local_time(EN, until, 'Europe/Rome')}" in shown
        assert (await svc.status(40)).away == {}  # away on server 1 only
        assert await svc.away(1, [A, B]) == {A: until}
        back = await svc.back(1, A)
        assert sorted(g.channel_id for g in back.games) == [10, 20]
        assert (await _posts(svc, 10))[-1].lines == (CameBack(A),)
        assert (await svc.status(10)).away == {}
    finally:
        await svc.close()


async def test_bad_times_are_refused_and_change_nothing(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await _start(svc)
        posts = len(await _posts(svc))
        for until, code in ((clock.t, Code.AWAY_PAST), (clock.t - DAY, Code.AWAY_PAST),
                            (clock.t + MAX_AWAY + HOUR, Code.AWAY_TOO_LONG),
                            (float("nan"), Code.AWAY_WHEN), (None, Code.AWAY_WHEN),
                            ("5d", Code.AWAY_WHEN), (True, Code.AWAY_WHEN)):
            assert await _refused(svc.set_away(1, A, until)) == code, until  # type: ignore
        for who in ("<@111>", "ai.normal.1", ""):
            assert await _refused(svc.set_away(1, who, clock.t + DAY)) == Code.PLAYER_ID
        assert await _refused(svc.back(1, A)) == Code.NOT_AWAY
        assert await svc.away(1, [A]) == {} and len(await _posts(svc)) == posts
        assert await svc.store.away_rows([1]) == []
        # exactly 14 days is allowed; a new time replaces the old
        await svc.set_away(1, A, clock.t + MAX_AWAY)
        await svc.set_away(1, A, clock.t + DAY)
        assert await svc.away(1, [A]) == {A: clock.t + DAY}
        # the cap is a setting from 0 to 14 days
        for bad in (-1, 24 * 14 + 1, float("inf"), "3d", True):
            assert await _refused(svc.set_settings(10, away_cap_hours=bad)) == Code.AWAY_CAP  # type: ignore[arg-type]
        assert (await svc.settings(10)).away_cap_hours == 72
        assert (await svc.set_settings(10, away_cap_hours=0)).away_cap_hours == 0
    finally:
        await svc.close()
