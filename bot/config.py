"""Settings from the environment or a ``.env`` file (see ``.env.example``), read with
python-dotenv; the process environment wins over the file.

The token is never logged or shown: ``Config.__repr__`` hides it.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A setting is missing or wrong; the message says which and how to fix it."""


UNIT_SECONDS = {"h": 3600, "d": 86400, "w": 7 * 86400}
UNIT_NAMES = {"h": "hour", "d": "day", "w": "week"}
DEFAULT_BACKUP_KEEP = "24h,7d"


@dataclass(frozen=True)
class Keep:
    """One rotation rule of SANMARCO_BACKUP_KEEP ("24h"): a copy for each of the last
    ``count`` hours, days or weeks (UTC; ISO weeks, from Monday)."""

    count: int
    unit: str  # "h", "d" or "w"

    @property
    def seconds(self) -> int:
        return UNIT_SECONDS[self.unit]

    def __str__(self) -> str:
        return f"{self.count}{self.unit}"


@dataclass(frozen=True)
class Backups:
    """Copies of the SQLite file while the bot runs (``bot.backup``): where, and which are
    kept. No rule: off, the default of a ``Config`` built in code (tests, benchmarks);
    ``load_config`` turns them on unless SANMARCO_BACKUP_KEEP=off."""

    keep: tuple[Keep, ...] = ()
    folder: str | None = None  # None: a folder "backups" beside the database file

    @property
    def on(self) -> bool:
        return bool(self.keep)

    @property
    def every(self) -> int:
        """Seconds between copies: the shortest rule's unit (hourly for "24h,7d")."""
        return min(k.seconds for k in self.keep) if self.keep else 0

    def folder_for(self, db_path: str) -> str:
        return self.folder or os.path.join(os.path.dirname(os.path.abspath(db_path)),
                                           "backups")


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
    # Worker processes for the pages' pictures and replays, hints, reviews and /check
    # (bot.work's side lane; 0: threads of the bot's own process).
    work_processes: int = 0
    # The first wait before a post Discord failed is tried again (it doubles, up to a
    # minute; a new change in the channel tries at once).
    outbox_retry_seconds: float = 1.0
    # How long a player's interaction waits for its post before telling them it will follow.
    outbox_wait_seconds: float = 2.5
    # How long a channel's deliverer holds its lease (SANMARCO_LEASE_SECONDS; the tests
    # shorten it): a process that died holding one gives the channel up after this.
    lease_seconds: float = 10.0
    # How long a stopping bot gives the posts in flight (SANMARCO_SHUTDOWN_SECONDS; the
    # tests shorten it): what is not sent by then goes out at the next start.
    shutdown_seconds: float = 10.0
    # PostgreSQL instead of the SQLite file (a bot on many servers, several processes): a
    # postgresql:// URL; it may carry a password, so it is hidden from repr like the token.
    database_url: str | None = field(default=None, repr=False)
    # Discord shards (a bot too big for one process): this process runs as an
    # AutoShardedBot over ``shard_ids`` of ``shard_count`` (all of them when only the count
    # is set); None: one plain Bot.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    @property
    def database(self) -> str:
        """The game database: DATABASE_URL if set, else the SQLite file."""
        return self.database_url or self.db_path

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None
    # Playouts per decision of a hard computer player (None: engine.ai.search.HARD's).
    hard_playouts: int | None = None
    # Whether ``/sanmarco game new`` in a text channel opens the game in a thread of its own
    # where the channel's settings do not say (SANMARCO_GAME_THREADS).
    game_threads: bool = True
    # Whether a newcomer's first answer on a server names ``/sanmarco game learn`` (always,
    # in the bot; the test harness turns it off for the tests of other answers).
    learn_pointer: bool = True
    # Copies of the SQLite file on a schedule (SANMARCO_BACKUP_DIR, SANMARCO_BACKUP_KEEP).
    backups: Backups = Backups()
    # The game pages (bot/web): served on this port when set (SANMARCO_WEB_PORT; None: no
    # pages), on SANMARCO_WEB_HOST; links name SANMARCO_PUBLIC_URL (None: no links).
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    public_url: str | None = None
    # The secret that signs a player's link to their own hand (SANMARCO_WEB_SECRET; None:
    # no such links); hidden from repr like the token.
    web_secret: str | None = field(default=None, repr=False)
    # The header a trusted reverse proxy in front of the pages names the client in
    # (SANMARCO_WEB_PROXY_HEADER, e.g. X-Forwarded-For; None: the connection's address),
    # for the pages' per-client limits. Only with a proxy that sets it: a client could too.
    web_proxy_header: str | None = None
    # "Sign in with Discord" on the pages (SANMARCO_DISCORD_CLIENT_ID and _SECRET, the
    # application's OAuth2 credentials; None: no sign-in); the secret hidden from repr.
    discord_client_id: str | None = None
    discord_client_secret: str | None = field(default=None, repr=False)


