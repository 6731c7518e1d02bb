"""The PostgreSQL store: the same ``bot.store.Store`` as the SQLite one, for a bot that runs
as several processes (Discord shards) on one shared database.

Why it looks like this:

- Every query is ``bot.store.base.Store``'s, compiled by the PostgreSQL dialect; this module
  only runs them. ``commit`` is ONE statement (the row update, its log rows and its
  history row in data-modifying CTEs), made only if the row is still at the expected
  version: under READ COMMITTED a second writer of the same row waits for the first, then
  finds the version changed and writes nothing, so two processes can never both apply a
  click.
- Numbered migrations, the same numbers as SQLite's (``bot.store.migrations.postgres``),
  recorded in the table ``sanmarco_schema`` and run under an advisory lock, so processes
  starting together upgrade a database once. A database of a newer bot is refused before
  anything is written.
- A pool of connections (asyncpg); reads never wait for writes (MVCC). No write waits
  longer than the busy timeout for a connection, nor longer than it for a row lock
  (``lock_timeout``): then it raises StorageError ``store.busy`` and has written nothing.
- Failures map to the SQLite store's StorageError codes by SQLSTATE (``storage_error``).
- A channel's posts are read in commit order: an outbox id is taken at insert, not at
  commit, so a transaction writing outbox rows first takes a transaction-level advisory
  lock per channel (``outbox/<channel>``, as ``Backend._lock`` names its keys; in channel
  order, so two never deadlock). A lower
  id of a channel can then never commit after a higher one, and the deliverer never folds
  a late one into a catch-up already sent. (SQLite has one writer: it holds there already.)

The engine state is opaque JSON text here too (``text``, not ``jsonb``: kept byte for byte).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING, TypeVar

import asyncpg

from bot.store.base import DEFAULT_BUSY_TIMEOUT, Store
from bot.store.dialect import POSTGRES
from bot.store.errors import DuplicateKey, SchemaTooNew, StorageError, store_closed
from bot.store.migrations import postgres as migrations
from bot.store.outbox import OUTBOX_COLUMNS
from bot.store.target import redact
from bot.store.tx import Call, Execute, ExecuteMany, Insert, Query, Row, Statement, Tx, drive

T = TypeVar("T")
R = TypeVar("R")
if TYPE_CHECKING:  # a connection of the pool (generic in the stubs only)
    Conn = asyncpg.pool.PoolConnectionProxy[asyncpg.Record]

__all__ = ["DEFAULT_POOL_SIZE", "PostgresStore", "redact", "storage_error"]

DEFAULT_POOL_SIZE = 10
_SCHEMA_TABLE = "sanmarco_schema"
_MIGRATION_LOCK = 0x5A4D_0015  # the advisory lock held while a database is upgraded

# SQLSTATEs (and their classes) named by the SQLite store's codes.
_STATES: dict[str, str] = {
    "53100": "store.full",  # disk_full
    "25006": "store.read_only",  # read_only_sql_transaction (a standby, a read-only db)
    "42501": "store.read_only",  # insufficient_privilege: the bot's role may not write
    "55P03": "store.busy",  # lock_not_available: lock_timeout
    "40P01": "store.busy",  # deadlock_detected
    "40001": "store.busy",  # serialization_failure
    "57014": "store.busy",  # query_canceled
    "55006": "store.busy",  # object_in_use
    "53300": "store.busy",  # too_many_connections
    "XX001": "store.corrupt",  # data_corrupted
    "XX002": "store.corrupt",  # index_corrupted
    "3D000": "store.cantopen",  # invalid_catalog_name: no such database
    "57P03": "store.cantopen",  # cannot_connect_now: the server is starting up
    "57P01": "store.io",  # admin_shutdown
    "57P02": "store.io",  # crash_shutdown
}
_CLASSES: dict[str, str] = {
    "58": "store.io",  # system error (I/O)
    "08": "store.io",  # connection exception
    "28": "store.cantopen",  # invalid authorization (role, password)
}
_UNIQUE_VIOLATION = "23505"


def storage_error(exc: BaseException, *, opening: bool = False) -> StorageError:
    """The StorageError for what asyncpg (or the network under it) raised, with the cause
    as its code. While ``opening``, a server that cannot be reached is ``store.cantopen``."""
    state = str(getattr(exc, "sqlstate", "") or "")
    if state == _UNIQUE_VIOLATION:
        return DuplicateKey(f"{exc} (SQLSTATE {state})")
    if state:
        code = _STATES.get(state) or _CLASSES.get(state[:2], "store.failed")
        if opening and code == "store.io":
            code = "store.cantopen"
        return StorageError(code, f"{exc} (SQLSTATE {state})")
    if isinstance(exc, TimeoutError):
        return StorageError("store.busy", str(exc) or "timed out")
    if isinstance(exc, OSError | asyncpg.InterfaceError | asyncpg.InternalClientError):
        # the connection went away (asyncpg may report a server's FATAL that arrives in
        # the middle of a query as an internal state error)
        return StorageError("store.cantopen" if opening else "store.io",
                            f"{type(exc).__name__}: {exc}")
    return StorageError("store.failed", f"{type(exc).__name__}: {exc}")


_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
             OSError, TimeoutError)


async def _keep_session(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """What a connection needs before it goes back to the pool: nothing. asyncpg rolls back
    an open transaction first, and the store leaves no other session state: its locks are
    the transaction's (gone at COMMIT or ROLLBACK), it opens no cursor and listens to
    nothing, and the migration undoes its one SET and session lock itself. asyncpg's
    default reset (RESET ALL, UNLISTEN *, CLOSE ALL, the advisory locks) would cost a round
    trip at every call's end."""


