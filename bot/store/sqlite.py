"""The SQLite store: one file, the embedded default (DESIGN.md "Storage").

Why it looks like this:

- Every query is ``bot.store.base.Store``'s; this module only runs them, through
  aiosqlite's public API (each connection a ``sqlite3`` one in a thread of its own). A
  transaction is driven statement by statement as on PostgreSQL (``bot.store.tx.drive``);
  a cancelled coroutine never leaves one half done (``_in_transaction``: a shielded
  ROLLBACK queued behind the statement in flight).
- One writer connection (an ``asyncio.Lock`` gives one transaction at a time its turn) and
  a few query_only reader connections: in WAL mode reads never wait for a write, so a write
  held up by another process's lock delays no read; no write waits longer than the busy
  timeout for its turn and the file together.
- Closed at shutdown: a call after ``close()`` raises StorageError ``store.busy`` at once
  (nothing changed, try again: the bot is back in a moment), and one in flight then
  finishes or raises; no call waits on a connection that has ended.
- Schema changes are the numbered migrations of ``bot.store.migrations.sqlite`` under
  ``PRAGMA user_version``; opening an old file upgrades it in place, on a ``sqlite3``
  connection in a worker thread before the store's own connections open.
- Opening holds ``OpenLock`` (an exclusive lock on ``<file>-lock``, which ``python -m
  bot.backup --restore`` holds throughout): a bot starting while a copy is put back waits
  for it, and never creates an empty file or a -wal the restore then moves aside.
"""

from __future__ import annotations

import asyncio
import math
import os
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from functools import partial
from typing import TypeVar

import aiosqlite

from bot.store.base import DEFAULT_BUSY_TIMEOUT, Store
from bot.store.dialect import SQLITE
from bot.store.errors import DuplicateKey, SchemaTooNew, StorageError, store_closed
from bot.store.migrations import sqlite as migrations
from bot.store.target import DEFAULT_PATH
from bot.store.tx import Call, Execute, ExecuteMany, Insert, Query, Row, Statement, Tx, drive

if sys.platform != "win32":  # no flock on Windows: the lock is then not taken
    import fcntl

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_READERS = 2

# SQLite's primary result codes (extended ones such as SQLITE_IOERR_WRITE share them) and
# its messages, for errors raised without a code.
_CAUSES: dict[str, str] = {
    "SQLITE_FULL": "store.full", "SQLITE_READONLY": "store.read_only",
    "SQLITE_IOERR": "store.io", "SQLITE_BUSY": "store.busy", "SQLITE_LOCKED": "store.busy",
    "SQLITE_CORRUPT": "store.corrupt", "SQLITE_NOTADB": "store.corrupt",
    "SQLITE_CANTOPEN": "store.cantopen",
}
_CAUSE_WORDS: tuple[tuple[str, str], ...] = (
    ("disk is full", "store.full"), ("readonly", "store.read_only"),
    ("read-only", "store.read_only"), ("i/o error", "store.io"), ("locked", "store.busy"),
    ("malformed", "store.corrupt"), ("not a database", "store.corrupt"),
    ("unable to open", "store.cantopen"),
)
_DUPLICATES = ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY")


def storage_error(exc: sqlite3.Error) -> StorageError:
    """The StorageError for what SQLite raised, with the cause as its code."""
    name = str(getattr(exc, "sqlite_errorname", None) or "")
    detail = f"{exc} ({name})" if name else str(exc)
    if name in _DUPLICATES:
        return DuplicateKey(detail)
    code = _CAUSES.get("_".join(name.split("_")[:2]))
    if code is None:
        words = str(exc).lower()
        code = next((c for w, c in _CAUSE_WORDS if w in words), "store.failed")
    return StorageError(code, detail)


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back what is still open. After a full disk, an I/O error or a read-only file
    SQLite has often rolled back already; a second ROLLBACK would fail with "no transaction
    is active" and hide the real cause, which the caller must see."""
    try:
        await conn.execute("ROLLBACK")
    except (sqlite3.Error, ValueError):
        pass  # none open, or the connection is closed or broken: the original error says why


async def _in_transaction(conn: aiosqlite.Connection, body: Callable[[], Awaitable[T]]) -> T:
    """BEGIN IMMEDIATE (the file's write lock) … COMMIT, rolled back on anything raised.

    A cancelled caller stops waiting but its statement still runs in the connection's
    thread; the ROLLBACK queues behind it (aiosqlite runs a connection's calls in order)
    and is shielded, so a second cancellation cannot drop it: no transaction is ever left
    half done, and the next write's BEGIN queues behind the ROLLBACK."""
    try:
        await conn.execute("BEGIN IMMEDIATE")  # inside: a cancelled BEGIN is rolled back too
        value = await body()
        await conn.execute("COMMIT")
    except BaseException:
        await asyncio.shield(_rollback(conn))
        raise
    return value


