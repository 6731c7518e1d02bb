"""The layers point one way (DESIGN.md): importing a layer loads nothing from above it.

Each check runs in a fresh interpreter, so modules the test run itself has imported (discord,
PIL, asyncio...) cannot hide a stray import.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# module imported -> top-level packages it must not load
FORBIDDEN = {
    "engine": {"discord", "PIL", "asyncio", "sqlite3", "aiosqlite", "asyncpg", "aiohttp",
               "render", "bot"},
    "engine.ai": {"discord", "PIL", "asyncio", "sqlite3", "aiosqlite", "render", "bot"},
    "render": {"discord", "bot", "aiosqlite", "asyncpg", "sqlite3"},
    "bot.service": {"discord", "aiohttp"},
    # PostgreSQL's driver is loaded only for a postgresql:// database, so a bot on its
    # SQLite file never imports it.
    "bot.store": {"discord", "aiohttp", "asyncpg"},
    "bot.store.postgres": {"discord", "aiohttp"},
}


def _loaded_by(module: str) -> set[str]:
    code = ("import json, sys; import " + module +
            "; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("module", sorted(FORBIDDEN))
def test_a_layer_loads_nothing_from_above_it(module: str) -> None:
    assert not _loaded_by(module) & FORBIDDEN[module]
