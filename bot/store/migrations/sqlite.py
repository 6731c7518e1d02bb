"""SQLite's migrations, frozen: a released migration never changes (old files are upgraded
through every one of them in turn, under ``PRAGMA user_version``). To change the schema,
append a migration; PostgreSQL's twin of the same number goes into
``bot.store.migrations.postgres`` (the same number means the same tables and columns).

Each runs in one write transaction on the writer's ``sqlite3`` connection, with the
version it makes recorded in the same transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from bot.store.errors import StorageError


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


def _m9_away(db: sqlite3.Connection) -> None:
    """Players away: ``away`` holds, per server and player, until when they are away (set
    to the moment they came back when they end it early: the turn timer counts their
    decision afresh from then); ``channel_settings.away_cap_hours`` caps how long one game
    waits on an away player's decision (72 hours unless changed; 0: it does not wait). A
    settings write sets every column, so schema 5's triggers refresh ``games.timer_at``
    when the cap changes as they do for the timer."""
    db.execute("""
        CREATE TABLE away (
            guild_id INTEGER NOT NULL,
            pid      TEXT NOT NULL,
            since    REAL NOT NULL,
            until    REAL NOT NULL,
            PRIMARY KEY (guild_id, pid)
        ) WITHOUT ROWID""")
    db.execute("ALTER TABLE channel_settings ADD COLUMN away_cap_hours REAL NOT NULL "
               "DEFAULT 72")


def _m10_substitutes(db: sqlite3.Connection) -> None:
    """Substitutes: every person who took a seat over during a game, in order (``version``:
    the game row's version the hand-over wrote, so one row per hand-over). A seat's first
    player is its pid; a seat with a row here was played by more than one person (or by a
    computer and then a person) and is not rated. ``seq``: the game's last logged action
    before the hand-over (a move made before it is not the substitute's to take back);
    ``by_pid``: who handed it over."""
    db.execute("""
        CREATE TABLE substitutes (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            pid     TEXT NOT NULL,
            player  TEXT NOT NULL,
            name    TEXT,
            by_pid  TEXT NOT NULL,
            seq     INTEGER NOT NULL,
            at      REAL NOT NULL,
            PRIMARY KEY (game_id, version)
        ) WITHOUT ROWID""")


def _m11_substitute_before(db: sqlite3.Connection) -> None:
    """The display name of whoever played a seat before its hand-over (``before_name``; the
    seat's own name is the substitute's from then on): the log and the replay name each move
    by the person who made it, the one before by their name (NULL on older rows: by id)."""
    db.execute("ALTER TABLE substitutes ADD COLUMN before_name TEXT")


def _m12_outbox_owed(db: sqlite3.Connection) -> None:
    """The pings a catch-up owes (``outbox.owed``, a JSON list of player ids, NULL for none):
    written on the channel's next waiting post in the transaction that lets the told posts
    go, so a process killed before the whole post still pings whoever it owes."""
    db.execute("ALTER TABLE outbox ADD COLUMN owed TEXT")


def _m13_computer_moves(db: sqlite3.Connection) -> None:
    """Which logged actions the computer decided (a computer player's, or standing in for a
    person): "since your last move" is the person's own last decision (0 on older rows:
    each counted as its seat's)."""
    db.execute("ALTER TABLE actions ADD COLUMN computer INTEGER NOT NULL DEFAULT 0")


def _m14_leases(db: sqlite3.Connection) -> None:
    """One deliverer per channel across processes (``bot.store.leases``): who holds a
    channel's posts and until when."""
    db.execute("""
        CREATE TABLE leases (
            channel_id INTEGER PRIMARY KEY,
            owner      TEXT NOT NULL,
            until      REAL NOT NULL
        )""")


def _m15_page_token(db: sqlite3.Connection) -> None:
    """Each game's page (``/g/<token>``) behind an unguessable token, never its number (so
    nobody walks through other servers' games): 128 random bits as hex, given to the games
    already stored and, by a trigger, to every new one (the bot's inserts need not know);
    ``channel_settings.pages``: whether the channel's games have pages (on by default);
    ``server_pages``: a server's page, behind a token of its own, shown once turned on.
    ``game_versions``: every committed version of a game with the number of its last logged
    action then (``seq``, the state's version), written by triggers in the change's own
    transaction, so a page's stream sends one event per version, in order, and a watcher
    that comes back misses none, whichever process made the change."""
    db.execute("ALTER TABLE games ADD COLUMN page_token TEXT")
    db.execute("UPDATE games SET page_token = lower(hex(randomblob(16)))")
    db.execute("CREATE UNIQUE INDEX games_page_token ON games(page_token)")
    # a channel's games have pages unless its managers turn them off
    db.execute("ALTER TABLE channel_settings ADD COLUMN pages INTEGER NOT NULL DEFAULT 1")
    # a server's page (its lobbies, games, leaderboard, history): off until a manager
    # turns it on; its token is made then
    db.execute("""
        CREATE TABLE server_pages (
            guild_id INTEGER PRIMARY KEY,
            token    TEXT NOT NULL UNIQUE,
            shown    INTEGER NOT NULL DEFAULT 0
        )""")
    db.execute("""
        CREATE TRIGGER games_page_token_new AFTER INSERT ON games
        WHEN NEW.page_token IS NULL
        BEGIN
            UPDATE games SET page_token = lower(hex(randomblob(16))) WHERE id = NEW.id;
        END""")
    db.execute("""
        CREATE TABLE game_versions (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            seq     INTEGER,
            status  TEXT NOT NULL,
            PRIMARY KEY (game_id, version)
        ) WITHOUT ROWID""")
    # every game's version as it stands, then each change (an insert is a new lobby's
    # version 0, nothing to follow yet; ``python -m bot.migrate`` copies the table itself)
    db.execute("INSERT INTO game_versions (game_id, version, seq, status) SELECT id, "
               "version, CASE WHEN json_valid(state) THEN json_extract(state, '$.version') "
               "END, status FROM games")
    db.execute("""
        CREATE TRIGGER games_version AFTER UPDATE OF version ON games
        BEGIN
            INSERT OR REPLACE INTO game_versions (game_id, version, seq, status)
            VALUES (NEW.id, NEW.version, CASE WHEN json_valid(NEW.state)
                    THEN json_extract(NEW.state, '$.version') END, NEW.status);
        END""")


def _m16_hints(db: sqlite3.Connection) -> None:
    """Hints (issue 32): ``games.hinted``, set by a game's first hint (a hinted game is not
    rated and says so in its final post and history); ``channel_settings.hints``, whether
    the channel's players may ask for hints (on by default)."""
    db.execute("ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE channel_settings ADD COLUMN hints INTEGER NOT NULL DEFAULT 1")


def _m17_practice(db: sqlite3.Connection) -> None:
    """A guided practice game (``games.practice``): unrated, kept out of a server's history,
    stats, leaderboard, lobbies and page; ``games.lessons``: the lessons it has shown its
    learner (``bot.service.teaching.lessons.Taught``), so a restart repeats none."""
    db.execute("ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN lessons TEXT NOT NULL DEFAULT ''")


def _m18_learn_told(db: sqlite3.Connection) -> None:
    """``learn_told``: who was told of ``/sanmarco game learn`` in their first answer on a
    server (a newcomer hears of it once)."""
    db.execute("""
        CREATE TABLE learn_told (
            guild_id INTEGER NOT NULL,
            pid      TEXT NOT NULL,
            told_at  REAL NOT NULL,
            PRIMARY KEY (guild_id, pid)
        ) WITHOUT ROWID""")


def _m19_channel_views(db: sqlite3.Connection) -> None:
    """Who may view a channel, as Discord last told the bot (issue 36): ``everyone`` every
    member of the server may (the @everyone role's View Channel there; a public thread:
    its channel's), ``private_thread`` a private thread (its members only, whatever its
    channel), ``parent_id`` a thread's channel; ``listed`` a manager's choice for the
    server's page (NULL: as Discord says). A channel with no row is private."""
    db.execute("""
        CREATE TABLE channel_views (
            channel_id     INTEGER PRIMARY KEY,
            guild_id       INTEGER NOT NULL,
            parent_id      INTEGER,
            everyone       INTEGER NOT NULL DEFAULT 0,
            private_thread INTEGER NOT NULL DEFAULT 0,
            listed         INTEGER,
            seen_at        REAL NOT NULL
        )""")


def _m20_post_ids(db: sqlite3.Connection) -> None:
    """A post known by its id (issue 37): ``outbox.tried_at``, when a send of the post was
    first started (NULL: never; only then can a copy be on Discord), ``outbox.counted``,
    the missed posts a long backlog's catch-up only counts, carried to the channel's next
    message post; and ``thread_renames``, the times of a thread's latest renames (a JSON
    list of at most two), so a restarted bot or another process keeps Discord's two
    renames per ten minutes."""
    db.execute("ALTER TABLE outbox ADD COLUMN tried_at REAL")
    db.execute("ALTER TABLE outbox ADD COLUMN counted INTEGER NOT NULL DEFAULT 0")
    db.execute("""
        CREATE TABLE thread_renames (
            channel_id INTEGER PRIMARY KEY,
            times      TEXT NOT NULL
        )""")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_m1, _m2, _m3, _m4, _m5, _m6,
                                                                _m7, _m8, _m9_away,
                                                                _m10_substitutes,
                                                                _m11_substitute_before,
                                                                _m12_outbox_owed,
                                                                _m13_computer_moves,
                                                                _m14_leases,
                                                                _m15_page_token,
                                                                _m16_hints,
                                                                _m17_practice,
                                                                _m18_learn_told,
                                                                _m19_channel_views,
                                                                _m20_post_ids)