def _count(status: str) -> int:
    """Rows a command touched, from its status ("UPDATE 1", "DELETE 3", "INSERT 0 1")."""
    match = re.search(r"(\d+)$", status)
    return int(match.group(1)) if match else 0


def _sql(text: str) -> str:
    return POSTGRES.sql(text)


# The outbox's rows as a transaction writes them, and the locks taken before (the module
# docstring: a channel's ids commit in order).
_OUTBOX_INSERT = Insert("outbox", OUTBOX_COLUMNS, ()).sql
_LOCK_CHANNELS = ("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(hashtextextended("
                  "'outbox/' || c, 0)) FROM unnest(?::bigint[]) AS c) AS locked")


def _channels(rows: Sequence[Sequence[object]]) -> list[int]:
    """The channels of outbox rows (their first column), in the order their locks are taken."""
    return sorted({int(str(r[0])) for r in rows})


async def _step(conn: Conn, step: Statement) -> object:
    """One statement of a transaction, on the transaction's connection."""
    if isinstance(step, Query):
        return [tuple(r) for r in await conn.fetch(_sql(step.sql), *step.params)]
    if isinstance(step, Execute):
        return _count(await conn.execute(_sql(step.sql), *step.params))
    if isinstance(step, ExecuteMany):
        if step.sql == _OUTBOX_INSERT and step.rows:
            await conn.execute(_sql(_LOCK_CHANNELS), _channels(step.rows))
        await conn.executemany(_sql(step.sql), step.rows)
        return None
    if isinstance(step, Call):
        return await asyncio.to_thread(step.fn)  # off the event loop
    raise TypeError(step)


# Each column's type, for the arrays a compare-and-set's rows travel in: read from the
# database once it is migrated, so no type is written twice.
_COLUMN_TYPES = """
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
  AND a.attnum > 0 AND NOT a.attisdropped"""


