"""What a backend gives the store's calls (``SQLiteStore``, ``PostgresStore``), and the
pieces every call shares:

- ``_fetch(parse, sql, params)``: the rows of one query, each made by ``parse`` (a read
  never waits for a write);
- ``_execute(sql, params)``: one statement that writes, on its own; how many rows it
  touched;
- ``_transact(tx)``: a write transaction (``bot.store.tx``: a generator of statements);
- ``_compare_and_set(update, inserts)``: ``update`` if it matches, and ``inserts`` with
  it, at once (PostgreSQL: one statement).

The SQL is SQLite's spelling with ``?`` parameters; the backend's ``Dialect`` compiles it
and gives the few fragments spelled otherwise (``self.dialect``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from bot.store.dialect import Dialect
from bot.store.tx import Execute, Insert, Row, Tx, execute

if TYPE_CHECKING:
    from bot.store.rows import Shards

T = TypeVar("T")
R = TypeVar("R")


class Backend(ABC):
    """What a backend gives (SQLite, PostgreSQL), and the pieces every call shares."""

    dialect: Dialect
    path: str  # where the data is, for logs and messages (a file, or a URL sans password)
    busy_timeout: float  # seconds a write may wait for its turn or a lock: then store.busy

    # -- what each backend gives
    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def integrity_check(self) -> str:
        """'ok', or the problems found."""

    @abstractmethod
    async def _fetch(self, parse: Callable[[Row], R], sql: str,
                     params: Sequence[object] = ()) -> list[R]: ...

    @abstractmethod
    async def _execute(self, sql: str, params: Sequence[object] = ()) -> int: ...

    @abstractmethod
    async def _transact(self, tx: Tx[T]) -> T: ...

    @abstractmethod
    async def _compare_and_set(self, update: Execute, inserts: Sequence[Insert]) -> bool:
        """``update`` (it matches one row or none) and, only if it matched, ``inserts``, at
        once; False (nothing written) if it did not."""

    async def __aenter__(self: T) -> T:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- raw SQL, for tools and tests (``?`` parameters; the bot uses the calls below)
    async def query_sql(self, sql: str, *params: object) -> list[Row]:
        """Every row of one query (on a reader where the backend has readers)."""
        return await self._fetch(tuple, sql, params)

    async def execute_sql(self, sql: str, *params: object) -> int:
        """One statement that writes; how many rows it touched."""
        return await self._execute(sql, params)

    # -- the pieces several calls share
    def _lock(self, key: str) -> Tx[None]:
        """Serialise this kind of write across processes until the transaction ends (on
        SQLite the write transaction holds the whole file already)."""
        if self.dialect.lock is not None:
            yield from execute(self.dialect.lock, key)

    def _shards(self, column: str, shards: Shards | None) -> tuple[str, tuple[object, ...]]:
        """`` AND`` clause (and its parameters) keeping the rows of ``shards``' guilds."""
        if shards is None:
            return "", ()
        where, params = self.dialect.any_of(f"(({column} >> 22) % ?)", shards.ids)
        return f" AND {where}", (shards.count, *params)
