"""Crash safety: a process playing games is SIGKILLed at random moments, 20 times, on one
file (and 8 times on a PostgreSQL database). The database must always open, pass its
integrity check, hold every action the process reported as committed (it prints only after
the commit returned), and replay."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.service import GameService
from bot.store import is_postgres, open_store
from tests.dbsql import rows

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


async def _check(db: str, committed: list[tuple[int, int, str, str]]) -> None:
    store = await open_store(db)
    try:
        assert await store.integrity_check() == "ok"
        for game_id, seq, pid, action in committed:
            row = await rows(store, "SELECT pid, action FROM actions WHERE game_id = ? "
                             "AND seq = ?", game_id, seq)
            assert row == [(pid, action)], (game_id, seq, pid, action, row)
    finally:
        await store.close()


async def _audit_all(db: str) -> list[int]:
    """Ids of started games whose replay differs from their stored state."""
    svc = GameService(await open_store(db))
    try:
        started = await rows(svc.store, "SELECT id FROM games WHERE state IS NOT NULL")
        return [r[0] for r in started if not (await svc.audit(10, game_id=r[0])).ok]
    finally:
        await svc.close()


def test_sigkill_at_random_moments_loses_no_committed_action(tmp_path: Path, db: str) -> None:
    rng = random.Random(20240601)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    committed: list[tuple[int, int, str, str]] = []
    waited = 0  # commits the kills waited for
    for run in range(20 if not is_postgres(db) else 8):
        seen: list[bytes] = []
        err_path = tmp_path / f"stderr{run}.txt"
        with open(err_path, "wb") as err:
            proc = subprocess.Popen([sys.executable, "-c", PLAYER, db, str(run)],
                                    stdout=subprocess.PIPE, stderr=err, cwd=ROOT, env=env)
            if run % 5 == 4:
                time.sleep(rng.uniform(0.0, 0.3))  # sometimes while it opens the file
            else:
                # Killed after a chosen number of commits, then a random moment: however
                # slow the machine, the player has really played (no wall-clock guess).
                assert proc.stdout is not None
                assert proc.stdout.readline().strip() == b"ready", err_path.read_text()
                target = rng.randint(1, 6)
                waited += target
                while sum(x.startswith(b"committed ") for x in seen) < target:
                    line = proc.stdout.readline()
                    assert line, err_path.read_text()
                    seen.append(line)
                time.sleep(rng.uniform(0.0, 0.1))
            os.kill(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate(timeout=10)
        assert proc.returncode == -signal.SIGKILL, err_path.read_text()
        for line in b"".join(seen).decode().splitlines() + out.decode().splitlines():
            if line.startswith("committed "):
                _, game_id, seq, pid, action = line.split()
                committed.append((int(game_id), int(seq), pid, action))
        asyncio.run(_check(db, committed))
    assert len(committed) >= waited > 0  # it was really playing
    assert asyncio.run(_audit_all(db)) == []
