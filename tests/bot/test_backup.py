"""Backups an admin does not have to remember (``bot.backup``): the bot copies its SQLite file
while games are played, every hour by default, checks each copy (integrity and replay)
before an old one goes, keeps exactly the copies SANMARCO_BACKUP_KEEP promises, keeps a
copy that fails its check aside; ``python -m bot.backup`` makes one now, and ``--restore``
puts one back, refusing a damaged copy and keeping the current file aside."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.backup import Copy, Schedule, copies, copy_name, replay_audit, restore, to_keep
from bot.config import Backups, ConfigError, Keep, load_config, read_backups
from bot.service import GameService
from bot.store import open_store
from tests.fakediscord.harness import BotHarness, until

from .test_service import Clock, make_service, start_game

ROOT = Path(__file__).resolve().parents[2]
# 2026-11-20 00:07 UTC, a Friday: copies are taken seven minutes past each hour.
START = datetime(2026, 11, 20, 0, 7, tzinfo=UTC).timestamp()
HOUR, DAY = 3600, 86400


async def _games(path: str, channels: int = 3, moves: int = 12, first: int = 10) -> None:
    """Games under way in ``channels`` channels from ``first`` on, ``moves`` random moves
    each."""
    svc = await make_service(path)
    rng = random.Random(5)
    try:
        for channel in range(first, first + channels):
            u = await start_game(svc, 3, channel=channel)
            for _ in range(moves):
                pid = rng.choice(u.view["waiting_for"])
                u = await svc.act(channel, pid, rng.choice(await svc.legal_actions(channel,
                                                                                  pid)))
    finally:
        await svc.close()


def _names(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def _damage_pages(path: str) -> None:
    """Zero an index's pages in the file (a disk's damage): it still opens, but SQLite's
    integrity check finds it."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = "
                            "'games_channel'").fetchone()[0]
    conn.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\x00" * page_size)


