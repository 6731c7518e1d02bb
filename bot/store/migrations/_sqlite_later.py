"""SQLite's schemas from 9 on, frozen (see ``bot.store.migrations.sqlite``): players away and
substitutes, delivery across processes, pages, teaching, who may view a channel and posts
known by their ids."""

from __future__ import annotations

import sqlite3


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


def _m21_split_drafts(db: sqlite3.Connection) -> None:
    """A distributor's half-made split (``split_drafts``), shared by Discord's offer builder
    and the seat page: per game and seat, the offers so far (``offers``: a JSON list of
    lists of the cards' indices in the draw), the round they belong to (``round``: the
    builder's round key, passage.round.extra) and the game's version when written. A
    secret like the drawn cards: read only by its own seat."""
    db.execute("""
        CREATE TABLE split_drafts (
            game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            pid        TEXT NOT NULL,
            round      TEXT NOT NULL,
            version    INTEGER NOT NULL,
            offers     TEXT NOT NULL,
            written_at REAL NOT NULL,
            PRIMARY KEY (game_id, pid)
        ) WITHOUT ROWID""")


def _m22_sign_outs_awaiting(db: sqlite3.Connection) -> None:
    """Sign-out that ends every session (``sign_outs``): per Discord user who ever signed
    out, the generation of their signed-in sessions (a session cookie carries the one it
    was made in; signing out moves it on, so every session made before, a copied cookie on
    another device too, is no session any more) and when they last signed out. No row:
    generation 0. Read by its key on every request that carries a session.

    And ``games.awaiting``: the seats (engine pids) a running game awaits now, as
    ``,pid,pid,`` (``,`` none), written with every state, so that My games lists the games
    awaiting a player first however many they play; NULL until a game's next move or
    until My games reads it (not known: such a game is read as if it might await them)."""
    db.execute("""
        CREATE TABLE sign_outs (
            user_id       TEXT PRIMARY KEY,
            generation    INTEGER NOT NULL,
            signed_out_at REAL NOT NULL
        ) WITHOUT ROWID""")
    db.execute("ALTER TABLE games ADD COLUMN awaiting TEXT")
