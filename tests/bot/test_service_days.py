"""Games that keep moving over days, through the service on real files with an
injected clock: channel settings, the turn timer and its default moves (quiet hours in the
channel's time zone, a restart, three in a row hand the seat over), taking a move back, how
players hear it is their turn, and a player's games."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import engine
from bot import text
from bot.computers import EngineComputers
from bot.i18n import ENGLISH as EN
from bot.service import GameService, Update
from bot.service._timers import timer_due
from bot.service.errors import Code, ServiceError
from bot.store import Settings, SQLiteStore, is_postgres, open_store

from .test_service import HOUR, Clock

A, B, C, D = "111", "222", "333", "444"


async def _service(target: str | Path, clock: Clock, seed: int = 7) -> GameService:
    """A service on ``target``: an SQLite file, or a PostgreSQL URL (the ``db`` fixture)."""
    store = (await open_store(str(target)) if is_postgres(str(target))
             else await SQLiteStore.open(target, synchronous="NORMAL"))
    return GameService(store, clock, computers=EngineComputers(), seeds=lambda: seed)


async def _start(svc: GameService, humans: tuple[str, ...] = (A, B, C), channel: int = 10,
                 guild: int = 1) -> Update:
    await svc.create_lobby(guild, channel, humans[0], seats=len(humans), name="Ann")
    for pid in humans[1:]:
        await svc.join(channel, pid, name=f"P{pid}")
    return await svc.start(channel, humans[0])


async def _refused(call: object) -> str:
    with pytest.raises(ServiceError) as e:
        await call  # type: ignore[misc]
    assert text.refusal(EN, e.value.code, e.value.params) != text.apology(EN)
    return str(e.value.code)


async def _stored(svc: GameService, channel: int = 10) -> str:
    row = await svc.store.latest_game(channel)
    assert row is not None and row.state is not None
    return row.state


# ---------------------------------------------------------------------- settings
async def test_settings_take_a_timer_and_a_level_and_refuse_nonsense(db: str) -> None:
    svc = await _service(db, Clock())
    try:
        s = await svc.settings(10)
        assert (s.turn_timer_hours, s.computer_level, s.reminder_hours) == (0.0, "normal", 12.0)
        s = await svc.set_settings(10, turn_timer_hours=24, computer_level="easy",
                                   reminder_hours=0, quiet_hours=(22, 7),
                                   timezone="America/New_York")
        assert s == Settings(10, 0.0, 22, 7, None, "America/New_York", 24.0, "easy")
        assert await svc.settings(10) == s  # kept for the channel, game after game
        for kwargs, code in (({"turn_timer_hours": 0.1}, Code.TURN_TIMER),
                             ({"turn_timer_hours": -1}, Code.TURN_TIMER),
                             ({"turn_timer_hours": float("nan")}, Code.TURN_TIMER),
                             ({"turn_timer_hours": True}, Code.TURN_TIMER),
                             ({"reminder_hours": 0.1}, Code.REMINDER_HOURS),
                             ({"computer_level": "grandmaster"}, Code.SETTINGS_LEVEL),
                             ({"computer_level": 3}, Code.SETTINGS_LEVEL),
                             ({"timezone": "Mars/Olympus"}, Code.TIMEZONE)):
            assert await _refused(svc.set_settings(10, **kwargs)) == code, kwargs
        assert await svc.settings(10) == s  # nothing changed
        for level in engine.ai.LEVELS:  # every level the engine has (a new one included)
            assert (await svc.set_settings(11, computer_level=level)).computer_level == level
    finally:
        await svc.close()


# ---------------------------------------------------------------------- the turn timer
def test_the_timer_does_not_count_quiet_hours_in_the_channels_time_zone() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    since = datetime(2024, 3, 1, 21, 0, tzinfo=tokyo).timestamp()  # 21:00 in Tokyo
    s = Settings(1, quiet_start=22, quiet_end=7, timezone="Asia/Tokyo", turn_timer_hours=2)
    # 21:00-22:00 counts, 22:00-07:00 does not, 07:00-08:00 counts
    assert timer_due(since, s) == datetime(2024, 3, 2, 8, 0, tzinfo=tokyo).timestamp()
    assert timer_due(since, Settings(1, turn_timer_hours=2)) == since + 2 * HOUR
    assert timer_due(since, Settings(1)) is None  # no timer
    # a wait that would end when quiet hours begin ends when they end
    one = Settings(1, quiet_start=22, quiet_end=7, timezone="Asia/Tokyo", turn_timer_hours=1)
    assert timer_due(since, one) == datetime(2024, 3, 2, 7, 0, tzinfo=tokyo).timestamp()
    # the same quiet hours in UTC are other moments
    utc = Settings(1, quiet_start=22, quiet_end=7, timezone="UTC", turn_timer_hours=2)
    assert timer_due(since, utc) == since + 2 * HOUR  # 12:00-14:00 UTC: not quiet


async def test_the_timer_makes_one_decision_for_the_player_and_survives_a_restart(
        db: str) -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    clock = Clock(datetime(2024, 3, 1, 21, 0, tzinfo=tokyo).timestamp())
    svc = await _service(db, clock)
    await svc.set_settings(10, turn_timer_hours=2, quiet_hours=(22, 7), timezone="Asia/Tokyo")
    started = clock.t
    first = await _start(svc)
    [absent] = first.view["waiting_for"]
    kind = first.awaiting[absent]
    clock.t += 2 * HOUR + 1  # 23:00 in Tokyo: quiet hours, only 1 hour counted
    assert await svc.due_timers(clock.t) == []
    await svc.close()

    # a restart: a new service on the same file, the clock moved on to 07:59 and to 08:00
    svc = await _service(db, clock)
    try:
        clock.t = datetime(2024, 3, 2, 7, 59, tzinfo=tokyo).timestamp()
        assert await svc.due_timers(clock.t) == []
        clock.t = datetime(2024, 3, 2, 8, 0, tzinfo=tokyo).timestamp()
        [due] = await svc.due_timers(clock.t)
        assert (due.channel, due.pids, due.since) == (10, (absent,), started)
        out = await svc.time_out(10, game_id=due.game_id, version=due.version)
        [(pid, action)] = out.defaults
        assert pid == absent and action.kind == kind and out.handed_over == ()
        assert out.update.version == first.version + out.update.applied
        row = await svc.store.active_game(10)
        assert row is not None
        seat = row.seat(absent)
        assert seat is not None and (seat.computer, seat.timeouts) == (False, 1)  # still theirs
        assert row.awaited_since == clock.t  # the next decision's wait starts now
        assert await svc.due_timers(clock.t) == []
        # the same time-out again (a second pass, a second bot) is refused: nothing twice
        assert await _refused(svc.time_out(10, game_id=due.game_id,
                                           version=due.version)) == Code.STALE
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_three_timed_out_decisions_in_a_row_hand_the_seat_over_until_reclaim(
        db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.set_settings(10, turn_timer_hours=1, computer_level="easy")
        u = await _start(svc)
        rng = random.Random(1)
        absent = A
        timed = 0
        for _ in range(400):
            waiting = [p for p in u.view["waiting_for"] if p != absent]
            if waiting:  # the others play at once
                pid = waiting[0]
                u = await svc.act(10, pid, rng.choice(await svc.legal_actions(10, pid)))
                continue
            clock.t += HOUR
            [due] = await svc.due_timers(clock.t)
            out = await svc.time_out(10, game_id=due.game_id, version=due.version)
            timed += 1
            u = out.update
            if out.handed_over:
                break
        assert out.handed_over == (absent,) and timed == 3
        row = await svc.store.active_game(10)
        assert row is not None
        seat = row.seat(absent)
        assert seat is not None and (seat.computer, seat.level) == (True, "easy")
        assert absent not in u.view["waiting_for"]  # the computer moved for them at once
        back = await svc.reclaim(10, absent)
        assert back.pid == absent
        row = await svc.store.active_game(10)
        assert row is not None
        seat = row.seat(absent)
        assert seat is not None and (seat.computer, seat.timeouts, seat.level) == (
            False, 0, None)
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_every_kind_of_decision_is_covered_and_acting_resets_the_run(
        db: str) -> None:
    """A player who lets every other decision time out: the computer makes bridges, splits
    (R15: never shown), takes, card plays...; the seat is never handed over, because each
    decision they make themselves starts the count again. The game ends and replays."""
    clock = Clock()
    svc = await _service(db, clock, seed=3)
    try:
        await svc.set_settings(10, turn_timer_hours=0.25)
        u = await _start(svc)
        rng = random.Random(2)
        kinds: set[str] = set()
        mine = 0
        while not u.finished:
            pid = u.view["waiting_for"][0]
            if pid == A and mine % 2 == 0:
                clock.t += 0.25 * HOUR
                dues = await svc.due_timers(clock.t)
                assert [d.pids for d in dues] == [tuple(u.view["waiting_for"])]
                out = await svc.time_out(10, game_id=dues[0].game_id, version=dues[0].version)
                assert out.handed_over == ()
                kinds |= {a.kind for p, a in out.defaults if p == A}
                assert not any("split:" in a.public_encode() for _, a in out.defaults)
                u = out.update
            else:
                u = await svc.act(10, pid, rng.choice(await svc.legal_actions(10, pid)))
            if pid == A:
                mine += 1
        assert {"bridge", "split", "take"} <= kinds and kinds & {
            "district", "transfer", "doge", "discard", "takeover", "banish"}
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_a_timed_out_split_is_made_for_the_distributor_alone(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        u = await _start(svc, (A, B, C, D))
        rng = random.Random(4)
        while u.view["phase"] != "split":
            pid = u.view["waiting_for"][0]
            u = await svc.act(10, pid, rng.choice(await svc.legal_actions(10, pid)))
        d1, d2 = u.view["waiting_for"]
        await svc.set_settings(10, turn_timer_hours=3)
        await svc.act(10, d1, (await svc.legal_actions(10, d1))[0])  # one distributor splits
        clock.t += 3 * HOUR
        [due] = await svc.due_timers(clock.t)
        assert due.pids == (d2,)
        out = await svc.time_out(10, game_id=due.game_id, version=due.version)
        assert [(p, a.kind) for p, a in out.defaults] == [(d2, "split")]
        assert any(e.type == "offers_revealed" for e in out.update.events)  # R5: both in
    finally:
        await svc.close()


# ---------------------------------------------------------------------- taking a move back
async def test_undo_leaves_the_same_state_and_the_same_log_as_before(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        u = await _start(svc)
        while u.view["phase"] == "setup_reroll":
            pid = u.view["waiting_for"][0]
            u = await svc.act(10, pid, engine.KeepRolls())
        pid = u.view["waiting_for"][0]  # the first set-up bridge: may be taken back
        before = await _stored(svc)
        log_before = await svc.store.actions(u.game_id)
        legal = await svc.legal_actions(10, pid)
        clock.t += 60
        done = await svc.act(10, pid, legal[0], expected_version=u.version)
        assert done.undoable and done.version == u.version + 1
        other = done.view["waiting_for"][0]
        assert await _refused(svc.undo(10, other)) == Code.UNDO_NOTHING  # not theirs
        clock.t += 60
        undone = await svc.undo(10, pid, expected_version=done.version)
        assert await _stored(svc) == before  # byte-equal JSON
        assert await svc.store.actions(u.game_id) == log_before
        assert undone.action == legal[0] and undone.update.events == ()
        assert undone.update.view == engine.GameState.from_json(before).public_view()
        assert undone.update.version == u.version + 2  # never an old version again
        assert (await svc.audit(10)).ok
        # an old prompt (of the state before, or of the taken-back branch) is outdated ...
        for old in (u.version, done.version):
            assert await _refused(svc.act(10, pid, legal[1], expected_version=old)) == \
                Code.STALE
        # ... the new one works, and another choice is made
        again = await svc.act(10, pid, legal[1], expected_version=undone.update.version)
        assert again.version == undone.update.version + 1
        assert (await svc.audit(10)).ok
        # and the Undo of the first move is outdated for good
        assert await _refused(svc.undo(10, pid, expected_version=done.version)) == \
            Code.UNDO_MOVED_ON
    finally:
        await svc.close()


async def test_undo_is_refused_after_another_players_move_or_a_computers(
        tmp_path: Path) -> None:
    clock = Clock()
    svc = await _service(tmp_path / "g.db", clock)
    try:
        u = await _start(svc)
        while u.view["phase"] == "setup_reroll":
            u = await svc.act(10, u.view["waiting_for"][0], engine.KeepRolls())
        first = u.view["waiting_for"][0]
        u = await svc.act(10, first, (await svc.legal_actions(10, first))[0])
        second = u.view["waiting_for"][0]
        state = await _stored(svc)
        u = await svc.act(10, second, (await svc.legal_actions(10, second))[0])
        assert await _refused(svc.undo(10, first)) == Code.UNDO_MOVED_ON
        assert await _refused(svc.undo(10, "999")) == Code.NOT_IN_GAME
        await svc.undo(10, second)
        assert await _stored(svc) == state
    finally:
        await svc.close()
    # a computer's move after a person's counts as acting
    svc = await _service(tmp_path / "h.db", Clock())
    try:
        await svc.create_lobby(1, 20, A, seats=3)
        u = await svc.start(20, A, fill_with_computers=True)
        while not u.finished:
            pid = u.view["waiting_for"][0]
            u = await svc.act(20, pid, (await svc.legal_actions(20, pid))[0])
            if u.applied > 1:
                assert not u.undoable
                assert await _refused(svc.undo(20, A)) in (
                    Code.UNDO_MOVED_ON, Code.UNDO_DRAW, Code.UNDO_REVEAL, Code.UNDO_SPLIT,
                    Code.UNDO_ROLL, Code.UNDO_END)
                rows = await svc.store.actions(u.game_id)
                if rows[-1].pid != A:
                    assert await _refused(svc.undo(20, A)) == Code.UNDO_MOVED_ON
                    return
        raise AssertionError("no computer moved after the person")
    finally:
        await svc.close()


async def test_a_whole_game_every_move_taken_back_where_fair_and_refused_with_its_reason(
        db: str) -> None:
    """After every move: when the service says it may be taken back, taking it back gives
    exactly the stored state before it (and making it again gives exactly the one after);
    otherwise the refusal names the engine's reason (a roll, a draw, a reveal, a split), or
    that the game is over."""
    clock = Clock()
    svc = await _service(db, clock, seed=11)
    try:
        u = await _start(svc, (A, B, C, D))
        rng = random.Random(11)
        seen: set[str] = set()
        taken_back = 0
        while not u.finished:
            pid = rng.choice(u.view["waiting_for"])
            action = rng.choice(await svc.legal_actions(10, pid))
            before = await _stored(svc)
            u = await svc.act(10, pid, action)
            after = await _stored(svc)
            if u.undoable:
                undone = await svc.undo(10, pid)
                assert await _stored(svc) == before
                taken_back += 1
                u = await svc.act(10, pid, action, expected_version=undone.update.version)
                assert await _stored(svc) == after
            else:
                code = await _refused(svc.undo(10, pid))
                seen.add(code)
                assert await _stored(svc) == after  # nothing changed
        assert taken_back > 20
        # the last move ended the game: a finished game takes nothing back (game.over)
        assert {Code.UNDO_SPLIT, Code.UNDO_DRAW, Code.UNDO_REVEAL, Code.UNDO_ROLL,
                Code.OVER} <= seen, seen
        assert seen <= {Code.UNDO_SPLIT, Code.UNDO_DRAW, Code.UNDO_REVEAL, Code.UNDO_ROLL,
                        Code.UNDO_END, Code.OVER}
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


async def test_a_move_the_timer_made_is_not_taken_back(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        await svc.set_settings(10, turn_timer_hours=1)
        u = await _start(svc)
        [absent] = u.view["waiting_for"]
        clock.t += HOUR
        [due] = await svc.due_timers(clock.t)
        await svc.time_out(10, game_id=due.game_id, version=due.version)
        assert await _refused(svc.undo(10, absent)) == Code.UNDO_COMPUTER
    finally:
        await svc.close()


# ---------------------------------------------------------------------- notifications
async def test_how_players_hear_it_is_their_turn_and_a_refused_dm(db: str) -> None:
    svc = await _service(db, Clock())
    try:
        assert await svc.notify_mode(1, A) == "mention"
        for mode in ("dm", "both", "none", "mention", "dm"):
            assert await svc.set_notify_mode(1, A, mode) == mode
        await svc.set_notify_mode(1, B, "both")
        await svc.set_notify_mode(1, C, "none")
        assert await _refused(svc.set_notify_mode(1, A, "pigeon")) == Code.NOTIFY_MODE
        assert await svc.notify_mode(2, A) == "mention"  # per server
        got = await svc.notices(1, [A, B, C, D, "ai.normal.1"])
        assert {p: (n.mention, n.dm) for p, n in got.items()} == {
            A: (False, True), B: (True, True), C: (False, False), D: (True, False)}
        assert not await svc.take_hint(1, A)
        assert await svc.dm_refused(1, A)  # fall back: mention, once
        assert not await svc.dm_refused(1, A)
        got = await svc.notices(1, [A])
        assert (got[A].mention, got[A].dm, got[A].mode) == (True, False, "dm")
        assert await svc.take_hint(1, A) and not await svc.take_hint(1, A)
        await svc.set_notify_mode(1, A, "dm")  # choosing again tries DMs again
        assert (await svc.notices(1, [A]))[A].dm
    finally:
        await svc.close()


async def test_a_players_games_in_a_server(db: str) -> None:
    clock = Clock()
    svc = await _service(db, clock)
    try:
        started = clock.t
        u = await _start(svc, (A, B, C), channel=10)
        clock.t += 10
        await svc.create_lobby(1, 20, B, seats=4)
        await svc.join(20, A)
        await svc.create_lobby(2, 30, A)  # another server
        await svc.create_lobby(1, 40, C)  # without A
        await svc.remember_post(u.game_id, 5, "https://discord.com/channels/1/10/5")
        games = await svc.my_games(1, A)
        assert [(g.channel_id, g.status) for g in games] == [(20, "lobby"), (10, "running")]
        lobby, running = games
        assert lobby.players == (B, A) and lobby.seats == 4 and lobby.url is None
        assert running.awaiting == u.awaiting and running.since == started
        assert running.url == "https://discord.com/channels/1/10/5"
        assert await _refused(svc.remember_post(u.game_id, 5, "javascript:1")) == \
            Code.MALFORMED
    finally:
        await svc.close()


async def test_the_computer_thinks_in_a_worker_process_for_the_timer(tmp_path: Path) -> None:
    """The bot hands the service its worker lanes (``work``): the default move is decided in
    Discord's lane's process (plain values in and out) and is the same as in a thread."""
    from bot.work import Workers

    results = []
    for use_process in (False, True):
        clock = Clock()
        svc = await _service(tmp_path / f"g{use_process}.db", clock)
        svc.work = Workers(discord_processes=1 if use_process else 0)
        try:
            await svc.set_settings(10, turn_timer_hours=1)
            await _start(svc)
            clock.t += HOUR
            [due] = await svc.due_timers(clock.t)
            out = await svc.time_out(10, game_id=due.game_id, version=due.version)
            results.append((out.defaults, await _stored(svc)))
        finally:
            await svc.close()
            svc.work.close()
    assert results[0] == results[1]