def _drop_last_move(path: str) -> None:
    """A game's log loses its last entry: the game no longer replays to its stored state."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DELETE FROM actions WHERE game_id = (SELECT min(game_id) FROM actions) "
                 "AND seq = (SELECT max(seq) FROM actions WHERE game_id = "
                 "(SELECT min(game_id) FROM actions))")
    conn.close()


# ---------------------------------------------------------------------- settings
def test_backups_are_on_by_default_hourly_for_a_day_daily_for_a_week_beside_the_db() -> None:
    config = load_config({"DISCORD_TOKEN": "t", "SANMARCO_DB": "/srv/bot/sanmarco.db"}, None)
    assert config.backups.keep == (Keep(24, "h"), Keep(7, "d"))
    assert config.backups.every == HOUR
    assert config.backups.folder_for(config.db_path) == "/srv/bot/backups"
    assert read_backups({"SANMARCO_BACKUP_KEEP": "8w, 48h,14d", "SANMARCO_BACKUP_DIR": "/b"}) \
        == Backups((Keep(48, "h"), Keep(14, "d"), Keep(8, "w")), "/b")
    assert not read_backups({"SANMARCO_BACKUP_KEEP": "off"}).on
    for wrong in ("24", "24h,2h", "0h", "1y", "hourly"):
        with pytest.raises(ConfigError, match="SANMARCO_BACKUP_KEEP"):
            read_backups({"SANMARCO_BACKUP_KEEP": wrong})


# ---------------------------------------------------------------------- while games are played
async def test_a_backup_taken_while_games_are_played_restores_to_games_that_all_replay(
        tmp_path: Path) -> None:
    live = str(tmp_path / "sanmarco.db")
    await _games(live, channels=4, moves=5)
    svc: GameService = await make_service(live)
    schedule = Schedule(live, Backups((Keep(24, "h"),), str(tmp_path / "backups")),
                        Clock(START))
    backing_up = asyncio.Event()
    moves_during = 0

    async def player(channel: int) -> None:
        """Moves as fast as the service takes them, until the backup is done."""
        nonlocal moves_during
        rng = random.Random(channel)
        while True:
            view = await svc.public_view(channel)
            if not view["waiting_for"]:
                return
            pid = rng.choice(view["waiting_for"])
            await svc.act(channel, pid, rng.choice(await svc.legal_actions(channel, pid)))
            if backing_up.is_set():
                moves_during += 1
            await asyncio.sleep(0)

    players = [asyncio.create_task(player(ch)) for ch in range(10, 14)]
    try:
        await asyncio.sleep(0.05)  # the players are under way
        backing_up.set()
        result = await schedule.run_once()
        backing_up.clear()
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        await svc.close()
    assert moves_during > 0, "no move was written while the copy was taken"
    assert result is not None and result.check.ok, result
    assert result.check.audited == 4
    assert Path(result.path).name == "sanmarco-2026-11-20T000700Z.db"
    assert _names(tmp_path / "backups") == {"sanmarco-2026-11-20T000700Z.db"}

    target = str(tmp_path / "restored" / "sanmarco.db")
    os.makedirs(os.path.dirname(target))
    check, aside = await asyncio.to_thread(restore, result.path, target, START)
    assert check.ok and aside is None
    replayed = await replay_audit(target)
    assert (replayed.audited, replayed.not_replaying) == (4, ())
    restored = await open_store(target)
    try:
        assert len(await restored.started_games()) == 4
    finally:
        await restored.close()


# ---------------------------------------------------------------------- rotation
async def test_rotation_keeps_exactly_the_promised_copies(tmp_path: Path) -> None:
    """Hourly for four days with "6h,3d" (the default "24h,7d" works alike, over longer):
    the copies of the last 6 hours, and the day's last copy of each of the two days before;
    a copy is taken once an hour, however often the schedule looks."""
    live = str(tmp_path / "sanmarco.db")
    await _games(live, channels=1, moves=3)
    folder = tmp_path / "backups"
    clock = Clock(START)
    schedule = Schedule(live, Backups((Keep(6, "h"), Keep(3, "d")), str(folder)), clock,
                        in_thread=True)  # 97 copies: no process spawned for each
    for hour in range(4 * 24):
        clock.t = START + hour * HOUR
        assert await schedule.run_once() is not None
        clock.t += 30 * 60  # the schedule looks again within the hour: nothing is due
        assert await schedule.run_once() is None
        if hour == 3:  # a young bot keeps every copy so far
            assert len(_names(folder)) == 4
    now = START + (4 * 24 - 1) * HOUR  # the last copy: day 4, 23:07
    hourly = {copy_name(live, now - h * HOUR) for h in range(6)}
    daily = {copy_name(live, now - d * DAY) for d in range(1, 3)}  # each day's 23:07
    assert _names(folder) == hourly | daily
    assert len(hourly | daily) == 6 + 2

    # Stopped for a month, then started again: the old copies stay (the latest hours and
    # days *that have a copy*), only the oldest hourly and daily make room for the new one.
    clock.t = now + 30 * DAY
    result = await schedule.run_once()
    assert result is not None and result.check.ok
    assert _names(folder) == (hourly - {copy_name(live, now - 5 * HOUR)}) | (
        daily - {copy_name(live, now - 2 * DAY)}) | {copy_name(live, clock.t)}


def test_the_rules_keep_the_newest_copy_of_each_latest_period() -> None:
    """"24h,7d,4w" over a year of hourly copies: each kept copy is the last of its hour,
    day (UTC) or ISO week (from Monday), the current one counted."""
    found = [Copy(f"c{h}", START + h * HOUR) for h in range(365 * 24)]
    kept = to_keep(found, (Keep(24, "h"), Keep(7, "d"), Keep(4, "w")))
    last = found[-1].taken
    assert datetime.fromtimestamp(last, UTC).strftime("%a %H:%M") == "Fri 23:07"
    hourly = {f"c{len(found) - 1 - h}" for h in range(24)}
    daily = {f"c{len(found) - 1 - 24 * d}" for d in range(1, 7)}
    weekly = {f"c{len(found) - 1 - 24 * (5 + 7 * (w - 1))}" for w in range(1, 4)}  # Sundays
    assert kept == hourly | daily | weekly
    assert len(kept) == 24 + 6 + 2  # last Sunday's copy is a daily one too


async def test_a_copy_under_way_when_the_bot_closes_leaves_nothing_that_looks_good(
        tmp_path: Path) -> None:
    live = str(tmp_path / "sanmarco.db")
    await _games(live, channels=3, moves=10)
    folder = tmp_path / "backups"
    schedule = Schedule(live, Backups((Keep(24, "h"),), str(folder)), Clock(START))
    taking = asyncio.create_task(schedule.run_once())
    await until(lambda: schedule._child is not None, what="the backup process started")
    await schedule.close()  # kills the process wherever it is
    assert await taking is None
    assert not folder.exists() or _names(folder) == set()  # no copy, no .tmp
    assert await schedule.run_once() is None  # closed: no new copy


# ---------------------------------------------------------------------- a copy that fails
@pytest.mark.parametrize("damage", [_damage_pages, _drop_last_move],
                         ids=["pages", "replay"])
async def test_a_copy_that_fails_its_check_is_kept_aside_and_the_good_ones_kept(
        tmp_path: Path, damage: object, caplog: pytest.LogCaptureFixture) -> None:
    live = str(tmp_path / "sanmarco.db")
    await _games(live, channels=2, moves=6)
    folder = tmp_path / "backups"
    clock = Clock(START)
    schedule = Schedule(live, Backups((Keep(2, "h"),), str(folder)), clock)
    for hour in range(2):
        clock.t = START + hour * HOUR
        assert (await schedule.run_once()).check.ok  # type: ignore[union-attr]
    good = _names(folder)
    assert len(good) == 2

    damage(live)  # type: ignore[operator]
    clock.t = START + 2 * HOUR
    with caplog.at_level(logging.INFO, logger="bot.backup"):
        result = await schedule.run_once()
    assert result is not None and not result.check.ok
    assert result.path.endswith("sanmarco-2026-11-20T020700Z.db.bad")
    assert _names(folder) == good | {"sanmarco-2026-11-20T020700Z.db.bad"}  # none removed
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "FAILED its check" in errors[0].getMessage()
    assert errors[0].exc_info is None
    assert [c.path for c in copies(str(folder), live)] == sorted(
        str(folder / n) for n in good)  # a .bad file is never counted as a copy

    clock.t += 20 * 60  # not tried again every minute: the next hour tries again
    assert await schedule.run_once() is None

    for hour in range(3, 6):  # still damaged: the 3 newest failed copies are kept aside
        clock.t = START + hour * HOUR
        assert not (await schedule.run_once()).check.ok  # type: ignore[union-attr]
    assert _names(folder) == good | {f"sanmarco-2026-11-20T0{h}0700Z.db.bad"
                                     for h in (3, 4, 5)}


# ---------------------------------------------------------------------- python -m bot.backup
def _run(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot.backup`` as an admin runs it: in the bot's folder (no .env here),
    with the settings in the environment."""
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith(("SANMARCO_", "DATABASE_URL"))}
    return subprocess.run([sys.executable, "-m", "bot.backup", *args], cwd=cwd,
                          env={**environ, "PYTHONPATH": str(ROOT), **env},
                          capture_output=True, text=True, timeout=300)