class PostgresStore(Store):
    """One PostgreSQL database (a ``bot.store.Store``). Open with
    ``await PostgresStore.open(url)``; ``url`` is a ``postgresql://`` URL (asyncpg's: query
    parameters it does not know are server settings, e.g. ``?search_path=bot1``)."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str, *,
                 busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self._pool = pool
        self.url = url
        self.path = redact(url)  # where, for logs and messages (as SQLiteStore.path)
        self.busy_timeout = busy_timeout
        self._types: dict[str, dict[str, str]] = {}  # table -> column -> its type
        self._statements: dict[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], str] = {}
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
                   pool_size: int = DEFAULT_POOL_SIZE,
                   connect_timeout: float = 10.0) -> PostgresStore:
        """Connect, check the schema (a database of a newer bot is refused untouched),
        upgrade it, check that the bot may write. Raises StorageError (``store.cantopen``
        when the server cannot be reached or refuses the login) or SchemaTooNew."""
        if not busy_timeout > 0 or pool_size < 1:
            raise ValueError("busy_timeout must be positive and pool_size at least 1")
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, timeout=connect_timeout,
                reset=_keep_session,
                server_settings={"lock_timeout": f"{int(busy_timeout * 1000)}ms",
                                 "application_name": "sanmarco"})
        except _FAILURES as exc:
            raise storage_error(exc, opening=True) from exc
        except ValueError as exc:  # a malformed URL (asyncpg's own words)
            raise StorageError("store.cantopen", f"{exc}") from exc
        store = cls(pool, url, busy_timeout=busy_timeout)
        try:
            await store._migrate()
            await store._check_writable()
            for table, column, kind in await store._fetch(tuple, _COLUMN_TYPES):
                store._types.setdefault(table, {})[column] = kind
        except _FAILURES as exc:
            await store.close()
            raise storage_error(exc, opening=True) from exc
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the pool: the calls that hold a connection finish (10 s at most, then
        their connections are cut and they raise); any call from now on raises StorageError
        ``store.busy`` at once, as on SQLite (asyncpg's "pool is closed" would read as an
        I/O error). Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.wait_for(self._pool.close(), 10)
        except (TimeoutError, *_FAILURES):
            self._pool.terminate()

    # -- schema
    async def _stored_version(self, conn: Conn) -> int:
        """The schema version recorded in the database (0: none yet). A database holding a
        ``games`` table but no San Marco schema is not ours: refused as store.corrupt."""
        if await conn.fetchval("SELECT to_regclass($1)", _SCHEMA_TABLE) is None:
            if await conn.fetchval("SELECT to_regclass('games')") is not None:
                raise StorageError("store.corrupt", "the database has a games table but no "
                                   f"{_SCHEMA_TABLE}: it is not a San Marco database")
            return 0
        return int(await conn.fetchval(f"SELECT max(version) FROM {_SCHEMA_TABLE}") or 0)

    async def _migrate(self) -> None:
        scripts = migrations.MIGRATIONS
        async with self._pool.acquire() as conn:
            current = await self._stored_version(conn)  # read before anything is written
            if current > len(scripts):
                raise SchemaTooNew(current, len(scripts))
            if current == len(scripts):
                return
            # One process upgrades; the others wait here, then find nothing left to do. The
            # lock is taken before the transaction starts: a transaction begun earlier would
            # not see the tables that the process ahead of it has just made.
            await conn.execute("SET lock_timeout = 0")
            await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                async with conn.transaction():
                    current = await self._stored_version(conn)
                    if current > len(scripts):
                        raise SchemaTooNew(current, len(scripts))
                    if current == 0:
                        await conn.execute(f"CREATE TABLE IF NOT EXISTS {_SCHEMA_TABLE} "
                                           "(version integer NOT NULL, applied_at "
                                           "timestamptz NOT NULL DEFAULT now())")
                    for number in range(current + 1, len(scripts) + 1):
                        await conn.execute(scripts[number - 1])
                        await conn.execute(f"INSERT INTO {_SCHEMA_TABLE} (version) "
                                           "VALUES ($1)", number)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
                await conn.execute("RESET lock_timeout")

    async def _check_writable(self) -> None:
        """A write that is rolled back: the role may write and the server is not a
        read-only standby (raises StorageError store.read_only otherwise)."""
        async with self._pool.acquire() as conn:
            tx = conn.transaction()
            await tx.start()
            try:
                await conn.execute("UPDATE games SET version = version WHERE false")
            finally:
                await tx.rollback()

    async def schema_version(self) -> int:
        versions = await self._fetch(lambda r: int(r[0] or 0),
                                     f"SELECT max(version) FROM {_SCHEMA_TABLE}")
        return versions[0]

    async def integrity_check(self) -> str:
        """'ok' or the problems found: every game's log runs 1..n without a gap."""
        gaps = await self._fetch(lambda r: f"game {r[0]}: gaps in its log",
                                 "SELECT game_id FROM actions GROUP BY game_id "
                                 "HAVING min(seq) <> 1 OR max(seq) <> count(*)")
        return "\n".join(gaps) or "ok"

    # -- the backend's primitives
    @asynccontextmanager
    async def _connection(self, what: str) -> AsyncIterator[Conn]:
        """A connection of the pool within the busy timeout; what asyncpg raises becomes a
        StorageError (``store.busy`` once the store is closed)."""
        if self._closed:
            raise store_closed(self.path)
        try:
            async with self._pool.acquire(timeout=self.busy_timeout) as conn:
                yield conn
        except _FAILURES as exc:
            if self._closed:  # cut short by close(): said as a call after it
                raise store_closed(self.path) from exc
            if isinstance(exc, TimeoutError):
                raise StorageError("store.busy", f"{what} waited {self.busy_timeout:g} s "
                                   f"for a connection to {self.path}") from exc
            raise storage_error(exc) from exc

    async def _fetch(self, parse: Callable[[Row], R], sql: str,
                     params: Sequence[object] = ()) -> list[R]:
        """Outside any transaction: a read never waits for a write."""
        async with self._connection("a read") as conn:
            rows = await conn.fetch(_sql(sql), *params)
        return [parse(tuple(r)) for r in rows]

    async def _execute(self, sql: str, params: Sequence[object] = ()) -> int:
        async with self._connection("a write") as conn:  # one statement: its own transaction
            return _count(await conn.execute(_sql(sql), *params))

    async def _transact(self, tx: Tx[T]) -> T:
        async with self._connection("a write") as conn, conn.transaction():
            return await drive(tx, partial(_step, conn), _FAILURES, storage_error)

    async def _compare_and_set(self, update: Execute, inserts: Sequence[Insert]) -> bool:
        """ONE statement: the update, and the inserts only if it matched (they select FROM
        g): one transaction, one round trip. Each insert's rows travel as one array per
        column."""
        shapes = tuple((insert.table, insert.columns) for insert in inserts)
        sql = self._statements.get((update.sql, shapes)) or self._compile(update.sql, shapes)
        params = list(update.params)
        posts = [row for insert in inserts if insert.table == "outbox" for row in insert.rows]
        if any(table == "outbox" for table, _ in shapes):
            params.append(_channels(posts))
        for insert in inserts:
            params += [list(column) for column in zip(*insert.rows, strict=True)]
        async with self._connection("a write") as conn:
            matched = await conn.fetchval(sql, *params)
        return bool(matched == 1)

    def _compile(self, update: str,
                 shapes: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
        sql = f"WITH g AS ({update} RETURNING 1)"
        if any(table == "outbox" for table, _ in shapes):  # the channels' locks first
            sql += f", lk AS ({_LOCK_CHANNELS})"
        for index, (table, columns) in enumerate(shapes):
            arrays = ", ".join(f"?::{self._types[table][c]}[]" for c in columns)
            locked = ", lk" if table == "outbox" else ""
            sql += (f", i{index} AS (INSERT INTO {table} ({', '.join(columns)}) "
                    f"SELECT u.* FROM g{locked}, unnest({arrays}) AS u)")
        compiled = self._statements[(update, shapes)] = _sql(sql + " SELECT count(*) FROM g")
        return compiled
