"""Start-up: the database is opened and checked before the bot connects
to Discord; every start-up failure — an unwritable folder, a file of a newer bot, a file
that is not a database, an unreachable Discord — is one line naming what failed and what to
do, a non-zero exit and no traceback; a file refused for its newer schema is left exactly
as it was; the log carries nothing an admin cannot act on."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import SCHEMA_VERSION, SQLiteStore, StoreError

ROOT = Path(__file__).resolve().parents[2]

# ``python -m bot`` with discord.py's REST base pointed somewhere (the real one otherwise).
RUN_BOT = ("import sys, discord; discord.http.Route.BASE = sys.argv[1]; "
           "from bot.__main__ import main; sys.exit(main())")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens there once the socket is closed


def _run_bot(tmp_path: Path, db: Path | str, api: str | None = None) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
           "DISCORD_TOKEN": "fake-token", "SANMARCO_DB": str(db)}
    api = api or f"http://127.0.0.1:{_closed_port()}/api/v10"
    return subprocess.run([sys.executable, "-c", RUN_BOT, api], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


INFO_LINE = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ INFO ")  # the log's progress lines


def _one_line_failure(proc: subprocess.CompletedProcess) -> str:
    """The one line that says what failed: no traceback, no warning or error besides."""
    assert proc.returncode not in (0, None), proc
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines()
             if line.strip() and not INFO_LINE.match(line)]
    assert len(lines) == 1 and lines[0].startswith("sanmarco: "), proc.stderr
    return lines[0]


def _newer_file(path: Path) -> bytes:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    return path.read_bytes()


async def test_a_file_of_a_newer_bot_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    before = _newer_file(path)
    with pytest.raises(StoreError) as e:
        await SQLiteStore.open(path)
    assert e.value.code == "store.schema_newer"
    assert path.read_bytes() == before  # still in its own journal mode, not switched to WAL
    assert not (tmp_path / "future.db-wal").exists()


def test_a_newer_file_stops_the_bot_with_one_line_and_is_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    before = _newer_file(path)
    line = _one_line_failure(_run_bot(tmp_path, path))
    assert str(path) in line and "newer" in line and "upgrade" in line.lower()
    assert path.read_bytes() == before


def test_an_unwritable_folder_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    path = blocker / "sanmarco.db"
    line = _one_line_failure(_run_bot(tmp_path, path))
    assert str(path) in line and "SANMARCO_DB" in line


def test_a_file_that_is_not_a_database_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    before = path.read_bytes()
    line = _one_line_failure(_run_bot(tmp_path, path))
    assert str(path) in line and "not a" in line
    assert path.read_bytes() == before


def test_the_database_is_checked_before_discord_is_reached(tmp_path: Path) -> None:
    """Discord is unreachable and the database is bad: the database is what is reported."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    line = _one_line_failure(_run_bot(tmp_path, blocker / "s.db"))
    assert "Discord" not in line


def test_an_unreachable_discord_stops_the_bot_with_one_line_naming_the_host(
        tmp_path: Path) -> None:
    port = _closed_port()
    proc = _run_bot(tmp_path, tmp_path / "ok.db", f"http://127.0.0.1:{port}/api/v10")
    line = _one_line_failure(proc)
    assert f"127.0.0.1:{port}" in line and "network" in line
    assert (tmp_path / "ok.db").exists()  # the database was opened (and checked) first


def test_start_up_logs_no_voice_warning(tmp_path: Path) -> None:
    """The bot never uses voice: discord.py's PyNaCl warning is noise an admin cannot act
    on."""
    code = ("import logging; logging.basicConfig(level=logging.INFO); "
            "from bot.client import SanMarcoBot; from bot.config import Config; "
            "SanMarcoBot(Config(token='x'))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert "PyNaCl" not in proc.stderr and "voice" not in proc.stderr.lower()


def test_an_unreachable_postgresql_stops_the_bot_with_one_line_without_the_password(
        tmp_path: Path) -> None:
    port = _closed_port()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
           "DISCORD_TOKEN": "fake-token",
           "DATABASE_URL": f"postgresql://bot:s3cret@127.0.0.1:{port}/sanmarco"}
    proc = subprocess.run([sys.executable, "-c", RUN_BOT,
                           f"http://127.0.0.1:{_closed_port()}/api/v10"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    line = _one_line_failure(proc)
    assert proc.returncode == 3
    assert f"127.0.0.1:{port}" in line and "DATABASE_URL" in line and "Discord" not in line
    assert "s3cret" not in proc.stderr
