"""The game service on real SQLite files: whole games, restarts, concurrency, lobby rules,
bad input that changes nothing, secrets kept out of public results, reminders."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence

import pytest

import engine
from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import (
    GameService,
    ServiceError,
    Update,
)
from bot.store import Seat, open_store

HOUR = 3600.0


class Clock:
    """A settable clock: tests never read the wall clock."""

    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def make_service(db: str, clock: Clock | None = None, seed: int = 7,
                       **kw: object) -> GameService:
    """A service on ``db``: an SQLite file or a PostgreSQL URL (the ``db`` fixture)."""
    return GameService(await open_store(db), clock or Clock(), seeds=lambda: seed, **kw)


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:
    service = await make_service(db)
    yield service
    await service.close()


PIDS = ("111", "222", "333", "444")


async def start_game(svc: GameService, n: int = 3, channel: int = 10,
                     guild: int = 1) -> Update:
    await svc.create_lobby(guild, channel, PIDS[0], seats=n, name="Ann")
    for pid in PIDS[1:n]:
        await svc.join(channel, pid, name=f"P{pid}")
    return await svc.start(channel, PIDS[0])


async def play(svc: GameService, channel: int, first: Update, rng: random.Random,
               max_actions: int | None = None) -> Update:
    """Random legal actions until the end (or ``max_actions``), checking what every Update
    says about mentions and secrets."""
    u = first
    n = 0
    while not u.finished and (max_actions is None or n < max_actions):
        waiting = list(u.view["waiting_for"])
        pid = rng.choice(waiting)
        actions = await svc.legal_actions(channel, pid)
        assert actions, f"{pid} is awaited but has no legal action"
        new = await svc.act(channel, pid, rng.choice(actions), expected_version=u.version)
        assert new.version == u.version + 1 and new.applied == 1
        now_waiting = list(new.view["waiting_for"])
        # each awaited player is mentioned once, when their decision starts
        assert set(new.mention) == {p for p in now_waiting if p not in waiting}
        assert all(e.type != "cards_drawn" for e in new.events)
        for p, evs in new.private_events.items():
            assert all(e.type == "cards_drawn" and e["player"] == p for e in evs)
        u = new
        n += 1
    return u


def error_code(exc_info: pytest.ExceptionInfo[ServiceError]) -> str:
    return exc_info.value.code


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize("players,seed", [(3, 11), (4, 12)])
async def test_a_whole_game_is_played_through_the_service(db: str, players: int,
                                                          seed: int) -> None:
    svc = await make_service(db, seed=seed)
    try:
        u = await start_game(svc, players)
        assert u.board_changed and u.version == 0
        assert set(u.mention) == set(u.view["waiting_for"])
        final = await play(svc, 10, u, random.Random(seed))
        assert final.finished and final.winners
        assert set(final.winners) <= set(PIDS[:players])

        status = await svc.status(10)
        assert (status.status, status.finished, status.awaiting) == ("finished", True, {})
        assert (await svc.public_view(10))["winners"] == list(final.winners)  # still readable
        audit = await svc.audit(10)
        assert audit.ok and audit.actions == final.version, audit
        game_log = await svc.log(10)
        # the set-up first (seat order and rolls), then every action
        assert [e.seq for e in game_log.entries] == list(range(0, final.version + 1))
        assert [e.type for e in game_log.entries[0].events][:2] == ["game_started",
                                                                    "setup_rolled"]
        assert game_log.events[-1].type == "game_over"
        [h] = await svc.history(1)
        assert h.winners == final.winners and set(h.players) == set(PIDS[:players])
        assert {s.pid for s in await svc.standings(1) if s.won} == set(final.winners)

        with pytest.raises(ServiceError) as e:
            await svc.act(10, final.view["players"][0], engine.KeepRolls())
        assert error_code(e) == "game.over"
        # the channel is free for a new game; the old one stays in the store and history
        await svc.create_lobby(1, 10, "555", seats=3)
        assert (await svc.status(10)).status == "lobby"
        assert len(await svc.history(1)) == 1
    finally:
        await svc.close()


async def test_restart_mid_game_continues_on_the_same_file(db: str) -> None:
    path = db
    rng = random.Random(5)
    svc = await make_service(path, seed=99)
    u = await play(svc, 10, await start_game(svc, 4), rng, max_actions=40)
    view_before = await svc.public_view(10)
    private_before = {p: await svc.private_view(10, p) for p in PIDS}
    await svc.close()

    svc = await make_service(path, seed=1)
    try:
        assert await svc.public_view(10) == view_before
        assert {p: await svc.private_view(10, p) for p in PIDS} == private_before
        status = await svc.status(10)
        assert status.version == u.version == 40 and status.status == "running"
        final = await play(svc, 10, u, rng)
        assert final.finished
        assert (await svc.audit(10)).ok
    finally:
        await svc.close()


# ---------------------------------------------------------------------- concurrency
async def _log_len(svc: GameService, channel: int) -> int:
    row = await svc.store.latest_game(channel)
    assert row is not None
    return len(await svc.store.actions(row.id))


async def test_fifty_identical_actions_at_once_apply_exactly_once(svc: GameService) -> None:
    u = await start_game(svc, 3)
    u = await play(svc, 10, u, random.Random(3), max_actions=20)
    pid = u.view["waiting_for"][0]
    action = (await svc.legal_actions(10, pid))[0]
    before = await _log_len(svc, 10)
    results = await asyncio.gather(
        *(svc.act(10, pid, action, expected_version=u.version) for _ in range(50)),
        return_exceptions=True)
    applied = [r for r in results if isinstance(r, Update)]
    refused = [r for r in results if not isinstance(r, Update)]
    assert len(applied) == 1 and len(refused) == 49
    assert all(isinstance(r, ServiceError) and r.code in ("state.stale", "action.not_your_turn")
               for r in refused)
    assert await _log_len(svc, 10) == before + 1
    assert (await svc.status(10)).version == u.version + 1


async def test_fifty_identical_splits_without_a_version_apply_once(svc: GameService) -> None:
    u = await start_game(svc, 3)
    rng = random.Random(4)
    while u.view["phase"] != "split":
        u = await play(svc, 10, u, rng, max_actions=1)
    [pid] = u.view["waiting_for"]
    split = (await svc.legal_actions(10, pid))[0]
    results = await asyncio.gather(*(svc.act(10, pid, split) for _ in range(50)),
                                   return_exceptions=True)
    assert sum(isinstance(r, Update) for r in results) == 1
    assert {r.code for r in results if isinstance(r, ServiceError)} == {"action.not_your_turn"}
    assert (await svc.status(10)).version == u.version + 1


async def test_two_services_on_one_file_cannot_both_apply(db: str) -> None:
    """Two processes (or two services) share the file: the row version check decides."""
    path = db
    a = await make_service(path)
    b = await make_service(path)
    try:
        u = await start_game(a, 3)
        pid = u.view["waiting_for"][0]
        action = (await a.legal_actions(10, pid))[0]
        results = await asyncio.gather(a.act(10, pid, action), b.act(10, pid, action),
                                       return_exceptions=True)
        assert sum(isinstance(r, Update) for r in results) == 1, results
        assert all(r.code in ("state.stale", "action.not_your_turn") for r in results
                   if isinstance(r, ServiceError))
        assert await _log_len(a, 10) == 1
        assert (await b.audit(10)).ok
    finally:
        await a.close()
        await b.close()


# ---------------------------------------------------------------------- bad input
async def _snapshot(svc: GameService, channel: int) -> tuple[int, int, str | None]:
    row = await svc.store.latest_game(channel)
    assert row is not None
    return row.version, len(await svc.store.actions(row.id)), row.state


@pytest.mark.parametrize("call", ["act", "public_view", "private_view", "legal_actions",
                                  "status", "log", "audit", "join", "leave", "start",
                                  "abandon", "names"])
async def test_an_unknown_channel_says_there_is_no_game(svc: GameService, call: str) -> None:
    args = {"act": (999, "111", engine.KeepRolls()), "public_view": (999,), "status": (999,),
            "log": (999,), "audit": (999,), "names": (999,)}.get(call, (999, "111"))
    with pytest.raises(ServiceError) as e:
        await getattr(svc, call)(*args)
    assert error_code(e) == "game.none"
    assert text.refusal(EN, e.value.code).startswith("There is no game in this channel.")


@pytest.mark.parametrize("action,code", [
    ("keep", "action.malformed"),  # text is parsed only where a person types it
    (12345, "action.malformed"),
    (None, "action.malformed"),
    (engine.Split((True, False, True)), "action.malformed"),  # once stored, it bricked a game
    (engine.TakeOffer(True), "action.malformed"),
    (engine.PlaceAristocrat("Atlantis"), "action.malformed"),
    (engine.Banish("San Marco"), "action.wrong_phase"),
])
async def test_malformed_or_wrong_actions_are_refused_and_change_nothing(
        svc: GameService, action: object, code: str) -> None:
    u = await start_game(svc, 3)
    pid = u.view["waiting_for"][0]
    before = await _snapshot(svc, 10)
    with pytest.raises(ServiceError) as e:
        await svc.act(10, pid, action)  # type: ignore[arg-type]
    assert error_code(e) == code and text.refusal(EN, e.value.code) != text.apology(EN)
    assert await _snapshot(svc, 10) == before


async def test_non_members_stale_prompts_and_wrong_turns_change_nothing(
        svc: GameService) -> None:
    u = await start_game(svc, 3)
    pid = u.view["waiting_for"][0]
    other = next(p for p in PIDS[:3] if p != pid)
    action = (await svc.legal_actions(10, pid))[0]
    before = await _snapshot(svc, 10)
    cases = [
        (lambda: svc.act(10, "999", action), "player.not_in_game"),
        (lambda: svc.act(10, other, action), "action.not_your_turn"),
        (lambda: svc.act(10, pid, action, expected_version=u.version + 5), "state.stale"),
        (lambda: svc.act(10, pid, engine.PlaceBridge("San Marco", "San Marco")),
         "action.illegal"),
        (lambda: svc.private_view(10, "999"), "player.not_in_game"),
        (lambda: svc.legal_actions(10, "999"), "player.not_in_game"),
        (lambda: svc.join(10, "999"), "game.started"),
        (lambda: svc.start(10, pid), "game.started"),
        (lambda: svc.abandon(10, "222"), "permission.denied"),
    ]
    for call, code in cases:
        with pytest.raises(ServiceError) as e:
            await call()
        assert error_code(e) == code, (code, e.value)
        assert await _snapshot(svc, 10) == before
    assert await svc.legal_actions(10, other) == ()


async def test_an_illegal_move_keeps_the_engines_code_and_sentence(svc: GameService) -> None:
    u = await start_game(svc, 3)
    pid = u.view["waiting_for"][0]
    legal = set(await svc.legal_actions(10, pid))
    bad = next(engine.PlaceBridge(a.name, b.name) for a in engine.BOARD for b in engine.BOARD
               if a.name < b.name and engine.PlaceBridge(a.name, b.name) not in legal)
    with pytest.raises(ServiceError) as e:
        await svc.act(10, pid, bad)
    assert e.value.code == "action.illegal"
    assert "bridge" in text.refusal(EN, e.value.code, e.value.params).lower()


async def test_errors_and_public_results_never_show_a_distributors_cards(
        svc: GameService) -> None:
    u = await start_game(svc, 4)
    rng = random.Random(8)
    while u.view["phase"] != "split":
        u = await play(svc, 10, u, rng, max_actions=1)
    distributor = u.view["waiting_for"][0]
    drawn = (await svc.private_view(10, distributor))["private"]["drawn"]
    assert drawn
    others = [p for p in PIDS if p != distributor]
    for p in others:
        if p not in u.view["waiting_for"]:  # the other distributor sees only their own
            assert (await svc.private_view(10, p))["private"] == {}
    with pytest.raises(ServiceError) as e:
        await svc.act(10, distributor, engine.Split((0,)))  # wrong length
    said = text.refusal(EN, e.value.code, e.value.params) + str(e.value)
    assert not any(card in said for card in drawn)
    split = (await svc.legal_actions(10, distributor))[-1]
    u2 = await svc.act(10, distributor, split)
    public = repr((u2.events, u2.view))
    assert "cards_drawn" not in public and split.encode() not in public
    entry = (await svc.log(10)).entries[-1]
    assert entry.action == "split" and entry.pid == distributor


# ---------------------------------------------------------------------- lobby
async def test_lobby_rules(svc: GameService) -> None:
    lobby = await svc.create_lobby(1, 10, "111", seats=3, name="Ann")
    assert (lobby.players, lobby.creator, lobby.names) == (("111",), "111", {"111": "Ann"})
    with pytest.raises(ServiceError) as e:
        await svc.create_lobby(1, 10, "222")
    assert error_code(e) == "game.exists"
    with pytest.raises(ServiceError) as e:
        await svc.create_lobby(1, 11, "222", seats=5)
    assert error_code(e) == "input.seats"
    with pytest.raises(ServiceError) as e:
        await svc.join(10, "111")
    assert error_code(e) == "lobby.already_joined"
    with pytest.raises(ServiceError) as e:
        await svc.start(10, "111")
    assert error_code(e) == "lobby.not_enough"
    for call in (lambda: svc.public_view(10), lambda: svc.act(10, "111", engine.KeepRolls()),
                 lambda: svc.log(10)):
        with pytest.raises(ServiceError) as e:
            await call()
        assert error_code(e) == "game.not_started"
    v = (await svc.join(10, "222")).version
    lobby = await svc.join(10, "333")
    assert lobby.version == v + 1 and lobby.players == ("111", "222", "333")
    with pytest.raises(ServiceError) as e:
        await svc.join(10, "444")
    assert error_code(e) == "lobby.full"
    with pytest.raises(ServiceError) as e:
        await svc.leave(10, "444")
    assert error_code(e) == "lobby.not_joined"
    with pytest.raises(ServiceError) as e:
        await svc.start(10, "444")
    assert error_code(e) == "player.not_in_game"
    lobby = await svc.leave(10, "111")  # the creator leaves: the next seated player opens it
    assert lobby.creator == "222" and lobby.players == ("222", "333")
    await svc.leave(10, "222")
    lobby = await svc.leave(10, "333")
    assert lobby.status == "abandoned"
    await svc.create_lobby(1, 10, "444")  # the channel is free again


async def test_only_the_opener_or_a_manager_starts_and_a_short_lobby_starts_with_who_is_there(
        svc: GameService) -> None:
    """Regression: any seated player could start; NotCreator was never raised."""
    await svc.create_lobby(1, 10, "111", seats=4)
    await svc.join(10, "222")
    await svc.join(10, "333")
    before = await _snapshot(svc, 10)
    for user, kwargs in (("333", {}), ("222", {"fill_with_computers": True})):
        with pytest.raises(ServiceError) as e:
            await svc.start(10, user, **kwargs)  # type: ignore[arg-type]
        assert error_code(e) == "lobby.not_creator"
    assert await _snapshot(svc, 10) == before
    u = await svc.start(10, "111")
    assert sorted(u.view["players"]) == ["111", "222", "333"]


async def test_a_channel_manager_starts_any_lobby_even_unseated(svc: GameService) -> None:
    await svc.create_lobby(1, 10, "111", seats=3)
    await svc.join(10, "222")
    await svc.join(10, "333")
    u = await svc.start(10, "999", is_admin=True)
    assert sorted(u.view["players"]) == ["111", "222", "333"]


async def test_when_the_opener_leaves_the_next_seated_person_may_start(
        svc: GameService) -> None:
    await svc.create_lobby(1, 10, "111", seats=4)
    for pid in ("222", "333", "444"):
        await svc.join(10, pid)
    lobby = await svc.leave(10, "111")
    assert lobby.creator == "222"  # next in join order
    with pytest.raises(ServiceError) as e:
        await svc.start(10, "333")
    assert error_code(e) == "lobby.not_creator"
    u = await svc.start(10, "222")
    assert sorted(u.view["players"]) == ["222", "333", "444"]


async def test_abandon_by_creator_or_admin_then_a_new_game(svc: GameService) -> None:
    await start_game(svc, 3)
    with pytest.raises(ServiceError) as e:
        await svc.abandon(10, "222")
    assert error_code(e) == "permission.denied"
    ended = await svc.abandon(10, "222", is_admin=True)
    assert ended.status == "abandoned"
    with pytest.raises(ServiceError) as e:
        await svc.act(10, "111", engine.KeepRolls())
    assert error_code(e) == "game.abandoned"
    assert (await svc.status(10)).status == "abandoned"
    assert (await svc.public_view(10))["players"]  # still readable
    await start_game(svc, 3)
    assert (await svc.status(10)).status == "running"


# ---------------------------------------------------------------------- computer players
class RandomComputers:
    """A stand-in for the computer players another change adds: random legal moves."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def seat(self, taken: Sequence[str], count: int, level: str = "normal") -> list[Seat]:
        return [Seat(f"cpu{i + 1}", f"Computer {i + 1}", computer=True) for i in range(count)]

    def choose(self, state: engine.GameState, pid: str) -> engine.Action:
        return self.rng.choice(engine.legal_actions(state, pid))


