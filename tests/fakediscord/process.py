"""The whole bot as its own process (``python -m bot``'s ``main``, Discord layer included)
against the fake Discord of this process: for crash tests and benchmarks.

The child is the real entry point with two class attributes pointed at the fake
(FAKE_DISCORD.md); it runs in a session of its own, so ``kill`` takes the whole bot down
(render workers included) at once, like a machine losing power.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from .server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]

RUN_BOT = ("import sys, discord, yarl; discord.http.Route.BASE = sys.argv[1]; "
           "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2]); "
           "from bot.__main__ import main; sys.exit(main())")


async def start_bot_process(fake: FakeDiscord, db: Path | str, *, log: Path | None = None,
                            cwd: Path | None = None, shards: tuple[int, ...] = (),
                            **env: str) -> subprocess.Popen[bytes]:
    """Start ``python -m bot`` (its ``main``) on ``db`` — an SQLite file, or a PostgreSQL
    URL (DATABASE_URL) — and wait until it has identified to the fake gateway (each of
    ``shards``, for a process with SHARD_COUNT and SHARD_IDS in ``env``). ``env`` adds
    settings (e.g. SANMARCO_RENDER_PROCESSES)."""
    fake.ready.clear()
    before = {s: fake.shard_identifies.get(s, 0) for s in shards}
    proc = _spawn(fake, db, log, cwd, env)
    await _connected(fake, [proc], lambda: fake.ready.is_set() and all(
        fake.shard_identifies.get(s, 0) > n for s, n in before.items()), 30.0)
    return proc


async def start_bot_processes(fake: FakeDiscord, db: Path | str, logs: Sequence[Path], *,
                              cwd: Path | None = None,
                              **env: str) -> list[subprocess.Popen[bytes]]:
    """Start one unsharded ``python -m bot`` per log at once (their start-ups overlap),
    and wait until each has identified to the fake gateway."""
    before = fake.shard_identifies.get(None, 0)
    procs = [_spawn(fake, db, log, cwd, env) for log in logs]
    await _connected(fake, procs,
                     lambda: fake.shard_identifies.get(None, 0) >= before + len(procs),
                     30.0 * len(procs))
    return procs


def _spawn(fake: FakeDiscord, db: Path | str, log: Path | None, cwd: Path | None,
           env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    where = {"DATABASE_URL": db} if isinstance(db, str) and db.startswith("postgres") else {
        "SANMARCO_DB": str(db)}
    environ = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
               "DISCORD_TOKEN": "fake-token", "LOG_LEVEL": "WARNING",
               "SANMARCO_RENDER_PROCESSES": "0", "SANMARCO_GAME_THREADS": "off",
               **where, **env}
    err = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    try:
        return subprocess.Popen([sys.executable, "-c", RUN_BOT, fake.api_base,
                                 fake.gateway_url], cwd=cwd or Path(db).parent, env=environ,
                                stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
    finally:
        if log is not None:
            err.close()  # type: ignore[union-attr]


async def _connected(fake: FakeDiscord, procs: list[subprocess.Popen[bytes]],
                     done: Callable[[], bool], timeout: float) -> None:
    """Wait until ``done()``; a process that exits first, or a timeout, kills them all."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not done():
        exited = next((p for p in procs if p.poll() is not None), None)
        if exited is not None or asyncio.get_running_loop().time() > deadline:
            for proc in procs:
                kill_bot_process(proc)
            if exited is not None:
                raise RuntimeError(f"the bot process exited with {exited.returncode}")
            raise TimeoutError("the bot process did not connect")
        await asyncio.sleep(0.05)


def kill_bot_process(proc: subprocess.Popen[bytes]) -> int:
    """SIGKILL the bot's whole process group; returns its exit status."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return proc.wait(30)


def stop_bot_processes(procs: Sequence[subprocess.Popen[bytes]]) -> None:
    """Stop them all at once (SIGINT to each, then wait for each)."""
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
    for proc in procs:
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            kill_bot_process(proc)


def stop_bot_process(proc: subprocess.Popen[bytes]) -> int:
    """Stop the bot as an admin would (SIGINT), and wait for it."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
        return proc.wait(30)
    except subprocess.TimeoutExpired:
        return kill_bot_process(proc)
    except ProcessLookupError:
        return proc.wait(30)
