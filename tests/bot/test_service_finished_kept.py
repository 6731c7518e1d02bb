"""A finished game is played again once per process (issue 36): its file, its replay and
its summary picture ask for it again and again (a page's ``game.json``, ``/sanmarco-server
replay``), and it never changes — on both stores."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator

import pytest

from bot.service import GameService
from engine.replay import verify

from .test_service import Clock, make_service, play, start_game

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:
    service = await make_service(db, Clock())
    yield service
    await service.close()


async def test_a_finished_game_is_replayed_once_however_often_it_is_asked_for(
        svc: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    await play(svc, 10, await start_game(svc), random.Random(6))
    import bot.service._stats as stats

    replays = []
    real = stats._replay

    def counted(*args: object) -> object:
        replays.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(stats, "_replay", counted)
    first = await svc.finished_game(1, 10)
    again = await svc.finished_game(1, 10)
    data = await svc.game_file(1, 10)
    assert replays == [1]
    assert again.steps == first.steps and verify(json.loads(data)).ok
