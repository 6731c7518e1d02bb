"""Raw SQL in tests, on either store: statements are written with SQLite's ``?`` parameters
and numbered (``$1``, ``$2``…) for PostgreSQL. Tests only: the bot never runs raw SQL."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from bot.store import SQLiteStore, Store
from bot.store.postgres import PostgresStore


def numbered(sql: str) -> str:
    """``?`` parameters as PostgreSQL's ``$n``."""
    count = iter(range(1, 1000))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def is_pg(store: Store) -> bool:
    return isinstance(store, PostgresStore)


async def execute(store: Store, sql: str, *params: Any) -> None:
    """Run one statement that writes."""
    if isinstance(store, PostgresStore):
        await store._execute(numbered(sql), *params)
        return
    assert isinstance(store, SQLiteStore)

    def run(conn: sqlite3.Connection) -> None:
        conn.execute(sql, params)

    await store._run(run)


async def rows(store: Store, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Every row of one query, as tuples."""
    if isinstance(store, PostgresStore):
        return await store._all(numbered(sql), params)
    assert isinstance(store, SQLiteStore)
    return [tuple(r) for r in await store._all(sql, params)]
