"""Copies of the SQLite file an admin does not have to remember, and their restore.

``python -m bot.backup`` makes one copy now; ``python -m bot.backup --restore FILE`` puts a
copy back with the bot stopped. The bot itself makes one every hour (the shortest rule of
SANMARCO_BACKUP_KEEP) while it runs (``Schedule``, started by ``bot.client``).

A copy is taken with SQLite's online backup API from a connection of its own, in one step:
one read transaction, so it is the database as one commit left it while the bot writes on
(WAL lets writers go on meanwhile). It is written under a temporary name (``….db.tmp``),
then checked — ``PRAGMA integrity_check``, and every started game replayed from its seed
and log (the audit ``python -m bot.migrate`` does too, ``replay_audit``) — and only then
renamed to its name, which says when it was taken (UTC) and sorts by time:
``sanmarco-2026-11-27T150003Z.db``. A copy that fails its check is renamed ``….db.bad``,
logged as an ERROR and never counted as a copy; a process killed mid-copy leaves a
``.tmp``, never a file that looks good.

Rotation (restic's ``--keep-hourly 24 --keep-daily 7``): "24h,7d" keeps the newest copy of
each of the 24 latest hours that have one, and the newest of each of the 7 latest days that
have one (UTC; "w": ISO weeks). Latest *that have one*: a bot stopped for a month keeps its
old copies when it starts again. Copies are removed only after a new copy passed its check.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.config import Backups, ConfigError, Keep, read_backups, read_values
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.store import SchemaTooNew, StoreError, describe_target, is_postgres, open_store

log = logging.getLogger(__name__)

STAMP = "%Y-%m-%dT%H%M%SZ"
_NAME = re.compile(r"(?P<stem>.+)-(?P<when>\d{4}-\d\d-\d\dT\d{6}Z)\.db")
_WEEK_OFFSET = 4 * 86400  # 1970-01-01 was a Thursday; ISO weeks start on Monday
POLL_SECONDS = 60.0
EXIT_OK, EXIT_BAD, EXIT_REFUSED, EXIT_DATABASE = 0, 1, 2, 3

Stop = Callable[[], bool]


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
    """Check a database file (blocking: run it in a thread of its own, not on the bot's
    event loop). It is opened as the bot opens it, so a copy of an older schema is
    upgraded; it is left in rollback-journal mode, one file with no -wal beside it."""
    try:
        with _connect(path) as conn:
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
    with _connect(path) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
    return Check("ok", replayed.audited, replayed.not_replaying)


class _connect:  # noqa: N801 - a context manager used like a function
    """An sqlite3 connection to an existing file (never creates one), closed on exit."""

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=rw", uri=True,
                                    isolation_level=None, timeout=5.0)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


def _copy_db(source: str, target: str) -> None:
    """SQLite's online backup of ``source`` into a new file ``target``, in one step (one
    read transaction: a stepwise copy starts over whenever the bot commits)."""
    with _connect(source) as src:
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


def copies(folder: str, db_path: str) -> list[Copy]:
    """The good copies of ``db_path`` in ``folder``, oldest first (``.tmp`` and ``.bad``
    files are not copies)."""
    stem = os.path.splitext(os.path.basename(db_path))[0]
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    found = []
    for name in names:
        match = _NAME.fullmatch(name)
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
    in bytes, the seconds it took, and the old copies rotation removed."""

    path: str
    check: Check
    size: int
    seconds: float
    removed: tuple[str, ...] = ()

    def __str__(self) -> str:
        gone = f"; removed {len(self.removed)} old cop{'y' if len(self.removed) == 1 else 'ies'}"
        return (f"{self.path} ({self.size / 1e6:.1f} MB, {self.seconds:.1f} s): {self.check}"
                + (gone if self.removed else ""))


