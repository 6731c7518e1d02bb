"""Hints and reviews through the service (real stores: SQLite and PostgreSQL): the hard
computer's advice for the caller's decision, refused when hints are off, when it is not the
caller's turn, when there is no game or it is over; a hinted game is marked once, not rated,
and its final post and history say so; the review of a finished game names the caller's own
logged moves and is computed once. Budgets are tiny and uncapped (fast, deterministic)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot import text
from bot.i18n import translations
from bot.service import GameService, ServiceError
from bot.service.posts import Post
from bot.store import SCHEMA_VERSION, SQLiteStore
from engine import decode
from engine.ai import Budget
from tests.dbsql import sqlite_at

from .test_service import PIDS, make_service, start_game

pytestmark = pytest.mark.asyncio

TINY = Budget(playouts=4, max_seconds=None, candidates=3)
EN = translations("en")
GUILD = 1


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:
    service = await make_service(db)
    service.hint_budget = TINY
    service.review_budget = TINY
    service.review_worlds = 2
    service.hint_cooldown = 0  # these tests ask again at once (the cooldown has its own)
    yield service
    await service.close()


async def _refused(call: object) -> str:
    with pytest.raises(ServiceError) as e:
        await call  # type: ignore[misc]
    assert text.refusal(EN, e.value.code, e.value.params) != text.apology(EN)
    return e.value.code


async def _play_to_end(svc: GameService, channel: int, *, hint_at: int | None = None,
                       seed: int = 1) -> None:
    """Random legal moves by whoever is awaited until the game ends; the awaited player
    asks for a hint before move ``hint_at``."""
    rng = random.Random(seed)
    n = 0
    while True:
        status = await svc.status(channel)
        if status.finished or not status.awaiting:
            return
        pid = next(iter(status.awaiting))
        if n == hint_at:
            await svc.hint(channel, pid)
        legal = await svc.legal_actions(channel, pid)
        await svc.act(channel, pid, rng.choice(legal))
        n += 1


async def test_a_hint_is_the_hard_computers_choice_for_the_callers_decision(
        svc: GameService) -> None:
    u = await start_game(svc)
    pid = u.view["waiting_for"][0]
    legal = await svc.legal_actions(10, pid)
    hint = await svc.hint(10, pid)
    assert hint.pid == pid and hint.game_id == u.game_id and hint.turn == u.version
    assert hint.advice.best.action in legal
    assert hint.first
    private = (await svc.private_view(10, pid)).get("private") or {}
    assert hint.drawn == tuple(private.get("drawn") or ())  # the caller's own cards only
    again = await svc.hint(10, pid, game_id=u.game_id)
    assert again.advice == hint.advice  # deterministic: same view, same budget
    assert not again.first  # the game was marked by the first hint only
    assert await svc.store.hinted(u.game_id)


async def test_hints_are_refused_when_not_your_turn_no_game_or_hints_off(
        svc: GameService) -> None:
    assert await _refused(svc.hint(10, "111")) == "game.none"
    u = await start_game(svc)
    waiting = set(u.view["waiting_for"])
    idle = next(p for p in PIDS[:3] if p not in waiting)
    assert await _refused(svc.hint(10, idle)) == "action.not_your_turn"
    assert await _refused(svc.hint(10, "999")) == "player.not_in_game"
    assert (await svc.settings(10)).hints
    settings = await svc.set_settings(10, hints=False)
    assert not settings.hints and not (await svc.settings(10)).hints
    assert await _refused(svc.hint(10, next(iter(waiting)))) == "hint.off"
    assert await _refused(svc.set_settings(10, hints="no")) == "input.malformed"  # type: ignore[arg-type]
    assert not await svc.store.hinted(u.game_id)  # nothing marked by a refusal
    await svc.set_settings(10, hints=True)
    await svc.hint(10, next(iter(waiting)))
    assert await svc.store.hinted(u.game_id)


async def test_a_hinted_game_is_not_rated_and_its_final_post_and_history_say_so(
        svc: GameService) -> None:
    hinted = await start_game(svc, channel=10)
    await _play_to_end(svc, 10, hint_at=3)
    assert await _refused(svc.hint(10, "111")) == "game.over"
    plain = await start_game(svc, channel=20)
    await _play_to_end(svc, 20, seed=2)
    board = await svc.leaderboard(GUILD)
    assert {r.player for r in board} == set(PIDS[:3])
    assert all(r.games == 1 for r in board)  # the plain game only
    history = {h.game_id: h for h in await svc.history(GUILD)}
    assert history[hinted.game_id].hinted and not history[plain.game_id].hinted
    past = {g.history.game_id: g for g in await svc.past_games(GUILD)}
    assert past[hinted.game_id].history.hinted
    words = text.history_text(EN, list(past.values()))
    assert words.count(text.hinted_tag(EN)) == 1
    finals = {ch: [p for p in (Post.from_json(r.entry.payload)
                               for r in await svc.store.pending_posts(ch, limit=10_000))
                   if p.finished]
              for ch in (10, 20)}
    assert [p.hinted for p in finals[10]] == [True]
    assert [p.hinted for p in finals[20]] == [False]
    rebuilt = await svc.rebuild_ratings(GUILD)
    assert all(r.games == 1 for r in rebuilt)


async def test_the_review_names_the_callers_own_moves_and_is_computed_once(
        svc: GameService) -> None:
    u = await start_game(svc)
    assert await _refused(svc.review(10, "111")) == "history.not_over"
    await _play_to_end(svc, 10)
    log = await svc.store.actions(u.game_id)
    got = await svc.review(10, "222")
    assert got.pid == "222" and got.game_id == u.game_id
    assert got.review.decisions > 0 and 0 < len(got.review.mistakes) <= 3
    for m in got.review.mistakes:
        row = log[m.seq - 1]
        assert row.seq == m.seq and row.pid == "222" and decode(row.action) == m.played
    assert (await svc.review(10, "222", game_id=u.game_id)).review is got.review  # cached
    assert await _refused(svc.review(10, "999")) == "player.not_in_game"
    assert await _refused(svc.review(11, "222", game_id=u.game_id)) == "history.no_game"


async def test_migration_16_gives_old_games_no_hint_and_old_channels_hints_on(
        tmp_path: Path) -> None:
    """A schema-15 file upgraded: its games are not hinted (still rated), its channels allow
    hints, and both can change afterwards."""
    path = tmp_path / "v15.db"
    db = sqlite_at(path, 15)
    db.execute("INSERT INTO channel_settings (channel_id, pages) VALUES (10, 0)")
    db.execute("INSERT INTO games (guild_id, channel_id, status, creator, seats, players, "
               "created_at, last_action_at) VALUES (1, 10, 'running', '111', 3, '[]', 0, 0)")
    db.close()
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 16
        settings = await store.settings(10)
        assert settings.hints and not settings.pages
        assert not await store.hinted(1)
        assert await store.mark_hinted(1) and not await store.mark_hinted(1)
        assert await store.hinted(1)
        await store.set_settings(replace(settings, hints=False))
        assert not (await store.settings(10)).hints
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
