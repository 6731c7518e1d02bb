"""Raw SQL in tests, on either store: statements are written with SQLite's ``?`` parameters
(the store's dialect numbers them for PostgreSQL). Tests only: the bot never runs raw SQL."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from bot.store import MIGRATIONS, Store


def is_pg(store: Store) -> bool:
    return store.dialect.name == "postgresql"


async def execute(store: Store, sql: str, *params: Any) -> None:
    """Run one statement that writes."""
    await store.execute_sql(sql, *params)


async def rows(store: Store, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Every row of one query, as tuples."""
    return await store.query_sql(sql, *params)


def sqlite_at(path: Path, version: int) -> sqlite3.Connection:
    """An SQLite file as schema ``version`` left it (its first migrations only), open in
    autocommit for a test to fill before the store upgrades it."""
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:version]:
        migration(db)
    db.execute(f"PRAGMA user_version = {version}")
    return db
