"""One copy: taken with the online backup API, checked (integrity and every game
replayed), named by when it was taken, and the older copies rotated (``bot.backup``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.config import Backups, Keep
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.store import SchemaTooNew, StoreError, open_store

if sys.platform != "win32":  # no flock on Windows: ``copying`` then holds nothing
    import fcntl

log = logging.getLogger("bot.backup")

STAMP = "%Y-%m-%dT%H%M%SZ"
_NAME = re.compile(r"(?P<stem>.+)-(?P<when>\d{4}-\d\d-\d\dT\d{6}Z)\.db")
_WEEK_OFFSET = 4 * 86400  # 1970-01-01 was a Thursday; ISO weeks start on Monday

Stop = Callable[[], bool]
KEEP_BAD = 3  # copies that failed their check, kept aside for a look: the newest ones


class Stopped(Exception):
    """The bot is closing: a copy under way is dropped (its ``.tmp`` removed)."""


@dataclass(frozen=True)
class Replayed:
    """Every started game of a database replayed from its seed and log."""

    audited: int
    not_replaying: tuple[str, ...]


async def replay_audit(database: str, stop: Stop | None = None) -> Replayed:
    """Replay every game that has started from its seed and log (the engine), and compare
    with its stored state. Raises StoreError; Stopped when ``stop()`` turns true."""
    service = GameService(await open_store(database))
    audited, bad = 0, []
    try:
        for game_id, channel in await service.store.started_games():
            if stop is not None and stop():
                raise Stopped()
            result = await service.audit(channel, game_id=game_id)
            audited += 1
            if not result.ok:
                bad.append(f"game {game_id}: {result.problem}")
    finally:
        await service.close()
    return Replayed(audited, tuple(bad))


@dataclass(frozen=True)
class Check:
    """What a copy's check found: SQLite's integrity check ("ok") and the replay audit."""

    integrity: str
    audited: int = 0
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and not self.problems

    def __str__(self) -> str:
        if self.integrity != "ok":
            return f"integrity check FAILED: {self.integrity}"
        if self.problems:
            return (f"integrity ok; {len(self.problems)} of {self.audited} game(s) do NOT "
                    f"replay: " + "; ".join(self.problems))
        return f"integrity ok, {self.audited} game(s) replay"


def check_file(path: str, stop: Stop | None = None) -> Check:
    """Check a database file (blocking, and CPU work: the bot runs it in a process of its
    own). It is opened as the bot opens it, so a copy of an older schema is
    upgraded; it is left in rollback-journal mode, one file with no -wal beside it."""
    try:
        with connect_existing(path) as conn:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
        integrity = "\n".join(str(r[0]) for r in rows)
    except sqlite3.Error as exc:
        return Check(f"{type(exc).__name__}: {exc}")
    if integrity != "ok":
        return Check(integrity)
    try:
        replayed = asyncio.run(replay_audit(path, stop))
    except SchemaTooNew as exc:
        return Check("ok", problems=(f"written by a newer bot (schema {exc.schema})",))
    except (StoreError, ServiceError) as exc:
        return Check("ok", problems=(f"{exc.code}: {exc}",))
    with connect_existing(path) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
    return Check("ok", replayed.audited, replayed.not_replaying)


class connect_existing:  # noqa: N801 - a context manager used like a function
    """An sqlite3 connection to an existing file (never creates one), closed on exit."""

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(Path(path).absolute().as_uri() + "?mode=rw", uri=True,
                                    isolation_level=None, timeout=5.0)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


def copy_db(source: str, target: str) -> None:
    """SQLite's online backup of ``source`` into a new file ``target``, in one step (one
    read transaction: a stepwise copy starts over whenever the bot commits)."""
    with connect_existing(source) as src:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()


# ---------------------------------------------------------------------- names, rotation
@dataclass(frozen=True)
class Copy:
    """A good copy in the folder: its path and when it was taken (from its name)."""

    path: str
    taken: float


def copy_name(db_path: str, when: float) -> str:
    """``sanmarco-2026-11-27T150003Z.db`` for ``sanmarco.db`` at that time (UTC)."""
    stem = os.path.splitext(os.path.basename(db_path))[0]
    return f"{stem}-{datetime.fromtimestamp(when, UTC).strftime(STAMP)}.db"


def copies(folder: str, db_path: str, suffix: str = "") -> list[Copy]:
    """The good copies of ``db_path`` in ``folder``, oldest first (``.tmp`` and ``.bad``
    files are not copies); with ``suffix=".bad"``, the copies that failed their check."""
    stem = os.path.splitext(os.path.basename(db_path))[0]
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    found = []
    for name in names:
        match = _NAME.fullmatch(name.removesuffix(suffix)) if name.endswith(suffix) else None
        if match and match["stem"] == stem:
            when = datetime.strptime(match["when"], STAMP).replace(tzinfo=UTC)
            found.append(Copy(os.path.join(folder, name), when.timestamp()))
    return sorted(found, key=lambda c: c.taken)


def period(when: float, seconds: int) -> int:
    """The hour, day or ISO week (``seconds`` long) ``when`` falls in, as a number."""
    offset = _WEEK_OFFSET if seconds == 7 * 86400 else 0
    return int((when - offset) // seconds)


def to_keep(found: Sequence[Copy], keep: Iterable[Keep]) -> set[str]:
    """The copies the rules keep: for each rule, the newest copy of each of its ``count``
    latest periods that have a copy; and always the newest copy."""
    kept = {found[-1].path} if found else set()
    for rule in keep:
        newest: dict[int, Copy] = {}
        for c in found:  # oldest first: the last one seen in a period is its newest
            newest[period(c.taken, rule.seconds)] = c
        kept.update(newest[p].path for p in sorted(newest, reverse=True)[:rule.count])
    return kept


def rotate(folder: str, db_path: str, keep: Sequence[Keep]) -> list[str]:
    """Remove the copies the rules no longer keep; returns their paths."""
    found = copies(folder, db_path)
    if not keep:
        return []
    kept = to_keep(found, keep)
    removed = [c.path for c in found if c.path not in kept]
    for path in removed:
        os.remove(path)
    return removed


# ---------------------------------------------------------------------- one backup
@dataclass(frozen=True)
class Result:
    """One backup: where it is (``….bad`` when it failed its check), its check, its size
    in bytes, the seconds it took, and the old copies rotation removed (the older failed
    ones, when it failed)."""

    path: str
    check: Check
    size: int
    seconds: float
    removed: tuple[str, ...] = ()

    def __str__(self) -> str:
        n = len(self.removed)
        gone = (f"; removed {n} {'old' if self.check.ok else 'older failed'} "
                f"cop{'y' if n == 1 else 'ies'}")
        return (f"{self.path} ({self.size / 1e6:.1f} MB, {self.seconds:.2f} s): {self.check}"
                + (gone if self.removed else ""))


def take(db_path: str, backups: Backups, now: float, stop: Stop | None = None) -> Result:
    """Copy ``db_path`` into the backup folder, check the copy, name it, then rotate
    (blocking: the bot runs it in a thread). Raises OSError, sqlite3.Error; Stopped."""
    began = time.perf_counter()
    folder = backups.folder_for(db_path)
    os.makedirs(folder, exist_ok=True)
    tmp = tmp_path(db_path, backups, now)
    final = tmp.removesuffix(".tmp")
    with copying(folder):
        try:
            if not os.path.isfile(db_path):
                raise FileNotFoundError(f"no database file at {os.path.abspath(db_path)}")
            copy_db(db_path, tmp)
            if stop is not None and stop():
                raise Stopped()
            check = check_file(tmp, stop)
            size = os.path.getsize(tmp)
            os.replace(tmp, final if check.ok else final + ".bad")
        except BaseException:
            remove_tmp(tmp)
            raise
        remove_tmp(tmp, only_beside=True)  # its check's lock file
    sync_folder(folder)
    if not check.ok:  # the newest failed copies only: a damaged file fails every hour
        bad = [c.path for c in copies(folder, db_path, ".bad")[:-KEEP_BAD]]
        for path in bad:
            os.remove(path)
        return Result(final + ".bad", check, size, time.perf_counter() - began, tuple(bad))
    removed = rotate(folder, db_path, backups.keep)
    return Result(final, check, size, time.perf_counter() - began, tuple(removed))


def tmp_path(db_path: str, backups: Backups, now: float) -> str:
    """Where the copy taken at ``now`` is written before its check."""
    return os.path.join(backups.folder_for(db_path), copy_name(db_path, now)) + ".tmp"


BESIDE = ("-wal", "-shm", "-journal", "-lock")  # what SQLite and the store's open leave


def remove_tmp(path: str, *, only_beside: bool = False) -> None:
    """A copy cut short or refused, with the files SQLite (and the store's ``OpenLock``)
    may have left beside it; ``only_beside``: those files only (a copy kept)."""
    for leftover in ((() if only_beside else (path,)) + tuple(path + s for s in BESIDE)):
        with contextlib.suppress(FileNotFoundError):
            os.remove(leftover)


def sweep(folder: str, db_path: str) -> list[str]:
    """Remove what copies of ``db_path`` cut short left in ``folder`` (a bot stopped or
    killed mid-copy): their ``.tmp`` files and those beside them — unless a copy is under
    way now (``copying`` held by another process: its ``.tmp`` is not stale). Returns the
    paths removed."""
    stem = os.path.splitext(os.path.basename(db_path))[0]
    if not os.path.isdir(folder):
        return []
    with copying(folder, wait=False) as mine:
        if not mine:
            return []
        try:
            names = os.listdir(folder)
        except FileNotFoundError:
            return []
        gone = []
        for name in names:
            base = name
            for suffix in BESIDE:
                base = base.removesuffix(suffix)
            match = _NAME.fullmatch(base.removesuffix(".tmp")) if base.endswith(".tmp") \
                else None
            if match and match["stem"] == stem:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(os.path.join(folder, name))
                    gone.append(os.path.join(folder, name))
        return gone


@contextlib.contextmanager
def copying(folder: str, *, wait: bool = True) -> Iterator[bool]:
    """An exclusive lock (``flock``, let go with its process) on the backup folder itself,
    held while a copy is written and checked: a sweep never removes the ``.tmp`` of a copy
    under way (the bot's, or ``python -m bot.backup`` run by hand), and no file is added
    to the folder for it. Yields whether it is held (``wait`` False: not when another
    process holds it)."""
    if sys.platform == "win32":
        yield True
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # closing lets the lock go


def sync_folder(folder: str) -> None:
    """The rename on disk too (a power cut right after it keeps the copy's name)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def report(result: Result) -> None:
    """One log line: INFO for a good copy, ERROR for one that failed its check."""
    if result.check.ok:
        log.info("backup: %s", result)
    else:
        log.error("backup: the copy FAILED its check and is kept aside as %s; no good copy "
                  "was removed", result)


