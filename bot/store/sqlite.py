"""The SQLite store: one row per channel game, an append-only action log, settings, history.

Why it looks like this (DESIGN.md "Storage"):

- A state change and its log rows commit in ONE transaction (``Store.commit``), before the
  bot posts anything; a write carrying a stale row version is refused (``StaleWrite``), so
  two clicks at the same moment cannot both apply.
- Schema changes are numbered migrations under ``PRAGMA user_version``; opening an old
  file upgrades it in place. Migration 1 is the first schema and never changes.
- One writer connection (an ``asyncio.Lock`` gives one transaction at a time its turn) and
  a few reader connections: in WAL mode reads never wait for a write, so a write held up
  by another process's lock delays no read; no call waits longer than the busy timeout.

The store knows nothing about the rules: the engine state is opaque JSON text here.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

import aiosqlite

DEFAULT_PATH = "sanmarco.db"
DEFAULT_REMINDER_HOURS = 12.0


class StoreError(Exception):
    """Something the store refuses; ``code`` is stable (the service maps it)."""

    code = "store.error"


class StaleWrite(StoreError):
    """The row changed since it was read: the write was not made."""

    code = "state.stale"


class ActiveGameExists(StoreError):
    """The channel already has a lobby or a running game."""

    code = "game.exists"


class SchemaTooNew(StoreError):
    """The file was written by a newer bot (``schema`` > SCHEMA_VERSION); it was not
    changed."""

    code = "store.schema_newer"

    def __init__(self, schema: int) -> None:
        self.schema = schema
        super().__init__(f"schema {schema}, newer than this bot's {SCHEMA_VERSION}")


class TooManyLobbies(StoreError):
    """The creator already has the most open lobbies allowed in the guild: ``channels``."""

    code = "lobby.too_many"

    def __init__(self, channels: Sequence[int]) -> None:
        self.channels = tuple(channels)
        super().__init__(f"{len(self.channels)} open lobbies")


class StorageError(StoreError):
    """The database could not be read or written; nothing was written. ``code`` names the
    cause (``store.full``, ``store.read_only``, ``store.io``, ``store.busy``,
    ``store.corrupt``, ``store.cantopen``, else ``store.failed``), the same for SQLite and
    PostgreSQL (``bot.store.postgres.storage_error``); the text is the database's own words, for
    the log."""

    code = "store.failed"

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        super().__init__(detail)


# SQLite's primary result codes (extended ones such as SQLITE_IOERR_WRITE share them) and
# its messages, for errors raised without a code.
_CAUSES: dict[str, str] = {
    "SQLITE_FULL": "store.full", "SQLITE_READONLY": "store.read_only",
    "SQLITE_IOERR": "store.io", "SQLITE_BUSY": "store.busy", "SQLITE_LOCKED": "store.busy",
    "SQLITE_CORRUPT": "store.corrupt", "SQLITE_NOTADB": "store.corrupt",
    "SQLITE_CANTOPEN": "store.cantopen",
}
_CAUSE_WORDS: tuple[tuple[str, str], ...] = (
    ("disk is full", "store.full"), ("readonly", "store.read_only"),
    ("read-only", "store.read_only"), ("i/o error", "store.io"), ("locked", "store.busy"),
    ("malformed", "store.corrupt"), ("not a database", "store.corrupt"),
    ("unable to open", "store.cantopen"),
)


def storage_error(exc: sqlite3.Error) -> StorageError:
    """The StorageError for what SQLite raised, with the cause as its code."""
    name = str(getattr(exc, "sqlite_errorname", None) or "")
    code = _CAUSES.get("_".join(name.split("_")[:2]))
    if code is None:
        words = str(exc).lower()
        code = next((c for w, c in _CAUSE_WORDS if w in words), "store.failed")
    return StorageError(code, f"{exc} ({name})" if name else str(exc))


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back what is still open. After a full disk, an I/O error or a read-only file
    SQLite has often rolled back already; a second ROLLBACK would fail with "no transaction
    is active" and hide the real cause, which the caller must see."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the connection is closed or broken: the original error says why


class RowChanges(TypedDict, total=False):
    """The columns of a game row that ``Store.commit`` may write, with their types."""

    status: str
    players: tuple[Seat, ...]
    seed: int
    state: str
    last_action_at: float
    awaited_since: float | None
    last_reminded_at: float | None
    ended_at: float | None
    seats: int
    creator: str


# ---------------------------------------------------------------------------- migrations
def _m1(db: sqlite3.Connection) -> None:
    """The first schema (kept verbatim: old files are upgraded from it)."""
    db.execute("""
        CREATE TABLE games (
            id             INTEGER PRIMARY KEY,
            guild_id       INTEGER NOT NULL,
            channel_id     INTEGER NOT NULL,
            status         TEXT NOT NULL
                           CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
            creator        TEXT NOT NULL,
            seats          INTEGER NOT NULL CHECK (seats IN (3, 4)),
            players        TEXT NOT NULL DEFAULT '[]',
            seed           INTEGER,
            state          TEXT,
            version        INTEGER NOT NULL DEFAULT 0,
            created_at     REAL NOT NULL,
            last_action_at REAL NOT NULL,
            awaited_since  REAL
        )""")
    # One lobby or running game per channel; ended games stay beside it, readable.
    db.execute("CREATE UNIQUE INDEX games_active_channel ON games(channel_id) "
               "WHERE status IN ('lobby', 'running')")
    db.execute("CREATE INDEX games_channel ON games(channel_id, id)")
    db.execute("""
        CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq     INTEGER NOT NULL,
            pid     TEXT NOT NULL,
            action  TEXT NOT NULL,
            at      REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""")
    db.execute("""
        CREATE TABLE channel_settings (
            channel_id     INTEGER PRIMARY KEY,
            reminder_hours REAL NOT NULL DEFAULT 12,
            quiet_start    INTEGER,
            quiet_end      INTEGER,
            language       TEXT NOT NULL DEFAULT 'en'
        )""")


def _m2(db: sqlite3.Connection) -> None:
    """Reminders (last_reminded_at, time zone for quiet hours), ended_at, guild history."""
    db.execute("ALTER TABLE games ADD COLUMN last_reminded_at REAL")
    db.execute("ALTER TABLE games ADD COLUMN ended_at REAL")
    db.execute("ALTER TABLE channel_settings ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC'")
    db.execute("CREATE INDEX games_awaited ON games(status, awaited_since)")
    db.execute("""
        CREATE TABLE history (
            game_id     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            guild_id    INTEGER NOT NULL,
            channel_id  INTEGER NOT NULL,
            finished_at REAL NOT NULL,
            players     TEXT NOT NULL,
            winners     TEXT NOT NULL,
            scores      TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX history_guild ON history(guild_id, finished_at)")
    # Games finished under schema 1 get their history row now, from their stored state.
    rows = db.execute("SELECT id, guild_id, channel_id, last_action_at, state FROM games "
                      "WHERE status = 'finished'").fetchall()
    for game_id, guild_id, channel_id, at, state_text in rows:
        players, winners, scores = _standings_from_state(state_text)
        db.execute("UPDATE games SET ended_at = ? WHERE id = ?", (at, game_id))
        db.execute("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (game_id, guild_id, channel_id, at, json.dumps(players),
                    json.dumps(winners), json.dumps(scores)))


