"""The layers point one way (DESIGN.md): importing a layer loads nothing from above it.

Two instruments: import-linter checks the contracts in pyproject.toml against every import
written in the code (also one inside a function or under TYPE_CHECKING, which no import at
run time would show): the rooms of bot/ in their order, no cycle inside a room, engine/ and
render/ kept pure. And importing a layer in a fresh interpreter loads nothing it must not
(modules the test run itself has imported, discord, PIL, asyncio..., cannot hide a stray
import), which also catches what a dependency imports on the layer's behalf.
"""

from __future__ import annotations

import ast
import json
import os
import re
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
    "bot.text": {"discord", "aiohttp"},
    # the run-time lookup of words: Babel's catalogue reader, nothing of the game or Discord
    "bot.i18n": {"discord", "aiohttp", "asyncio", "engine", "render", "PIL"},
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


def test_the_import_contracts_hold() -> None:
    """``lint-imports`` (import-linter) keeps every contract of pyproject.toml."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
         "lint_imports_command()", "--no-cache", "--no-logo"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout, run.stdout


# A newcomer finds a module by its room: a folder of more modules than this is a hall again.
MAX_MODULES_PER_FOLDER = 20


def _folders_of_bot() -> list[Path]:
    return sorted({path.parent for path in (ROOT / "bot").rglob("*.py")})


def test_no_folder_of_bot_holds_more_than_20_modules() -> None:
    crowded = {str(folder.relative_to(ROOT)): count for folder in _folders_of_bot()
               if (count := len(list(folder.glob("*.py")))) > MAX_MODULES_PER_FOLDER}
    assert crowded == {}


def test_every_package_of_bot_says_what_it_owns() -> None:
    """Each room's ``__init__`` has a module docstring (what it owns, what it may import)."""
    silent = [str(init.relative_to(ROOT)) for init in sorted((ROOT / "bot").rglob("__init__.py"))
              if not ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))]
    assert silent == []


def test_every_file_the_walk_of_a_click_names_exists() -> None:
    """docs/CLICK.md walks a press and a slash command file by file: the code follows it
    (a path from the root, or a module of the adapter named by its room)."""
    adapter = ROOT / "bot" / "cogs" / "sanmarco"
    named = re.findall(r"`([\w/]+(?:\.py|/))`", (ROOT / "docs" / "CLICK.md").read_text())
    assert len(named) > 10
    missing = [name for name in named
               if not ((ROOT / name).exists() if name.startswith(("bot/", "tests/"))
                       else any(str(p).endswith("/" + name.rstrip("/"))
                                for p in adapter.rglob(name.rstrip("/").split("/")[-1])))]
    assert missing == []