def _digits(raw: str) -> bool:
    """ASCII digits only (``"²".isdigit()`` is true, and ``int("²")`` fails)."""
    return raw.isascii() and raw.isdigit()


def _seconds(values: Mapping[str, str], name: str, default: str, low: float, high: float,
             refusal: str, *, above_low: bool = False) -> float:
    """A setting in seconds between ``low`` and ``high`` (``above_low``: ``low`` itself
    refused), its default when empty; else ConfigError saying ``refusal`` with the text."""
    given = values.get(name, "").strip() or default
    try:
        seconds = float(given)
    except ValueError:
        seconds = math.nan
    inside = (low < seconds if above_low else low <= seconds) and seconds <= high
    if not inside:  # (NaN is never inside)
        raise ConfigError(refusal.format(given))
    return seconds


def default_render_processes() -> int:
    """One worker process for board pictures when the machine has a core to spare: Pillow
    then never competes with the event loop for the GIL (see benchmarks/discord_bench.py)."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


def read_env_file(path: str | Path) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file, read by python-dotenv (comments, quotes and
    ``export`` allowed; a line it cannot parse is skipped with a warning naming the line)."""
    return {k: v for k, v in dotenv_values(path, encoding="utf-8").items() if v is not None}


def read_values(environ: Mapping[str, str] | None = None,
                env_file: str | Path | None = ".env") -> dict[str, str]:
    """The settings as text: the ``.env`` file's, then the process environment's over them."""
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update(read_env_file(env_file))
    values.update({k: v for k, v in (os.environ if environ is None else environ).items()
                   if v != ""})
    return values


def read_backups(values: Mapping[str, str]) -> Backups:
    """SANMARCO_BACKUP_DIR and SANMARCO_BACKUP_KEEP ("24h,7d": a copy an hour kept for a
    day, a copy a day kept for a week; "off": none). Raises ConfigError."""
    text = values.get("SANMARCO_BACKUP_KEEP", "").strip().lower() or DEFAULT_BACKUP_KEEP
    folder = values.get("SANMARCO_BACKUP_DIR", "").strip() or None
    if text in ("off", "0", "none"):
        return Backups((), folder)
    rules: dict[str, Keep] = {}
    for part in text.replace(" ", "").split(","):
        match = re.fullmatch(r"(\d{1,4})([hdw])", part)
        if match is None or int(match[1]) < 1 or match[2] in rules:
            raise ConfigError(
                "SANMARCO_BACKUP_KEEP must list how many hourly, daily and weekly copies to "
                f"keep, like 24h,7d or 48h,14d,8w (or off), not {text!r}.")
        rules[match[2]] = Keep(int(match[1]), match[2])
    return Backups(tuple(sorted(rules.values(), key=lambda k: k.seconds)), folder)


