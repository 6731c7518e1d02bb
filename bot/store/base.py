"""``Store``: every call the service makes of a database, each query written once, over
the four primitives a backend (``SQLiteStore``, ``PostgresStore``) gives
(``bot.store.backend``), in SQLite's spelling with ``?`` parameters that the backend's
``Dialect`` compiles."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from bot.store.away import AwayQueries
from bot.store.drafts import DraftQueries
from bot.store.errors import (
    ActiveGameExists,
    DuplicateKey,
    LobbyLimitReached,
    PracticeExists,
    StaleWrite,
)
from bot.store.hints import HintQueries
from bot.store.leases import LeaseQueries
from bot.store.outbox import CHANNEL_GONE, OutboxQueries, outbox_insert
from bot.store.pages import PageQueries, listing
from bot.store.queries import (
    ACTION_COLUMNS,
    G_GAME_COLS,
    GAME_COLS,
    H_HISTORY_COLS,
    HISTORY_COLUMNS,
    N_GAME,
    NOTIFY_COLS,
    RATING_COLS,
    SETTINGS_COLS,
    SETTINGS_COLUMNS,
    due_game,
    game_row,
    history_row,
    history_values,
    notify_pref,
    past_game,
    rating_row,
    row_values,
    seats_json,
    settings_row,
    settings_values,
)
from bot.store.rows import HistoryRow, LogRow, OutboxEntry, RatingRow, Settings
from bot.store.servers import ServerQueries, next_number
from bot.store.substitutes import SubstituteQueries, substitute_insert, substitutes_of
from bot.store.tx import (
    Execute,
    Insert,
    Tx,
    call,
    execute,
    execute_many,
    fetch,
    insert,
)

if TYPE_CHECKING:  # the rows the calls only name in their signatures
    from bot.store.rows import (
        DueGame,
        GameRow,
        NotifyPref,
        PastGame,
        RowChanges,
        Seat,
        Shards,
        SubstituteRow,
    )

T = TypeVar("T")
R = TypeVar("R")

# rate(current ratings by player, finished games in order) -> the new ratings by player
Rater = Callable[[dict[str, RatingRow], list[HistoryRow]], dict[str, RatingRow]]

DEFAULT_BUSY_TIMEOUT = 3.0  # seconds a write may wait for its turn, the file or a row lock
STALE = "The game changed meanwhile; nothing was written."


class Store(ServerQueries, OutboxQueries, AwayQueries, SubstituteQueries, LeaseQueries,
            PageQueries, HintQueries, DraftQueries):
    """What the service asks of a database, the same on both backends. Open one with
    ``bot.store.open_store``. (The backend's primitives: ``bot.store.backend``; the
    outbox's calls: ``bot.store.outbox``; players away: ``bot.store.away``; substitutes:
    ``bot.store.substitutes``; the web pages' reads: ``bot.store.pages``; a game's hinted
    mark: ``bot.store.hints``; half-made splits: ``bot.store.drafts``.)"""

    @staticmethod
    def _bump(game_id: int, expected_version: int, fields: RowChanges | None,
              also: str = "") -> Execute:
        """The update of a game row to its next version, only from ``expected_version``."""
        values = row_values(fields)
        sets = also + "".join(f", {k} = ?" for k in values)
        return Execute(f"UPDATE games SET version = version + 1{sets} "
                       "WHERE id = ? AND version = ?",
                       (*values.values(), game_id, expected_version))

    async def _one_game(self, where: str, *params: object) -> GameRow | None:
        rows = await self._fetch(game_row, f"SELECT {GAME_COLS} FROM games WHERE {where}",
                                 params)
        return rows[0] if rows else None

    # -- games
    async def game(self, game_id: int) -> GameRow | None:
        return await self._one_game("id = ?", game_id)

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's lobby or running game."""
        return await self._one_game("channel_id = ? AND status IN ('lobby', 'running')",
                                    channel_id)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The active game, else the channel's most recent ended one (still readable)."""
        return await self._one_game("channel_id = ? ORDER BY status IN ('lobby', 'running') "
                                    "DESC, id DESC LIMIT 1", channel_id)

    async def create_game(self, guild_id: int, channel_id: int, creator: Seat, seats: int,
                          now: float, *, max_open_lobbies: int | None = None,
                          posts: Callable[[GameRow], Sequence[OutboxEntry]] | None = None,
                          others: Sequence[Seat] = (), number: int | None = None,
                          parent_id: int | None = None, invited: Sequence[str] = (),
                          rematch_of: int | None = None,
                          settings: Settings | None = None,
                          practice: bool = False) -> GameRow:
        """A new lobby with its creator (and ``others``) seated, and its posts (``posts``:
        made of the new game's row) in the outbox. ``number``: the game's id, reserved
        before (``reserve_number``; the players of the queue claimed for it leave the queue
        with it), else a new one; ``parent_id``, ``invited``, ``rematch_of``: see
        ``GameRow``; ``settings``: the new channel's (a thread's, copied from its parent's);
        ``practice``: a guided practice game (``GameRow.practice``; raises PracticeExists
        while the creator has an unfinished one in the guild). Raises ActiveGameExists,
        and with ``max_open_lobbies`` LobbyLimitReached when the creator already has
        that many open lobbies in the guild (counted and created in one transaction,
        under a lock of that creator in that guild, so simultaneous requests from several
        processes count)."""
        def tx() -> Tx[GameRow]:
            if practice:  # one unfinished practice game per learner and guild, however
                # many ``learn`` run at once, in any process (PracticeExists)
                yield from self._lock(f"practice/{guild_id}/{creator.pid}")
                open_ = yield from fetch("SELECT channel_id FROM games WHERE guild_id = ? AND "
                                         "creator = ? AND practice AND status IN ('lobby', "
                                         "'running') ORDER BY id DESC", guild_id, creator.pid)
                if open_:
                    raise PracticeExists(int(open_[0][0]))
            if max_open_lobbies is not None:
                yield from self._lock(f"lobbies/{guild_id}/{creator.pid}")
                rows = yield from fetch("SELECT channel_id FROM games WHERE guild_id = ? AND "
                                        "creator = ? AND status = 'lobby' ORDER BY id",
                                        guild_id, creator.pid)
                if len(rows) >= max_open_lobbies:
                    raise LobbyLimitReached([r[0] for r in rows])
            game_id = number if number is not None else (yield from next_number())
            try:
                made = yield from fetch(
                    "INSERT INTO games (id, guild_id, channel_id, status, creator, seats, "
                    "players, version, created_at, last_action_at, parent_id, invited, "
                    "rematch_of, practice) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?, ?, ?, ?, ?) "
                    f"RETURNING {GAME_COLS}",
                    game_id, guild_id, channel_id, creator.pid, seats,
                    seats_json([creator, *others]), now, now, parent_id,
                    json.dumps(list(invited)), rematch_of, practice)
            except DuplicateKey:  # the one lobby or running game per channel
                raise ActiveGameExists("This channel already has a game.") from None
            row = game_row(made[0])
            if number is not None:
                yield from execute("DELETE FROM seekers WHERE claimed = ?", number)
            if settings is not None:
                upsert = self._settings_upsert(replace(settings, channel_id=channel_id))
                yield from execute(upsert.sql, *upsert.params)
            for written in outbox_insert(posts(row) if posts is not None else []):
                yield from insert(written)
            return row

        return await self._transact(tx())

    async def open_lobby_channels(self, guild_id: int, pid: str) -> list[int]:
        """The channels of ``pid``'s open lobbies in the guild, oldest first."""
        return await self._fetch(lambda r: int(r[0]),
                                 "SELECT channel_id FROM games WHERE guild_id = ? AND "
                                 "creator = ? AND status = 'lobby' ORDER BY id",
                                 (guild_id, pid))

    async def stale_lobbies(self, created_before: float, *,
                            shards: Shards | None = None) -> list[GameRow]:
        """The lobbies (not started) opened at or before ``created_before``."""
        where, extra = self._shards("guild_id", shards)
        return await self._fetch(game_row, f"SELECT {GAME_COLS} FROM games WHERE "
                                 f"status = 'lobby' AND created_at <= ?{where} ORDER BY id",
                                 (created_before, *extra))

    async def delete_unstarted(self, created_before: float, *,
                               shards: Shards | None = None) -> int:
        """Delete the lobbies that never started, open ones opened and closed ones closed at
        or before ``created_before`` (in the guilds of ``shards`` only, when given); returns
        how many. Started games, ended or not, stay."""
        where, extra = self._shards("guild_id", shards)
        return await self._execute(
            "DELETE FROM games WHERE seed IS NULL AND status IN ('lobby', 'abandoned') "
            f"AND coalesce(ended_at, created_at) <= ?{where}", (created_before, *extra))

    async def commit(self, game_id: int, expected_version: int,
                     fields: RowChanges | None = None, actions: Sequence[LogRow] = (),
                     history: HistoryRow | None = None,
                     posts: Sequence[OutboxEntry] = (),
                     substitutes: Sequence[SubstituteRow] = ()) -> int:
        """Write ``fields`` of a game, append its log rows, its history row, its outbox
        posts and its seats' hand-overs to people, all at once, only if the row is still at
        ``expected_version``. Returns the new version. Raises StaleWrite (nothing
        written)."""
        inserts = []
        if actions:
            inserts.append(Insert("actions", ACTION_COLUMNS,
                                  [(game_id, a.seq, a.pid, a.action, a.at, int(a.computer))
                                   for a in actions]))
        if history is not None:
            inserts.append(Insert("history", HISTORY_COLUMNS,
                                  (history_values(replace(history, game_id=game_id)),)))
        inserts += outbox_insert(posts)
        inserts += substitute_insert(substitutes)
        if not await self._compare_and_set(self._bump(game_id, expected_version, fields),
                                           inserts):
            raise StaleWrite(STALE)
        return expected_version + 1

    async def actions(self, game_id: int) -> list[LogRow]:
        return await self._fetch(lambda r: LogRow(r[0], r[1], r[2], r[3], bool(r[4])),
                                 "SELECT seq, pid, action, at, computer FROM actions "
                                 "WHERE game_id = ? "
                                 "ORDER BY seq", (game_id,))

    async def started_games(self) -> list[tuple[int, int]]:
        """Every game that has started, ended or not: (id, channel), oldest first."""
        return await self._fetch(lambda r: (int(r[0]), int(r[1])),
                                 "SELECT id, channel_id FROM games WHERE state IS NOT NULL "
                                 "ORDER BY id")

    # -- reminders and turn timers
    async def due_games(self, now: float, *, after: tuple[float, int] | None = None,
                        limit: int = -1, shards: Shards | None = None) -> list[DueGame]:
        """Running games whose next reminder is due at ``now`` (their interval has passed
        since the decision started or the last reminder), with their channel's settings,
        oldest first (by ``remind_at``, then id); with ``after``, those after that
        (remind_at, id), at most ``limit``; with ``shards``, only those in the guilds of
        those Discord shards. An indexed read of the due games only; the next page starts
        ``after`` the last one's ``DueGame.after``."""
        return await self._due("remind_at", now, after, limit, shards)

    async def due_timer_games(self, now: float, *, after: tuple[float, int] | None = None,
                              limit: int = -1, shards: Shards | None = None) -> list[DueGame]:
        """Running games whose turn timer may have run out at ``now`` (``timer_at``: the
        decision's start plus the channel's timer, or later when the timer pass found quiet
        hours in between), paged and kept to ``shards``' guilds like ``due_games``."""
        return await self._due("timer_at", now, after, limit, shards)

    async def _due(self, column: str, now: float, after: tuple[float, int] | None,
                   limit: int, shards: Shards | None) -> list[DueGame]:
        start = after or (float("-inf"), 0)
        where, extra = self._shards("g.guild_id", shards)
        settings = ", ".join("s." + c for c in SETTINGS_COLUMNS)
        # A gone channel's games wait (suspended); no reminder goes where the bot may not
        # post (its posts wait there too).
        held: tuple[object, ...] = ()
        refused = f" AND NOT {CHANNEL_GONE}"
        if column == "remind_at":
            refused = (" AND NOT EXISTS (SELECT 1 FROM places pl WHERE pl.channel_id = "
                       "g.channel_id AND (pl.gone_at IS NOT NULL OR pl.blocked_until > ?))")
            held = (now,)
        return await self._fetch(
            due_game,
            f"SELECT {G_GAME_COLS}, {settings}, g.{column} "
            "FROM games g LEFT JOIN channel_settings s ON s.channel_id = g.channel_id "
            f"WHERE g.status = 'running' AND g.{column} <= ? AND (g.{column}, g.id) > (?, ?)"
            f"{where}{refused} ORDER BY g.{column}, g.id LIMIT ?",
            (now, *start, *extra, *held, self.dialect.limit(limit)))

    async def mark_reminded(self, game_id: int, version: int, now: float,
                            posts: Sequence[OutboxEntry] = ()) -> bool:
        """Record a reminder with its posts, only if the game has not moved on (no version
        bump: a reminder is not a game change and must not outdate the prompts)."""
        return await self._compare_and_set(Execute(
            "UPDATE games SET last_reminded_at = ? WHERE id = ? AND version = ? "
            "AND status = 'running'", (now, game_id, version)), outbox_insert(posts))

    async def defer_timers(self, moves: Sequence[tuple[int, int, float]]) -> int:
        """Move the timer moments of games on: ``(game id, row version, at)`` each, only for
        a game still at that version (no version bump: nothing about the game changed).
        Returns how many moved."""
        def tx() -> Tx[int]:
            moved = 0
            for game_id, version, at in moves:
                moved += yield from execute("UPDATE games SET timer_at = ? WHERE id = ? AND "
                                            "version = ? AND status = 'running'",
                                            at, game_id, version)
            return moved

        return await self._transact(tx()) if moves else 0

    async def take_back(self, game_id: int, expected_version: int, seq: int,
                        fields: RowChanges, posts: Sequence[OutboxEntry] = ()) -> int:
        """Take back a game's last action: delete its log row ``seq`` (it must be the last)
        and write ``fields`` (the state before it), counting one more taken-back move, in
        one transaction, only if the row is still at ``expected_version``. Returns the new
        row version. Raises StaleWrite (nothing written)."""
        update = self._bump(game_id, expected_version, fields, ", undos = undos + 1")

        def tx() -> Tx[None]:
            if (yield from execute(update.sql, *update.params)) != 1:
                raise StaleWrite(STALE)
            if (yield from execute(
                    "DELETE FROM actions WHERE game_id = ? AND seq = ? AND seq = "
                    "(SELECT max(seq) FROM actions WHERE game_id = ?)",
                    game_id, seq, game_id)) != 1:
                raise StaleWrite("The log changed meanwhile; nothing was written.")
            for written in outbox_insert(posts):
                yield from insert(written)

        await self._transact(tx())
        return expected_version + 1

    # -- settings and history
    async def settings(self, channel_id: int) -> Settings:
        rows = await self._fetch(lambda r: settings_row(channel_id, r),
                                 f"SELECT {SETTINGS_COLS} FROM channel_settings "
                                 "WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else Settings(channel_id)

    @staticmethod
    def _settings_upsert(settings: Settings) -> Execute:
        """The statement that writes a channel's settings."""
        return Execute(f"INSERT INTO channel_settings (channel_id, {SETTINGS_COLS}) "
                f"VALUES (?, {', '.join('?' * len(SETTINGS_COLUMNS))}) "
                "ON CONFLICT (channel_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in SETTINGS_COLUMNS),
                settings_values(settings))

    async def set_settings(self, settings: Settings,
                           posts: Sequence[OutboxEntry] = ()) -> None:
        """Write a channel's settings, and the post that tells the channel, at once."""
        def tx() -> Tx[None]:
            upsert = self._settings_upsert(settings)
            yield from execute(upsert.sql, *upsert.params)
            for written in outbox_insert(posts):
                yield from insert(written)

        await self._transact(tx())

    async def history(self, guild_id: int, limit: int = 100, *,
                      here: Collection[int] | None = None) -> list[HistoryRow]:
        """The guild's finished games, newest first, with their seats' substitutes;
        ``here``: only those a member asking there may hear of (``listing``; () the
        listed channels' only; None: every game, for the bot itself)."""
        joins, where, params = listing(self.dialect, here)
        return await self._with_substitutes(guild_id, await self._fetch(
            history_row, f"SELECT {H_HISTORY_COLS} FROM history h JOIN games g ON "
            f"g.id = h.game_id {joins} WHERE h.guild_id = ? AND {where} "
            "ORDER BY h.finished_at DESC, h.game_id DESC LIMIT ?", (guild_id, *params, limit)))

    # -- a server's memory: final posts, finished games with names, ratings
    async def set_final_post(self, game_id: int, message_id: int, url: str,
                             now: float) -> None:
        """Remember a finished game's final post (the last one wins if posted twice)."""
        await self._remember_post("final_posts", game_id, message_id, url, now)

    async def set_latest_post(self, game_id: int, message_id: int, url: str,
                              now: float) -> None:
        """Remember a game's latest public post (its link goes into DMs and lists)."""
        await self._remember_post("latest_posts", game_id, message_id, url, now)

    async def _remember_post(self, table: str, game_id: int, message_id: int, url: str,
                             now: float) -> None:
        """A game's post in ``table`` (final_posts, latest_posts): the last one wins."""
        await self._execute(
            f"INSERT INTO {table} (game_id, message_id, url, posted_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id, "
            "url = excluded.url, posted_at = excluded.posted_at",
            (game_id, message_id, url, now))

    async def latest_post(self, game_id: int) -> str | None:
        """The link to a game's latest public post, if one was posted."""
        urls = await self._fetch(lambda r: str(r[0]),
                                 "SELECT url FROM latest_posts WHERE game_id = ?", (game_id,))
        return urls[0] if urls else None

    async def past_games(self, guild_id: int, limit: int = 10, *, game_id: int | None = None,
                         here: Collection[int] | None = None) -> list[PastGame]:
        """The guild's finished games, newest first (or just ``game_id``), with the seats'
        names and the final post; ``here``: only those a member asking there may hear of
        (``listing``; () the listed channels' only; None: every game, for the bot itself)."""
        where, params = (("", (guild_id,)) if game_id is None
                         else (" AND h.game_id = ?", (guild_id, game_id)))
        joins, heard, more = listing(self.dialect, here)
        games = await self._fetch(
            past_game,
            f"SELECT {H_HISTORY_COLS}, g.players, f.message_id, f.url FROM history h "
            f"JOIN games g ON g.id = h.game_id {joins} "
            "LEFT JOIN final_posts f ON f.game_id = h.game_id "
            f"WHERE h.guild_id = ?{where} AND {heard} "
            "ORDER BY h.finished_at DESC, h.game_id DESC LIMIT ?", (*params, *more, limit))
        full = await self._with_substitutes(guild_id, [g.history for g in games])
        return [replace(g, history=h) for g, h in zip(games, full, strict=True)]

    async def ratings(self, guild_id: int) -> list[RatingRow]:
        """The guild's ratings as stored (unordered)."""
        return await self._fetch(rating_row, f"SELECT {RATING_COLS} FROM ratings "
                                 "WHERE guild_id = ?", (guild_id,))

    async def update_ratings(self, guild_id: int, rate: Rater, *, rebuild: bool = False) -> int:
        """Fold the guild's finished games that the ratings do not include yet into them, in
        one transaction under a lock of the guild's ratings (``rebuild``: drop the ratings
        and fold in every game again), oldest first. Returns how many games were rated."""
        def tx() -> Tx[int]:
            yield from self._lock(f"ratings/{guild_id}")
            if rebuild:
                yield from execute("DELETE FROM ratings WHERE guild_id = ?", guild_id)
                yield from execute("DELETE FROM rated_games WHERE guild_id = ?", guild_id)
            rows = yield from fetch(
                f"SELECT {H_HISTORY_COLS} FROM history h WHERE h.guild_id = ? AND NOT EXISTS "
                "(SELECT 1 FROM rated_games r WHERE r.game_id = h.game_id) "
                "ORDER BY h.finished_at, h.game_id", guild_id)
            if not rows:
                return 0
            games = yield from substitutes_of(guild_id, [history_row(r) for r in rows])
            stored = yield from fetch(f"SELECT {RATING_COLS} FROM ratings WHERE guild_id = ?",
                                      guild_id)
            current = {r[0]: rating_row(r) for r in stored}
            new = yield from call(lambda: rate(current, games))
            yield from execute_many(
                f"INSERT INTO ratings (guild_id, {RATING_COLS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, player) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games",
                [(guild_id, r.player, r.mu, r.sigma, r.games) for r in new.values()])
            yield from execute_many("INSERT INTO rated_games (game_id, guild_id) VALUES (?, ?)",
                                    [(g.game_id, guild_id) for g in games])
            return len(games)

        return await self._transact(tx())

    # -- how players hear it is their turn, and their games
    async def notify_prefs(self, guild_id: int, pids: Iterable[str]) -> dict[str, NotifyPref]:
        """How each of ``pids`` hears it is their turn in the guild (a player who never chose
        is left out: the default is a mention)."""
        wanted = list(dict.fromkeys(pids))
        if not wanted:
            return {}
        which, params = self.dialect.any_of("pid", wanted)
        prefs = await self._fetch(notify_pref, f"SELECT {NOTIFY_COLS} FROM notify_prefs "
                                  f"WHERE guild_id = ? AND {which}", (guild_id, *params))
        return {p.pid: p for p in prefs}

    async def set_notify_mode(self, guild_id: int, pid: str, mode: str) -> None:
        """A player's choice; it also clears a refused DM (they chose again)."""
        await self._execute(
            "INSERT INTO notify_prefs (guild_id, pid, mode) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, pid) DO UPDATE SET mode = excluded.mode, "
            "dm_refused_at = NULL, hint_pending = FALSE", (guild_id, pid, mode))

    async def dm_refused(self, guild_id: int, pid: str, now: float) -> bool:
        """Discord refused a DM to a player who chose DMs: mention them instead from now on,
        and tell them once. False if it was already known (no second hint)."""
        return await self._execute(
            "UPDATE notify_prefs SET dm_refused_at = ?, hint_pending = TRUE "
            "WHERE guild_id = ? AND pid = ? AND dm_refused_at IS NULL",
            (now, guild_id, pid)) == 1

    async def hint_pending(self, guild_id: int, pid: str) -> bool:
        """Whether the player has a private hint to read (one read, no write)."""
        return bool(await self._fetch(tuple, "SELECT 1 FROM notify_prefs WHERE guild_id = ? "
                                      "AND pid = ? AND hint_pending = TRUE", (guild_id, pid)))

    async def take_hint(self, guild_id: int, pid: str) -> bool:
        """Clear the player's pending hint; True if there was one (so it is told once)."""
        return await self._execute(
            "UPDATE notify_prefs SET hint_pending = FALSE WHERE guild_id = ? AND pid = ? "
            "AND hint_pending = TRUE", (guild_id, pid)) == 1

    async def player_games(self, guild_id: int, pid: str, limit: int = 25
                           ) -> list[tuple[GameRow, str | None, bool]]:
        """The guild's lobbies and running games where ``pid`` has a seat, newest first,
        each with the link to its latest post and whether its channel is gone (the guild's
        active games, by index)."""
        seated = self.dialect.seat_pid.format(players="g.players")
        return await self._fetch(
            lambda r: (game_row(r), r[N_GAME], bool(r[N_GAME + 1])),
            f"SELECT {G_GAME_COLS}, p.url, {CHANNEL_GONE} FROM games g "
            "LEFT JOIN latest_posts p ON p.game_id = g.id "
            f"WHERE g.guild_id = ? AND g.status IN ('lobby', 'running') AND {seated} "
            "ORDER BY g.id DESC LIMIT ?", (guild_id, pid, limit))
