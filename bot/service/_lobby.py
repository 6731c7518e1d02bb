"""Lobbies: opening one, taking and leaving seats, computer players, the start."""

from __future__ import annotations

import asyncio
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
    OutboxEntry,
    RowChanges,
    Seat,
    Shards,
)
from bot.store import TooManyLobbies as StoreTooManyLobbies

from ._core import Core, log
from .posts import GameBegins, Post, PostKind, outbox_entry

MAX_OPEN_LOBBIES = 3  # open (not yet started) lobbies one user may have in one server
LOBBY_TTL = 24 * 3600.0  # a lobby nobody started is deleted after a day


class LobbyCalls(Core):
    """The calls of a channel's lobby."""

    async def create_lobby(self, guild: int, channel: int, user: str, *, seats: int = 3,
                           name: str | None = None) -> Lobby:
        """Open a lobby in ``channel`` with ``user`` seated."""
        if seats not in (3, 4):
            raise BadInput(Code.SEATS)
        user = self._check_pid(user)
        now = self.clock()
        seated = {user: name} if name else {}

        def lobby_post(game_id: int) -> OutboxEntry:
            """The new lobby's post (it names the game the store has just made)."""
            lobby = Lobby(game_id, guild, channel, GameStatus.LOBBY, user, seats, (user,),
                          seated, 0)
            return outbox_entry(Post(PostKind.LOBBY, guild, channel, game_id, 0,
                                     names=seated, lobby=lobby), now)

        async with self._lock(channel):
            try:
                row = await self.store.create_game(guild, channel, Seat(user, name), seats,
                                                   now, max_open_lobbies=MAX_OPEN_LOBBIES,
                                                   post=lobby_post)
            except ActiveGameExists:
                raise GameExists() from None
            except StoreTooManyLobbies as exc:
                raise TooManyLobbies(count=len(exc.channels),
                                     channels=" ".join(map(str, exc.channels))) from None
        log.info("lobby %s opened in channel %s (%d seats)", row.id, channel, seats)
        return self._lobby(row)

    async def expire_lobbies(self, now: float, *, shards: Shards | None = None) -> int:
        """Delete the lobbies never started that were opened more than a day before
        ``now`` (open or closed ones; started games, ended or not, stay as history); with
        ``shards``, only in the guilds of those Discord shards (this process's)."""
        deleted = await self.store.delete_unstarted(now - LOBBY_TTL, shards=shards)
        if deleted:
            log.info("deleted %d lobby(ies) never started", deleted)
        return deleted

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
            players = list(row.players)
            if fill_with_computers and len(players) < row.seats:
                if self.computers is None:
                    raise ComputersUnavailable()
                players += self.computers.seat([s.pid for s in players],
                                               row.seats - len(players))
            if len(players) < 3:
                raise NotEnoughPlayers()
            seed = self._seeds()
            state, setup = engine.start_game([s.pid for s in players], seed=seed)
            computers = frozenset(s.pid for s in players if s.computer)
            state, steps = await asyncio.to_thread(self._play_computers, state, computers)
            now = self.clock()
            fields: RowChanges = {
                "status": GameStatus.RUNNING, "players": tuple(players), "seed": seed,
                "last_action_at": now, "awaited_since": now, "last_reminded_at": None}
            closed = replace(  # its post names the players in their seats' order
                self._lobby(replace(row, status=GameStatus.RUNNING.value,
                                    players=tuple(players), version=row.version + 1)),
                players=tuple(state.players))
            update = await self._save(row, fields, state, steps, set(), computers, now,
                                      players=players, first_events=setup,
                                      lines=[GameBegins()], lobby=closed)
            log.info("game %s started in channel %s", row.id, channel)
            return update