def _standings_from_state(state_text: str | None) -> tuple[list[str], list[str], dict[str, int]]:
    """Players, winners and prestige read from engine JSON without importing the engine."""
    try:
        state = json.loads(state_text or "{}")
        players = [str(p) for p in state.get("players", [])]
        prestige = state.get("prestige", [])
        scores = {p: int(v) for p, v in zip(players, prestige, strict=False)}
        winners = [str(w) for w in state.get("winners", [])]
    except (ValueError, TypeError, AttributeError):
        return [], [], {}
    return players, winners, scores


def _m3(db: sqlite3.Connection) -> None:
    """A server's memory (issue 13): the final post of each finished game (its link), the
    players' skill ratings per guild, and which finished games the ratings include (so
    ratings are kept up incrementally and can be rebuilt from ``history`` at any time)."""
    db.execute("""
        CREATE TABLE final_posts (
            game_id    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            message_id INTEGER NOT NULL,
            url        TEXT NOT NULL,
            posted_at  REAL NOT NULL
        )""")
    db.execute("""
        CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            player   TEXT NOT NULL,
            mu       REAL NOT NULL,
            sigma    REAL NOT NULL,
            games    INTEGER NOT NULL,
            PRIMARY KEY (guild_id, player)
        ) WITHOUT ROWID""")
    db.execute("""
        CREATE TABLE rated_games (
            game_id  INTEGER PRIMARY KEY REFERENCES history(game_id) ON DELETE CASCADE,
            guild_id INTEGER NOT NULL
        )""")


# When a running game's next reminder is due, from its own row and its channel's interval
# (12 hours unless set). The triggers below keep ``games.remind_at`` equal to it.
_REMIND_AT = """CASE WHEN {g}.status = 'running' AND {g}.awaited_since IS NOT NULL
    THEN max({g}.awaited_since, coalesce({g}.last_reminded_at, 0)) + 3600 * coalesce(
        (SELECT reminder_hours FROM channel_settings WHERE channel_id = {g}.channel_id), 12)
    END"""


def _m4(db: sqlite3.Connection) -> None:
    """Issue 11: the due time of each running game's next reminder, kept by triggers and
    indexed, so the reminder pass reads only the games that are due; indexes to count a
    user's open lobbies in a guild and to find lobbies that never started."""
    db.execute("CREATE INDEX games_open_lobbies ON games(guild_id, creator) "
               "WHERE status = 'lobby'")
    db.execute("CREATE INDEX games_unstarted ON games(created_at) WHERE seed IS NULL")
    db.execute("ALTER TABLE games ADD COLUMN remind_at REAL")
    db.execute(f"UPDATE games SET remind_at = {_REMIND_AT.format(g='games')}")
    db.execute("CREATE INDEX games_remind_at ON games(status, remind_at)")
    for name, event in (("games_remind_at_insert", "INSERT"), (
            "games_remind_at", "UPDATE OF status, awaited_since, last_reminded_at")):
        db.execute(f"""
            CREATE TRIGGER {name} AFTER {event} ON games
            BEGIN
                UPDATE games SET remind_at = {_REMIND_AT.format(g='NEW')} WHERE id = NEW.id;
            END""")
    for event in ("INSERT", "UPDATE OF reminder_hours"):
        name = "settings_remind_at_" + event.split()[0].lower()
        db.execute(f"""
            CREATE TRIGGER {name} AFTER {event} ON channel_settings
            BEGIN
                UPDATE games SET remind_at = {_REMIND_AT.format(g='games')}
                WHERE channel_id = NEW.channel_id AND status = 'running';
            END""")


# (issue 12) The due time of a reminder, now that an interval of 0 turns reminders off.
_REMIND_AT_5 = """CASE WHEN {g}.status = 'running' AND {g}.awaited_since IS NOT NULL
    AND coalesce((SELECT reminder_hours FROM channel_settings
                  WHERE channel_id = {g}.channel_id), 12) > 0
    THEN max({g}.awaited_since, coalesce({g}.last_reminded_at, 0)) + 3600 * coalesce(
        (SELECT reminder_hours FROM channel_settings WHERE channel_id = {g}.channel_id), 12)
    END"""

# The earliest moment a running game's turn timer can run out: the decision's start plus the
# channel's timer (quiet hours only ever make it later; the timer pass moves ``timer_at`` on
# to the exact moment when they do). NULL when the channel has no timer.
_TIMER_AT = """CASE WHEN {g}.status = 'running' AND {g}.awaited_since IS NOT NULL
    AND coalesce((SELECT turn_timer_hours FROM channel_settings
                  WHERE channel_id = {g}.channel_id), 0) > 0
    THEN {g}.awaited_since + 3600 * (SELECT turn_timer_hours FROM channel_settings
                                     WHERE channel_id = {g}.channel_id)
    END"""