def load_config(environ: Mapping[str, str] | None = None,
                env_file: str | Path | None = ".env") -> Config:
    """Read settings: the process environment wins over the ``.env`` file.

    Raises ConfigError when the token is missing or a value is malformed.
    """
    values = read_values(environ, env_file)
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is not set. Put it in the environment or in a .env "
                          "file (copy .env.example to .env); see README.md.")
    guild_text = values.get("SANMARCO_TEST_GUILD", "").strip()
    if guild_text and not _digits(guild_text):
        raise ConfigError(f"SANMARCO_TEST_GUILD must be a server id (digits), not {guild_text!r}.")
    workers_text = (values.get("SANMARCO_RENDER_PROCESSES", "").strip()
                    or str(default_render_processes()))
    if not _digits(workers_text) or int(workers_text) > 64:
        raise ConfigError("SANMARCO_RENDER_PROCESSES must be a number of processes "
                          f"(0 = none), not {workers_text!r}.")
    work_text = (values.get("SANMARCO_WORK_PROCESSES", "").strip()
                 or str(default_render_processes()))
    if not _digits(work_text) or int(work_text) > 64:
        raise ConfigError("SANMARCO_WORK_PROCESSES must be a number of processes "
                          f"(0 = none), not {work_text!r}.")
    playouts_text = values.get("SANMARCO_HARD_PLAYOUTS", "").strip()
    if playouts_text and (not _digits(playouts_text) or not 1 <= int(playouts_text) <= 10_000):
        raise ConfigError("SANMARCO_HARD_PLAYOUTS must be a number of playouts per decision "
                          f"(1-10000; empty = the default), not {playouts_text!r}.")
    threads_text = values.get("SANMARCO_GAME_THREADS", "on").strip().lower() or "on"
    if threads_text not in ("on", "off"):
        raise ConfigError("SANMARCO_GAME_THREADS must be on (a thread per game, the default) "
                          f"or off (one game per channel), not {threads_text!r}.")
    level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
    url = values.get("DATABASE_URL", "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DATABASE_URL must be a postgresql:// URL (for an SQLite file, "
                          "leave it empty and set SANMARCO_DB).")
    shard_count, shard_ids = _shards(values.get("SHARD_COUNT", "").strip(),
                                     values.get("SHARD_IDS", "").strip())
    poll = _seconds(values, "SANMARCO_REMINDER_SECONDS", "300", 0.0, 86400,
                    "SANMARCO_REMINDER_SECONDS must be a number of seconds between "
                    "reminder passes (up to a day), not {!r}.", above_low=True)
    lease = _seconds(values, "SANMARCO_LEASE_SECONDS", "10", 0.5, 600,
                     "SANMARCO_LEASE_SECONDS must be a number of seconds a process "
                     "holds a channel's posts (0.5-600), not {!r}.")
    shutdown = _seconds(values, "SANMARCO_SHUTDOWN_SECONDS", "10", 0.5, 600,
                        "SANMARCO_SHUTDOWN_SECONDS must be a number of seconds a stopping "
                        "bot gives its posts in flight (0.5-600), not {!r}.")
    port_text = values.get("SANMARCO_WEB_PORT", "").strip()
    if port_text and (not _digits(port_text) or not 1 <= int(port_text) <= 65535):
        raise ConfigError("SANMARCO_WEB_PORT must be a port number (1-65535; empty = no "
                          f"game pages), not {port_text!r}.")
    public_url = values.get("SANMARCO_PUBLIC_URL", "").strip().rstrip("/") or None
    if public_url is not None and not public_url.startswith(("https://", "http://")):
        raise ConfigError("SANMARCO_PUBLIC_URL must be the pages' address, like "
                          f"https://sanmarco.example.org, not {public_url!r}.")
    client_id, client_secret = sign_in(values)
    return Config(token=token, db_path=values.get("SANMARCO_DB", "").strip() or "sanmarco.db",
                  test_guild=int(guild_text) if guild_text else None, log_level=level,
                  reminder_poll_seconds=poll, lease_seconds=lease,
                  shutdown_seconds=shutdown,
                  render_processes=int(workers_text),
                  work_processes=int(work_text),
                  database_url=url, shard_count=shard_count, shard_ids=shard_ids,
                  hard_playouts=int(playouts_text) if playouts_text else None,
                  game_threads=threads_text == "on", backups=read_backups(values),
                  web_port=int(port_text) if port_text else None,
                  web_host=values.get("SANMARCO_WEB_HOST", "").strip() or "127.0.0.1",
                  public_url=public_url,
                  web_secret=web_secret(values.get("SANMARCO_WEB_SECRET", "")),
                  web_proxy_header=proxy_header(values.get("SANMARCO_WEB_PROXY_HEADER", "")),
                  discord_client_id=client_id, discord_client_secret=client_secret)


