"""The service's boundary under faults and hostile input (bad input changes nothing): one
unreadable game does not stop the reminders of the others; malformed Action values are
refused whoever sends them; every public call raises only its typed errors and a refusal
changes nothing."""

from __future__ import annotations

import inspect
import json
import logging

import pytest

import engine
from bot.service import GameService
from bot.service.errors import ServiceError
from tests.dbsql import execute, rows

from .test_service import HOUR, Clock, make_service, start_game


async def _break_state(svc: GameService, channel: int) -> None:
    await execute(svc.store, "UPDATE games SET state = '{\"players\": [' WHERE channel_id = ?",
                  channel)


async def test_one_unreadable_game_does_not_stop_the_other_reminders(
        db: str, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    svc = await make_service(db, clock)
    try:
        for channel in (10, 20, 30):
            await start_game(svc, 3, channel=channel)
        await _break_state(svc, 20)
        caplog.set_level(logging.ERROR)
        due = await svc.due_reminders(clock.t + 13 * HOUR)
        assert sorted(r.channel for r in due) == [10, 30]
        assert any("channel 20" in r.getMessage() for r in caplog.records)
    finally:
        await svc.close()


MALFORMED = [engine.Split((True, False, True)), engine.TakeOffer(True), "keep", None, 7,
             engine.PlaceAristocrat("Atlantis"), engine.Doge("San Marco", ((1, 2),))]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
async def test_a_malformed_action_is_refused_as_such_whoever_sends_it(
        db: str, action: object) -> None:
    """Not only from the awaited player (the engine's check): from anyone, in a channel
    without a game or a game that is not awaiting them — refused at the boundary, never
    stored."""
    svc: GameService = await make_service(db, Clock())
    try:
        u = await start_game(svc, 3)
        idle = next(p for p in u.view["players"] if p not in u.view["waiting_for"])
        before = await svc.store.latest_game(10)
        for channel, pid in ((10, u.view["waiting_for"][0]), (10, idle), (10, "999"),
                             (99, "111")):
            with pytest.raises(ServiceError) as e:
                await svc.act(channel, pid, action)  # type: ignore[arg-type]
            assert e.value.code == "action.malformed", (channel, pid, e.value.code)
        assert await svc.store.latest_game(10) == before
        assert len(await svc.store.actions(before.id)) == 0
    finally:
        await svc.close()


# ---------------------------------------------------------------------- the boundary
HOSTILE: list[object] = [
    None, True, False, -1, 0, 2**63, 2**64, -(2**63) - 1, 1.5, float("nan"), float("inf"),
    "", " ", "x" * 1_000_000, "10", "<@111>", "111\n", "\x00", "@everyone", "ai.normal.1",
    [], {}, (), b"111", object(),
]

# A valid value for every parameter of every public call (the fuzz varies one at a time).
VALID: dict[str, object] = {
    "guild": 1, "channel": 10, "user": "111", "voter": "222", "target": "333", "pid": "ai.x",
    "name": "Ann", "seats": 3, "level": "normal", "game_id": None, "expected_version": None,
    "turn": False, "is_admin": False, "fill_with_computers": False, "version": 0,
    "action": engine.KeepRolls(), "now": 1_700_000_000.0, "limit": 10,
    "reminder_hours": 12, "quiet_hours": None, "language": "en", "timezone": "UTC",
    "shards": None, "until": 1_700_086_400.0, "away_cap_hours": 72,
}


async def _dump(svc: GameService) -> list[object]:
    """Everything the store holds, to compare before and after a refused call."""
    out: list[object] = []
    for table in ("games", "actions", "channel_settings", "history", "away"):
        out += await rows(svc.store, f"SELECT * FROM {table} ORDER BY 1, 2")
    return out


def _calls(svc: GameService) -> list[tuple[str, inspect.Signature]]:
    return [(name, inspect.signature(getattr(svc, name))) for name in dir(svc)
            if not name.startswith("_") and name != "close"
            and inspect.iscoroutinefunction(getattr(svc, name))]


async def test_every_public_call_raises_only_typed_errors_and_refusals_change_nothing(
        db: str) -> None:
    """Each public call with each hostile value in each parameter (channel ids ≥ 2^63 used
    to raise OverflowError, None an IntegrityError; a 1 MB display name was stored)."""
    from bot.computers import EngineComputers

    svc = GameService((await make_service(db, Clock())).store, Clock(),
                      computers=EngineComputers(), seeds=lambda: 7)
    try:
        await start_game(svc, 3)
        tried = refused = 0
        for name, signature in _calls(svc):
            params = [p for p in signature.parameters.values() if p.name in VALID]
            for param in params:
                for bad in HOSTILE:
                    kwargs = {p.name: VALID[p.name] for p in params
                              if p.default is inspect.Parameter.empty or p is param}
                    kwargs[param.name] = bad
                    args = [kwargs.pop(p.name) for p in params
                            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
                            and p.default is inspect.Parameter.empty]
                    before = await _dump(svc)
                    tried += 1
                    try:
                        await getattr(svc, name)(*args, **kwargs)
                    except ServiceError as exc:
                        refused += 1
                        where = (name, param.name, repr(bad)[:40], exc.code)
                        assert exc.code != "internal", where  # a refusal, not a crash
                        assert await _dump(svc) == before, where
        assert tried > 500 and refused > tried // 2, (tried, refused)
        stored = await rows(svc.store, "SELECT players FROM games")
        assert all(len(n) <= 32 for (players,) in stored
                   for n in (s.get("name") or "" for s in json.loads(players)))
    finally:
        await svc.close()


async def test_display_names_are_one_line_and_at_most_32_characters(db: str) -> None:
    svc = await make_service(db, Clock())
    try:
        lobby = await svc.create_lobby(1, 10, "111", name="x" * 1_000_000)
        assert lobby.names["111"] == "x" * 32
        lobby = await svc.join(10, "222", name="  Bob\n\n@everyone \u202eevil\x00  ")
        assert lobby.names["222"] == "Bob @everyone evil"
        lobby = await svc.join(10, "333", name="\n\t ")
        assert "333" not in lobby.names  # nothing left: the pid stands for the name
        with pytest.raises(ServiceError):
            await svc.create_lobby(1, 2**63, "111")
        with pytest.raises(ServiceError):
            await svc.create_lobby(1, None, "111")  # type: ignore[arg-type]
    finally:
        await svc.close()