def _m5(db: sqlite3.Connection) -> None:
    """Issue 12: games that keep moving over days. A channel's turn timer and the level of
    the computer that moves for absent players; each running game's earliest timer moment
    (``games.timer_at``, kept by triggers like ``remind_at``, indexed for the timer pass);
    how many moves a game has had taken back (``games.undos``: prompts of a taken-back
    branch stay outdated); a reminder interval of 0 turns reminders off; how each player
    hears it is their turn, per server; each game's latest post (the link in a DM and in
    ``/sanmarco-server games``); the active games of a guild, indexed."""
    db.execute("ALTER TABLE channel_settings ADD COLUMN turn_timer_hours REAL NOT NULL "
               "DEFAULT 0")
    db.execute("ALTER TABLE channel_settings ADD COLUMN computer_level TEXT NOT NULL "
               "DEFAULT 'normal'")
    db.execute("ALTER TABLE games ADD COLUMN timer_at REAL")
    db.execute("ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX games_timer_at ON games(status, timer_at)")
    db.execute("CREATE INDEX games_active_guild ON games(guild_id, id) "
               "WHERE status IN ('lobby', 'running')")
    for name in ("games_remind_at_insert", "games_remind_at", "settings_remind_at_insert",
                 "settings_remind_at_update"):
        db.execute(f"DROP TRIGGER {name}")
    for column, formula, events, settings_events in (
            ("remind_at", _REMIND_AT_5,
             (("games_remind_at_insert", "INSERT"),
              ("games_remind_at", "UPDATE OF status, awaited_since, last_reminded_at")),
             (("settings_remind_at_insert", "INSERT"),
              ("settings_remind_at_update", "UPDATE OF reminder_hours"))),
            ("timer_at", _TIMER_AT,
             (("games_timer_at_insert", "INSERT"),
              ("games_timer_at", "UPDATE OF status, awaited_since")),
             (("settings_timer_at_insert", "INSERT"),
              ("settings_timer_at_update",
               "UPDATE OF turn_timer_hours, quiet_start, quiet_end, timezone")))):
        db.execute(f"UPDATE games SET {column} = {formula.format(g='games')}")
        for name, event in events:
            db.execute(f"""
                CREATE TRIGGER {name} AFTER {event} ON games
                BEGIN
                    UPDATE games SET {column} = {formula.format(g='NEW')} WHERE id = NEW.id;
                END""")
        for name, event in settings_events:
            db.execute(f"""
                CREATE TRIGGER {name} AFTER {event} ON channel_settings
                BEGIN
                    UPDATE games SET {column} = {formula.format(g='games')}
                    WHERE channel_id = NEW.channel_id AND status = 'running';
                END""")
    db.execute("""
        CREATE TABLE notify_prefs (
            guild_id      INTEGER NOT NULL,
            pid           TEXT NOT NULL,
            mode          TEXT NOT NULL CHECK (mode IN ('mention', 'dm', 'both', 'none')),
            dm_refused_at REAL,
            hint_pending  INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, pid)
        ) WITHOUT ROWID""")
    db.execute("""
        CREATE TABLE latest_posts (
            game_id    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            message_id INTEGER NOT NULL,
            url        TEXT NOT NULL,
            posted_at  REAL NOT NULL
        )""")


def _m6(db: sqlite3.Connection) -> None:
    """Issue 14: a channel's ``language`` may be unset (NULL): its posts then follow the
    server's preferred locale. Until now nobody could choose it, so every 'en' stored is
    the old default and becomes unset. PostgreSQL alters the column in place (store_pg's
    ``_M6``: DROP NOT NULL, DROP DEFAULT, the UPDATE); SQLite has no ALTER COLUMN, so the
    column is copied into a new one, and DROP COLUMN needs SQLite 3.35 (2021) or newer."""
    if sqlite3.sqlite_version_info < (3, 35):
        raise StorageError("store.failed", f"SQLite {sqlite3.sqlite_version} is too old to "
                           "upgrade the game file: this bot needs SQLite 3.35 or newer")
    db.execute("ALTER TABLE channel_settings ADD COLUMN language_choice TEXT")
    db.execute("UPDATE channel_settings SET language_choice = NULLIF(language, 'en')")
    db.execute("ALTER TABLE channel_settings DROP COLUMN language")
    db.execute("ALTER TABLE channel_settings RENAME COLUMN language_choice TO language")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_m1, _m2, _m3, _m4, _m5, _m6)
SCHEMA_VERSION = len(MIGRATIONS)


# ---------------------------------------------------------------------------- rows
@dataclass(frozen=True)
class Seat:
    """A seated player: pid (Discord id as text, or a computer's id), display name.

    ``computer`` is True for a computer player, and for a human whose seat a computer has
    taken over (the pid stays, so the log still replays); ``votes`` are the pids that voted
    to hand this seat to a computer. ``timeouts``: the human's decisions in a row that the
    turn timer made for them (issue 12); ``level``: the level the computer plays a taken-over
    seat at (None: normal).
    """

    pid: str
    name: str | None = None
    computer: bool = False
    votes: tuple[str, ...] = ()
    timeouts: int = 0
    level: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"pid": self.pid, "name": self.name, "computer": self.computer}
        if self.votes:
            d["votes"] = list(self.votes)
        if self.timeouts:
            d["timeouts"] = self.timeouts
        if self.level is not None:
            d["level"] = self.level
        return d


@dataclass(frozen=True)
class GameRow:
    """One channel game as stored. ``version`` is the row revision (+1 per write)."""

    id: int
    guild_id: int
    channel_id: int
    status: str
    creator: str
    seats: int
    players: tuple[Seat, ...]
    seed: int | None
    state: str | None
    version: int
    created_at: float
    last_action_at: float
    awaited_since: float | None
    last_reminded_at: float | None
    ended_at: float | None
    undos: int = 0  # moves taken back in this game (issue 12)

    def seat(self, pid: str) -> Seat | None:
        return next((s for s in self.players if s.pid == pid), None)


