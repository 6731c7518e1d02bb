"""The table copy behind ``python -m bot.migrate``: every table of one database, row for row,
ids included, into another in ONE transaction (an SQLite file or a PostgreSQL database
either side). Each side reads its own catalogue, so a table a later schema adds is copied
with no change here, after the tables it references.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

import asyncpg

from bot.store.errors import StoreError
from bot.store.target import describe_target, is_postgres

BATCH = 2000  # rows read and written at a time


class CopyRefused(Exception):
    """The copy was refused before anything was written (one line for the admin)."""


class Side(Protocol):
    """One database, as the copy sees it: tables, their columns and rows."""

    async def tables(self) -> dict[str, set[str]]:
        """Every table of the bot's, with the tables it references."""
        ...

    async def columns(self, table: str) -> list[str]: ...

    async def count(self, table: str) -> int: ...

    def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple[Any, ...]]]:
        """The table's rows, a batch at a time, in primary-key order."""
        ...

    async def begin(self) -> None: ...

    async def insert(self, table: str, columns: Sequence[str],
                     rows: list[tuple[Any, ...]]) -> None: ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...

    async def close(self) -> None: ...


class SQLiteSide:
    """An SQLite file, through the sqlite3 module in a worker thread."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA foreign_keys = ON")

    async def _do(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        def run() -> list[tuple[Any, ...]]:
            return [tuple(r) for r in self._conn.execute(sql, params).fetchall()]
        return await asyncio.to_thread(run)

    async def tables(self) -> dict[str, set[str]]:
        names = [r[0] for r in await self._do(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: {r[2] for r in await self._do(f'PRAGMA foreign_key_list("{t}")')}
                for t in names}

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self._do(f'PRAGMA table_info("{table}")')]

    async def _key(self, table: str) -> list[str]:
        info = await self._do(f'PRAGMA table_info("{table}")')
        key = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
        return key or [r[1] for r in info]

    async def count(self, table: str) -> int:
        return int((await self._do(f'SELECT count(*) FROM "{table}"'))[0][0])

    async def rows(self, table: str, columns: Sequence[str]
                   ) -> AsyncIterator[list[tuple[Any, ...]]]:
        order = ", ".join(f'"{c}"' for c in await self._key(table))
        cur = await asyncio.to_thread(
            self._conn.execute, f'SELECT {_cols(columns)} FROM "{table}" ORDER BY {order}')
        while batch := await asyncio.to_thread(cur.fetchmany, BATCH):
            yield [tuple(r) for r in batch]

    async def begin(self) -> None:
        await self._do("BEGIN IMMEDIATE")

    async def insert(self, table: str, columns: Sequence[str],
                     rows: list[tuple[Any, ...]]) -> None:
        marks = ", ".join("?" for _ in columns)
        sql = f'INSERT INTO "{table}" ({_cols(columns)}) VALUES ({marks})'
        await asyncio.to_thread(self._conn.executemany, sql, rows)

    async def commit(self) -> None:
        await self._do("COMMIT")

    async def rollback(self) -> None:
        if self._conn.in_transaction:
            await self._do("ROLLBACK")

    async def close(self) -> None:
        self._conn.close()


class PostgresSide:
    """A PostgreSQL database (its tables in the URL's search path), through asyncpg."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self._tx: Any = None

    @classmethod
    async def connect(cls, url: str) -> PostgresSide:
        return cls(await asyncpg.connect(url))

    async def tables(self) -> dict[str, set[str]]:
        names = [r[0] for r in await self._conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = "
            "current_schema() AND table_type = 'BASE TABLE' AND table_name <> "
            "'sanmarco_schema'")]
        refs = await self._conn.fetch(
            "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text "
            "FROM pg_constraint c WHERE c.contype = 'f' "
            "AND c.connamespace = current_schema()::regnamespace")
        out: dict[str, set[str]] = {t: set() for t in names}
        for child, parent in refs:
            out.setdefault(child.strip('"'), set()).add(parent.strip('"'))
        return out

    async def columns(self, table: str) -> list[str]:
        return [r[0] for r in await self._conn.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = $1 ORDER BY ordinal_position", table)]

    async def _key(self, table: str) -> list[str]:
        key = [r[0] for r in await self._conn.fetch(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary",
            table)]
        return key or await self.columns(table)

    async def count(self, table: str) -> int:
        return int(await self._conn.fetchval(f'SELECT count(*) FROM "{table}"'))

    async def rows(self, table: str, columns: Sequence[str]
                   ) -> AsyncIterator[list[tuple[Any, ...]]]:
        order = ", ".join(f'"{c}"' for c in await self._key(table))
        async with self._conn.transaction(readonly=True, isolation="repeatable_read"):
            cursor = await self._conn.cursor(
                f'SELECT {_cols(columns)} FROM "{table}" ORDER BY {order}')
            while batch := await cursor.fetch(BATCH):
                yield [tuple(r) for r in batch]

    async def begin(self) -> None:
        self._tx = self._conn.transaction()
        await self._tx.start()

    async def insert(self, table: str, columns: Sequence[str],
                     rows: list[tuple[Any, ...]]) -> None:
        # SQLite keeps a flag as 0/1: a boolean column here takes it as a boolean
        flags = {r[0] for r in await self._conn.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = $1 AND data_type = 'boolean'", table)}
        at = [i for i, c in enumerate(columns) if c in flags]
        if at:
            rows = [tuple(bool(v) if i in at and v is not None else v
                          for i, v in enumerate(row)) for row in rows]
        await self._conn.copy_records_to_table(table, records=rows, columns=list(columns))

    async def commit(self) -> None:
        # Identity columns go on after the copied ids (the next new game gets a new id).
        for table, column in await self._conn.fetch(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND is_identity = 'YES'"):
            await self._conn.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'), "
                f'coalesce((SELECT max("{column}") FROM "{table}"), 0) + 1, false)')
        await self._tx.commit()
        self._tx = None

    async def rollback(self) -> None:
        if self._tx is not None:
            await self._tx.rollback()
            self._tx = None

    async def close(self) -> None:
        await self._conn.close()


def _cols(columns: Sequence[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)


def in_dependency_order(tables: dict[str, set[str]]) -> list[str]:
    """Tables ordered so that each comes after the tables it references (then by name)."""
    done: list[str] = []
    left = dict(tables)
    while left:
        ready = sorted(t for t, refs in left.items() if refs - {t} <= set(done))
        if not ready:
            raise CopyRefused(f"the tables {sorted(left)} reference each other in a cycle")
        done += ready
        for t in ready:
            del left[t]
    return done


async def _side(target: str) -> Side:
    if is_postgres(target):
        return await PostgresSide.connect(target)
    return SQLiteSide(target)


async def copy_tables(source: str, target: str, version: int) -> dict[str, int]:
    """Copy every table of ``source`` into ``target`` (both at schema ``version``) in one
    transaction of the target; returns the rows copied per table, in the order copied.
    Raises CopyRefused (a target holding any row, tables that do not match: nothing written),
    StoreError."""
    src, dst = await _side(source), await _side(target)
    copied: dict[str, int] = {}
    try:
        src_tables, dst_tables = await src.tables(), await dst.tables()
        filled = {t: n for t in sorted(dst_tables) if (n := await dst.count(t))}
        if filled:
            raise CopyRefused(f"the target {describe_target(target)} is not empty ("
                          + ", ".join(f"{t}: {n} rows" for t, n in filled.items())
                          + "); copy into an empty database")
        order = in_dependency_order(src_tables)
        columns: dict[str, list[str]] = {}
        for table in order:
            if table not in dst_tables:
                raise CopyRefused(f"the target has no table {table} (schema {version})")
            columns[table] = await src.columns(table)
            missing = set(columns[table]) - set(await dst.columns(table))
            if missing:
                raise CopyRefused(f"the target's table {table} lacks {sorted(missing)}")
        await dst.begin()
        try:
            for table in order:
                n = 0
                async for batch in src.rows(table, columns[table]):
                    await dst.insert(table, columns[table], batch)
                    n += len(batch)
                copied[table] = n
            await dst.commit()
        except BaseException:
            await dst.rollback()
            raise
        for table in order:
            if await dst.count(table) != copied[table]:
                raise StoreError(f"the target's {table} holds "
                                 f"{await dst.count(table)} rows, not {copied[table]}")
    finally:
        await src.close()
        await dst.close()
    return copied
