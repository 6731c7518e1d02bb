"""Crash safety: a process playing games is SIGKILLed at random moments, 20 times, on one
file. The file must always open, pass ``PRAGMA integrity_check``, hold every action the
process reported as committed (it prints only after the commit returned), and replay."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from bot.service import GameService
from bot.store import SQLiteStore

ROOT = Path(__file__).resolve().parents[2]

PLAYER = r"""
import asyncio, random, sys
from bot.service import open_service, ServiceError

async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    svc = await open_service(path)
    print("ready", flush=True)
    channel = 10
    while True:
        try:
            status = (await svc.status(channel)).status
        except ServiceError:
            status = None
        if status in (None, "finished", "abandoned"):
            await svc.create_lobby(1, channel, "111", seats=3)
            status = "lobby"
        if status == "lobby":
            for pid in ("222", "333"):
                try:
                    await svc.join(channel, pid)
                except ServiceError:
                    pass  # already seated before an earlier kill
            u = await svc.start(channel, "111")
            print(f"started {u.game_id}", flush=True)
        view = await svc.public_view(channel)
        pid = rng.choice(view["waiting_for"])
        action = rng.choice(await svc.legal_actions(channel, pid))
        u = await svc.act(channel, pid, action, expected_version=view["version"])
        print(f"committed {u.game_id} {u.version} {pid} {action.encode()}", flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def _check_file(path: Path, committed: list[tuple[int, int, str, str]]) -> None:
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for game_id, seq, pid, action in committed:
            row = db.execute("SELECT pid, action FROM actions WHERE game_id = ? AND seq = ?",
                             (game_id, seq)).fetchone()
            assert row == (pid, action), (game_id, seq, pid, action, row)
    finally:
        db.close()


async def _audit_all(path: Path) -> list[int]:
    """Ids of started games whose replay differs from their stored state."""
    svc = GameService(await SQLiteStore.open(path))
    try:
        rows = await svc.store._all("SELECT id FROM games WHERE state IS NOT NULL")
        return [r[0] for r in rows if not (await svc.audit(10, game_id=r[0])).ok]
    finally:
        await svc.close()


def test_sigkill_at_random_moments_loses_no_committed_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random(20240601)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    committed: list[tuple[int, int, str, str]] = []
    for run in range(20):
        err_path = tmp_path / f"stderr{run}.txt"
        with open(err_path, "wb") as err:
            proc = subprocess.Popen([sys.executable, "-c", PLAYER, str(path), str(run)],
                                    stdout=subprocess.PIPE, stderr=err, cwd=ROOT, env=env)
            if run % 5 == 4:
                time.sleep(rng.uniform(0.0, 0.3))  # sometimes while it opens the file
            else:
                assert proc.stdout is not None
                assert proc.stdout.readline().strip() == b"ready", err_path.read_text()
                time.sleep(rng.uniform(0.0, 0.4))
            os.kill(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate(timeout=10)
        assert proc.returncode == -signal.SIGKILL, err_path.read_text()
        for line in out.decode().splitlines():
            if line.startswith("committed "):
                _, game_id, seq, pid, action = line.split()
                committed.append((int(game_id), int(seq), pid, action))
        _check_file(path, committed)
    assert len(committed) > 50  # the kills hit a process that was really playing
    assert asyncio.run(_audit_all(path)) == []
