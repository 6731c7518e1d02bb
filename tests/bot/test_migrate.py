"""Moving a bot to PostgreSQL: ``python -m bot.migrate SOURCE TARGET`` copies every table —
games, action logs, history, settings, final posts, ratings — from an SQLite file to
PostgreSQL and back, row for row; every copied game replays from its seed and log; play
goes on in the copy; a target that holds anything is refused and left as it was."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from bot.store import open_store
from bot.store.copy import PostgresSide, Side, SQLiteSide, in_dependency_order

from .test_service import Clock, RandomComputers, start_game

ROOT = Path(__file__).resolve().parents[2]
GUILD = 1


def run_migrate(source: str, target: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot.migrate", source, target, *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


async def _fill(path: str) -> None:
    """A bot's life: finished games (history, final posts, ratings), running games, a lobby,
    an abandoned game, channel settings."""
    seeds = itertools.count(100)
    clock = Clock()
    svc = GameService(await open_store(path), clock, computers=RandomComputers(3),
                      seeds=lambda: next(seeds))
    rng = random.Random(8)
    try:
        for channel in (10, 11, 12, 10):  # channel 10 twice: an ended game beside a new one
            await svc.create_lobby(GUILD, channel, "111", seats=3, name="Ann")
            u = await svc.start(channel, "111", fill_with_computers=True)
            while not u.finished:
                clock.t += 60
                u = await svc.act(channel, "111", rng.choice(
                    await svc.legal_actions(channel, "111")))
            await svc.remember_final_post(u.game_id, 9000 + channel, f"https://x/{channel}")
        await svc.leaderboard(GUILD)
        for channel in (20, 21):
            u = await start_game(svc, 3, channel=channel, guild=2)
            for _ in range(15):
                pid = rng.choice(u.view["waiting_for"])
                u = await svc.act(channel, pid, rng.choice(await svc.legal_actions(channel,
                                                                                  pid)))
        await svc.set_settings(20, reminder_hours=2.0, quiet_hours=(22, 7),
                               timezone="Europe/Rome")
        await start_game(svc, 3, channel=30)
        await svc.abandon(30, "111")
        await svc.create_lobby(GUILD, 40, "222", seats=4, name="Bob")
    finally:
        await svc.close()


async def _side(where: str) -> Side:
    return await PostgresSide.connect(where) if where.startswith("postgresql") \
        else SQLiteSide(where)


async def _everything(where: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted, by table."""
    side = await _side(where)
    try:
        out = {}
        for table in sorted(await side.tables()):
            columns = sorted(await side.columns(table))
            out[table] = sorted([r async for batch in side.rows(table, columns) for r in batch],
                                key=repr)
        return out
    finally:
        await side.close()


async def _audit_all(where: str) -> list[int]:
    svc = GameService(await open_store(where))
    try:
        games = await svc.store.started_games()
        assert len(games) == 7
        return [g for g, ch in games if not (await svc.audit(ch, game_id=g)).ok]
    finally:
        await svc.close()


async def _reminders(where: str) -> list[list[int]]:
    """The channels reminded at each hour of the next two days."""
    svc = GameService(await open_store(where), Clock())
    try:
        return [[r.channel for r in await svc.due_reminders(Clock().t + hour * 3600)]
                for hour in range(48)]
    finally:
        await svc.close()


async def test_a_bot_moves_from_sqlite_to_postgresql_and_back(
        tmp_path: Path, pg_url: str) -> None:
    source = str(tmp_path / "bot.db")
    await _fill(source)
    before = await _everything(source)
    # (the posts the service committed wait in the outbox: they move with their games; the
    # newest game number moves too, so a new game there gets a new number; the versions
    # the game pages follow move too, as written, not made again by the copy)
    assert {t for t, rows in before.items() if rows} == {
        "games", "actions", "channel_settings", "history", "final_posts", "ratings",
        "rated_games", "outbox", "game_numbers", "game_versions"}

    moved = run_migrate(source, pg_url)
    assert moved.returncode == 0, moved.stderr
    assert "audited 7 game(s) by replay: all replay" in moved.stdout
    assert "***" in moved.stdout or "@" not in moved.stdout  # no password printed
    assert await _everything(pg_url) == before  # every row of every table
    assert await _audit_all(pg_url) == []  # every copied game replays

    # The bot goes on in PostgreSQL: the same reminders fall due, a running game continues,
    # new games get new ids.
    assert await _reminders(pg_url) == await _reminders(source)
    svc = GameService(await open_store(pg_url), Clock(), seeds=lambda: 5)
    try:
        status = await svc.status(20)
        pid = status.awaiting and next(iter(status.awaiting))
        assert pid
        u = await svc.act(20, pid, (await svc.legal_actions(20, pid))[0])
        assert u.version == status.version + 1
        lobby = await svc.create_lobby(GUILD, 50, "333")
        [(last,)] = await svc.store.query_sql("SELECT max(id) FROM games "
                                              "WHERE channel_id <> 50")
        assert lobby.game_id == last + 1
    finally:
        await svc.close()

    back = str(tmp_path / "back.db")
    returned = run_migrate(pg_url, back)
    assert returned.returncode == 0, returned.stderr
    after = await _everything(back)
    assert after == await _everything(pg_url)
    assert len(after["games"]) == len(before["games"]) + 1
    assert await _audit_all(back) == []


async def test_a_target_that_holds_anything_is_refused_and_left_as_it_was(
        tmp_path: Path, pg_url: str) -> None:
    source = str(tmp_path / "bot.db")
    await _fill(source)
    assert run_migrate(source, pg_url, "--no-audit").returncode == 0
    before = await _everything(pg_url)
    again = run_migrate(source, pg_url)
    assert again.returncode == 2
    lines = again.stderr.strip().splitlines()
    assert len(lines) == 1 and "not empty" in lines[0] and "games:" in lines[0], again.stderr
    assert "Traceback" not in again.stderr
    assert await _everything(pg_url) == before
    # an SQLite file with only a lobby in it is not empty either
    other = str(tmp_path / "other.db")
    svc = GameService(await open_store(other), Clock())
    await svc.create_lobby(GUILD, 60, "111")
    await svc.close()
    assert run_migrate(pg_url, other).returncode == 2
    assert run_migrate(other, other).returncode == 2  # onto itself


def test_tables_are_copied_after_the_tables_they_reference() -> None:
    order = in_dependency_order({"actions": {"games"}, "games": set(),
                                 "rated_games": {"history"}, "history": {"games"},
                                 "notify": set()})
    assert order.index("games") < order.index("actions")
    assert order.index("history") < order.index("rated_games")
    with pytest.raises(Exception, match="cycle"):
        in_dependency_order({"a": {"b"}, "b": {"a"}})
