"""A write transaction written once for both backends.

A transaction is a generator: it yields the statements it needs (``fetch``, ``execute``…,
used with ``yield from``) and receives their results, so the same Python decides what to
write on either backend, and ``drive`` runs it the same way on both: each statement
awaited on the transaction's connection (aiosqlite's writer, a pooled asyncpg one) inside
``BEGIN``/``COMMIT``. A database error is thrown into the generator at its ``yield``, as a
``StorageError`` (``DuplicateKey`` for a unique key), so a transaction may turn one into a
refusal; anything it raises (a cancellation too) rolls the whole transaction back.

Statements are written in SQLite's spelling with ``?`` parameters; the backend's
``Dialect`` compiles them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")
Row = tuple[Any, ...]  # a database row: its values as the driver returns them


@dataclass(frozen=True)
class Query:
    """A statement whose rows the transaction reads (a SELECT, or RETURNING)."""

    sql: str
    params: Sequence[object]


@dataclass(frozen=True)
class Execute:
    """A statement that writes; the transaction reads how many rows it touched."""

    sql: str
    params: Sequence[object]


@dataclass(frozen=True)
class ExecuteMany:
    """One statement for each parameter row (nothing to read back)."""

    sql: str
    rows: Sequence[Sequence[object]]


@dataclass(frozen=True)
class Call:
    """Python work inside the transaction, done off the event loop (e.g. rating games)."""

    fn: Callable[[], object]


# one statement a transaction yields to its driver
Statement = Query | Execute | ExecuteMany | Call
Tx = Generator[Statement, object, T]


def fetch(sql: str, *params: object) -> Tx[list[Row]]:
    rows = yield Query(sql, params)
    return cast(list[Row], rows)


def execute(sql: str, *params: object) -> Tx[int]:
    touched = yield Execute(sql, params)
    return cast(int, touched)


def execute_many(sql: str, rows: Sequence[Sequence[object]]) -> Tx[None]:
    if rows:
        yield ExecuteMany(sql, rows)


def call(fn: Callable[[], R]) -> Tx[R]:
    value = yield Call(fn)
    return cast(R, value)


@dataclass(frozen=True)
class Insert:
    """Rows for one table (``columns`` of each, in order), written by ``insert`` in a
    transaction or by a store's compare-and-set only if its update matched. Values are
    text, numbers or None (PostgreSQL's compare-and-set passes the rows as one JSON
    parameter)."""

    table: str
    columns: tuple[str, ...]
    rows: Sequence[Sequence[object]]

    @property
    def sql(self) -> str:
        marks = ", ".join("?" * len(self.columns))
        return f"INSERT INTO {self.table} ({', '.join(self.columns)}) VALUES ({marks})"


def insert(rows: Insert) -> Tx[None]:
    yield from execute_many(rows.sql, rows.rows)


async def drive(tx: Tx[T], run: Callable[[Statement], Awaitable[object]],
                failures: tuple[type[BaseException], ...],
                storage_error: Callable[[BaseException], BaseException]) -> T:
    """Run a transaction's statements one by one with ``run`` (the backend's, on its
    connection); a backend's ``failures`` reach the transaction as ``storage_error`` makes
    them. Raises what the transaction raises: the caller, holding BEGIN, rolls back."""
    result: object = None
    error: BaseException | None = None
    while True:
        try:
            step = tx.send(result) if error is None else tx.throw(error)
        except StopIteration as done:
            return cast(T, done.value)
        result, error = None, None
        try:
            result = await run(step)
        except failures as exc:
            error = storage_error(exc)
