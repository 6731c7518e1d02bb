"""Lobbies: opening one, taking and leaving seats, computer players, the start."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import engine
from bot.service.errors import (
    AlreadyJoined,
    BadInput,
    Code,
    ComputersUnavailable,
    GameAbandoned,
    GameExists,
    GameFull,
    GameOver,
    GameStarted,
    NotCreator,
    NotEnoughPlayers,
    NotInGame,
    NotJoined,
    StalePrompt,
    TooManyLobbies,
)
from bot.service.results import (
    GameStatus,
    Lobby,
    Update,
)
from bot.store import (
    ActiveGameExists,
    GameRow,
    LobbyLimitReached,
    OutboxEntry,
    RowChanges,
    Seat,
    Shards,
)

from ._core import Core, log
from .posts import GameBegins, Line, Post, PostKind, ThreadOpened, outbox_entry

MAX_OPEN_LOBBIES = 3  # open (not yet started) lobbies one user may have in one server
LOBBY_TTL = 24 * 3600.0  # a lobby nobody started is deleted after a day


class LobbyCalls(Core):
    """The calls of a channel's lobby."""

    async def create_lobby(self, guild: int, channel: int, user: str, *, seats: int = 3,
                           name: str | None = None, computers: int = 0,
                           level: str = "normal", parent: int | None = None,
                           number: int | None = None) -> Lobby:
        """Open a lobby in ``channel`` with ``user`` seated, and ``computers`` computer
        players of ``level``. ``parent``: the text channel whose thread ``channel`` is,
        opened for this game (the thread takes the channel's settings, and the channel gets
        a pointer to it); ``number``: the game's number, reserved before its thread was
        named (``reserve_number``; ``lobby_seats`` are the seats it was named after)."""
        seated = self.lobby_seats(self._check_pid(user), name, seats=seats,
                                  computers=computers, level=level)
        row = await self._open_lobby(guild, channel, seated[0], seats, others=seated[1:],
                                     parent=parent, number=number)
        log.info("lobby %s opened in channel %s (%d seats)", row.id, channel, seats)
        return self._lobby(row)

    def lobby_seats(self, user: str, name: str | None, *, seats: int = 3, computers: int = 0,
                    level: str = "normal") -> list[Seat]:
        """The seats a new lobby opens with: ``user``'s, then ``computers`` computer
        players of ``level`` (the same every time: a thread is named after them before the
        lobby is made). Raises BadInput."""
        if seats not in (3, 4) or isinstance(seats, bool):
            raise BadInput(Code.SEATS)
        if type(computers) is not int or not 0 <= computers < seats:
            raise BadInput(Code.COMPUTER_SEATS)
        seated = [Seat(user, name)]
        if computers:
            if self.computers is None:
                raise ComputersUnavailable()
            try:
                seated += self.computers.seat([user], computers, level)
            except ValueError:
                raise BadInput(Code.COMPUTER_LEVEL) from None
        return seated

    async def reserve_number(self) -> int:
        """A new game's number, taken before its thread is made (the thread is named after
        it once: Discord allows two renames of a channel per ten minutes)."""
        return await self.store.reserve_number()

    async def check_can_open(self, guild: int, user: str) -> None:
        """Refuse before anything is made (a thread) when ``user`` may not open a lobby
        now: they already have the most open lobbies allowed in the server."""
        channels = await self.store.open_lobby_channels(guild, self._check_pid(user))
        if len(channels) >= MAX_OPEN_LOBBIES:
            raise TooManyLobbies(count=len(channels), channels=" ".join(map(str, channels)))

    async def _open_lobby(self, guild: int, channel: int, creator: Seat, seats: int, *,
                          others: Sequence[Seat] = (), parent: int | None = None,
                          number: int | None = None, invited: Sequence[str] = (),
                          rematch_of: int | None = None, why: str = "new",
                          limited: bool = True, language: str | None = None) -> GameRow:
        """Make the lobby with its post (pinging ``invited``), and in a thread of
        ``parent`` the pointer there (``why``: ``ThreadOpened``'s); ``limited``: the
        creator's open lobbies are counted (not for a table the queue found); ``language``:
        the thread speaks it rather than its channel's language."""
        now = self.clock()
        settings = None
        if parent is not None:  # a thread plays by its channel's settings
            settings = replace(await self.store.settings(parent), threads=None)
            if language is not None:
                settings = replace(settings, language=language)

        def posts(row: GameRow) -> list[OutboxEntry]:
            """The new lobby's posts (they name the game the store has just made)."""
            lobby = self._lobby(row)
            out = [Post(PostKind.LOBBY, guild, channel, row.id, 0, names=lobby.names,
                        lobby=lobby, invite=tuple(invited))]
            if parent is not None:
                out.append(Post(PostKind.NOTE, guild, parent, lines=(
                    ThreadOpened(row.id, channel, creator.pid, why),)))
            return [outbox_entry(p, now) for p in out]

        async with self._lock(channel):
            try:
                return await self.store.create_game(
                    guild, channel, creator, seats, now,
                    max_open_lobbies=MAX_OPEN_LOBBIES if limited else None, posts=posts,
                    others=others, number=number, parent_id=parent, invited=invited,
                    rematch_of=rematch_of, settings=settings)
            except ActiveGameExists:
                raise GameExists() from None
            except LobbyLimitReached as exc:
                raise TooManyLobbies(count=len(exc.channels),
                                     channels=" ".join(map(str, exc.channels))) from None

    async def expire_lobbies(self, now: float, *, shards: Shards | None = None) -> int:
        """Close the lobbies nobody started within a day of ``now`` (their post loses its
        buttons and says why, their thread is archived), and delete those that never
        started and were closed more than a day before (started games, ended or not, stay
        as history); with ``shards``, only in the guilds of those Discord shards (this
        process's). Returns how many were closed or deleted."""
        closed = 0
        for row in await self.store.stale_lobbies(now - LOBBY_TTL, shards=shards):
            try:
                async with self._lock(row.channel_id):
                    await self._commit_lobby(row, {"status": GameStatus.ABANDONED,
                                                   "ended_at": now, "last_action_at": now},
                                             why="expired")
            except StalePrompt:
                continue  # it changed meanwhile (started, say): not stale after all
            closed += 1
        deleted = await self.store.delete_unstarted(now - LOBBY_TTL, shards=shards)
        if closed or deleted:
            log.info("closed %d lobby(ies) nobody started; deleted %d", closed, deleted)
        return closed + deleted

    async def _lobby_row(self, channel: int, game_id: int | None,
                         seated: str | None = None) -> GameRow:
        """The channel's lobby (the one a button belongs to); with ``seated``, that user must
        sit in it."""
        if game_id is None:  # a command: this channel's lobby, if it has one
            row = await self._active(channel)
        else:  # a lobby button: that lobby, whatever became of it
            row = (await self._load(channel)).row
            if game_id != row.id:
                raise StalePrompt()
            if row.status == GameStatus.FINISHED:
                raise GameOver()
            if row.status == GameStatus.ABANDONED:
                raise GameAbandoned()
        if row.status != GameStatus.LOBBY:
            raise GameStarted()
        if seated is not None and row.seat(seated) is None:
            raise NotInGame()
        return row

    async def join(self, channel: int, user: str, *, name: str | None = None,
                   game_id: int | None = None) -> Lobby:
        """Take a seat in the channel's lobby."""
        user = self._check_pid(user)
        async with self._lock(channel):
            row = await self._lobby_row(channel, game_id)
            if row.seat(user) is not None:
                raise AlreadyJoined()
            if len(row.players) >= row.seats:
                raise GameFull()
            return await self._change_lobby(row, {"players": (*row.players, Seat(user, name)),
                                                  "last_action_at": self.clock()})

    async def leave(self, channel: int, user: str, *, game_id: int | None = None) -> Lobby:
        """Give up a seat before the start. The last person out ends the lobby."""
        async with self._lock(channel):
            row = await self._lobby_row(channel, game_id)
            if row.seat(user) is None:
                raise NotJoined()
            players = tuple(s for s in row.players if s.pid != user)
            humans = [s for s in players if not s.computer]
            fields: RowChanges = {"players": players, "last_action_at": self.clock()}
            if not humans:  # computer players alone cannot start, join or end a lobby
                fields.update({"status": GameStatus.ABANDONED, "ended_at": self.clock()})
            elif user == row.creator:
                fields["creator"] = humans[0].pid
            return await self._change_lobby(row, fields)

    async def add_computer(self, channel: int, user: str, *, level: str = "normal",
                           game_id: int | None = None) -> Lobby:
        """A seated player adds a computer player to the lobby."""
        if self.computers is None:
            raise ComputersUnavailable()
        async with self._lock(channel):
            row = await self._lobby_row(channel, game_id, user)
            if len(row.players) >= row.seats:
                raise GameFull()
            try:
                seat = self.computers.seat([s.pid for s in row.players], 1, level)
            except ValueError:
                raise BadInput(Code.COMPUTER_LEVEL) from None
            return await self._change_lobby(row, {"players": (*row.players, *seat),
                                                  "last_action_at": self.clock()})

    async def remove_computer(self, channel: int, user: str, pid: str) -> Lobby:
        """A seated player takes a computer player out of the lobby."""
        async with self._lock(channel):
            row = await self._lobby_row(channel, None, user)
            target = row.seat(pid)
            if target is None or not target.computer:
                raise BadInput(Code.COMPUTER_UNKNOWN)
            players = tuple(s for s in row.players if s.pid != pid)
            return await self._change_lobby(row, {"players": players,
                                                  "last_action_at": self.clock()})

    async def _change_lobby(self, row: GameRow, fields: RowChanges) -> Lobby:
        """Commit a change of the lobby with its post (the lobby as it is now: its post is
        edited in place), at once."""
        return self._lobby(await self._commit_lobby(row, fields))

    async def start(self, channel: int, user: str, *, fill_with_computers: bool = False,
                    game_id: int | None = None, is_admin: bool = False) -> Update:
        """Start the lobby's game: seats are drawn from a fresh secret seed. With
        ``fill_with_computers`` every empty seat gets a computer player first. Only the
        player who opened the lobby (after they left: the next seated human in join order)
        or a channel manager may. The Update's events begin with the set-up (seat order,
        everyone's rolls)."""
        async with self._lock(channel):
            row = await self._lobby_row(channel, game_id, None if is_admin else user)
            if user != row.creator and not is_admin:
                raise NotCreator()
            update = await self._start(row, fill_with_computers, lines=[GameBegins()])
            log.info("game %s started in channel %s", row.id, channel)
            return update

    async def _start(self, row: GameRow, fill_with_computers: bool, *,
                     lines: Sequence[Line], invite: Sequence[str] = ()) -> Update:
        """Start the lobby ``row`` (its channel's lock held): seats drawn from a fresh
        secret seed, empty seats filled first if asked; the post (``lines``, pinging
        ``invite`` too) closes the lobby's."""
        players = list(row.players)
        if fill_with_computers and len(players) < row.seats:
            if self.computers is None:
                raise ComputersUnavailable()
            players += self.computers.seat([s.pid for s in players], row.seats - len(players))
        if len(players) < 3:
            raise NotEnoughPlayers()
        seed = self._seeds()
        state, setup = engine.start_game([s.pid for s in players], seed=seed)
        computers = frozenset(s.pid for s in players if s.computer)
        state, steps = await self._think(state, computers)
        now = self.clock()
        fields: RowChanges = {
            "status": GameStatus.RUNNING, "players": tuple(players), "seed": seed,
            "last_action_at": now, "awaited_since": now, "last_reminded_at": None}
        closed = replace(  # its post names the players in their seats' order
            self._lobby(replace(row, status=GameStatus.RUNNING.value,
                                players=tuple(players), version=row.version + 1)),
            players=tuple(state.players))
        return await self._save(row, fields, state, steps, set(), computers, now,
                                players=players, first_events=setup, lines=lines,
                                lobby=closed, invite=invite)