async def test_python_m_bot_backup_makes_a_checked_copy_now(tmp_path: Path) -> None:
    await _games(str(tmp_path / "games.db"), channels=2, moves=4)
    done = await asyncio.to_thread(_run, tmp_path, SANMARCO_DB="games.db")
    assert done.returncode == 0, done.stderr
    made = list((tmp_path / "backups").iterdir())  # the default: a folder beside the db
    assert len(made) == 1 and made[0].name.startswith("games-")
    assert made[0].name.endswith("Z.db")
    assert str(made[0]) in done.stdout and "integrity ok, 2 game(s) replay" in done.stdout

    _damage_pages(str(tmp_path / "games.db"))
    bad = await asyncio.to_thread(_run, tmp_path, SANMARCO_DB="games.db",
                                  SANMARCO_BACKUP_DIR=str(tmp_path / "elsewhere"))
    assert bad.returncode == 1
    assert "FAILED its check" in bad.stderr
    assert [p.suffix for p in (tmp_path / "elsewhere").iterdir()] == [".bad"]

    pg = await asyncio.to_thread(_run, tmp_path, DATABASE_URL="postgresql://bot@db/sanmarco")
    assert pg.returncode == 2 and "pg_dump" in pg.stderr


async def test_restore_refuses_a_damaged_copy_and_keeps_the_current_file_aside(
        tmp_path: Path) -> None:
    live = tmp_path / "sanmarco.db"
    await _games(str(live), channels=1, moves=2)
    copy_dir = tmp_path / "backups"
    assert (await asyncio.to_thread(_run, tmp_path, SANMARCO_DB=str(live))).returncode == 0
    (good,) = copy_dir.iterdir()
    await _games(str(live), channels=3, moves=2, first=20)  # play goes on after the copy
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(good.read_bytes())
    _damage_pages(str(damaged))
    current = live.read_bytes()

    refused = await asyncio.to_thread(_run, tmp_path, "--restore", str(damaged),
                                      SANMARCO_DB=str(live))
    assert refused.returncode == 1 and "failed its check" in refused.stderr
    assert live.read_bytes() == current  # left as it was, nothing beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == [  # the lock its opens take
        "backups", "damaged.db", "sanmarco.db", "sanmarco.db-lock"]

    store = await open_store(str(live))  # the bot is still running
    try:
        running = await asyncio.to_thread(_run, tmp_path, "--restore", str(good),
                                          SANMARCO_DB=str(live))
    finally:
        await store.close()
    assert running.returncode == 2 and "stop the bot first" in running.stderr

    done = await asyncio.to_thread(_run, tmp_path, "--restore", str(good), SANMARCO_DB=str(live))
    assert done.returncode == 0, done.stderr
    (aside,) = tmp_path.glob("sanmarco.db.before-restore-*")
    assert aside.read_bytes() == current and str(aside) in done.stdout
    restored = await open_store(str(live))
    try:
        assert len(await restored.started_games()) == 1  # the copy's one game
    finally:
        await restored.close()
    assert good.exists()  # the copy itself is left as it was


# ---------------------------------------------------------------------- the bot
async def test_the_running_bot_backs_its_file_up(harness: BotHarness, tmp_path: Path) -> None:
    folder = tmp_path / "copies"
    await harness.start(backups=Backups((Keep(24, "h"), Keep(7, "d")), str(folder)))
    await until(lambda: any(n.endswith("Z.db") for n in _names(folder))
                if folder.exists() else False, 30, what="a copy in the backup folder")
    bot = harness.bot
    assert bot is not None and bot.backups is not None  # type: ignore[attr-defined]
    await harness.stop()
    assert [p.name.startswith("sanmarco-") for p in folder.iterdir()] == [True]