@dataclass(frozen=True)
class LogRow:
    """One applied action: ``seq`` counts from 1 within the game."""

    seq: int
    pid: str
    action: str
    at: float


@dataclass(frozen=True)
class Settings:
    """Per-channel settings; quiet hours are whole hours [start, end) in ``timezone``.
    ``reminder_hours`` 0 turns reminders off; ``turn_timer_hours`` 0 (the default) turns
    the turn timer off; ``computer_level`` plays for absent players (issue 12);
    ``language`` (``en``, ``de``, ``fr``) None: the channel follows its server's (issue
    14)."""

    channel_id: int
    reminder_hours: float = DEFAULT_REMINDER_HOURS
    quiet_start: int | None = None
    quiet_end: int | None = None
    language: str | None = None
    timezone: str = "UTC"
    turn_timer_hours: float = 0.0
    computer_level: str = "normal"


@dataclass(frozen=True)
class DueGame:
    """A running game whose reminder is due (``at``: since when), with its channel's
    settings."""

    game: GameRow
    settings: Settings
    at: float

    @property
    def after(self) -> tuple[float, int]:
        """Where the next page of due games starts."""
        return self.at, self.game.id


@dataclass(frozen=True)
class Shards:
    """The Discord gateway shards one bot process holds (issue 15): a guild lives on shard
    ``(guild_id >> 22) % count`` (Discord's rule), so a periodic pass given its process's
    ``Shards`` touches the games of that process's guilds only, and two processes never
    handle one game's reminder."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} of {self.count}")

    def holds(self, guild_id: int) -> bool:
        """Whether the guild is on one of these shards."""
        return (guild_id >> 22) % self.count in self.ids


def _shard_filter(column: str, shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """`` AND`` clause (and its parameters) keeping the rows of ``shards``' guilds."""
    if shards is None:
        return "", ()
    marks = ", ".join("?" for _ in shards.ids)
    return f" AND (({column} >> 22) % ?) IN ({marks})", (shards.count, *shards.ids)


@dataclass(frozen=True)
class HistoryRow:
    """A finished game, for a guild's stats."""

    game_id: int
    guild_id: int
    channel_id: int
    finished_at: float
    players: tuple[str, ...]
    winners: tuple[str, ...]
    scores: Mapping[str, int]


_GAME_COLS = ("id, guild_id, channel_id, status, creator, seats, players, seed, state, "
              "version, created_at, last_action_at, awaited_since, last_reminded_at, ended_at, "
              "undos")
_N_GAME_COLS = len(_GAME_COLS.split(","))
_G_GAME_COLS = ", ".join("g." + c.strip() for c in _GAME_COLS.split(","))  # games g joined
_WRITABLE = frozenset({"status", "players", "seed", "state", "last_action_at",
                       "awaited_since", "last_reminded_at", "ended_at", "seats", "creator"})


def _row_values(fields: RowChanges | None) -> dict[str, object]:
    """The columns a write of ``fields`` sets, as the database stores them (seats as JSON);
    raises ValueError for a column no caller may write (ids, versions, timer moments)."""
    values: dict[str, object] = dict(fields or {})
    bad = set(values) - _WRITABLE
    if bad:
        raise ValueError(f"not writable: {sorted(bad)}")
    if fields is not None and "players" in fields:
        values["players"] = _seats_json(fields["players"])
    return values


