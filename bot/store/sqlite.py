"""The SQLite store: one file, the embedded default (DESIGN.md "Storage").

Why it looks like this:

- Every query is ``bot.store.base.Store``'s; this module only runs them. Each connection is
  a ``sqlite3`` connection in a thread of its own: a call hands the thread a whole job at
  once, so a transaction is begun, written and committed in one hop and a cancelled
  coroutine can never leave one half done.
- One writer connection (an ``asyncio.Lock`` gives one transaction at a time its turn) and
  a few query_only reader connections: in WAL mode reads never wait for a write, so a write
  held up by another process's lock delays no read; no write waits longer than the busy
  timeout for its turn and the file together.
- Closed at shutdown: a call after ``close()`` raises StorageError ``store.busy`` at once
  (nothing changed, try again: the bot is back in a moment), and one in flight then
  finishes or raises; no call waits on a thread that has ended.
- Schema changes are the numbered migrations of ``bot.store.migrations.sqlite`` under
  ``PRAGMA user_version``; opening an old file upgrades it in place.
"""

from __future__ import annotations

import asyncio
import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import TypeVar, cast

from bot.store.base import DEFAULT_BUSY_TIMEOUT, Store
from bot.store.dialect import SQLITE
from bot.store.errors import DuplicateKey, SchemaTooNew, StorageError, store_closed
from bot.store.migrations import sqlite as migrations
from bot.store.target import DEFAULT_PATH
from bot.store.tx import Call, Driver, Execute, ExecuteMany, Insert, Query, Row, Step, Tx

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


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back what is still open. After a full disk, an I/O error or a read-only file
    SQLite has often rolled back already; a second ROLLBACK would fail with "no transaction
    is active" and hide the real cause, which the caller must see."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the connection is closed or broken: the original error says why


def _step(conn: sqlite3.Connection, step: Step) -> object:
    """One statement of a transaction, in the writer's thread."""
    match step:
        case Query(sql, params):
            return conn.execute(sql, params).fetchall()
        case Execute(sql, params):
            return conn.execute(sql, params).rowcount
        case ExecuteMany(sql, rows):
            conn.executemany(sql, rows)
            return None
        case Call(fn):
            return fn()  # already off the event loop
    raise TypeError(step)