def sign_in(values: Mapping[str, str]) -> tuple[str | None, str | None]:
    """SANMARCO_DISCORD_CLIENT_ID and _SECRET: both (the application's OAuth2 credentials,
    with SANMARCO_WEB_SECRET to sign the sessions) or neither (no sign-in). Raises
    ConfigError."""
    client = values.get("SANMARCO_DISCORD_CLIENT_ID", "").strip() or None
    secret = values.get("SANMARCO_DISCORD_CLIENT_SECRET", "").strip() or None
    if client is None and secret is None:
        return None, None
    if client is None or secret is None:
        raise ConfigError("Sign in with Discord needs both SANMARCO_DISCORD_CLIENT_ID and "
                          "SANMARCO_DISCORD_CLIENT_SECRET (leave both empty for no sign-in).")
    if not _digits(client) or len(client) > 24:
        raise ConfigError("SANMARCO_DISCORD_CLIENT_ID must be your application's id (digits, "
                          f"the developer portal's OAuth2 page), not {client!r}.")
    if web_secret(values.get("SANMARCO_WEB_SECRET", "")) is None:
        raise ConfigError("Sign in with Discord needs SANMARCO_WEB_SECRET (it signs the "
                          f"sessions). Make one with {MAKE_SECRET}.")
    return client, secret


def proxy_header(text: str) -> str | None:
    """SANMARCO_WEB_PROXY_HEADER: a header's name (None: empty). Raises ConfigError."""
    name = text.strip() or None
    if name is not None and not re.fullmatch(r"[A-Za-z0-9-]{1,64}", name):
        raise ConfigError("SANMARCO_WEB_PROXY_HEADER must be the name of the header your "
                          f"reverse proxy sets, like X-Forwarded-For, not {name!r}.")
    return name


MIN_SECRET_BYTES = 32  # a shorter secret could be found offline from one signed link
MAKE_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'


def web_secret(text: str) -> str | None:
    """SANMARCO_WEB_SECRET as the pages use it (None: empty, no hand links). Raises
    ConfigError for one under 32 bytes: a hand link signed with it could be tried against
    every short secret offline."""
    secret = text.strip() or None
    if secret is not None and len(secret.encode()) < MIN_SECRET_BYTES:
        raise ConfigError(
            f"SANMARCO_WEB_SECRET must be at least {MIN_SECRET_BYTES} bytes long (it is "
            f"{len(secret.encode())}): a short one can be guessed from a single hand link. "
            f"Make one with {MAKE_SECRET}, or leave it empty for no hand links.")
    return secret


MAX_SHARDS = 65536


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1", "0-3", "0-3,8"): the count, and this process's
    shards (None: all of them)."""
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT, the bot's total number of shards.")
        return None, None
    if not _digits(count_text) or not 1 <= int(count_text) <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be a number of shards (1 or more), not "
                          f"{count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.replace(" ", "").split(","):
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        first, last = (int(match[1]), int(match[2] or match[1])) if match else (1, 0)
        if last < first:
            raise ConfigError("SHARD_IDS must list shard numbers like 0,1 or ranges like "
                              f"0-3, not {ids_text!r}.")
        ids += range(first, last + 1)
    if any(i >= count for i in ids) or len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS {ids_text!r} must name different shards below "
                          f"SHARD_COUNT ({count}): 0 to {count - 1}.")
    return count, tuple(ids)
