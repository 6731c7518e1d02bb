"""One store interface, two backends (issue 15).

The service talks to a ``Store``: the calls below, the same on both backends, with the
rows and errors of ``bot.store``. ``SQLiteStore`` (``bot.store``, one file, the embedded
default) and ``PostgresStore`` (``bot.store.postgres``, one database shared by several bot
processes) implement it. ``open_store`` picks one:

    DATABASE_URL=postgresql://…   → PostgresStore
    unset                         → SQLiteStore on SANMARCO_DB (default ./sanmarco.db)

Both keep the same contract: a change of a game and its log rows commit at once, only if
the row is still at the version the caller read (else ``StaleWrite``, nothing written);
schema versions are numbered the same (``SCHEMA_VERSION``); every failure of the database
is a ``StorageError`` with one of the same codes (``store.full``, ``store.read_only``,
``store.io``, ``store.busy``, ``store.corrupt``, ``store.cantopen``, ``store.failed``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from bot.store.sqlite import (
    DEFAULT_BUSY_TIMEOUT,
    DEFAULT_PATH,
    DEFAULT_REMINDER_HOURS,
    MIGRATIONS,
    SCHEMA_VERSION,
    ActiveGameExists,
    DueGame,
    GameRow,
    HistoryRow,
    LogRow,
    NotifyPref,
    OutboxEntry,
    OutboxRow,
    PastGame,
    PlaceRow,
    PostedLink,
    Rater,
    RatingRow,
    RowChanges,
    SchemaTooNew,
    Seat,
    Settings,
    Shards,
    SQLiteStore,
    StaleWrite,
    StorageError,
    StoreError,
    TooManyLobbies,
)

__all__ = [
    "DEFAULT_BUSY_TIMEOUT", "DEFAULT_PATH", "DEFAULT_REMINDER_HOURS", "MIGRATIONS",
    "POSTGRES_SCHEMES", "SCHEMA_VERSION", "ActiveGameExists", "DueGame", "GameRow",
    "HistoryRow", "LogRow", "NotifyPref", "OutboxEntry", "OutboxRow", "PastGame", "PlaceRow",
    "PostedLink", "Rater", "RatingRow", "RowChanges",
    "SQLiteStore", "SchemaTooNew", "Seat", "Settings", "Shards", "StaleWrite", "StorageError",
    "Store", "StoreError", "TooManyLobbies", "describe_target", "is_postgres", "open_store",
    "store_target",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Store(Protocol):
    """What the service asks of a store (``SQLiteStore``, ``PostgresStore``)."""

    @property
    def busy_timeout(self) -> float:
        """Seconds a call may wait for its turn or a lock before StorageError store.busy."""
        ...

    @property
    def path(self) -> str:
        """Where the data is, for logs and messages (a file, or a URL without password)."""
        ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    async def integrity_check(self) -> str:
        """'ok', or the problems found."""
        ...

    # -- games
    async def game(self, game_id: int) -> GameRow | None: ...

    async def active_game(self, channel_id: int) -> GameRow | None: ...

    async def latest_game(self, channel_id: int) -> GameRow | None: ...

    async def create_game(self, guild_id: int, channel_id: int, creator: Seat, seats: int,
                          now: float, *, max_open_lobbies: int | None = None,
                          post: Callable[[int], OutboxEntry] | None = None) -> GameRow: ...

    async def delete_unstarted(self, created_before: float, *,
                               shards: Shards | None = None) -> int: ...

    async def commit(self, game_id: int, expected_version: int,
                     fields: RowChanges | None = None, actions: Sequence[LogRow] = (),
                     history: HistoryRow | None = None,
                     posts: Sequence[OutboxEntry] = ()) -> int: ...

    async def actions(self, game_id: int) -> list[LogRow]: ...

    # -- reminders
    async def due_games(self, now: float, *, after: tuple[float, int] | None = None,
                        limit: int = -1, shards: Shards | None = None) -> list[DueGame]: ...

    async def mark_reminded(self, game_id: int, version: int, now: float,
                            posts: Sequence[OutboxEntry] = ()) -> bool: ...

    # -- settings and history
    async def settings(self, channel_id: int) -> Settings: ...

    async def set_settings(self, settings: Settings,
                           posts: Sequence[OutboxEntry] = ()) -> None: ...

    async def history(self, guild_id: int, limit: int = 100) -> list[HistoryRow]: ...

    # -- a server's memory
    async def set_final_post(self, game_id: int, message_id: int, url: str,
                             now: float) -> None: ...

    async def past_games(self, guild_id: int, limit: int = 10, *,
                         game_id: int | None = None) -> list[PastGame]: ...

    async def ratings(self, guild_id: int) -> list[RatingRow]: ...

    async def update_ratings(self, guild_id: int, rate: Rater, *,
                             rebuild: bool = False) -> int: ...

    # -- games that keep moving (issue 12)
    async def due_timer_games(self, now: float, *, after: tuple[float, int] | None = None,
                              limit: int = -1, shards: Shards | None = None
                              ) -> list[DueGame]: ...

    async def defer_timers(self, moves: Sequence[tuple[int, int, float]]) -> int: ...

    async def take_back(self, game_id: int, expected_version: int, seq: int,
                        fields: RowChanges, posts: Sequence[OutboxEntry] = ()) -> int: ...

    async def notify_prefs(self, guild_id: int, pids: Iterable[str]
                           ) -> dict[str, NotifyPref]: ...

    async def set_notify_mode(self, guild_id: int, pid: str, mode: str) -> None: ...

    async def dm_refused(self, guild_id: int, pid: str, now: float) -> bool: ...

    async def hint_pending(self, guild_id: int, pid: str) -> bool: ...

    async def take_hint(self, guild_id: int, pid: str) -> bool: ...

    async def set_latest_post(self, game_id: int, message_id: int, url: str,
                              now: float) -> None: ...

    async def latest_post(self, game_id: int) -> str | None: ...

    async def player_games(self, guild_id: int, pid: str, limit: int = 25
                           ) -> list[tuple[GameRow, str | None, bool]]: ...

    async def suspended_games(self, guild_id: int, limit: int = 25) -> list[GameRow]: ...

    # -- the outbox and the places Discord refuses
    async def pending_posts(self, channel_id: int, limit: int = 100) -> list[OutboxRow]: ...

    async def outbox_channels(self, *, shards: Shards | None = None) -> list[int]: ...

    async def posts_sent(self, ids: Sequence[int], link: PostedLink | None,
                         now: float) -> None: ...

    async def post_failed(self, ids: Sequence[int], batch: int | None) -> None: ...

    async def latest_message(self, game_id: int) -> PostedLink | None: ...

    async def place(self, channel_id: int) -> PlaceRow | None: ...

    async def set_place(self, place: PlaceRow) -> None: ...

    async def clear_place(self, channel_id: int) -> bool: ...


def is_postgres(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL database (else it is an SQLite file)."""
    return target.startswith(POSTGRES_SCHEMES)


def store_target(target: str | os.PathLike[str] | None = None,
                 environ: Mapping[str, str] | None = None) -> str:
    """The database to use: ``target`` if given, else $DATABASE_URL, else $SANMARCO_DB, else
    ./sanmarco.db (empty settings count as unset)."""
    if target is not None:
        return str(target)
    env = os.environ if environ is None else environ
    return (env.get("DATABASE_URL", "").strip() or env.get("SANMARCO_DB", "").strip()
            or DEFAULT_PATH)


def describe_target(target: str) -> str:
    """The database for a person: the PostgreSQL URL without its password, or the file's
    absolute path."""
    if is_postgres(target):
        from bot.store.postgres import redact

        return redact(target)
    return os.path.abspath(target)


async def open_store(target: str | os.PathLike[str] | None = None, *,
                     busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Store:
    """Open (creating or upgrading) the store at ``target`` (``store_target``'s choice):
    a ``postgresql://`` URL opens a PostgresStore, anything else an SQLite file. Raises
    StorageError, SchemaTooNew."""
    where = store_target(target)
    if is_postgres(where):
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(where, busy_timeout=busy_timeout)
    return await SQLiteStore.open(where, busy_timeout=busy_timeout)
