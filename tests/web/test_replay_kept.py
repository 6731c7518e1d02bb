"""A page's replay goes on from where it stood (issue 36): a game that moved on is not
played again from its seed for every new version — only its new moves — and a move taken
back (then another, or the same again) plays it again from the seed: the steps are always
exactly a fresh replay's."""

from __future__ import annotations

import random

import pytest

import bot.service._pages as pages
import engine
from bot.service import GameService

from .conftest import CHANNEL, Clock, make_service, start_game, token_of

pytestmark = pytest.mark.asyncio


async def _fresh(db: str, token: str) -> tuple[object, ...]:
    """The replay as a new process reads it (nothing kept)."""
    other = await make_service(db)
    try:
        return (await other.page_replay(token)).steps
    finally:
        await other.close()


async def test_a_replay_goes_on_with_new_moves_and_restarts_after_an_undo(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    svc: GameService = await make_service(db, clock)
    try:
        calls: list[str] = []
        whole, more = pages._replay, pages._replay_more
        monkeypatch.setattr(pages, "_replay", lambda *a: (calls.append("seed"), whole(*a))[1])
        monkeypatch.setattr(pages, "_replay_more",
                            lambda *a: (calls.append("more"), more(*a))[1])
        u = await start_game(svc, 3)
        while u.view["phase"] == "setup_reroll":
            u = await svc.act(CHANNEL, u.view["waiting_for"][0], engine.KeepRolls())
        token = await token_of(svc)
        await svc.page_replay(token)
        pid = u.view["waiting_for"][0]  # a set-up bridge: it may be taken back
        legal = await svc.legal_actions(CHANNEL, pid)
        clock.t += 60
        done = await svc.act(CHANNEL, pid, legal[0], expected_version=u.version)
        calls.clear()
        moved = await svc.page_replay(token)
        assert calls[:1] == ["more"] and moved.steps == await _fresh(db, token)
        clock.t += 60
        await svc.undo(CHANNEL, pid, expected_version=done.version)
        calls.clear()
        back = await svc.page_replay(token)
        assert calls[:1] == ["seed"] and back.steps == await _fresh(db, token)
        assert len(back.steps) == len(moved.steps) - 1
        clock.t += 60
        u = await svc.act(CHANNEL, pid, legal[-1])  # another move in its place
        calls.clear()
        other = await svc.page_replay(token)
        assert other.steps == await _fresh(db, token) and other.steps[-1] != moved.steps[-1]
        rng = random.Random(8)
        for _ in range(5):
            who = rng.choice(list(u.view["waiting_for"]))
            u = await svc.act(CHANNEL, who, rng.choice(await svc.legal_actions(CHANNEL, who)))
        calls.clear()
        assert (await svc.page_replay(token)).steps == await _fresh(db, token)
        assert "seed" not in calls[:1]
    finally:
        await svc.close()