async def test_computer_players_fill_seats_and_move_inside_the_call(db: str) -> None:
    svc = await make_service(db, seed=3, computers=RandomComputers(1))
    try:
        await svc.create_lobby(1, 10, "111", seats=4)
        u = await svc.start(10, "111", fill_with_computers=True)
        assert sorted(u.view["players"]) == ["111", "cpu1", "cpu2", "cpu3"]
        rng = random.Random(2)
        while not u.finished:
            assert u.view["waiting_for"] == ["111"] or u.finished
            assert "cpu1" not in u.mention
            actions = await svc.legal_actions(10, "111")
            u = await svc.act(10, "111", rng.choice(actions))
        assert (await svc.audit(10)).ok
        assert (await svc.names(10))["cpu2"] == "Computer 2"
    finally:
        await svc.close()


# ---------------------------------------------------------------------- status, reminders
async def test_status_says_who_for_what_since_when(db: str) -> None:
    clock = Clock()
    svc = await make_service(db, clock)
    try:
        t0 = clock.t
        u = await start_game(svc, 3)
        s = await svc.status(10)
        assert s.awaiting == u.awaiting and s.since == t0 and s.status == "running"
        clock.t += 100
        pid = u.view["waiting_for"][0]
        u = await svc.act(10, pid, (await svc.legal_actions(10, pid))[0])
        assert (await svc.status(10)).since == t0 + 100
    finally:
        await svc.close()


