"""The game service: load a channel's game → check the actor → ``engine.apply`` → save → say
what happened. Plain async Python over ``bot.store`` and ``engine``; no Discord types, so
tests drive whole games through it.

    service = await open_service(path)          # path, else $SANMARCO_DB, else ./sanmarco.db
    ...
    await service.close()

``channel``/``guild`` are Discord ids (int); ``user`` is a pid: the Discord id as text.
Actions are ``engine.Action`` values (text is parsed only where a person types it, in the
adapter). Every call raises a ``ServiceError`` (``bot.errors``: a stable ``code`` and
``params``, never a sentence, never a secret) and has then written nothing; what a player
reads for a code is ``bot.text.refusal``.

One place checks a click against the game (``_check_turn``), in this order: no game here
(game.none), a prompt of another game in this channel (state.stale), not started
(game.not_started), over (game.over), abandoned (game.abandoned), not seated
(player.not_in_game), not awaited (action.not_your_turn), a stale version (state.stale);
then the engine checks the rules.

=========================================================  =================
call                                                       returns
=========================================================  =================
``create_lobby(guild, channel, user, *, seats, name)``     ``Lobby``
``join / leave / add_computer / remove_computer``          ``Lobby``
``start(channel, user, *, fill_with_computers)``           ``Update``
``act(channel, user, action, *, expected_version,          ``Update``
game_id)``
``snapshot(channel, user, *, game_id, turn)``              ``Snapshot``
``public_view / private_view / legal_actions / names``     views, actions, names
``status(channel)`` / ``log(channel)`` / ``audit``         ``Status`` / ``GameLog`` / ``Audit``
``vote_replace`` / ``reclaim`` / ``abandon``               ``Replacement`` / ``Lobby`` / ``Ended``
``settings`` / ``set_settings``                            ``Settings``
``due_reminders(now)`` / ``mark_reminded``                 ``list[Reminder]`` / ``bool``
``history(guild)`` / ``standings(guild)``                  lists
=========================================================  =================

Reading calls work on the channel's active game, else on its most recent ended one: finished
games stay readable. ``Update.version`` is the game's version; ``Lobby.version`` and
``Reminder.version`` are row revisions.

Concurrency: one ``asyncio.Lock`` per channel serialises every write, and the store refuses
a write whose row version is stale, so two identical clicks apply once.

Computer players: pass ``computers=`` (see ``ComputerPlayers``; ``bot.computers`` is the
real one). The service plays their moves right after a human's, inside the same call, in a
worker thread so the event loop never waits on a computer's thinking.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import engine
from bot._results import (
    Audit,
    Ended,
    GameLog,
    GameStatus,
    Lobby,
    LogEntry,
    Reminder,
    Replacement,
    Snapshot,
    Standing,
    Status,
    Update,
)
from bot.errors import (
    AlreadyComputer,
    AlreadyJoined,
    AlreadyVoted,
    BadInput,
    Code,
    ComputersUnavailable,
    GameAbandoned,
    GameExists,
    GameFull,
    GameNotStarted,
    GameOver,
    GameStarted,
    NoGame,
    NotCreator,
    NotEnoughPlayers,
    NotInGame,
    NotJoined,
    NotReplaced,
    NotYourTurn,
    PermissionDenied,
    RuleError,
    ServiceError,
    StalePrompt,
    from_engine,
)
from bot.store import (
    ActiveGameExists,
    GameRow,
    HistoryRow,
    LogRow,
    RowChanges,
    Seat,
    Settings,
    StaleWrite,
    Store,
)
from engine import Action, ActionError, Event, GameState
from engine.views import PrivateView, PublicView

__all__ = [
    "AlreadyJoined", "Audit", "BadInput", "Code", "ComputerPlayers", "Ended",
    "GameAbandoned", "GameExists", "GameFull", "GameLog", "GameNotStarted", "GameOver",
    "GameService", "GameStarted", "GameStatus", "Lobby", "LogEntry", "NoGame", "NotCreator",
    "NotEnoughPlayers", "NotInGame", "NotJoined", "NotYourTurn", "PermissionDenied",
    "Reminder", "Replacement", "RuleError", "ServiceError", "Settings", "Snapshot",
    "Standing", "StalePrompt", "Status", "Update", "open_service",
]

log = logging.getLogger(__name__)

MAX_COMPUTER_MOVES = 5000  # a guard: a whole game is ~100-200 actions

Step = tuple[str, Action, tuple[Event, ...]]  # who, what, what happened


class ComputerPlayers(Protocol):
    """The hook for computer players.

    ``seat(taken, count, level)`` returns ``count`` new seats (``Seat(pid, name,
    computer=True)``, pids unlike any Discord id, e.g. ``"ai.normal.1"``) for a game whose
    seats ``taken`` holds; raises ValueError for an unknown level.
    ``choose(state, pid)`` returns one of ``engine.legal_actions(state, pid)`` — also for a
    human's pid whose seat a computer has taken over. It may take a while (it runs in a
    worker thread, off the event loop).
    """

    def seat(self, taken: Sequence[str], count: int, level: str = "normal") -> list[Seat]: ...

    def choose(self, state: GameState, pid: str) -> Action: ...


async def open_service(path: str | None = None, *, clock: Callable[[], float] = time.time,
                       computers: ComputerPlayers | None = None,
                       seeds: Callable[[], int] | None = None) -> GameService:
    """A service over the store at ``path`` (else $SANMARCO_DB, else ./sanmarco.db)."""
    store = await Store.open(path)
    return GameService(store, clock, computers=computers, seeds=seeds)


@dataclass(frozen=True)
class _Loaded:
    """A row and its parsed state (None for a lobby): read once per call."""

    row: GameRow
    state: GameState | None

    @property
    def status(self) -> GameStatus:
        return GameStatus(self.row.status)


class GameService:
    """San Marco games, one per channel, over a ``Store``. See the module docstring."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time, *,
                 computers: ComputerPlayers | None = None,
                 seeds: Callable[[], int] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.computers = computers
        self._seeds = seeds or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}

    async def close(self) -> None:
        await self.store.close()

    def _lock(self, channel: int) -> asyncio.Lock:
        return self._locks.setdefault(channel, asyncio.Lock())

    # ------------------------------------------------------------------ loading
    async def _active(self, channel: int) -> GameRow:
        row = await self.store.active_game(channel)
        if row is None:
            raise NoGame()
        return row

    async def _load(self, channel: int) -> _Loaded:
        """The channel's active game, else its latest ended one (one read)."""
        row = await self.store.latest_game(channel)
        if row is None:
            raise NoGame()
        return _Loaded(row, None if row.state is None else GameState.from_json(row.state))

    @staticmethod
    def _started(loaded: _Loaded) -> GameState:
        if loaded.state is None:
            raise GameNotStarted()
        return loaded.state

    @staticmethod
    def _names(row: GameRow) -> dict[str, str]:
        return {s.pid: s.name for s in row.players if s.name}

    @staticmethod
    def _computer_pids(row: GameRow) -> frozenset[str]:
        return frozenset(s.pid for s in row.players if s.computer)

    @staticmethod
    def _lobby(row: GameRow) -> Lobby:
        return Lobby(row.id, row.guild_id, row.channel_id, GameStatus(row.status), row.creator,
                     row.seats, tuple(s.pid for s in row.players), GameService._names(row),
                     row.version)

    async def _commit(self, row: GameRow, fields: RowChanges,
                      actions: Sequence[LogRow] = (), history: HistoryRow | None = None) -> int:
        try:
            return await self.store.commit(row.id, row.version, fields, actions, history)
        except StaleWrite:
            raise StalePrompt() from None

    async def _reload(self, row: GameRow) -> GameRow:
        new = await self.store.game(row.id)
        assert new is not None
        return new

    # ------------------------------------------------------------------ the one check
    @staticmethod
    def _check_turn(loaded: _Loaded, user: str, *, game_id: int | None,
                    expected_version: int | None) -> GameState:
        """Whether ``user`` may act now in the game a prompt belongs to: the module
        docstring's order, the same for every click and command."""
        row = loaded.row
        if game_id is not None and game_id != row.id:
            raise StalePrompt()
        status = loaded.status
        if status is GameStatus.LOBBY:
            raise GameNotStarted()
        if status is GameStatus.FINISHED:
            raise GameOver()
        if status is GameStatus.ABANDONED:
            raise GameAbandoned()
        state = GameService._started(loaded)
        if row.seat(user) is None:
            raise NotInGame()
        if user not in state.waiting_for:
            raise NotYourTurn()
        if expected_version is not None and expected_version != state.version:
            raise StalePrompt()
        return state

    async def snapshot(self, channel: int, user: str, *, game_id: int | None = None,
                       turn: bool = False, expected_version: int | None = None) -> Snapshot:
        """The channel's game as ``user`` sees it, from one read. With ``game_id`` a prompt
        of another game is refused (state.stale); with ``turn`` the user must be awaited
        (the same checks as ``act``)."""
        loaded = await self._load(channel)
        row = loaded.row
        if turn:
            self._check_turn(loaded, user, game_id=game_id, expected_version=expected_version)
        elif game_id is not None and game_id != row.id:
            raise StalePrompt()
        state = loaded.state
        status = loaded.status
        running = status is GameStatus.RUNNING
        seated = row.seat(user) is not None
        view: PublicView | None = None
        private: PrivateView | None = None
        legal: tuple[Action, ...] = ()
        awaiting: dict[str, str] = {}
        if state is not None:
            view = state.public_view()
            if running:
                awaiting = dict(view["awaiting"])
            if seated:
                private = state.private_view(user)
                if running:
                    legal = engine.legal_actions(state, user)
        return Snapshot(row.id, row.channel_id, status,
                        state.version if state is not None else row.version, view,
                        self._names(row), awaiting, row.awaited_since if running else None,
                        user, seated, None if private is None else private["private"], legal,
                        self._computer_pids(row))

    # ------------------------------------------------------------------ lobby
    async def create_lobby(self, guild: int, channel: int, user: str, *, seats: int = 3,
                           name: str | None = None) -> Lobby:
        """Open a lobby in ``channel`` with ``user`` seated."""
        if seats not in (3, 4):
            raise BadInput(Code.SEATS)
        user = self._check_pid(user)
        async with self._lock(channel):
            try:
                row = await self.store.create_game(guild, channel, Seat(user, name), seats,
                                                   self.clock())
            except ActiveGameExists:
                raise GameExists() from None
        log.info("lobby %s opened in channel %s (%d seats)", row.id, channel, seats)
        return self._lobby(row)

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
            await self._commit(row, {"players": (*row.players, Seat(user, name)),
                                     "last_action_at": self.clock()})
            return self._lobby(await self._reload(row))

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
            await self._commit(row, fields)
            return self._lobby(await self._reload(row))

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
            await self._commit(row, {"players": (*row.players, *seat),
                                     "last_action_at": self.clock()})
            return self._lobby(await self._reload(row))

    async def remove_computer(self, channel: int, user: str, pid: str) -> Lobby:
        """A seated player takes a computer player out of the lobby."""
        async with self._lock(channel):
            row = await self._lobby_row(channel, None, user)
            target = row.seat(pid)
            if target is None or not target.computer:
                raise BadInput(Code.COMPUTER_UNKNOWN)
            players = tuple(s for s in row.players if s.pid != pid)
            await self._commit(row, {"players": players, "last_action_at": self.clock()})
            return self._lobby(await self._reload(row))

    async def start(self, channel: int, user: str, *, fill_with_computers: bool = False,
                    game_id: int | None = None) -> Update:
        """Start the lobby's game: seats are drawn from a fresh secret seed. With
        ``fill_with_computers`` every empty seat gets a computer player first. The Update's
        events begin with the set-up (seat order, everyone's rolls)."""
        async with self._lock(channel):
            row = await self._lobby_row(channel, game_id, user)
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
            update = await self._save(row, fields, state, steps, set(), computers, now,
                                      players=players, first_events=setup)
            log.info("game %s started in channel %s", row.id, channel)
            return update

    # ------------------------------------------------------------------ acting
    async def act(self, channel: int, user: str, action: Action, *,
                  expected_version: int | None = None, game_id: int | None = None) -> Update:
        """Apply ``user``'s action, then any computer moves, and commit them with their log
        rows in one transaction before returning. ``game_id``/``expected_version`` are what
        the prompt was built for (a prompt of an earlier game or version is stale)."""
        async with self._lock(channel):
            loaded = await self._load(channel)  # an ended game says why nothing can be done
            state = self._check_turn(loaded, user, game_id=game_id,
                                     expected_version=expected_version)
            row = loaded.row
            try:
                new_state, events = engine.apply(state, user, action)
            except ActionError as exc:
                raise from_engine(exc) from None
            computers = self._computer_pids(row)
            steps: list[Step] = [(user, action, events)]
            new_state, more = await asyncio.to_thread(self._play_computers, new_state,
                                                      computers)
            steps += more
            now = self.clock()
            old_waiting = set(state.waiting_for)
            since = row.awaited_since
            if (set(new_state.waiting_for) - old_waiting) or user in new_state.waiting_for:
                since = now  # a new decision starts (or the actor goes on): its clock restarts
            fields: RowChanges = {"last_action_at": now, "awaited_since": since}
            actor = row.seat(user)
            if actor is not None and actor.votes:
                # Votes to replace a player lapse once that player acts again.
                fields["players"] = tuple(replace(s, votes=()) if s.pid == user else s
                                          for s in row.players)
            if since != row.awaited_since:
                fields["last_reminded_at"] = None
            update = await self._save(row, fields, new_state, steps, old_waiting, computers,
                                      now, old_view=state.public_view())
            log.info("game %s: %s by %s -> v%d", row.id, action.kind, user, update.version)
            return replace(update, actor=user,
                           actor_legal=engine.legal_actions(new_state, user),
                           actor_private=new_state.private_view(user)["private"])

    @staticmethod
    def _check_pid(user: str) -> str:
        if not isinstance(user, str) or not engine.actions.PID_RE.match(user):
            raise BadInput(Code.PLAYER_ID)
        return user

    def _play_computers(self, state: GameState, computers: frozenset[str]
                        ) -> tuple[GameState, list[Step]]:
        """Play every move awaited from computer players (the hook for computer players)."""
        steps: list[Step] = []
        if self.computers is None or not computers:
            return state, steps
        for _ in range(MAX_COMPUTER_MOVES):
            todo = [p for p in state.waiting_for if p in computers]
            if state.finished or not todo:
                return state, steps
            pid = todo[0]
            action = self.computers.choose(state, pid)
            state, events = engine.apply(state, pid, action)
            steps.append((pid, action, events))
        raise RuntimeError("computer players did not stop moving")

    async def _save(self, row: GameRow, fields: RowChanges, state: GameState,
                    steps: Sequence[Step], old_waiting: set[str], computers: frozenset[str],
                    now: float, *, old_view: PublicView | None = None,
                    players: Sequence[Seat] | None = None,
                    first_events: Sequence[Event] = ()) -> Update:
        """Commit state + log rows (+ history when the game ends) at once; build the Update."""
        first_seq = state.version - len(steps) + 1
        actions = [LogRow(first_seq + i, pid, a.encode(), now)
                   for i, (pid, a, _) in enumerate(steps)]
        view = state.public_view()
        history = None
        fields["state"] = state.to_json()
        if state.finished:
            fields.update({"status": GameStatus.FINISHED, "ended_at": now,
                           "awaited_since": None})
            history = HistoryRow(row.id, row.guild_id, row.channel_id, now,
                                 tuple(view["players"]), tuple(view["winners"]),
                                 dict(view["prestige"]))
        await self._commit(row, fields, actions, history)

        all_events = [*first_events, *(e for _, _, evs in steps for e in evs)]
        private: dict[str, list[Event]] = {}
        for e in all_events:
            for pid in e.visible_to or ():
                private.setdefault(pid, []).append(e)
        waiting = state.waiting_for
        mention = tuple(p for p in waiting if p not in old_waiting and p not in computers)
        names = {s.pid: s.name for s in (players or row.players) if s.name}
        changed = old_view is None or _board_of(old_view) != _board_of(view)
        return Update(row.id, row.channel_id, state.version, view, names,
                      engine.public_events(all_events),
                      {p: tuple(evs) for p, evs in private.items()}, mention,
                      dict(view["awaiting"]), changed, state.finished,
                      tuple(view["winners"]), len(steps))

    # ------------------------------------------------------------------ reading
    async def public_view(self, channel: int) -> PublicView:
        """The board as everyone may see it (no secrets)."""
        return self._started(await self._load(channel)).public_view()

    async def private_view(self, channel: int, user: str) -> PrivateView:
        """The public view plus ``"private"``: what ``user`` alone may see."""
        loaded = await self._load(channel)
        if loaded.row.seat(user) is None:
            raise NotInGame()
        return self._started(loaded).private_view(user)

    async def legal_actions(self, channel: int, user: str) -> tuple[Action, ...]:
        """Every legal action for ``user`` now, in the engine's order; () if not awaited."""
        snap = await self.snapshot(channel, user)
        if not snap.seated:
            raise NotInGame()
        return snap.legal

    async def names(self, channel: int) -> dict[str, str]:
        """Display names given at join (pid → name); pids without a name are left out."""
        return self._names((await self._load(channel)).row)

    async def status(self, channel: int) -> Status:
        """Who is awaited, for what, since when."""
        loaded = await self._load(channel)
        row, state = loaded.row, loaded.state
        computers = tuple(sorted(self._computer_pids(row)))
        if state is None:
            return Status(row.id, row.channel_id, loaded.status, None, 0,
                          tuple(s.pid for s in row.players), self._names(row), row.seats,
                          row.creator, {}, row.created_at if row.status == "lobby" else None,
                          row.created_at, row.last_action_at, False, (),
                          computers=computers)
        view = state.public_view()
        running = loaded.status is GameStatus.RUNNING
        return Status(row.id, row.channel_id, loaded.status, view["phase"], view["version"],
                      tuple(view["players"]), self._names(row), row.seats, row.creator,
                      dict(view["awaiting"]) if running else {},
                      row.awaited_since if running else None, row.created_at,
                      row.last_action_at, view["finished"], tuple(view["winners"]),
                      dict(view["prestige"]), computers)

    async def log(self, channel: int) -> GameLog:
        """Every action with its public events, replayed from the stored seed; the first
        entry holds the set-up (seat order, everyone's rolls)."""
        loaded = await self._load(channel)
        self._started(loaded)
        row = loaded.row
        state, setup = self._new_state(row)
        entries = [LogEntry(0, "", "setup", row.created_at, engine.public_events(setup))]
        for r in await self.store.actions(row.id):
            action = engine.decode(r.action)
            state, events = engine.apply(state, r.pid, action)
            entries.append(LogEntry(r.seq, r.pid, action.public_encode(), r.at,
                                    engine.public_events(events)))
        return GameLog(row.id, loaded.status, tuple(entries))

    @staticmethod
    def _new_state(row: GameRow) -> tuple[GameState, tuple[Event, ...]]:
        assert row.seed is not None
        return engine.start_game([s.pid for s in row.players], seed=row.seed)

    async def audit(self, channel: int, *, game_id: int | None = None) -> Audit:
        """Replay seed + log through the engine and compare with the stored state (the
        channel's latest game, or its earlier game ``game_id``)."""
        row = (await self._load(channel)).row
        if game_id is not None and game_id != row.id:
            old = await self.store.game(game_id)
            if old is None or old.channel_id != channel:
                raise NoGame()
            row = old
        stored = self._started(_Loaded(row, None if row.state is None
                                       else GameState.from_json(row.state)))
        rows = await self.store.actions(row.id)
        if row.seed is None:
            return Audit(row.id, False, len(rows), stored.version, "The seed is missing.")
        state, _ = self._new_state(row)
        for r in rows:
            if r.seq != state.version + 1:
                return Audit(row.id, False, len(rows), stored.version,
                             f"Log entry {r.seq} is out of sequence.")
            try:
                state, _ = engine.apply(state, r.pid, engine.decode(r.action))
            except ActionError as exc:
                return Audit(row.id, False, len(rows), stored.version,
                             f"Log entry {r.seq} does not replay ({exc.code}).")
        if state.to_json() != stored.to_json():
            return Audit(row.id, False, len(rows), stored.version,
                         f"The replayed game (version {state.version}) differs from the "
                         f"stored one (version {stored.version}).")
        return Audit(row.id, True, len(rows), stored.version)

    # ------------------------------------------------------------------ absent players
    async def vote_replace(self, channel: int, voter: str, target: str, *,
                           is_admin: bool = False) -> Replacement:
        """Vote to hand ``target``'s seat to a computer player. It is handed over when more
        than half of the other human players have voted, at once when a channel manager
        asks or when players hand over their own seat. The pid stays, so the log replays and
        the player can ``reclaim`` the seat later."""
        if self.computers is None:
            raise ComputersUnavailable()
        async with self._lock(channel):
            row = await self._active(channel)
            if row.status != GameStatus.RUNNING:
                raise GameNotStarted()
            seat = row.seat(target)
            if seat is None:
                raise NotInGame(Code.UNKNOWN_PLAYER)
            if seat.computer:
                raise AlreadyComputer()
            if row.seat(voter) is None and not is_admin:
                raise NotInGame()
            others = [s for s in row.players if not s.computer and s.pid != target]
            needed = len(others) // 2 + 1
            if voter in seat.votes:
                raise AlreadyVoted()
            votes = (*seat.votes, voter)
            names = self._names(row)
            now = self.clock()
            if not (is_admin or voter == target or len(votes) >= needed):
                players = tuple(replace(s, votes=votes) if s.pid == target else s
                                for s in row.players)
                await self._commit(row, {"players": players})
                return Replacement(target, False, len(votes), needed, names)
            players = tuple(replace(s, computer=True, votes=()) if s.pid == target else s
                            for s in row.players)
            state = self._started(_Loaded(row, None if row.state is None
                                          else GameState.from_json(row.state)))
            computers = frozenset(s.pid for s in players if s.computer)
            new_state, steps = await asyncio.to_thread(self._play_computers, state, computers)
            fields: RowChanges = {"players": players, "last_action_at": now}
            if steps:
                fields.update({"awaited_since": now, "last_reminded_at": None})
            update = await self._save(row, fields, new_state, steps, set(state.waiting_for),
                                      computers, now, old_view=state.public_view(),
                                      players=players)
            log.info("game %s: seat %s handed to a computer player", row.id, target)
            return Replacement(target, True, len(votes), needed, names, update)

    async def reclaim(self, channel: int, user: str) -> Lobby:
        """A player whose seat a computer took over plays it again."""
        async with self._lock(channel):
            row = await self._active(channel)
            seat = row.seat(user)
            if seat is None:
                raise NotInGame()
            if not seat.computer:
                raise NotReplaced()
            players = tuple(replace(s, computer=False) if s.pid == user else s
                            for s in row.players)
            await self._commit(row, {"players": players, "last_action_at": self.clock()})
            return self._lobby(await self._reload(row))

    # ------------------------------------------------------------------ ending
    async def abandon(self, channel: int, user: str, *, is_admin: bool = False) -> Ended:
        """End the channel's lobby or game: its creator or a channel manager may."""
        async with self._lock(channel):
            row = await self._active(channel)
            if user != row.creator and not is_admin:
                raise PermissionDenied()
            now = self.clock()
            await self._commit(row, {"status": GameStatus.ABANDONED, "ended_at": now,
                                     "awaited_since": None, "last_action_at": now})
        log.info("game %s in channel %s abandoned", row.id, channel)
        return Ended(row.id, channel, GameStatus.ABANDONED, user)

    # ------------------------------------------------------------------ settings
    async def settings(self, channel: int) -> Settings:
        """The channel's settings (defaults if never set)."""
        return await self.store.settings(channel)

    async def set_settings(self, channel: int, *, reminder_hours: float | None = None,
                           quiet_hours: tuple[int, int] | None | str = "keep",
                           language: str | None = None, timezone: str | None = None
                           ) -> Settings:
        """Change some settings; ``quiet_hours=None`` turns quiet hours off."""
        old = await self.store.settings(channel)
        hours = old.reminder_hours if reminder_hours is None else reminder_hours
        if (not isinstance(hours, int | float) or isinstance(hours, bool)
                or not 0.25 <= hours <= 24 * 14):
            raise BadInput(Code.REMINDER_HOURS)
        qs, qe = old.quiet_start, old.quiet_end
        if quiet_hours is None:
            qs = qe = None
        elif quiet_hours != "keep":
            if (not isinstance(quiet_hours, tuple) or len(quiet_hours) != 2
                    or not all(type(h) is int and 0 <= h <= 23 for h in quiet_hours)):
                raise BadInput(Code.QUIET_HOURS)
            qs, qe = quiet_hours
        lang = old.language if language is None else language
        if not isinstance(lang, str) or not (2 <= len(lang) <= 8 and lang.replace("-", "")
                                             .isalpha()):
            raise BadInput(Code.LANGUAGE)
        tz = old.timezone if timezone is None else timezone
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError, TypeError):
            raise BadInput(Code.TIMEZONE) from None
        new = Settings(channel, float(hours), qs, qe, lang, tz)
        await self.store.set_settings(new)
        return new

    # ------------------------------------------------------------------ reminders
    async def due_reminders(self, now: float) -> list[Reminder]:
        """Running games whose awaited humans have waited a channel's interval since the
        decision started or since the last reminder, outside the channel's quiet hours."""
        due = []
        for row, settings in await self.store.awaited_games():
            assert row.awaited_since is not None and row.state is not None
            ref = max(row.awaited_since, row.last_reminded_at or 0.0)
            if now - ref < settings.reminder_hours * 3600 or _is_quiet(now, settings):
                continue
            view = GameState.from_json(row.state).public_view()
            computers = self._computer_pids(row)
            pids = tuple(p for p in view["waiting_for"] if p not in computers)
            if pids:
                due.append(Reminder(row.id, row.guild_id, row.channel_id, pids,
                                    {p: view["awaiting"][p] for p in pids},
                                    row.awaited_since, row.version))
        return due

    async def mark_reminded(self, channel: int, version: int) -> bool:
        """Record that the reminder for ``Reminder.version`` was posted (False if the game
        has moved on meanwhile)."""
        row = await self.store.active_game(channel)
        if row is None:
            return False
        return await self.store.mark_reminded(row.id, version, self.clock())

    # ------------------------------------------------------------------ stats
    async def history(self, guild: int, limit: int = 100) -> list[HistoryRow]:
        """The guild's finished games, newest first."""
        return await self.store.history(guild, limit)

    async def standings(self, guild: int) -> list[Standing]:
        """Games finished and won per player in the guild, best first."""
        played: dict[str, int] = {}
        won: dict[str, int] = {}
        for h in await self.store.history(guild, limit=1_000_000):
            for p in h.players:
                played[p] = played.get(p, 0) + 1
            for p in h.winners:
                won[p] = won.get(p, 0) + 1
        out = [Standing(p, n, won.get(p, 0)) for p, n in played.items()]
        return sorted(out, key=lambda s: (-s.won, -s.played, s.pid))


def _board_of(view: PublicView) -> dict[str, object]:
    """A view without its version: what a board picture shows."""
    return {k: v for k, v in view.items() if k != "version"}


def _is_quiet(now: float, settings: Settings) -> bool:
    """Whether ``now`` falls in the channel's quiet hours [start, end) in its time zone."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return False
    try:
        hour = datetime.fromtimestamp(now, ZoneInfo(settings.timezone)).hour
    except (ZoneInfoNotFoundError, ValueError):
        hour = datetime.fromtimestamp(now, ZoneInfo("UTC")).hour
    return start <= hour < end if start < end else (hour >= start or hour < end)