@contextmanager
def _write_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE (the file's write lock) … COMMIT, rolled back on anything raised."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


def _transaction(tx: Tx[T], conn: sqlite3.Connection) -> T:
    """The whole transaction, every statement, in the writer's thread."""
    with _write_transaction(conn):
        driver = Driver(tx)
        while (step := driver.next()) is not None:
            try:
                driver.answer(_step(conn, step))
            except sqlite3.Error as exc:
                driver.fail(storage_error(exc))
    return driver.value


def _compare_and_set(update: Execute, inserts: Sequence[Insert],
                     conn: sqlite3.Connection) -> bool:
    with _write_transaction(conn):
        matched = conn.execute(update.sql, update.params).rowcount == 1
        if matched:
            for rows in inserts:
                conn.executemany(rows.sql, rows.rows)
    return matched


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _upgrade(migration: Callable[[sqlite3.Connection], None], number: int,
             conn: sqlite3.Connection) -> None:
    with _write_transaction(conn):
        migration(conn)
        conn.execute(f"PRAGMA user_version = {number}")


def _can_write(conn: sqlite3.Connection) -> None:
    """Take the write lock and let it go: the file, its folder and its lock are usable."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("ROLLBACK")


class Connection:
    """A ``sqlite3`` connection in a thread of its own: every job runs in that thread, one
    at a time, in the order given (``sqlite3`` wants a connection used by one thread).

    A plain thread and queue rather than a one-worker ThreadPoolExecutor: every read and
    write makes this hop, and the executor's futures made it cost ~39 µs instead of ~27 µs
    on the development machine. The thread is a daemon: a store left open never holds
    the program at its end (SQLite rolls back a transaction cut short, on the next open).
    """

    def __init__(self, path: str = "") -> None:
        self._jobs: queue.SimpleQueue[tuple[asyncio.Future[object], Callable[[], object]]
                                      | None] = queue.SimpleQueue()
        self._conn: sqlite3.Connection | None = None
        self._path = path
        self._closing = False  # no job is taken once close() began: its thread ends
        threading.Thread(target=self._serve, name="sanmarco-sqlite", daemon=True).start()

    @classmethod
    async def open(cls, path: str) -> Connection:
        """Raises StorageError."""
        worker = cls(path)
        try:
            await worker._submit(partial(worker._connect, path))
        except sqlite3.Error as exc:
            worker._closing = True
            worker._jobs.put(None)
            raise storage_error(exc) from exc
        return worker

    def _connect(self, path: str) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None)

    async def run(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """``job(connection)`` in the connection's thread. A cancelled caller stops waiting;
        the job itself still runs to its end."""
        assert self._conn is not None
        return cast(T, await self._submit(partial(job, self._conn)))

    async def _submit(self, job: Callable[[], object]) -> object:
        """Raises StorageError ``store.busy`` once the connection is closing: a job queued
        behind the thread's end would wait for ever."""
        if self._closing:
            raise store_closed(self._path)
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._jobs.put((future, job))
        return await future

    def _serve(self) -> None:
        while (item := self._jobs.get()) is not None:
            future, job = item
            try:
                result, error = job(), None
            except BaseException as exc:  # handed to the caller, whatever it is
                result, error = None, exc
            try:
                future.get_loop().call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:
                pass  # the event loop has ended: nobody waits for the answer

    async def close(self) -> None:
        """Close the connection after the jobs already given (they finish); later ones
        raise. Closing twice does nothing."""
        if self._closing:
            return
        assert self._conn is not None
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._jobs.put((future, self._conn.close))
        self._closing = True
        self._jobs.put(None)
        await future


def _settle(future: asyncio.Future[object], result: object,
            error: BaseException | None) -> None:
    if future.cancelled():  # the caller stopped waiting; the job was done all the same
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class SQLiteStore(Store):
    """One SQLite file (a ``bot.store.Store``). Open with ``await SQLiteStore.open(path)``.

    One writer connection takes every write, one at a time; a small pool of reader
    connections takes the reads. No write waits longer than ``busy_timeout`` seconds for
    the file and its turn together: then it raises StorageError ``store.busy`` and has
    written nothing.
    """

    dialect = SQLITE

    def __init__(self, writer: Connection, path: str, *,
                 busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self._writer = writer
        self.path = path
        self.busy_timeout = busy_timeout
        self._turn = asyncio.Lock()  # the writer's turn
        self._closed = False
        self._readers: list[Connection] = []
        self._idle: asyncio.Queue[Connection] = asyncio.Queue()

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None, *,
                   synchronous: str = "FULL", busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
                   readers: int = DEFAULT_READERS) -> SQLiteStore:
        """Open (creating or upgrading) the file at ``path``, else $SANMARCO_DB, else
        ./sanmarco.db. ``synchronous=FULL`` keeps a commit through a power cut, since the bot
        posts right after it; NORMAL is enough against process crashes. ``busy_timeout``:
        how long a call may wait for the file; ``readers``: reader connections (≥ 1).
        Raises StorageError, SchemaTooNew."""
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        if not busy_timeout > 0 or readers < 1:
            raise ValueError("busy_timeout must be positive and readers at least 1")
        target = str(path if path is not None else os.environ.get("SANMARCO_DB")
                     or DEFAULT_PATH)
        store = cls(await Connection.open(target), target, busy_timeout=busy_timeout)
        try:
            # Read before anything is written: a file that is not a database, or one of a
            # newer bot, is refused exactly as it was found (not even switched to WAL).
            await store._check_schema()
            await store.run_on_writer(partial(_configure, synchronous.upper()))
            await store._migrate()
            await store.run_on_writer(_can_write)
            for _ in range(readers):
                await store._open_reader()
        except BaseException:
            await store.close()
            raise
        return store

    async def _open_reader(self) -> None:
        reader = await Connection.open(self.path)
        self._readers.append(reader)
        ms = int(self.busy_timeout * 1000)

        def configure(conn: sqlite3.Connection) -> None:
            conn.execute(f"PRAGMA busy_timeout = {ms}")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA query_only = ON")

        try:
            await reader.run(configure)
        except sqlite3.Error as exc:
            raise storage_error(exc) from exc
        self._idle.put_nowait(reader)

    async def close(self) -> None:
        """Close every connection: the calls already begun finish (or raise, as below);
        any call from now on raises StorageError ``store.busy`` at once. Idempotent."""
        if self._closed:
            return
        self._closed = True
        async with self._turn:  # the writes already waiting for their turn go first
            for reader in self._readers:
                await reader.close()
            self._readers.clear()
            await self._writer.close()

    # -- the backend's primitives
    def _busy(self, what: str) -> StorageError:
        return StorageError("store.busy", f"{what} waited {self.busy_timeout:g} s for {self.path}")

    async def run_on_writer(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """``job`` on the writer's ``sqlite3`` connection in its thread, in its turn (every
        write goes through here; tools and tests may run pragmas this way). The wait for
        the writer's turn and SQLite's wait for the file share one busy timeout, counted
        from the call: each write ends by its own deadline, however many queue before it.
        Raises StorageError for anything SQLite raises."""
        if self._closed:
            raise store_closed(self.path)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_timeout
        async with self._turn:
            left_ms = int((deadline - loop.time()) * 1000)
            if left_ms <= 0:  # the writes queued before this one used its time
                raise self._busy("a write")

            def timed(conn: sqlite3.Connection) -> T:
                conn.execute(f"PRAGMA busy_timeout = {left_ms}")
                return job(conn)

            try:
                return await self._writer.run(timed)
            except sqlite3.Error as exc:
                raise storage_error(exc) from exc

    async def _fetch(self, parse: Callable[[Row], R], sql: str,
                     params: Sequence[object] = ()) -> list[R]:
        """On an idle reader (never the writer); the rows are made in the reader's thread,
        so the event loop never handles the raw ones."""
        def read(conn: sqlite3.Connection) -> list[R]:
            return [parse(r) for r in conn.execute(sql, params)]

        if self._closed:
            raise store_closed(self.path)
        reader = await self._idle.get()  # a reader closed meanwhile raises, as above
        try:
            return await reader.run(read)
        except sqlite3.Error as exc:
            raise storage_error(exc) from exc
        finally:
            self._idle.put_nowait(reader)

    async def _execute(self, sql: str, params: Sequence[object] = ()) -> int:
        def write(conn: sqlite3.Connection) -> int:
            return int(conn.execute(sql, params).rowcount)

        return await self.run_on_writer(write)

    async def _transact(self, tx: Tx[T]) -> T:
        return await self.run_on_writer(partial(_transaction, tx))

    async def _compare_and_set(self, update: Execute, inserts: Sequence[Insert]) -> bool:
        """One transaction in one hop, no statement more than needed (every move's
        commit)."""
        return await self.run_on_writer(partial(_compare_and_set, update, inserts))

    # -- schema
    async def _check_schema(self) -> None:
        current = await self.run_on_writer(_user_version)
        if current > len(migrations.MIGRATIONS):
            raise SchemaTooNew(current, len(migrations.MIGRATIONS))

    async def _migrate(self) -> None:
        await self._check_schema()
        current = await self.run_on_writer(_user_version)
        for number in range(current + 1, len(migrations.MIGRATIONS) + 1):
            await self.run_on_writer(partial(_upgrade, migrations.MIGRATIONS[number - 1],
                                             number))

    async def schema_version(self) -> int:
        return await self.run_on_writer(_user_version)

    async def integrity_check(self) -> str:
        """'ok' or SQLite's list of problems."""
        return "\n".join(str(r[0]) for r in await self.query_sql("PRAGMA integrity_check"))


def _configure(synchronous: str, conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