async def test_reminders_follow_the_channel_interval_and_quiet_hours(db: str) -> None:
    clock = Clock(1_700_000_000.0)  # 22:13 UTC
    svc = await make_service(db, clock)
    try:
        u = await start_game(svc, 3)
        t0 = clock.t
        assert await svc.due_reminders(t0 + 11.9 * HOUR) == []
        [r] = await svc.due_reminders(t0 + 12 * HOUR)
        assert (r.channel, r.pids, r.since) == (10, tuple(u.view["waiting_for"]), t0)
        clock.t = t0 + 12 * HOUR
        assert await svc.mark_reminded(10, r.version)
        assert await svc.due_reminders(t0 + 13 * HOUR) == []
        assert len(await svc.due_reminders(t0 + 24 * HOUR)) == 1
        # quiet hours 22-07 UTC hold reminders back: t0 + 24 h is 22:13 UTC
        await svc.set_settings(10, quiet_hours=(22, 7))
        assert await svc.due_reminders(t0 + 24 * HOUR) == []
        assert len(await svc.due_reminders(t0 + 33 * HOUR)) == 1  # 07:13
        await svc.set_settings(10, quiet_hours=None, reminder_hours=2)
        assert len(await svc.due_reminders(t0 + 14 * HOUR)) == 1
        # an action restarts the clock of the new decision
        clock.t = t0 + 20 * HOUR
        pid = u.view["waiting_for"][0]
        await svc.act(10, pid, (await svc.legal_actions(10, pid))[0])
        assert await svc.due_reminders(t0 + 21 * HOUR) == []
        assert len(await svc.due_reminders(t0 + 22 * HOUR)) == 1
        assert not await svc.mark_reminded(10, r.version)  # that reminder is void now
    finally:
        await svc.close()