async def _connect(path: str) -> aiosqlite.Connection:
    """An aiosqlite connection; raises StorageError. A connection that fails to open is
    let finish its thread while the event loop still runs (else that thread reports to a
    closed loop, with a traceback, when the program ends right after the failure)."""
    pending = aiosqlite.connect(path, isolation_level=None)
    try:
        return await pending
    except sqlite3.Error as exc:
        await asyncio.to_thread(pending._thread.join, 5)
        raise storage_error(exc) from exc


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _can_write(conn: sqlite3.Connection) -> None:
    """Take the write lock and let it go: the file, its folder and its lock are usable."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("ROLLBACK")


def _seats_json(players: Iterable[Seat]) -> str:
    return json.dumps([s.to_dict() for s in players], separators=(",", ":"))


def _game(row: Sequence[Any]) -> GameRow:
    seats = tuple(Seat(str(d["pid"]), d.get("name"), bool(d.get("computer", False)),
                       tuple(str(v) for v in d.get("votes", ())), int(d.get("timeouts", 0)),
                       d.get("level"))
                  for d in json.loads(row[6]))
    return GameRow(row[0], row[1], row[2], row[3], row[4], row[5], seats, row[7], row[8],
                   row[9], row[10], row[11], row[12], row[13], row[14],
                   row[15] if len(row) > 15 else 0)


# ---------------------------------------------------------------------------- the store
DEFAULT_BUSY_TIMEOUT = 3.0  # seconds a call may wait for the file (another process's lock)
DEFAULT_READERS = 2


class SQLiteStore:
    """Async access to one SQLite file (a ``bot.store.Store``). Open with
    ``await SQLiteStore.open(path)``.

    One writer connection (its own thread) takes every write, one at a time; a small pool
    of reader connections (each its own thread) takes the reads. In WAL mode a read never
    waits for a write, so a write waiting on the file — another process holding a write
    transaction, say — delays no read, whichever channel it is for. No write waits longer
    than ``busy_timeout`` seconds for the file and its turn together: then it raises
    StorageError ``store.busy`` and has written nothing.
    """

    def __init__(self, db: aiosqlite.Connection, path: str, *,
                 busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self._db = db  # the writer
        self.path = path
        self.busy_timeout = busy_timeout
        self._lock = asyncio.Lock()  # the writer's turn
        self._readers: list[aiosqlite.Connection] = []
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None, *,
                   synchronous: str = "FULL", busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
                   readers: int = DEFAULT_READERS) -> SQLiteStore:
        """Open (creating or upgrading) the file at ``path``, else $SANMARCO_DB, else
        ./sanmarco.db. ``synchronous=FULL`` keeps a commit through a power cut, since the bot
        posts right after it; NORMAL is enough against process crashes. ``busy_timeout``:
        how long a call may wait for the file; ``readers``: reader connections (≥ 1)."""
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        if not busy_timeout > 0 or readers < 1:
            raise ValueError("busy_timeout must be positive and readers at least 1")
        target = str(path if path is not None else os.environ.get("SANMARCO_DB")
                     or DEFAULT_PATH)
        db = await _connect(target)
        store = cls(db, target, busy_timeout=busy_timeout)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            # Read before anything is written: a file that is not a database, or one of a
            # newer bot, is refused exactly as it was found (not even switched to WAL).
            await store._check_schema()
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await db.execute("PRAGMA foreign_keys = ON")
            await store._migrate()
            await store._run(_can_write)
            for _ in range(readers):
                await store._open_reader()
        except sqlite3.Error as exc:
            await store.close()
            raise storage_error(exc) from exc
        except BaseException:
            await store.close()
            raise
        return store

    async def _open_reader(self) -> None:
        reader = await _connect(self.path)
        self._readers.append(reader)
        await reader.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        await reader.execute("PRAGMA foreign_keys = ON")
        await reader.execute("PRAGMA query_only = ON")
        self._idle.put_nowait(reader)

    async def close(self) -> None:
        async with self._lock:
            for reader in self._readers:
                await reader.close()
            self._readers.clear()
            await self._db.close()

    async def __aenter__(self) -> SQLiteStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- plumbing
    async def _check_schema(self) -> None:
        current = await self._run(_user_version)
        if current > SCHEMA_VERSION:
            raise SchemaTooNew(current)

    async def _migrate(self) -> None:
        await self._check_schema()
        current = await self._run(_user_version)
        for number in range(current + 1, SCHEMA_VERSION + 1):
            migration = MIGRATIONS[number - 1]

            def run(conn: sqlite3.Connection, m: Any = migration, n: int = number) -> None:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    m(conn)
                    conn.execute(f"PRAGMA user_version = {n}")
                    conn.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise

            await self._run(run)

    def _busy(self, what: str) -> StorageError:
        return StorageError("store.busy", f"{what} waited {self.busy_timeout:g} s for {self.path}")

    async def _run(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn`` on the writer's raw connection in its thread (a whole transaction at
        once, so a cancelled coroutine can never leave it half done). The wait for the
        writer's turn and SQLite's wait for the file share one busy timeout, counted from
        the call: each write ends by its own deadline, however many queue before it.
        Raises StorageError for anything SQLite raises."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_timeout
        async with self._lock:
            left_ms = int((deadline - loop.time()) * 1000)
            if left_ms <= 0:  # the writes queued before this one used its time
                raise self._busy("a write")

            def timed(conn: sqlite3.Connection) -> Any:
                conn.execute(f"PRAGMA busy_timeout = {left_ms}")
                return fn(conn)

            execute: Callable[..., Awaitable[Any]] = self._db._execute  # aiosqlite: untyped
            try:
                return await execute(timed, self._db._conn)
            except sqlite3.Error as exc:
                raise storage_error(exc) from exc

    async def _read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn`` on an idle reader's raw connection in that reader's thread (reads only:
        the reader is query_only)."""
        reader = await self._idle.get()
        try:
            execute: Callable[..., Awaitable[Any]] = reader._execute  # aiosqlite: untyped
            return await execute(fn, reader._conn)
        except sqlite3.Error as exc:
            raise storage_error(exc) from exc
        finally:
            self._idle.put_nowait(reader)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of one query, on an idle reader connection (never the writer)."""
        reader = await self._idle.get()
        try:
            async with reader.execute(sql, params) as cur:
                return list(await cur.fetchall())
        except sqlite3.Error as exc:
            raise storage_error(exc) from exc
        finally:
            self._idle.put_nowait(reader)

    async def schema_version(self) -> int:
        return int(await self._run(_user_version))

    async def integrity_check(self) -> str:
        """'ok' or SQLite's list of problems."""
        rows = await self._all("PRAGMA integrity_check")
        return "\n".join(str(r[0]) for r in rows)

    # -- games
    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._all(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running game."""
        rows = await self._all(f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? "
                               "AND status IN ('lobby', 'running')", (channel_id,))
        return _game(rows[0]) if rows else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The active game, else the channel's most recent ended one (still readable)."""
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? "
            "ORDER BY status IN ('lobby', 'running') DESC, id DESC LIMIT 1", (channel_id,))
        return _game(rows[0]) if rows else None

    async def create_game(self, guild_id: int, channel_id: int, creator: Seat, seats: int,
                          now: float, *, max_open_lobbies: int | None = None) -> GameRow:
        """A new lobby with its creator seated. Raises ActiveGameExists, and with
        ``max_open_lobbies`` TooManyLobbies when the creator already has that many open
        lobbies in the guild (counted and created in one transaction)."""
        def run(conn: sqlite3.Connection) -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if max_open_lobbies is not None:
                    open_here = [r[0] for r in conn.execute(
                        "SELECT channel_id FROM games WHERE guild_id = ? AND creator = ? "
                        "AND status = 'lobby' ORDER BY id", (guild_id, creator.pid))]
                    if len(open_here) >= max_open_lobbies:
                        raise TooManyLobbies(open_here)
                try:
                    cur = conn.execute(
                        "INSERT INTO games (guild_id, channel_id, status, creator, seats, "
                        "players, version, created_at, last_action_at) "
                        "VALUES (?, ?, 'lobby', ?, ?, ?, 0, ?, ?)",
                        (guild_id, channel_id, creator.pid, seats, _seats_json([creator]), now,
                         now))
                except sqlite3.IntegrityError as exc:
                    if "UNIQUE" in str(exc):
                        raise ActiveGameExists("This channel already has a game.") from None
                    raise
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
            return int(cur.lastrowid or 0)

        game_id = await self._run(run)
        row = await self.game(game_id)
        assert row is not None
        return row

    async def delete_unstarted(self, created_before: float, *,
                               shards: Shards | None = None) -> int:
        """Delete the lobbies (open or closed) that never started and were opened at or
        before ``created_before`` (in the guilds of ``shards`` only, when given); returns how
        many. Started games, ended or not, stay."""
        where, extra = _shard_filter("guild_id", shards)

        def run(conn: sqlite3.Connection) -> int:
            cur = conn.execute("DELETE FROM games WHERE seed IS NULL AND status IN "
                               f"('lobby', 'abandoned') AND created_at <= ?{where}",
                               (created_before, *extra))
            return int(cur.rowcount)

        deleted: int = await self._run(run)
        return deleted

    async def commit(self, game_id: int, expected_version: int,
                     fields: RowChanges | None = None,
                     actions: Sequence[LogRow] = (),
                     history: HistoryRow | None = None) -> int:
        """Write ``fields`` of a game, append its log rows and its history row, all in one
        transaction, only if the row is still at ``expected_version``. Returns the new
        version. Raises StaleWrite (nothing written)."""
        values = _row_values(fields)
        sets = "".join(f", {k} = ?" for k in values)
        sql = f"UPDATE games SET version = version + 1{sets} WHERE id = ? AND version = ?"
        params = (*values.values(), game_id, expected_version)

        def run(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if conn.execute(sql, params).rowcount != 1:
                    raise StaleWrite("The game changed meanwhile; nothing was written.")
                if actions:
                    conn.executemany(
                        "INSERT INTO actions (game_id, seq, pid, action, at) "
                        "VALUES (?, ?, ?, ?, ?)",
                        [(game_id, a.seq, a.pid, a.action, a.at) for a in actions])
                if history is not None:
                    conn.execute(
                        "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (game_id, history.guild_id, history.channel_id, history.finished_at,
                         json.dumps(list(history.players)), json.dumps(list(history.winners)),
                         json.dumps(dict(history.scores))))
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise

        await self._run(run)
        return expected_version + 1

    async def actions(self, game_id: int) -> list[LogRow]:
        rows = await self._all("SELECT seq, pid, action, at FROM actions WHERE game_id = ? "
                               "ORDER BY seq", (game_id,))
        return [LogRow(*r) for r in rows]

    async def due_games(self, now: float, *, after: tuple[float, int] | None = None,
                        limit: int = -1, shards: Shards | None = None) -> list[DueGame]:
        """Running games whose next reminder is due at ``now`` (their interval has passed
        since the decision started or the last reminder), with their channel's settings,
        oldest first (by ``remind_at``, then id); with ``after``, those after that
        (remind_at, id), at most ``limit``; with ``shards``, only those in the guilds of
        those Discord shards. An indexed read of the due games only; the rows are made in
        the reader's thread, so the event loop never handles the others. The next page
        starts ``after`` the last one's ``DueGame.after``."""
        result: list[DueGame] = await self._read(
            _due_reader("remind_at", now, after, limit, shards))
        return result

    async def mark_reminded(self, game_id: int, version: int, now: float) -> bool:
        """Record a reminder, only if the game has not moved on (no version bump: a reminder
        is not a game change and must not outdate the prompts)."""
        def run(conn: sqlite3.Connection) -> int:
            cur = conn.execute("UPDATE games SET last_reminded_at = ? WHERE id = ? "
                               "AND version = ? AND status = 'running'", (now, game_id, version))
            return int(cur.rowcount)

        return bool(await self._run(run))

    # -- settings and history
    async def settings(self, channel_id: int) -> Settings:
        rows = await self._all(
            f"SELECT {_SETTINGS_COLS} FROM channel_settings WHERE channel_id = ?",
            (channel_id,))
        return Settings(channel_id, *rows[0]) if rows else Settings(channel_id)

    async def set_settings(self, settings: Settings) -> None:
        def run(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO channel_settings (channel_id, reminder_hours, quiet_start, "
                "quiet_end, language, timezone, turn_timer_hours, computer_level) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(channel_id) DO UPDATE SET reminder_hours = excluded.reminder_hours,"
                " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
                "language = excluded.language, timezone = excluded.timezone, "
                "turn_timer_hours = excluded.turn_timer_hours, "
                "computer_level = excluded.computer_level",
                (settings.channel_id, settings.reminder_hours, settings.quiet_start,
                 settings.quiet_end, settings.language, settings.timezone,
                 settings.turn_timer_hours, settings.computer_level))

        await self._run(run)

    async def history(self, guild_id: int, limit: int = 100) -> list[HistoryRow]:
        rows = await self._all(
            "SELECT game_id, guild_id, channel_id, finished_at, players, winners, scores "
            "FROM history WHERE guild_id = ? ORDER BY finished_at DESC LIMIT ?",
            (guild_id, limit))
        return [HistoryRow(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])),
                           tuple(json.loads(r[5])), json.loads(r[6])) for r in rows]

    # -- a server's memory (issue 13): final posts, finished games with names, ratings
    async def set_final_post(self, game_id: int, message_id: int, url: str,
                             now: float) -> None:
        """Remember a finished game's final post (the last one wins if posted twice)."""
        await self._remember_post("final_posts", game_id, message_id, url, now)

    async def _remember_post(self, table: str, game_id: int, message_id: int, url: str,
                             now: float) -> None:
        """A game's post in ``table`` (final_posts, latest_posts): the last one wins."""
        def run(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO {table} (game_id, message_id, url, posted_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT(game_id) DO UPDATE SET "
                "message_id = excluded.message_id, url = excluded.url, "
                "posted_at = excluded.posted_at", (game_id, message_id, url, now))

        await self._run(run)

    async def past_games(self, guild_id: int, limit: int = 10, *,
                         game_id: int | None = None) -> list[PastGame]:
        """The guild's finished games, newest first (or just ``game_id``), with the seats'
        names and the final post."""
        where = "h.guild_id = ?" + (" AND h.game_id = ?" if game_id is not None else "")
        params: tuple[Any, ...] = (guild_id,) if game_id is None else (guild_id, game_id)
        rows = await self._all(
            f"SELECT {_HISTORY_COLS}, g.players, f.message_id, f.url FROM history h "
            "JOIN games g ON g.id = h.game_id LEFT JOIN final_posts f ON f.game_id = h.game_id "
            f"WHERE {where} ORDER BY h.finished_at DESC, h.game_id DESC LIMIT ?",
            (*params, limit))
        out = []
        for r in rows:
            names = {str(d["pid"]): str(d["name"]) for d in json.loads(r[7]) if d.get("name")}
            out.append(PastGame(_history_row(r[:7]), names, r[8], r[9]))
        return out

    async def ratings(self, guild_id: int) -> list[RatingRow]:
        """The guild's ratings as stored (unordered)."""
        rows = await self._all("SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ?",
                               (guild_id,))
        return [RatingRow(*r) for r in rows]

    async def update_ratings(self, guild_id: int, rate: Rater, *, rebuild: bool = False) -> int:
        """Fold the guild's finished games that the ratings do not include yet into them, in
        one transaction (``rebuild``: drop the ratings and fold in every game again). Returns
        how many games were rated."""
        def run(conn: sqlite3.Connection) -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                n = _rate(conn, guild_id, rate, rebuild=rebuild)
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
            return n

        return int(await self._run(run))

    # -- games that keep moving (issue 12): turn timers, taking back, notifications, links
    async def due_timer_games(self, now: float, *, after: tuple[float, int] | None = None,
                              limit: int = -1, shards: Shards | None = None) -> list[DueGame]:
        """Running games whose turn timer may have run out at ``now`` (``timer_at``: the
        decision's start plus the channel's timer, or later when the timer pass found quiet
        hours in between), with their channel's settings, by ``timer_at`` then id; paged
        and kept to ``shards``' guilds like ``due_games``. An indexed read of those games
        only."""
        result: list[DueGame] = await self._read(
            _due_reader("timer_at", now, after, limit, shards))
        return result

    async def defer_timers(self, moves: Sequence[tuple[int, int, float]]) -> int:
        """Move the timer moments of games on: ``(game id, row version, at)`` each, only for
        a game still at that version (no version bump: nothing about the game changed).
        Returns how many moved."""
        def run(conn: sqlite3.Connection) -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                n = 0
                for game_id, version, at in moves:
                    n += conn.execute("UPDATE games SET timer_at = ? WHERE id = ? AND "
                                      "version = ? AND status = 'running'",
                                      (at, game_id, version)).rowcount
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
            return n

        return int(await self._run(run)) if moves else 0

    async def take_back(self, game_id: int, expected_version: int, seq: int,
                        fields: RowChanges) -> int:
        """Take back a game's last action: delete its log row ``seq`` (it must be the last)
        and write ``fields`` (the state before it), counting one more taken-back move, in
        one transaction, only if the row is still at ``expected_version``. Returns the new
        row version. Raises StaleWrite (nothing written)."""
        values = _row_values(fields)
        sets = "".join(f", {k} = ?" for k in values)
        sql = (f"UPDATE games SET version = version + 1, undos = undos + 1{sets} "
               "WHERE id = ? AND version = ?")
        params = (*values.values(), game_id, expected_version)

        def run(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if conn.execute(sql, params).rowcount != 1:
                    raise StaleWrite("The game changed meanwhile; nothing was written.")
                last = conn.execute("SELECT max(seq) FROM actions WHERE game_id = ?",
                                    (game_id,)).fetchone()[0]
                if last != seq or conn.execute(
                        "DELETE FROM actions WHERE game_id = ? AND seq = ?",
                        (game_id, seq)).rowcount != 1:
                    raise StaleWrite("The log changed meanwhile; nothing was written.")
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise

        await self._run(run)
        return expected_version + 1

    async def notify_prefs(self, guild_id: int, pids: Iterable[str]) -> dict[str, NotifyPref]:
        """How each of ``pids`` hears it is their turn in the guild (a player who never chose
        is left out: the default is a mention)."""
        wanted = list(dict.fromkeys(pids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await self._all(
            "SELECT pid, mode, dm_refused_at, hint_pending FROM notify_prefs "
            f"WHERE guild_id = ? AND pid IN ({marks})", (guild_id, *wanted))
        return {r[0]: NotifyPref(r[0], r[1], r[2], bool(r[3])) for r in rows}

    async def set_notify_mode(self, guild_id: int, pid: str, mode: str) -> None:
        """A player's choice; it also clears a refused DM (they chose again)."""
        def run(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO notify_prefs (guild_id, pid, mode) VALUES (?, ?, ?) "
                "ON CONFLICT(guild_id, pid) DO UPDATE SET mode = excluded.mode, "
                "dm_refused_at = NULL, hint_pending = 0", (guild_id, pid, mode))

        await self._run(run)

    async def dm_refused(self, guild_id: int, pid: str, now: float) -> bool:
        """Discord refused a DM to a player who chose DMs: mention them instead from now on,
        and tell them once. False if it was already known (no second hint)."""
        def run(conn: sqlite3.Connection) -> int:
            return int(conn.execute(
                "UPDATE notify_prefs SET dm_refused_at = ?, hint_pending = 1 "
                "WHERE guild_id = ? AND pid = ? AND dm_refused_at IS NULL",
                (now, guild_id, pid)).rowcount)

        return bool(await self._run(run))

    async def hint_pending(self, guild_id: int, pid: str) -> bool:
        """Whether the player has a private hint to read (one read, no write)."""
        rows = await self._all("SELECT 1 FROM notify_prefs WHERE guild_id = ? AND pid = ? "
                               "AND hint_pending = 1", (guild_id, pid))
        return bool(rows)

    async def take_hint(self, guild_id: int, pid: str) -> bool:
        """Clear the player's pending hint; True if there was one (so it is told once)."""
        def run(conn: sqlite3.Connection) -> int:
            return int(conn.execute(
                "UPDATE notify_prefs SET hint_pending = 0 WHERE guild_id = ? AND pid = ? "
                "AND hint_pending = 1", (guild_id, pid)).rowcount)

        return bool(await self._run(run))

    async def set_latest_post(self, game_id: int, message_id: int, url: str,
                              now: float) -> None:
        """Remember a game's latest public post (its link goes into DMs and lists)."""
        await self._remember_post("latest_posts", game_id, message_id, url, now)

    async def latest_post(self, game_id: int) -> str | None:
        """The link to a game's latest public post, if one was posted."""
        rows = await self._all("SELECT url FROM latest_posts WHERE game_id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    async def player_games(self, guild_id: int, pid: str, limit: int = 25
                           ) -> list[tuple[GameRow, str | None]]:
        """The guild's lobbies and running games where ``pid`` has a seat, newest first,
        each with the link to its latest post (the guild's active games, by index)."""
        rows = await self._all(
            f"SELECT {_G_GAME_COLS}, p.url FROM games g "
            "LEFT JOIN latest_posts p ON p.game_id = g.id "
            "WHERE g.guild_id = ? AND g.status IN ('lobby', 'running') AND EXISTS ("
            "SELECT 1 FROM json_each(g.players) WHERE json_extract(value, '$.pid') = ?) "
            "ORDER BY g.id DESC LIMIT ?", (guild_id, pid, limit))
        return [(_game(r[:_N_GAME_COLS]), r[_N_GAME_COLS]) for r in rows]


# ---------------------------------------------------------------------------- a server's memory
# (issue 13) The final post's link, ratings, and finished games with their seats' names.
@dataclass(frozen=True)
class RatingRow:
    """One rated identity in a guild (a person's pid, or ``ai.<level>`` for a computer
    level): an openskill (mu, sigma) and how many games it includes."""

    player: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class PastGame:
    """A finished game as a server remembers it: the history row, the seats' display
    names, and its final post (message id and link) once posted."""

    history: HistoryRow
    names: Mapping[str, str]
    message_id: int | None
    url: str | None


# rate(current ratings by player, finished games in order) -> the new ratings by player
Rater = Callable[[dict[str, RatingRow], list[HistoryRow]], dict[str, RatingRow]]


def _history_row(r: Sequence[Any]) -> HistoryRow:
    return HistoryRow(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), tuple(json.loads(r[5])),
                      json.loads(r[6]))


_HISTORY_COLS = ("h.game_id, h.guild_id, h.channel_id, h.finished_at, h.players, h.winners, "
                 "h.scores")


def _rate(conn: sqlite3.Connection, guild_id: int, rate: Rater, *, rebuild: bool) -> int:
    """In the caller's transaction: fold the guild's finished games not yet rated (all of
    them, from nothing, when ``rebuild``) into its ratings, oldest first."""
    if rebuild:
        conn.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
        conn.execute("DELETE FROM rated_games WHERE guild_id = ?", (guild_id,))
    games = [_history_row(r) for r in conn.execute(
        f"SELECT {_HISTORY_COLS} FROM history h WHERE h.guild_id = ? AND h.game_id NOT IN "
        "(SELECT game_id FROM rated_games) ORDER BY h.finished_at, h.game_id", (guild_id,))]
    if not games:
        return 0
    current = {r[0]: RatingRow(*r) for r in conn.execute(
        "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ?", (guild_id,))}
    new = rate(current, games)
    conn.executemany(
        "INSERT INTO ratings (guild_id, player, mu, sigma, games) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT(guild_id, player) DO UPDATE SET mu = excluded.mu, "
        "sigma = excluded.sigma, games = excluded.games",
        [(guild_id, r.player, r.mu, r.sigma, r.games) for r in new.values()])
    conn.executemany("INSERT INTO rated_games (game_id, guild_id) VALUES (?, ?)",
                     [(g.game_id, guild_id) for g in games])
    return len(games)


# ---------------------------------------------------------------------------- keeping games moving
# (issue 12) Turn timers and reminders read the due games alike; notifications per player.
_SETTINGS_COLS = ("reminder_hours, quiet_start, quiet_end, language, timezone, "
                  "turn_timer_hours, computer_level")


@dataclass(frozen=True)
class NotifyPref:
    """How a player hears it is their turn in one guild: ``mode`` is mention, dm, both or
    none; ``dm_refused_at``: when Discord refused a DM to them (they are mentioned instead
    until they choose again); ``hint_pending``: they have not been told so yet."""

    pid: str
    mode: str
    dm_refused_at: float | None = None
    hint_pending: bool = False


def _due_reader(column: str, now: float, after: tuple[float, int] | None, limit: int,
                shards: Shards | None = None) -> Callable[[sqlite3.Connection], list[DueGame]]:
    """A reader's job: the running games whose ``column`` (remind_at or timer_at) is at or
    before ``now``, after ``after``, by that column then id, with their channel's settings
    (rows made in the reader's thread, so the event loop never handles the others)."""
    start = after or (float("-inf"), 0)
    settings = ", ".join("s." + c.strip() for c in _SETTINGS_COLS.split(","))
    where, extra = _shard_filter("g.guild_id", shards)
    sql = (f"SELECT {_G_GAME_COLS}, {settings}, g.{column} "
           "FROM games g LEFT JOIN channel_settings s ON s.channel_id = g.channel_id "
           f"WHERE g.status = 'running' AND g.{column} <= ? AND (g.{column}, g.id) > (?, ?)"
           f"{where} ORDER BY g.{column}, g.id LIMIT ?")

    def run(conn: sqlite3.Connection) -> list[DueGame]:
        out = []
        for r in conn.execute(sql, (now, *start, *extra, limit)):
            game = _game(r[:_N_GAME_COLS])
            hours, qs, qe, lang, tz, timer, level, at = r[_N_GAME_COLS:]
            out.append(DueGame(game, Settings(
                game.channel_id, DEFAULT_REMINDER_HOURS if hours is None else hours, qs, qe,
                lang, tz or "UTC", timer or 0.0, level or "normal"), at))
        return out

    return run
