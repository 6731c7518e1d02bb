"""The service's boundary under faults and hostile input (issue 11, items 4 and 6): one
unreadable game does not stop the reminders of the others; malformed Action values are
refused whoever sends them; every public call raises only its typed errors and a refusal
changes nothing."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

import engine
from bot.errors import ServiceError
from bot.service import GameService

from .test_service import HOUR, Clock, make_service, start_game


def _break_state(channel: int):  # noqa: ANN202 - a function for Store._run
    def run(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE games SET state = '{\"players\": [' WHERE channel_id = ?",
                     (channel,))
    return run


async def test_one_unreadable_game_does_not_stop_the_other_reminders(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    svc = await make_service(tmp_path / "g.db", clock)
    try:
        for channel in (10, 20, 30):
            await start_game(svc, 3, channel=channel)
        await svc.store._run(_break_state(20))
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
        tmp_path: Path, action: object) -> None:
    """Not only from the awaited player (the engine's check): from anyone, in a channel
    without a game or a game that is not awaiting them — refused at the boundary, never
    stored."""
    svc: GameService = await make_service(tmp_path / "g.db", Clock())
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
