"""Pages under CPU load (issue 36): a page's picture or a ``/check`` that cannot start in
the worker lanes within its budget is a 503 with Retry-After and the catalogue's "busy"
sentence in the reader's language — and nothing else waits for it; once there is room, the
same address answers the picture."""

from __future__ import annotations

import asyncio
import json
import random
from html import unescape
from typing import Any

import pytest

from bot import text
from bot.i18n import translations
from bot.service import GameService
from bot.service.errors import Code
from bot.work import Kind, Workers
from tests.bot.test_work import GATE, SLOW, blocked

from .conftest import move, start_game, token_of

pytestmark = pytest.mark.asyncio

TIGHT = Kind("picture", queue=8, budget=0.05)


async def _hold_the_side_lane(svc: GameService) -> list[asyncio.Task[str]]:
    GATE.clear()
    held = [asyncio.create_task(svc.work.run(SLOW, blocked, f"b{i}")) for i in range(2)]
    for _ in range(100):
        await asyncio.sleep(0)
    return held


async def test_a_page_picture_and_a_check_refused_busy_are_503_with_retry_after(
        svc: GameService, client_of: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.web.games.PICTURE", TIGHT)
    monkeypatch.setattr("bot.web.app.CHECK", Kind("check", queue=2, budget=0.05))
    u = await start_game(svc, 3)
    rng = random.Random(3)
    for _ in range(3):
        u = await move(svc, u, rng)
    client = await client_of(svc)
    token = await token_of(svc)
    assert (await client.get(f"/g/{token}")).status == 200  # the replay, read and kept
    held = await _hold_the_side_lane(svc)
    try:
        busy = await client.get(f"/g/{token}/replay/2.png?lang=de")
        assert busy.status == 503
        assert busy.headers["Retry-After"].isdigit() and int(busy.headers["Retry-After"]) >= 1
        assert busy.content_type == "text/html"  # the guard's page, saying the refusal
        assert text.refusal(translations("de"), Code.BUSY) in unescape(await busy.text())
        assert busy.headers["X-Content-Type-Options"] == "nosniff"  # the guard's headers
        checked = await client.post("/check?lang=fr", data=json.dumps({"format": "x"}))
        assert checked.status == 503 and checked.headers["Retry-After"].isdigit()
        assert text.refusal(translations("fr"), Code.BUSY) in unescape(await checked.text())
        # the page itself needs no worker: it still answers
        assert (await client.get(f"/g/{token}")).status == 200
    finally:
        GATE.set()
        await asyncio.gather(*held)
    drawn = await client.get(f"/g/{token}/replay/2.png?lang=de")
    assert drawn.status == 200 and (await drawn.read()).startswith(b"\x89PNG")
    assert (await client.post("/check", data=b"{}")).status == 200


async def test_in_a_worker_process_the_replay_its_pictures_and_check_come_back(
        svc: GameService, client_of: Any) -> None:
    """SANMARCO_WORK_PROCESSES=1: every job of the pages crosses to a process and back
    (plain picklable values: steps, events, the verdict)."""
    svc.work = Workers(side_processes=1)
    try:
        u = await start_game(svc, 3)
        rng = random.Random(4)
        for _ in range(4):
            u = await move(svc, u, rng)
        client = await client_of(svc)
        token = await token_of(svc)
        assert (await client.get(f"/g/{token}")).status == 200
        for n in (0, 3):
            drawn = await client.get(f"/g/{token}/replay/{n}.png?lang=fr")
            assert drawn.status == 200 and (await drawn.read()).startswith(b"\x89PNG")
        checked = await client.post("/check", data=b"{}")
        assert checked.status == 200 and not (await checked.json())["ok"]
        assert svc.work.done["replay"] >= 1 and svc.work.done["picture"] == 2
        assert svc.work.done["check"] == 1 and not svc.work.refused
    finally:
        svc.work.close()
