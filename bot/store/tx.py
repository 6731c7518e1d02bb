"""A write transaction written once for both backends.

A transaction is a generator: it yields the statements it needs (``fetch``, ``execute``…,
used with ``yield from``) and receives their results, so the same Python decides what to
write on either backend, while each backend runs it its own way: SQLite drives the whole
generator in its writer's thread (one hop: a cancelled coroutine never leaves a
transaction half done), PostgreSQL awaits each statement on a pooled connection inside
``BEGIN``/``COMMIT``. A database error is thrown into the generator at its ``yield``, as a
``StorageError`` (``DuplicateKey`` for a unique key), so a transaction may turn one into a
refusal; anything it raises rolls the whole transaction back.

Statements are written in SQLite's spelling with ``?`` parameters; the backend's
``Dialect`` compiles them.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

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


Step = Query | Execute | ExecuteMany | Call
Tx = Generator[Step, object, T]


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


class Driver(Generic[T]):
    """Runs a transaction for a backend, step by step::

        driver = Driver(tx)
        while (step := driver.next()) is not None:
            try:
                driver.answer(run(step))
            except DatabaseError as exc:
                driver.fail(storage_error(exc))
        return driver.value
    """

    def __init__(self, tx: Tx[T]) -> None:
        self._tx = tx
        self._result: object = None
        self._error: BaseException | None = None
        self.value: T

    def next(self) -> Step | None:
        """The next statement, or None when the transaction is done (``value`` is set).
        Raises what the transaction raises (the caller rolls back)."""
        try:
            if self._error is not None:
                error, self._error = self._error, None
                return self._tx.throw(error)
            return self._tx.send(self._result)
        except StopIteration as done:
            self.value = done.value
            return None

    def answer(self, result: object) -> None:
        self._result = result

    def fail(self, error: BaseException) -> None:
        self._error = error
