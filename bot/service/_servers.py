"""A server full of games: the queue of players looking for others, the server's open
lobbies, and a finished game played again.

The queue: a player asks for a table of 3 or 4, whether computers may fill the seats nobody
takes after a wait, and optionally the language the game speaks; as soon as enough players
fit together (the oldest first), they are claimed for a new game whose number is reserved,
the adapter opens its thread, and ``open_found`` seats and starts them there. An entry
expires after a day; a claim whose game never opened (the process died) waits again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot import i18n
from bot.service.errors import (
    BadInput,
    Code,
    GameExists,
    GameOver,
    NoGame,
    ServiceError,
)
from bot.service.results import (
    Found,
    GameStatus,
    Lobby,
    OpenLobby,
    Rematch,
    Seeker,
    Sought,
    Update,
)
from bot.store import AlreadySeeking, Seat, SeekerRow, Shards
from engine.ai import is_computer

from ._core import log, seat_names
from ._lobby import LobbyCalls
from ._stats import StatsCalls
from .posts import FoundInQueue, GameBegins

QUEUE_TTL = 24 * 3600.0  # a queue entry expires after a day
FILL_AFTER = 15 * 60.0  # computers may fill a table after its oldest player waited this long
CLAIM_TTL = 10 * 60.0  # a game being opened for queued players that never opened by then
MAX_LOBBIES_LISTED = 25


def _seeker(row: SeekerRow) -> Seeker:
    return Seeker(row.pid, row.name, row.players, row.computers, row.language,
                  row.channel_id, row.created_at, row.claimed is not None)


def _fits(language: str | None, row: SeekerRow) -> bool:
    return language is None or row.language is None or row.language == language


def table_for(waiting: Sequence[SeekerRow], *, fill_from: float | None = None
              ) -> list[SeekerRow]:
    """The players who play together now, oldest first (none: nobody yet): the oldest
    waiting player with enough others who want the same size of table and whose languages
    agree (a player with none agrees with any); with ``fill_from``, the oldest player who
    lets computers fill and has waited since before it, with the others who let them too
    (the computers take the rest)."""
    for anchor in waiting:
        if fill_from is not None and not (anchor.computers and anchor.created_at <= fill_from):
            continue
        table = [anchor]
        language = anchor.language
        for other in waiting:
            if len(table) == anchor.players:
                break
            if other is anchor or other.players != anchor.players or not _fits(language,
                                                                                  other):
                continue
            if fill_from is not None and not other.computers:
                continue
            table.append(other)
            language = language or other.language
        if len(table) == anchor.players or fill_from is not None:
            return table
    return []


class ServerCalls(LobbyCalls, StatsCalls):
    """The queue, a server's open lobbies, rematches."""

    # ------------------------------------------------------------------ the queue
    async def seek(self, guild: int, channel: int, user: str, *, name: str | None = None,
                   players: int = 4, fill: bool = False,
                   language: str | None = None) -> Sought:
        """Put ``user`` in the server's queue for a table of ``players`` (``fill``:
        computers may fill the empty seats after a wait; ``language``: the game speaks it).
        When that completes a table, its players are claimed for a new game (``found``):
        the adapter opens its thread in ``channel`` and calls ``open_found``. Refused when
        the user already waits (queue.already)."""
        if players not in (3, 4):
            raise BadInput(Code.SEATS)
        if language is not None and not i18n.is_language(language):
            raise BadInput(Code.LANGUAGE)
        now = self.clock()
        row = SeekerRow(guild, user, name, players, fill, language, channel, now)
        try:
            claim = await self.store.add_seeker(
                row, lambda rows: [r.pid for r in table_for(rows)], now - QUEUE_TTL, now)
        except AlreadySeeking:
            raise ServiceError(Code.QUEUE_ALREADY) from None
        found = None if claim is None else self._found(guild, channel, *claim)
        waiting = 0
        if found is None:
            waiting = sum(1 for s in await self.store.seekers(guild, now - QUEUE_TTL)
                          if s.players == players and s.claimed is None)
        log.info("guild %s: a player joined the queue for %d%s", guild, players,
                 f"; game {found.number} found" if found else "")
        return Sought(_seeker(row), found, waiting)

    @staticmethod
    def _found(guild: int, channel: int, number: int, table: list[SeekerRow]) -> Found:
        players = table[0].players
        language = next((s.language for s in table if s.language), None)
        return Found(number, guild, channel, tuple(_seeker(s) for s in table), players,
                     players - len(table), language)

    async def leave_queue(self, guild: int, user: str) -> None:
        """Take ``user`` out of the server's queue (queue.not_in if they are not in it)."""
        if not await self.store.remove_seeker(guild, user):
            raise ServiceError(Code.NOT_SEEKING)

    async def queue(self, guild: int) -> list[Seeker]:
        """Who waits in the server's queue (and who is being seated), oldest first."""
        return [_seeker(r) for r in await self.store.seekers(guild,
                                                             self.clock() - QUEUE_TTL)]

    async def fill_queues(self, now: float, *, shards: Shards | None = None) -> list[Found]:
        """Tables where computers fill the empty seats: a player who lets them and has
        waited long enough, with whoever else waits for the same table and lets them too
        (claimed, like ``seek``'s); each opens its thread in its oldest player's channel."""
        out: list[Found] = []
        for guild in await self.store.queue_guilds(now - FILL_AFTER, now - QUEUE_TTL,
                                                   shards=shards):
            while True:
                claim = await self.store.claim_seekers(
                    guild, lambda rows: [r.pid for r in table_for(
                        rows, fill_from=now - FILL_AFTER)], now - QUEUE_TTL, now)
                if claim is None:
                    break
                number, table = claim
                out.append(self._found(guild, table[0].channel_id, number, table))
        return out

    async def expire_queues(self, now: float, *, shards: Shards | None = None) -> int:
        """Drop the queue entries older than a day, and let the players of a game whose
        opening never finished wait again; returns how many entries were dropped."""
        return await self.store.expire_seekers(now - QUEUE_TTL, now - CLAIM_TTL,
                                               shards=shards)

    async def release(self, number: int) -> None:
        """The found game ``number`` could not be opened (its thread was refused): its
        players wait in the queue again."""
        await self.store.release_seekers(number)

    async def open_found(self, found: Found, thread: int) -> Update:
        """Open the game the queue ``found`` in ``thread``, its new thread of the found
        channel: its players seated, leaving the queue, and the game started at once
        (computers in the empty seats), its first post pinging everyone."""
        seated = [Seat(s.pid, s.name) for s in found.seekers]
        row = await self._open_lobby(found.guild_id, thread, seated[0], found.players,
                                     others=seated[1:], parent=found.channel_id,
                                     number=found.number, why="queue", limited=False,
                                     language=found.language)
        async with self._lock(thread):
            update = await self._start(row, True, lines=[
                FoundInQueue(found.pids, found.computers), GameBegins()], invite=found.pids)
        log.info("game %s found by the queue started in channel %s", row.id, thread)
        return update

    # ------------------------------------------------------------------ lobbies
    async def lobbies(self, guild: int, *, here: Collection[int] | None = None
                      ) -> list[OpenLobby]:
        """The server's open lobbies (oldest first), with their free seats and links;
        ``here``: only those a member asking there may hear of (``listed_games``: the
        listed channels' and the asking place's; None: every lobby, for the bot itself)."""
        found = await self.store.open_lobbies(guild, MAX_LOBBIES_LISTED,
                                              here=None if here is None else tuple(here))
        return [OpenLobby(row.id, row.channel_id, row.seats,
                          tuple(s.pid for s in row.players), seat_names(row.players),
                          row.invited, url)
                for row, url in found]

    # ------------------------------------------------------------------ rematches
    async def rematch_of(self, guild: int, game_id: int, user: str) -> Rematch:
        """What playing game ``game_id`` again takes, asked by ``user``: anyone who played
        a seat of it (the history lists them), one who handed theirs over mid-game
        included. Refused when the game is not a finished game of this server (game.none,
        history.not_over), when ``user`` played no seat of it (rematch.not_player), or
        when its rematch is open already (rematch.open)."""
        row = await self.store.game(game_id)
        if row is None or row.guild_id != guild or (row.practice and row.creator != user):
            raise NoGame()  # (a practice game is its learner's: never said to exist)
        if row.status != GameStatus.FINISHED:
            raise ServiceError(Code.NOT_OVER) if row.status == GameStatus.RUNNING \
                else GameOver()
        people = {s.pid: {s.pid, s.player} for s in row.players}  # who played each seat
        for sub in await self.store.substitutes(game_id):
            people[sub.pid].add(sub.player)
        mine = next((pid for pid, who in people.items() if user in who), None)
        if mine is None or is_computer(user):
            raise ServiceError(Code.REMATCH_PLAYER)
        again = await self.store.rematch(game_id)
        if again is not None:
            raise ServiceError(Code.REMATCH_OPEN, channels=str(again[0].channel_id))
        # A seat is one place at the table: the asker takes the one they played, and who
        # sat at each other seat at the end is asked back (so the seats are the game's).
        humans = tuple(s.player for s in row.players
                       if not is_computer(s.player) and s.pid != mine)
        return Rematch(row.id, row.guild_id, row.channel_id, row.parent_id, len(row.players),
                       humans, tuple(s.pid for s in row.players if is_computer(s.player)),
                       seat_names(row.players))

    async def open_rematch(self, guild: int, channel: int, user: str, *, game_id: int,
                           name: str | None = None, parent: int | None = None,
                           number: int | None = None) -> Lobby:
        """Open the lobby of game ``game_id``'s rematch in ``channel`` (a new thread of
        ``parent``, or a channel whose game is over), opened by ``user``: the computer
        players sit again, the other players are invited (pinged; each takes their seat
        with Join)."""
        plan = await self.rematch_of(guild, game_id, user)
        old = await self.store.game(game_id)
        assert old is not None
        computers = [s for s in old.players if is_computer(s.player)]
        try:
            row = await self._open_lobby(
                guild, channel, Seat(user, name), plan.seats, others=computers,
                parent=parent, number=number, invited=plan.invited, rematch_of=game_id,
                why="rematch")
        except GameExists:
            again = await self.store.rematch(game_id)  # pressed twice at once
            if again is None:
                raise
            raise ServiceError(Code.REMATCH_OPEN, channels=str(again[0].channel_id)) from None
        log.info("game %s: rematch %s opened in channel %s", game_id, row.id, channel)
        return self._lobby(row)