def take(db_path: str, backups: Backups, now: float, stop: Stop | None = None) -> Result:
    """Copy ``db_path`` into the backup folder, check the copy, name it, then rotate
    (blocking: the bot runs it in a thread). Raises OSError, sqlite3.Error; Stopped."""
    began = time.perf_counter()
    folder = backups.folder_for(db_path)
    os.makedirs(folder, exist_ok=True)
    final = os.path.join(folder, copy_name(db_path, now))
    tmp = final + ".tmp"
    try:
        if not os.path.isfile(db_path):
            raise FileNotFoundError(f"no database file at {os.path.abspath(db_path)}")
        _copy_db(db_path, tmp)
        if stop is not None and stop():
            raise Stopped()
        check = check_file(tmp, stop)
        size = os.path.getsize(tmp)
        os.replace(tmp, final if check.ok else final + ".bad")
    except BaseException:
        for leftover in (tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"):
            if os.path.exists(leftover):
                os.remove(leftover)
        raise
    _sync_folder(folder)
    if not check.ok:
        return Result(final + ".bad", check, size, time.perf_counter() - began)
    removed = rotate(folder, db_path, backups.keep)
    return Result(final, check, size, time.perf_counter() - began, tuple(removed))


def _sync_folder(folder: str) -> None:
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


# ---------------------------------------------------------------------- the bot's schedule
class Schedule:
    """The bot's backups: a copy when the current period (an hour for "24h,7d") has no
    good one, looked for at start and every minute, on ``clock`` (tests drive it and call
    ``run_once``). The copy and its check run in a thread: the event loop never waits."""

    def __init__(self, db_path: str, backups: Backups, clock: Callable[[], float] = time.time,
                 *, poll: float = POLL_SECONDS) -> None:
        self.db_path = db_path
        self.backups = backups
        self.clock = clock
        self.poll = poll
        self._tried: int | None = None  # the period of the last attempt, good or not
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None

    def due(self, now: float) -> bool:
        """Whether the period ``now`` falls in has no good copy yet, nor an attempt."""
        every = self.backups.every
        current = period(now, every)
        if self._tried == current:
            return False
        found = copies(self.backups.folder_for(self.db_path), self.db_path)
        return not any(period(c.taken, every) == current for c in found)

    async def run_once(self) -> Result | None:
        """Take a copy if one is due; a failure is logged (one ERROR line) and tried again
        in the next period."""
        now = self.clock()
        if not self.due(now):
            return None
        self._tried = period(now, self.backups.every)
        try:
            result = await asyncio.to_thread(take, self.db_path, self.backups, now,
                                             self._stop.is_set)
        except Stopped:
            return None
        except (OSError, sqlite3.Error) as exc:
            log.error("backup: could not copy %s into %s (%s: %s); trying again in the next "
                      "period", os.path.abspath(self.db_path),
                      self.backups.folder_for(self.db_path), type(exc).__name__, exc)
            return None
        report(result)
        return result

    def start(self) -> None:
        log.info("backups: a copy every %s into %s, keeping %s (SANMARCO_BACKUP_KEEP)",
                 _every_words(self.backups.every), self.backups.folder_for(self.db_path),
                 ",".join(map(str, self.backups.keep)))
        self._task = asyncio.create_task(self._loop(), name="backups")

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("backup: the scheduled backup failed")
            await asyncio.sleep(self.poll)

    async def close(self) -> None:
        """Stop: a copy under way is dropped at its next step (its ``.tmp`` removed)."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None


def _every_words(seconds: int) -> str:
    return {3600: "hour", 86400: "day", 7 * 86400: "week"}.get(seconds, f"{seconds} s")


def schedule_for(db_path: str, database_url: str | None, backups: Backups,
                 clock: Callable[[], float] = time.time) -> Schedule | None:
    """The bot's schedule, started; None when backups are off, or the games are in
    PostgreSQL (``pg_dump`` backs that up) or in memory."""
    if not backups.on:
        log.info("backups: off (SANMARCO_BACKUP_KEEP=off)")
        return None
    if database_url is not None or db_path == ":memory:":
        log.info("backups: none made by the bot for %s (PostgreSQL: pg_dump, see README)",
                 describe_target(database_url or db_path))
        return None
    schedule = Schedule(db_path, backups, clock)
    schedule.start()
    return schedule


# ---------------------------------------------------------------------- restore
class Refused(Exception):
    """A restore that was not done; the message says why. Nothing was changed."""


def restore(file: str, db_path: str, now: float) -> tuple[Check, str | None]:
    """Put the copy ``file`` in place of ``db_path`` with the bot stopped: the copy is
    copied beside the database and checked there first (``file`` is left as it is); the
    current database is kept aside as ``<db>.before-restore-<when>``. Returns the check,
    and where the current database was put (None when there was none). Raises Refused."""
    if not os.path.isfile(file):
        raise Refused(f"there is no file {os.path.abspath(file)}")
    if os.path.exists(db_path) and os.path.samefile(file, db_path):
        raise Refused("that file is the database itself")
    _refuse_if_open(db_path)
    os.makedirs(os.path.dirname(os.path.abspath(db_path)), exist_ok=True)
    stamp = datetime.fromtimestamp(now, UTC).strftime(STAMP)
    staged = f"{db_path}.restoring-{stamp}"
    try:
        _copy_db(file, staged)
        check = check_file(staged)
    except sqlite3.Error as exc:
        check = Check(f"{type(exc).__name__}: {exc}")
    if not check.ok:
        for leftover in (staged, staged + "-wal", staged + "-shm", staged + "-journal"):
            if os.path.exists(leftover):
                os.remove(leftover)
        return check, None
    aside = None
    if os.path.exists(db_path):
        aside = f"{db_path}.before-restore-{stamp}"
        for suffix in ("", "-wal", "-shm"):  # a -wal holds commits: it goes with its file
            if os.path.exists(db_path + suffix):
                os.replace(db_path + suffix, aside + suffix)
    os.replace(staged, db_path)
    _sync_folder(os.path.dirname(os.path.abspath(db_path)))
    return check, aside


def _refuse_if_open(db_path: str) -> None:
    """Refused while another process (the bot) has the database open: an exclusive lock
    is then not to be had, even with that process idle (WAL)."""
    if not os.path.exists(db_path):
        return
    try:
        with _connect(db_path) as conn:
            conn.execute("PRAGMA busy_timeout = 0")
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        raise Refused(f"{os.path.abspath(db_path)} is in use ({exc}): stop the bot "
                      "first") from None
    except sqlite3.DatabaseError:
        return  # not a database (damaged): nothing to wait for, it is kept aside


# ---------------------------------------------------------------------- python -m bot.backup
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.backup", description="Copy the bot's SQLite file (SANMARCO_DB) "
        "now into its backup folder (SANMARCO_BACKUP_DIR), checked; or put a copy back.")
    parser.add_argument("--restore", metavar="FILE",
                        help="put this copy back in place of SANMARCO_DB (stop the bot first)")
    args = parser.parse_args(argv)
    try:
        values = read_values()
        backups = read_backups(values)
    except ConfigError as exc:
        print(f"sanmarco-backup: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    db_path = values.get("SANMARCO_DB", "").strip() or "sanmarco.db"
    url = values.get("DATABASE_URL", "").strip()
    if url and is_postgres(url):
        print("sanmarco-backup: the games are in PostgreSQL (DATABASE_URL): back them up "
              "with pg_dump (README).", file=sys.stderr)
        return EXIT_REFUSED
    if args.restore:
        return _restore_main(args.restore, db_path)
    try:
        result = take(db_path, backups, time.time())
    except (OSError, sqlite3.Error) as exc:
        print(f"sanmarco-backup: could not copy {os.path.abspath(db_path)}: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    if not result.check.ok:
        print(f"sanmarco-backup: the copy FAILED its check, kept aside: {result}",
              file=sys.stderr)
        return EXIT_BAD
    print(f"backed up {os.path.abspath(db_path)} -> {result}")
    return EXIT_OK


def _restore_main(file: str, db_path: str) -> int:
    try:
        check, aside = restore(file, db_path, time.time())
    except Refused as exc:
        print(f"sanmarco-backup: refused: {exc}. Nothing was changed.", file=sys.stderr)
        return EXIT_REFUSED
    except (OSError, sqlite3.Error) as exc:
        print(f"sanmarco-backup: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    if not check.ok:
        print(f"sanmarco-backup: refused: {os.path.abspath(file)} failed its check ({check})."
              f" {os.path.abspath(db_path)} was left as it is.", file=sys.stderr)
        return EXIT_BAD
    print(f"restored {os.path.abspath(file)} -> {os.path.abspath(db_path)}: {check}")
    if aside is not None:
        print(f"the database it replaced is kept as {os.path.abspath(aside)}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
