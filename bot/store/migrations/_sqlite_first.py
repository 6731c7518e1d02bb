"""SQLite's schemas 1 to 3, frozen (see ``bot.store.migrations.sqlite``): the first schema,
its history of finished games and a server's memory (final posts, ratings)."""

from __future__ import annotations

import json
import sqlite3


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
    """A server's memory: the final post of each finished game (its link), the
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
