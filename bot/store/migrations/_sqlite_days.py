"""SQLite's schemas 4 to 8, frozen (see ``bot.store.migrations.sqlite``): reminders, games
that keep moving over days (timers, undo, delivery through the outbox) and a server full
of games (threads, rematches, the queue)."""

from __future__ import annotations

import sqlite3

from bot.store.errors import StorageError

# When a running game's next reminder is due, from its own row and its channel's interval
# (12 hours unless set). The triggers below keep ``games.remind_at`` equal to it.
_REMIND_AT = """CASE WHEN {g}.status = 'running' AND {g}.awaited_since IS NOT NULL
    THEN max({g}.awaited_since, coalesce({g}.last_reminded_at, 0)) + 3600 * coalesce(
        (SELECT reminder_hours FROM channel_settings WHERE channel_id = {g}.channel_id), 12)
    END"""


def _m4(db: sqlite3.Connection) -> None:
    """Reminders that read only the due games: the due time of each running game's next
    reminder, kept by triggers and indexed, so the reminder pass reads only the games that
    are due; indexes to count a user's open lobbies in a guild and to find lobbies that
    never started."""
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


# The due time of a reminder (from schema 5), now that an interval of 0 turns reminders off.
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
    """Games that keep moving over days. A channel's turn timer and the level of
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
    """The channel's language: its ``language`` may be unset (NULL): its posts then follow the
    server's preferred locale. Until now nobody could choose it, so every 'en' stored is
    the old default and becomes unset. PostgreSQL alters the column in place (its
    ``_M6``: DROP NOT NULL, DROP DEFAULT, the UPDATE); SQLite has no ALTER COLUMN, so the
    column is copied into a new one, and DROP COLUMN needs SQLite 3.35 (2021) or newer."""
    if sqlite3.sqlite_version_info < (3, 35):
        raise StorageError("store.failed", f"SQLite {sqlite3.sqlite_version} is too old to "
                           "upgrade the game file: this bot needs SQLite 3.35 or newer")
    db.execute("ALTER TABLE channel_settings ADD COLUMN language_choice TEXT")
    db.execute("UPDATE channel_settings SET language_choice = NULLIF(language, 'en')")
    db.execute("ALTER TABLE channel_settings DROP COLUMN language")
    db.execute("ALTER TABLE channel_settings RENAME COLUMN language_choice TO language")


def _m7(db: sqlite3.Connection) -> None:
    """The outbox: what a committed change must show its channel, written in the change's
    transaction and deleted once Discord took it (a channel's posts in ``id`` order); and
    the places Discord refuses: a channel that is gone (its games wait, suspended) or where
    the bot lacks a permission (its posts wait until ``blocked_until``)."""
    db.execute("""
        CREATE TABLE outbox (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            channel_id INTEGER NOT NULL,
            guild_id   INTEGER NOT NULL,
            game_id    INTEGER,
            kind       TEXT NOT NULL,
            payload    TEXT NOT NULL,
            created_at REAL NOT NULL,
            attempts   INTEGER NOT NULL DEFAULT 0,
            batch      INTEGER
        )""")
    db.execute("CREATE INDEX outbox_channel ON outbox(channel_id, id)")
    db.execute("""
        CREATE TABLE places (
            channel_id    INTEGER PRIMARY KEY,
            guild_id      INTEGER NOT NULL,
            gone_at       REAL,
            blocked_until REAL,
            backoff       REAL NOT NULL DEFAULT 0,
            permission    TEXT
        )""")


def _m8(db: sqlite3.Connection) -> None:
    """A server full of games. A game's number is taken before its thread is made (the
    thread is named after it, once: Discord allows two renames per ten minutes), from
    ``game_numbers``, which starts after the games already stored; ``games.parent_id`` is
    the text channel whose thread the bot opened for the game (NULL: the game lives in its
    own channel or in a thread a member made), ``invited`` the players a rematch's lobby
    asks back, ``rematch_of`` the game it plays again; ``channel_settings.threads``: a game
    opened in the channel gets a thread of its own (NULL: the bot's default). ``seekers``:
    the players waiting in a server's queue for others (``claimed``: the number of the game
    being opened with them)."""
    db.execute("ALTER TABLE games ADD COLUMN parent_id INTEGER")
    db.execute("ALTER TABLE games ADD COLUMN invited TEXT NOT NULL DEFAULT '[]'")
    db.execute("ALTER TABLE games ADD COLUMN rematch_of INTEGER")
    # A finished game is played again once (a second press finds the first rematch).
    db.execute("CREATE UNIQUE INDEX games_rematch_of ON games(rematch_of) "
               "WHERE rematch_of IS NOT NULL")
    db.execute("CREATE INDEX games_guild_lobbies ON games(guild_id, id) "
               "WHERE status = 'lobby'")
    db.execute("ALTER TABLE channel_settings ADD COLUMN threads INTEGER")
    db.execute("CREATE TABLE game_numbers (id INTEGER PRIMARY KEY AUTOINCREMENT)")
    db.execute("INSERT INTO game_numbers (id) SELECT id FROM games ORDER BY id DESC LIMIT 1")
    db.execute("""
        CREATE TABLE seekers (
            guild_id   INTEGER NOT NULL,
            pid        TEXT NOT NULL,
            name       TEXT,
            players    INTEGER NOT NULL CHECK (players IN (3, 4)),
            computers  INTEGER NOT NULL DEFAULT 0,
            language   TEXT,
            channel_id INTEGER NOT NULL,
            created_at REAL NOT NULL,
            claimed    INTEGER,
            claimed_at REAL,
            PRIMARY KEY (guild_id, pid)
        ) WITHOUT ROWID""")