async def _step(conn: aiosqlite.Connection, step: Statement) -> object:
    """One statement of a transaction, on the writer."""
    match step:
        case Query(sql, params):
            return list(await conn.execute_fetchall(sql, params))
        case Execute(sql, params):
            return (await conn.execute(sql, params)).rowcount
        case ExecuteMany(sql, rows):
            await conn.executemany(sql, rows)
            return None
        case Call(fn):
            return await asyncio.to_thread(fn)  # off the event loop
    raise TypeError(step)


OPEN_WAIT = 600.0  # seconds an open waits for a restore under way (``OpenLock``)


class OpenLock:
    """An exclusive lock on ``<file>-lock`` beside an SQLite file (``flock``: the system
    lets it go with its process, however it ends), held while the store opens the file and
    while a restore replaces it. Its own file, never renamed: the database's inode changes
    with a restore, the lock's never does."""

    def __init__(self, db_path: str) -> None:
        self.path = f"{db_path}-lock"
        self._fd: int | None = None

    def acquire(self, wait: float) -> bool:
        """Take the lock, waiting up to ``wait`` seconds (blocking: run it in a thread).
        False when another process held it all along. Raises OSError (no such folder)."""
        if sys.platform == "win32":
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return False
                time.sleep(0.05)
                continue
            self._fd = fd
            return True

    def release(self) -> None:
        if sys.platform != "win32" and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _prepare(path: str, synchronous: str, busy_timeout: float) -> None:
    """The file made ready before the store's connections open, on a ``sqlite3``
    connection of its own in a worker thread (the migrations are plain ``sqlite3`` Python):
    the schema read before anything is written (a file that is not a database, or one of a
    newer bot, is refused exactly as it was found, not even switched to WAL), then WAL,
    the migrations, and a write lock taken and let go (the file, its folder and its lock
    are usable). Raises StorageError, SchemaTooNew."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout)
    except sqlite3.Error as exc:
        raise storage_error(exc) from exc
    try:
        current = _user_version(conn)
        if current > len(migrations.MIGRATIONS):
            raise SchemaTooNew(current, len(migrations.MIGRATIONS))
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("PRAGMA foreign_keys = ON")
        for number in range(current + 1, len(migrations.MIGRATIONS) + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                migrations.MIGRATIONS[number - 1](conn)
                conn.execute(f"PRAGMA user_version = {number}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # see _rollback
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise storage_error(exc) from exc
    finally:
        conn.close()


async def _connect(path: str, *pragmas: str) -> aiosqlite.Connection:
    """An aiosqlite connection (a ``sqlite3`` one in a thread of its own) with ``pragmas``
    run. Raises StorageError."""
    conn: aiosqlite.Connection | None = None
    try:
        conn = await aiosqlite.connect(path, isolation_level=None)
        for pragma in pragmas:
            await conn.execute(f"PRAGMA {pragma}")
    except sqlite3.Error as exc:
        if conn is not None:
            await conn.close()
        raise storage_error(exc) from exc
    return conn


class SQLiteStore(Store):
    """One SQLite file (a ``bot.store.Store``). Open with ``await SQLiteStore.open(path)``.

    One writer connection takes every write, one at a time; a small pool of reader
    connections takes the reads. No write waits longer than ``busy_timeout`` seconds for
    the file and its turn together: then it raises StorageError ``store.busy`` and has
    written nothing.
    """

    dialect = SQLITE

    def __init__(self, writer: aiosqlite.Connection, path: str, *,
                 busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self._writer = writer
        self.path = path
        self.busy_timeout = busy_timeout
        self._turn = asyncio.Lock()  # the writer's turn
        self._waits_ms = _ms(busy_timeout)  # the writer's busy_timeout pragma as it is set
        self._closed = False
        self._readers: list[aiosqlite.Connection] = []
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None, *,
                   synchronous: str = "FULL", busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
                   readers: int = DEFAULT_READERS) -> SQLiteStore:
        """Open (creating or upgrading) the file at ``path``, else $SANMARCO_DB, else
        ./sanmarco.db. ``synchronous=FULL`` keeps a commit through a power cut, since the bot
        posts right after it; NORMAL is enough against process crashes. ``busy_timeout``:
        how long a call may wait for the file; ``readers``: reader connections (≥ 1).
        Raises StorageError, SchemaTooNew."""
        synchronous = synchronous.upper()
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        if not busy_timeout > 0 or readers < 1:
            raise ValueError("busy_timeout must be positive and readers at least 1")
        target = str(path if path is not None else os.environ.get("SANMARCO_DB")
                     or DEFAULT_PATH)
        lock = OpenLock(target)
        if target != ":memory:":
            try:
                held = await asyncio.to_thread(lock.acquire, OPEN_WAIT)
            except OSError as exc:
                raise StorageError("store.cantopen", f"{lock.path}: {exc}") from exc
            if not held:
                raise StorageError("store.busy", f"{target} is being restored ({lock.path} "
                                   f"held for {OPEN_WAIT:g} s)")
        try:
            await asyncio.to_thread(_prepare, target, synchronous, busy_timeout)
            wait = f"busy_timeout = {_ms(busy_timeout)}"
            writer = await _connect(target, wait, f"synchronous = {synchronous}",
                                    "foreign_keys = ON")
            store = cls(writer, target, busy_timeout=busy_timeout)
            try:
                for _ in range(readers):
                    reader = await _connect(target, wait, "foreign_keys = ON",
                                            "query_only = ON")
                    store._readers.append(reader)
                    store._idle.put_nowait(reader)
            except BaseException:
                await store.close()
                raise
        finally:
            lock.release()  # open now: a restore sees the file in use and refuses
        return store

    async def close(self) -> None:
        """Close every connection: the calls already begun finish (or raise, as below);
        any call from now on raises StorageError ``store.busy`` at once. Idempotent."""
        if self._closed:
            return
        self._closed = True
        async with self._turn:  # the writes already waiting for their turn go first
            for reader in self._readers:  # aiosqlite ends the calls queued before close
                await reader.close()
            self._readers.clear()
            await self._writer.close()

    # -- the backend's primitives
    def _busy(self, what: str) -> StorageError:
        return StorageError("store.busy", f"{what} waited {self.busy_timeout:g} s for {self.path}")

    async def run_on_writer(self, job: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """``job`` on the writer's aiosqlite connection, in its turn (every write goes
        through here; tools and tests may run pragmas this way). The wait for the writer's
        turn and SQLite's wait for the file share one busy timeout, counted from the call:
        each write ends by its own deadline, however many queue before it. Raises
        StorageError for anything SQLite raises."""
        if self._closed:
            raise store_closed(self.path)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_timeout
        async with self._turn:
            left_ms = _ms(deadline - loop.time())
            if left_ms <= 0:  # the writes queued before this one used its time
                raise self._busy("a write")
            try:
                if left_ms != self._waits_ms:  # only a write that waited for its turn
                    self._waits_ms = left_ms  # queued at once: set even if cancelled here
                    await self._writer.execute(f"PRAGMA busy_timeout = {left_ms}")
                return await job(self._writer)
            except sqlite3.Error as exc:
                raise storage_error(exc) from exc

    async def _fetch(self, parse: Callable[[Row], R], sql: str,
                     params: Sequence[object] = ()) -> list[R]:
        """On an idle reader (never the writer)."""
        if self._closed:
            raise store_closed(self.path)
        reader = await self._idle.get()
        try:
            if self._closed:  # a reader closed while this call waited for one
                raise store_closed(self.path)
            rows = await reader.execute_fetchall(sql, params)
        except sqlite3.Error as exc:
            raise storage_error(exc) from exc
        finally:
            self._idle.put_nowait(reader)
        return [parse(tuple(r)) for r in rows]

    async def _execute(self, sql: str, params: Sequence[object] = ()) -> int:
        async def write(conn: aiosqlite.Connection) -> int:
            return int((await conn.execute(sql, params)).rowcount)

        return await self.run_on_writer(write)

    async def _transact(self, tx: Tx[T]) -> T:
        async def transaction(conn: aiosqlite.Connection) -> T:
            return await _in_transaction(conn, partial(
                drive, tx, partial(_step, conn), (sqlite3.Error,), _storage_error))

        return await self.run_on_writer(transaction)

    async def _compare_and_set(self, update: Execute, inserts: Sequence[Insert]) -> bool:
        """One transaction, no statement more than needed (every move's commit)."""
        async def write(conn: aiosqlite.Connection) -> bool:
            if (await conn.execute(update.sql, update.params)).rowcount != 1:
                return False
            for rows in inserts:
                await conn.executemany(rows.sql, rows.rows)
            return True

        return await self.run_on_writer(
            lambda conn: _in_transaction(conn, partial(write, conn)))

    # -- schema
    async def schema_version(self) -> int:
        return (await self._fetch(lambda r: int(r[0]), "PRAGMA user_version"))[0]

    async def integrity_check(self) -> str:
        """'ok' or SQLite's list of problems."""
        return "\n".join(str(r[0]) for r in await self.query_sql("PRAGMA integrity_check"))


def _ms(seconds: float) -> int:
    """Whole milliseconds, rounded up: a write that did not wait keeps the full timeout."""
    return math.ceil(seconds * 1000)


def _storage_error(exc: BaseException) -> StorageError:
    assert isinstance(exc, sqlite3.Error)
    return storage_error(exc)
