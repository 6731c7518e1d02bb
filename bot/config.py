"""Settings from the environment or a ``.env`` file (see ``.env.example``), read with
python-dotenv; the process environment wins over the file.

The token is never logged or shown: ``Config.__repr__`` hides it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A setting is missing or wrong; the message says which and how to fix it."""


@dataclass(frozen=True)
class Config:
    """Everything the bot needs to run."""

    token: str = field(repr=False)
    db_path: str = "sanmarco.db"
    test_guild: int | None = None
    log_level: str = "INFO"
    # How often the reminder task looks for players who have been awaited too long.
    reminder_poll_seconds: float = 300.0
    # Worker processes drawing board PNGs (0: a thread of the bot's own process).
    render_processes: int = 0
    # Playouts per decision of a hard computer player (None: engine.ai.search.HARD's).
    hard_playouts: int | None = None


def default_render_processes() -> int:
    """One worker process for board pictures when the machine has a core to spare: Pillow
    then never competes with the event loop for the GIL (see benchmarks/discord_bench.py)."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


def read_env_file(path: str | Path) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file, read by python-dotenv (comments, quotes and
    ``export`` allowed; a line it cannot parse is skipped with a warning naming the line)."""
    return {k: v for k, v in dotenv_values(path, encoding="utf-8").items() if v is not None}


def load_config(environ: Mapping[str, str] | None = None,
                env_file: str | Path | None = ".env") -> Config:
    """Read settings: the process environment wins over the ``.env`` file.

    Raises ConfigError when the token is missing or a value is malformed.
    """
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update(read_env_file(env_file))
    values.update({k: v for k, v in (os.environ if environ is None else environ).items()
                   if v != ""})
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is not set. Put it in the environment or in a .env "
                          "file (copy .env.example to .env); see README.md.")
    guild_text = values.get("SANMARCO_TEST_GUILD", "").strip()
    if guild_text and not guild_text.isdigit():
        raise ConfigError(f"SANMARCO_TEST_GUILD must be a server id (digits), not {guild_text!r}.")
    workers_text = (values.get("SANMARCO_RENDER_PROCESSES", "").strip()
                    or str(default_render_processes()))
    if not workers_text.isdigit() or int(workers_text) > 64:
        raise ConfigError("SANMARCO_RENDER_PROCESSES must be a number of processes "
                          f"(0 = none), not {workers_text!r}.")
    playouts_text = values.get("SANMARCO_HARD_PLAYOUTS", "").strip()
    if playouts_text and (not playouts_text.isdigit() or not 1 <= int(playouts_text) <= 10_000):
        raise ConfigError("SANMARCO_HARD_PLAYOUTS must be a number of playouts per decision "
                          f"(1-10000; empty = the default), not {playouts_text!r}.")
    level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
    return Config(token=token, db_path=values.get("SANMARCO_DB", "").strip() or "sanmarco.db",
                  test_guild=int(guild_text) if guild_text else None, log_level=level,
                  render_processes=int(workers_text),
                  hard_playouts=int(playouts_text) if playouts_text else None)
