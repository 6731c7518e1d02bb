"""A server's games beyond one channel: the numbers games are named by (taken before a
game's thread is made), the queue of players waiting for others, the server's open lobbies
and the rematch a finished game has.

The queue's rules (who plays with whom, when computers fill) are the service's: the store
runs the service's ``match`` inside the transaction that holds the server's queue, so two
players joining at once never both take the same waiting players.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from bot.store.backend import Backend
from bot.store.errors import AlreadySeeking, DuplicateKey
from bot.store.pages import listing
from bot.store.queries import G_GAME_COLS, N_GAME, game_row
from bot.store.rows import GameRow, SeekerRow, Shards
from bot.store.tx import Row, Tx, execute, fetch

SEEKER_COLUMNS = ("guild_id", "pid", "name", "players", "computers", "language",
                  "channel_id", "created_at", "claimed")
SEEKER_COLS = ", ".join(SEEKER_COLUMNS)

# match(the server's waiting players, oldest first) -> the pids of a table that plays now
Match = Callable[[list[SeekerRow]], Sequence[str]]


def seeker_row(r: Row) -> SeekerRow:
    return SeekerRow(int(r[0]), str(r[1]), r[2], int(r[3]), bool(r[4]), r[5], int(r[6]),
                     float(r[7]), None if r[8] is None else int(r[8]))


def next_number() -> Tx[int]:
    """A game's number, never given before (nor again): the games table takes it as its
    id. Only the newest stays in ``game_numbers`` (its sequence remembers the rest)."""
    rows = yield from fetch("INSERT INTO game_numbers DEFAULT VALUES RETURNING id")
    number = int(rows[0][0])
    yield from execute("DELETE FROM game_numbers WHERE id < ?", number)
    return number


class ServerQueries(Backend):
    """Game numbers, the queue, a server's open lobbies, a finished game's rematch."""

    async def reserve_number(self) -> int:
        """A game's number for a game about to be made (its thread is named after it)."""
        return await self._transact(next_number())

    # -- the queue
    async def add_seeker(self, seeker: SeekerRow, match: Match, since: float,
                         now: float) -> tuple[int, list[SeekerRow]] | None:
        """Put ``seeker`` in their server's queue, then, under the server's queue lock,
        ask ``match`` for a table among the waiting players who joined after ``since``
        (older entries have expired): those are claimed for a new game whose number is
        returned with them. Raises AlreadySeeking (nothing written)."""
        def tx() -> Tx[tuple[int, list[SeekerRow]] | None]:
            yield from self._lock(f"queue/{seeker.guild_id}")
            try:
                yield from execute(
                    f"INSERT INTO seekers ({SEEKER_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                    seeker.guild_id, seeker.pid, seeker.name, seeker.players,
                    seeker.computers, seeker.language, seeker.channel_id, seeker.created_at)
            except DuplicateKey:
                raise AlreadySeeking("Already in this server's queue.") from None
            return (yield from self._claim(seeker.guild_id, match, since, now))

        return await self._transact(tx())

    async def claim_seekers(self, guild_id: int, match: Match, since: float,
                            now: float) -> tuple[int, list[SeekerRow]] | None:
        """Ask ``match`` for a table among the server's waiting players (as ``add_seeker``
        does, without adding anyone): the periodic pass's, when computers may fill."""
        def tx() -> Tx[tuple[int, list[SeekerRow]] | None]:
            yield from self._lock(f"queue/{guild_id}")
            return (yield from self._claim(guild_id, match, since, now))

        return await self._transact(tx())

    def _claim(self, guild_id: int, match: Match, since: float,
               now: float) -> Tx[tuple[int, list[SeekerRow]] | None]:
        rows = yield from fetch(f"SELECT {SEEKER_COLS} FROM seekers WHERE guild_id = ? AND "
                                "claimed IS NULL AND created_at > ? ORDER BY created_at, pid",
                                guild_id, since)
        waiting = [seeker_row(r) for r in rows]
        chosen = set(match(waiting))
        table = [s for s in waiting if s.pid in chosen]
        if not table:
            return None
        number = yield from next_number()
        which, params = self.dialect.any_of("pid", [s.pid for s in table])
        yield from execute(f"UPDATE seekers SET claimed = ?, claimed_at = ? WHERE "
                           f"guild_id = ? AND {which}", number, now, guild_id, *params)
        return number, table

    async def release_seekers(self, number: int) -> int:
        """The game ``number`` could not be opened: its players wait in the queue again."""
        return await self._execute("UPDATE seekers SET claimed = NULL, claimed_at = NULL "
                                   "WHERE claimed = ?", (number,))

    async def remove_seeker(self, guild_id: int, pid: str) -> bool:
        """Take a waiting player out of the queue (False: they were not waiting)."""
        return await self._execute("DELETE FROM seekers WHERE guild_id = ? AND pid = ? AND "
                                   "claimed IS NULL", (guild_id, pid)) == 1

    async def seekers(self, guild_id: int, since: float) -> list[SeekerRow]:
        """The server's queue: who waits (and who is being seated), oldest first."""
        return await self._fetch(seeker_row, f"SELECT {SEEKER_COLS} FROM seekers WHERE "
                                 "guild_id = ? AND created_at > ? ORDER BY created_at, pid",
                                 (guild_id, since))

    async def queue_guilds(self, waited_before: float, since: float, *,
                           shards: Shards | None = None) -> list[int]:
        """The servers with a waiting player who lets computers fill and has waited since
        before ``waited_before`` (in ``shards``' guilds when given)."""
        where, extra = self._shards("guild_id", shards)
        return await self._fetch(
            lambda r: int(r[0]),
            "SELECT DISTINCT guild_id FROM seekers WHERE computers = TRUE AND claimed IS NULL "
            f"AND created_at <= ? AND created_at > ?{where}", (waited_before, since, *extra))

    async def expire_seekers(self, created_before: float, claimed_before: float, *,
                             shards: Shards | None = None) -> int:
        """Drop the entries older than ``created_before`` (waiting or not); claims older
        than ``claimed_before`` (a game whose opening never finished: the process died)
        wait again. Returns how many entries were dropped."""
        where, extra = self._shards("guild_id", shards)

        def tx() -> Tx[int]:
            dropped = yield from execute(
                f"DELETE FROM seekers WHERE created_at <= ?{where}", created_before, *extra)
            yield from execute(
                "UPDATE seekers SET claimed = NULL, claimed_at = NULL WHERE claimed IS NOT "
                f"NULL AND claimed_at <= ?{where}", claimed_before, *extra)
            return dropped

        return await self._transact(tx())

    # -- a server's lobbies, a finished game's rematch
    async def open_lobbies(self, guild_id: int, limit: int = 25, *,
                           here: Collection[int] | None = None
                           ) -> list[tuple[GameRow, str | None]]:
        """The server's lobbies, oldest first, each with the link to its post (when
        posted); lobbies whose channel is gone are left out; ``here``: only those a member
        asking there may hear of (``listing``; () the listed channels' only)."""
        joins, where, params = listing(self.dialect, here)
        return await self._fetch(
            lambda r: (game_row(r), r[N_GAME]),
            f"SELECT {G_GAME_COLS}, p.url FROM games g {joins} "
            "LEFT JOIN latest_posts p ON p.game_id = g.id WHERE g.guild_id = ? AND "
            f"g.status = 'lobby' AND {where} AND NOT EXISTS (SELECT 1 FROM "
            "places pl WHERE pl.channel_id = g.channel_id AND pl.gone_at IS NOT NULL) "
            "ORDER BY g.id LIMIT ?",
            (guild_id, *params, limit))

    # -- a learner's practice game
    async def practice_game(self, guild_id: int, pid: str) -> GameRow | None:
        """``pid``'s unfinished practice game in the guild (the newest), if any."""
        rows = await self._fetch(
            game_row, f"SELECT {G_GAME_COLS} FROM games g WHERE g.guild_id = ? AND "
            "g.practice AND g.creator = ? AND g.status IN ('lobby', 'running') "
            "ORDER BY g.id DESC LIMIT 1", (guild_id, pid))
        return rows[0] if rows else None

    async def has_sat(self, guild_id: int, pid: str) -> bool:
        """Whether ``pid`` has a seat, or plays one, in any game of the guild (a lobby, a
        running or an ended game, a practice game too)."""
        seated = self.dialect.seat_pid.format(players="g.players")
        return bool(await self._fetch(tuple, f"SELECT 1 FROM games g WHERE g.guild_id = ? "
                                      f"AND {seated} LIMIT 1", (guild_id, pid)))

    async def tell_learn(self, guild_id: int, pid: str, now: float) -> bool:
        """Mark ``pid`` told of the practice game on the guild; True the first time only
        (so the newcomer's pointer is said once)."""
        return await self._execute(
            "INSERT INTO learn_told (guild_id, pid, told_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, pid) DO NOTHING", (guild_id, pid, now)) == 1

    async def rematch(self, game_id: int) -> tuple[GameRow, str | None] | None:
        """The newest game that plays ``game_id`` again, with the link to its post."""
        rows = await self._fetch(
            lambda r: (game_row(r), r[N_GAME]),
            f"SELECT {G_GAME_COLS}, p.url FROM games g LEFT JOIN latest_posts p "
            "ON p.game_id = g.id WHERE g.rematch_of = ? ORDER BY g.id DESC LIMIT 1",
            (game_id,))
        return rows[0] if rows else None