async def test_a_channels_language_follows_its_server_until_set_and_again_when_unset(
        db: str) -> None:
    """The channel language: unset (None) by default, so a channel speaks its server's preferred
    locale when German or French, else English; ``set_settings(language=...)`` fixes it, other
    settings changes keep it, ``language=None`` returns to the server's; it survives a
    restart."""
    svc = await make_service(db)
    try:
        assert (await svc.settings(10)).language is None
        assert [await svc.channel_language(10, loc) for loc in ("de", "fr", "en-US", None,
                                                                "pt-BR")] == \
            ["de", "fr", "en", "en", "en"]
        assert (await svc.set_settings(10, language="fr")).language == "fr"
        assert await svc.channel_language(10, "de") == "fr"
        assert await svc.channel_language(11, "de") == "de"  # another channel: unset
        await svc.set_settings(10, reminder_hours=3)  # language="keep"
        assert (await svc.settings(10)).language == "fr"
        await svc.set_settings(10, language="en")
        assert await svc.channel_language(10, "de") == "en"  # English chosen on purpose
    finally:
        await svc.close()
    svc = await make_service(db)
    try:
        assert (await svc.settings(10)).language == "en"
        assert (await svc.settings(10)).reminder_hours == 3.0
        await svc.set_settings(10, language=None)
        assert (await svc.settings(10)).language is None
        assert await svc.channel_language(10, "de") == "de"
        with pytest.raises(ServiceError) as e:
            await svc.channel_language(10, 5)  # type: ignore[arg-type]
        assert e.value.code == "input.malformed"
    finally:
        await svc.close()


async def test_settings_are_validated(svc: GameService) -> None:
    assert (await svc.settings(10)).reminder_hours == 12.0
    for kwargs, code in (({"reminder_hours": 0.1}, "settings.reminder_hours"),  # 0: off
                         ({"reminder_hours": True}, "settings.reminder_hours"),
                         ({"quiet_hours": (25, 1)}, "settings.quiet_hours"),
                         ({"quiet_hours": "x"}, "settings.quiet_hours"),
                         ({"timezone": "Nowhere/Atlantis"}, "settings.timezone"),
                         ({"language": "??"}, "settings.language")):
        with pytest.raises(ServiceError) as e:
            await svc.set_settings(10, **kwargs)  # type: ignore[arg-type]
        assert error_code(e) == code
    s = await svc.set_settings(10, reminder_hours=6, quiet_hours=(23, 8),
                               timezone="Europe/Berlin", language="de")
    assert await svc.settings(10) == s and s.quiet_start == 23
