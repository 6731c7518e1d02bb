"""The game service: load a channel's game → check the actor → ``engine.apply`` → save → say
what happened. Plain async Python over ``bot.store`` and ``engine``; no Discord types, so
tests drive whole games through it.

    service = await open_service(path)          # path, else $SANMARCO_DB, else ./sanmarco.db
    ...
    await service.close()

``channel``/``guild`` are Discord ids (int); ``user`` is a pid: the Discord id as text.
Every call raises a ``ServiceError`` subclass (``.code`` stable, ``.message`` one sentence,
never a secret) and then has written nothing. Common codes: ``game.none`` (no game in this
channel), ``player.not_in_game``. The calls:

=========================================================  =================  =================
call                                                       returns            extra error codes
=========================================================  =================  =================
``create_lobby(guild, channel, user, *, seats=3,            ``Lobby``          game.exists,
name=None)``                                                                  input.seats
``join(channel, user, *, name=None)``                      ``Lobby``          lobby.full,
                                                                              lobby.already_joined,
                                                                              game.started
``leave(channel, user)`` (last person out ends the lobby;  ``Lobby``          lobby.not_joined,
creator passes to the next)                                                   game.started
``add_computer(channel, user, *, level="normal")``          ``Lobby``          computer.unavailable,
/ ``remove_computer(channel, user, pid)``                                      lobby.full
``start(channel, user, *, fill_with_computers=False)``      ``Update``         lobby.not_enough,
creator or any seated player                                                  game.started
``act(channel, user, action, *, expected_version=None)``   ``Update``         game.not_started,
action: ``engine.Action`` or its text (``"take:1"``)                          game.over,
                                                                              game.abandoned,
                                                                              action.not_your_turn,
                                                                              state.stale,
                                                                              action.malformed,
                                                                              action.wrong_phase,
                                                                              action.illegal
``public_view(channel)``                                   ``dict``           game.not_started
``private_view(channel, user)``                            ``dict``           game.not_started
``legal_actions(channel, user)`` (``()`` if not awaited)   ``tuple[Action]``  game.not_started
``names(channel)``                                         ``dict[pid,name]``
``status(channel)``                                        ``Status``
``log(channel)``                                           ``GameLog``        game.not_started
``vote_replace(channel, voter, target, *, is_admin)``      ``Replacement``    replace.already,
absent player → computer (majority of the other humans,                       replace.already_voted,
an admin, or the player themself)                                             replace.unknown_player
``reclaim(channel, user)`` take one's seat back            ``Lobby``          replace.not_replaced
``abandon(channel, user, *, is_admin)`` creator or admin   ``Ended``          permission.denied
``audit(channel, *, game_id=None)``                        ``Audit``          game.not_started
``settings(channel)`` / ``set_settings(channel, *,          ``Settings``       input.malformed
reminder_hours=, quiet_hours=(start, end)|None,
language=, timezone=)``
``due_reminders(now)``                                     ``list[Reminder]``
``mark_reminded(channel, version)``                        ``bool``
``history(guild)`` / ``standings(guild)``                  ``list[...]``
=========================================================  =================  =================

Results are frozen dataclasses (bot._results, re-exported here). ``Update`` (start, act):
``version``, ``view`` (public), ``names``, ``events`` (public event dicts), ``private_events``
(pid → events only they may see), ``mention`` (humans whose decision starts now),
``awaiting``, ``board_changed``, ``finished``, ``winners``, ``applied`` (actions incl.
computer moves). ``GameLog.events`` flattens the public events of every ``LogEntry``.

Reading calls (views, status, log, audit, names) work on the channel's active game, else on
its most recent ended one: finished games stay readable. ``Update.version`` is the game's
version (``view["version"]``); ``Lobby.version`` and ``Reminder.version`` are row revisions.

Concurrency: one ``asyncio.Lock`` per channel serialises every write, and the store refuses
a write whose row version is stale, so two identical clicks apply once (the other gets
``state.stale`` or ``action.not_your_turn``).

Computer players: pass ``computers=`` (see ``ComputerPlayers``; ``bot.computers`` is the
real one). Lobbies take them with ``add_computer`` or ``start(fill_with_computers=True)``;
the service plays their moves right after a human's, inside the same call, in a worker
thread so the event loop never waits on a computer's thinking.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import engine
from bot import _errors as err
from bot._errors import (
    AlreadyComputer,
    AlreadyJoined,
    AlreadyVoted,
    BadInput,
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
)
from bot._results import (
    Audit,
    Ended,
    GameLog,
    Lobby,
    LogEntry,
    Reminder,
    Replacement,
    Standing,
    Status,
    Update,
)
from bot.store import (
    ActiveGameExists,
    GameRow,
    HistoryRow,
    LogRow,
    Seat,
    Settings,
    StaleWrite,
    Store,
)
from engine import Action, ActionError, GameState

__all__ = [
    "AlreadyJoined", "Audit", "BadInput", "ComputerPlayers", "Ended", "GameAbandoned",
    "GameExists", "GameFull", "GameLog", "GameNotStarted", "GameOver", "GameService",
    "GameStarted", "Lobby", "LogEntry", "NoGame", "NotCreator", "NotEnoughPlayers",
    "NotInGame", "NotJoined", "NotYourTurn", "PermissionDenied", "Reminder", "Replacement",
    "RuleError",
    "ServiceError", "Settings", "Standing", "StalePrompt", "Status", "Update", "open_service",
]

log = logging.getLogger(__name__)

MAX_ACTION_TEXT = 200      # longer text is not an action; refuse before parsing
MAX_COMPUTER_MOVES = 5000  # a guard: a whole game is ~100-200 actions


class ComputerPlayers(Protocol):
    """The hook for computer players (added by another change).

    ``seat(taken, count, level)`` returns ``count`` new seats (``Seat(pid, name,
    computer=True)``, pids unlike any Discord id, e.g. ``"ai.normal.1"``) for a game whose
    seats ``taken`` holds; raises ValueError for an unknown level.
    ``choose(state, pid)`` returns one of ``engine.legal_actions(state, pid)`` — also for a
    human's pid whose seat a computer has taken over. It may take a while (it runs in a
    worker thread, off the event loop).
    """

    def seat(self, taken: Sequence[str], count: int, level: str = "normal") -> list[Seat]: ...

    def choose(self, state: GameState, pid: str) -> Action: ...


async def open_service(path: str | None = None, **kwargs: Any) -> GameService:
    """A service over the store at ``path`` (else $SANMARCO_DB, else ./sanmarco.db)."""
    store = await Store.open(path)
    return GameService(store, **kwargs)


def _event_dicts(events: Iterable[engine.Event]) -> tuple[dict[str, Any], ...]:
    return tuple(e.to_dict() for e in events)


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

    async def _readable(self, channel: int) -> GameRow:
        row = await self.store.latest_game(channel)
        if row is None:
            raise NoGame()
        return row

    @staticmethod
    def _state(row: GameRow) -> GameState:
        if row.state is None:
            raise GameNotStarted()
        return GameState.from_json(row.state)

    @staticmethod
    def _names(row: GameRow) -> dict[str, str]:
        return {s.pid: s.name for s in row.players if s.name}

    def _computer_pids(self, row: GameRow) -> frozenset[str]:
        return frozenset(s.pid for s in row.players if s.computer)

    @staticmethod
    def _lobby(row: GameRow) -> Lobby:
        return Lobby(row.id, row.guild_id, row.channel_id, row.status, row.creator, row.seats,
                     tuple(s.pid for s in row.players), GameService._names(row), row.version)

    async def _commit(self, row: GameRow, **kwargs: Any) -> int:
        try:
            return await self.store.commit(row.id, row.version, **kwargs)
        except StaleWrite:
            raise StalePrompt() from None

    # ------------------------------------------------------------------ lobby
    async def create_lobby(self, guild: int, channel: int, user: str, *, seats: int = 3,
                           name: str | None = None) -> Lobby:
        """Open a lobby in ``channel`` with ``user`` seated."""
        if seats not in (3, 4):
            raise BadInput("A game has 3 or 4 seats.", code="input.seats")
        user = self._check_pid(user)
        async with self._lock(channel):
            try:
                row = await self.store.create_game(guild, channel, Seat(user, name), seats,
                                                   self.clock())
            except ActiveGameExists:
                raise GameExists() from None
        log.info("lobby %s opened in channel %s (%d seats)", row.id, channel, seats)
        return self._lobby(row)

    async def join(self, channel: int, user: str, *, name: str | None = None) -> Lobby:
        """Take a seat in the channel's lobby."""
        user = self._check_pid(user)
        async with self._lock(channel):
            row = await self._lobby_row(channel)
            if row.seat(user) is not None:
                raise AlreadyJoined()
            if len(row.players) >= row.seats:
                raise GameFull()
            players = (*row.players, Seat(user, name))
            version = await self._commit(row, fields={"players": players,
                                                      "last_action_at": self.clock()})
            return self._lobby(await self._reload(row, version))

    async def leave(self, channel: int, user: str) -> Lobby:
        """Give up a seat before the start. The last person out ends the lobby."""
        async with self._lock(channel):
            row = await self._lobby_row(channel)
            if row.seat(user) is None:
                raise NotJoined()
            players = tuple(s for s in row.players if s.pid != user)
            humans = [s for s in players if not s.computer]
            fields: dict[str, Any] = {"players": players, "last_action_at": self.clock()}
            if not humans:  # computer players alone cannot start, join or end a lobby
                fields.update(status="abandoned", ended_at=self.clock())
            elif user == row.creator:
                fields["creator"] = humans[0].pid
            version = await self._commit(row, fields=fields)
            return self._lobby(await self._reload(row, version))

    async def _lobby_row(self, channel: int, seated: str | None = None) -> GameRow:
        """The channel's lobby (else game.started); with ``seated``, that user must sit in it."""
        row = await self._active(channel)
        if row.status != "lobby":
            raise GameStarted()
        if seated is not None and row.seat(seated) is None:
            raise NotInGame()
        return row

    async def _reload(self, row: GameRow, version: int) -> GameRow:
        new = await self.store.game(row.id)
        assert new is not None and new.version >= version
        return new

    async def add_computer(self, channel: int, user: str, *, level: str = "normal") -> Lobby:
        """A seated player adds a computer player to the lobby."""
        if self.computers is None:
            raise ComputersUnavailable()
        async with self._lock(channel):
            row = await self._lobby_row(channel, user)
            if len(row.players) >= row.seats:
                raise GameFull()
            try:
                seat = self.computers.seat([s.pid for s in row.players], 1, level)
            except ValueError:
                raise BadInput("Computer players are 'easy' or 'normal'.") from None
            version = await self._commit(row, fields={"players": (*row.players, *seat),
                                                      "last_action_at": self.clock()})
            return self._lobby(await self._reload(row, version))

    async def remove_computer(self, channel: int, user: str, pid: str) -> Lobby:
        """A seated player takes a computer player out of the lobby."""
        async with self._lock(channel):
            row = await self._lobby_row(channel, user)
            target = row.seat(pid)
            if target is None or not target.computer:
                raise BadInput("There is no such computer player in the lobby.")
            players = tuple(s for s in row.players if s.pid != pid)
            version = await self._commit(row, fields={"players": players,
                                                      "last_action_at": self.clock()})
            return self._lobby(await self._reload(row, version))

    async def start(self, channel: int, user: str, *, fill_with_computers: bool = False
                    ) -> Update:
        """Start the lobby's game: seats are drawn from a fresh secret seed. With
        ``fill_with_computers`` every empty seat gets a computer player first."""
        async with self._lock(channel):
            row = await self._lobby_row(channel, user)
            players = list(row.players)
            if fill_with_computers and len(players) < row.seats:
                if self.computers is None:
                    raise ComputersUnavailable()
                players += self.computers.seat([s.pid for s in players],
                                               row.seats - len(players))
            if len(players) < 3:
                raise NotEnoughPlayers()
            seed = self._seeds()
            state = engine.new_game([s.pid for s in players], seed=seed)
            computers = frozenset(s.pid for s in players if s.computer)
            state, steps = await asyncio.to_thread(self._play_computers, state, computers)
            now = self.clock()
            fields = {"status": "running", "players": tuple(players), "seed": seed,
                      "last_action_at": now, "awaited_since": now, "last_reminded_at": None}
            update = await self._save(row, fields, state, steps, set(), computers, now,
                                      players=players)
            log.info("game %s started in channel %s", row.id, channel)
            return update

    # ------------------------------------------------------------------ acting
    async def act(self, channel: int, user: str, action: Action | str, *,
                  expected_version: int | None = None) -> Update:
        """Apply ``user``'s action, then any computer moves, and commit them with their log
        rows in one transaction before returning."""
        parsed = self._parse(action)
        async with self._lock(channel):
            row = await self.store.active_game(channel)
            if row is None:
                ended = await self.store.latest_game(channel)
                if ended is None:
                    raise NoGame()
                raise GameOver() if ended.status == "finished" else GameAbandoned()
            if row.status == "lobby":
                raise GameNotStarted()
            if row.seat(user) is None:
                raise NotInGame()
            state = self._state(row)
            if expected_version is not None and expected_version != state.version:
                raise StalePrompt()
            if user not in state.waiting_for:
                raise NotYourTurn()
            try:
                new_state, events = engine.apply(state, user, parsed)
            except ActionError as exc:
                raise err.from_illegal(exc) from None
            computers = self._computer_pids(row)
            steps = [(user, parsed, events)]
            new_state, more = await asyncio.to_thread(self._play_computers, new_state,
                                                      computers)
            steps += more
            now = self.clock()
            old_waiting = set(state.waiting_for)
            since = row.awaited_since
            if (set(new_state.waiting_for) - old_waiting) or user in new_state.waiting_for:
                since = now  # a new decision starts (or the actor goes on): its clock restarts
            fields: dict[str, Any] = {"last_action_at": now, "awaited_since": since}
            actor = row.seat(user)
            if actor is not None and actor.votes:
                # Votes to replace a player lapse once that player acts again.
                fields["players"] = tuple(replace(s, votes=()) if s.pid == user else s
                                          for s in row.players)
            if since != row.awaited_since:
                fields["last_reminded_at"] = None
            update = await self._save(row, fields, new_state, steps, old_waiting, computers,
                                      now, old_view=state.public_view())
            log.info("game %s: %s by %s -> v%d", row.id, parsed.kind, user, update.version)
            return update

    @staticmethod
    def _parse(action: Action | str) -> Action:
        if isinstance(action, Action):
            return action
        if not isinstance(action, str) or len(action) > MAX_ACTION_TEXT:
            raise RuleError("That is not an action.", code="action.malformed")
        try:
            return engine.decode(action.strip())
        except ActionError as exc:
            raise err.from_illegal(exc) from None

    @staticmethod
    def _check_pid(user: str) -> str:
        if not isinstance(user, str) or not engine.actions.PID_RE.match(user):
            raise BadInput("That is not a player id.")
        return user

    def _play_computers(self, state: GameState, computers: frozenset[str]
                        ) -> tuple[GameState, list[tuple[str, Action, tuple[engine.Event, ...]]]]:
        """Play every move awaited from computer players (the hook for computer players)."""
        steps: list[tuple[str, Action, tuple[engine.Event, ...]]] = []
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

    async def _save(self, row: GameRow, fields: dict[str, Any], state: GameState,
                    steps: Sequence[tuple[str, Action, tuple[engine.Event, ...]]],
                    old_waiting: set[str], computers: frozenset[str], now: float, *,
                    old_view: Mapping[str, Any] | None = None,
                    players: Sequence[Seat] | None = None) -> Update:
        """Commit state + log rows (+ history when the game ends) at once; build the Update."""
        first_seq = state.version - len(steps) + 1
        actions = [LogRow(first_seq + i, pid, a.encode(), now)
                   for i, (pid, a, _) in enumerate(steps)]
        view = state.public_view()
        history = None
        fields["state"] = state.to_json()
        if state.finished:
            fields.update(status="finished", ended_at=now, awaited_since=None)
            history = HistoryRow(row.id, row.guild_id, row.channel_id, now,
                                 tuple(view["players"]), tuple(view["winners"]),
                                 dict(view["prestige"]))
        await self._commit(row, fields=fields, actions=actions, history=history)

        all_events = [e for _, _, evs in steps for e in evs]
        private: dict[str, list[dict[str, Any]]] = {}
        for e in all_events:
            for pid in e.visible_to or ():
                private.setdefault(pid, []).append(e.to_dict())
        waiting = state.waiting_for
        mention = tuple(p for p in waiting if p not in old_waiting and p not in computers)
        names = {s.pid: s.name for s in (players or row.players) if s.name}
        if old_view is None:
            changed = True
        else:
            changed = ({k: v for k, v in old_view.items() if k != "version"}
                       != {k: v for k, v in view.items() if k != "version"})
        return Update(row.id, row.channel_id, state.version, view, names,
                      _event_dicts(engine.public_events(all_events)),
                      {p: tuple(evs) for p, evs in private.items()}, mention,
                      dict(view.get("awaiting") or {}), changed, state.finished,
                      tuple(view.get("winners") or ()), len(steps))

    # ------------------------------------------------------------------ reading
    async def public_view(self, channel: int) -> engine.PublicView:
        """The board as everyone may see it (no secrets)."""
        return self._state(await self._readable(channel)).public_view()

    async def private_view(self, channel: int, user: str) -> engine.PrivateView:
        """The public view plus ``"private"``: what ``user`` alone may see."""
        row = await self._readable(channel)
        if row.seat(user) is None:
            raise NotInGame()
        return self._state(row).private_view(user)

    async def legal_actions(self, channel: int, user: str) -> tuple[Action, ...]:
        """Every legal action for ``user`` now, in the engine's order; () if not awaited."""
        row = await self._readable(channel)
        if row.seat(user) is None:
            raise NotInGame()
        if row.status != "running":
            self._state(row)  # a lobby raises game.not_started
            return ()
        return engine.legal_actions(self._state(row), user)

    async def names(self, channel: int) -> dict[str, str]:
        """Display names given at join (pid → name); pids without a name are left out."""
        return self._names(await self._readable(channel))

    async def status(self, channel: int) -> Status:
        """Who is awaited, for what, since when."""
        row = await self._readable(channel)
        players = tuple(s.pid for s in row.players)
        if row.state is None:
            return Status(row.id, row.channel_id, row.status, None, 0, players,
                          self._names(row), row.seats, row.creator, {},
                          row.created_at if row.status == "lobby" else None, row.created_at,
                          row.last_action_at, False, (),
                          computers=tuple(sorted(self._computer_pids(row))))
        view = self._state(row).public_view()
        running = row.status == "running"
        return Status(row.id, row.channel_id, row.status, view["phase"], view["version"],
                      tuple(view["players"]), self._names(row), row.seats, row.creator,
                      dict(view["awaiting"]) if running else {},
                      row.awaited_since if running else None, row.created_at,
                      row.last_action_at, bool(view["finished"]), tuple(view["winners"]),
                      dict(view["prestige"]), tuple(sorted(self._computer_pids(row))))

    async def log(self, channel: int) -> GameLog:
        """Every action with its public events, replayed from the stored seed."""
        row = await self._readable(channel)
        self._state(row)
        entries = []
        state = self._new_state(row)
        for r in await self.store.actions(row.id):
            action = engine.decode(r.action)
            state, events = engine.apply(state, r.pid, action)
            entries.append(LogEntry(r.seq, r.pid, action.public_encode(), r.at,
                                    _event_dicts(engine.public_events(events))))
        return GameLog(row.id, row.status, tuple(entries))

    @staticmethod
    def _new_state(row: GameRow) -> GameState:
        assert row.seed is not None
        return engine.new_game([s.pid for s in row.players], seed=row.seed)

    async def audit(self, channel: int, *, game_id: int | None = None) -> Audit:
        """Replay seed + log through the engine and compare with the stored state (the
        channel's latest game, or its earlier game ``game_id``)."""
        row = await self._readable(channel)
        if game_id is not None and game_id != row.id:
            old = await self.store.game(game_id)
            if old is None or old.channel_id != channel:
                raise NoGame("There is no such game in this channel.")
            row = old
        stored = self._state(row)
        rows = await self.store.actions(row.id)
        if row.seed is None:
            return Audit(row.id, False, len(rows), stored.version, "The seed is missing.")
        state = self._new_state(row)
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
            if row.status != "running":
                raise GameNotStarted()
            seat = row.seat(target)
            if seat is None:
                raise NotInGame("That player is not in this game.",
                                code="replace.unknown_player")
            if seat.computer:
                raise AlreadyComputer()
            if row.seat(voter) is None and not is_admin:
                raise NotInGame()
            others = [s for s in row.players if not s.computer and s.pid != target]
            needed = len(others) // 2 + 1
            if voter in seat.votes:
                raise AlreadyVoted()
            votes = (*seat.votes, voter)
            now = self.clock()
            if not (is_admin or voter == target or len(votes) >= needed):
                players = tuple(replace(s, votes=votes) if s.pid == target else s
                                for s in row.players)
                await self._commit(row, fields={"players": players})
                return Replacement(target, False, len(votes), needed)
            players = tuple(replace(s, computer=True, votes=()) if s.pid == target else s
                            for s in row.players)
            state = self._state(row)
            computers = frozenset(s.pid for s in players if s.computer)
            new_state, steps = await asyncio.to_thread(self._play_computers, state, computers)
            fields: dict[str, Any] = {"players": players, "last_action_at": now}
            if steps:
                fields.update(awaited_since=now, last_reminded_at=None)
            update = await self._save(row, fields, new_state, steps, set(state.waiting_for),
                                      computers, now, old_view=state.public_view(),
                                      players=players)
            log.info("game %s: seat %s handed to a computer player", row.id, target)
            return Replacement(target, True, len(votes), needed, update)

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
            version = await self._commit(row, fields={"players": players,
                                                      "last_action_at": self.clock()})
            return self._lobby(await self._reload(row, version))

    # ------------------------------------------------------------------ ending
    async def abandon(self, channel: int, user: str, *, is_admin: bool = False) -> Ended:
        """End the channel's lobby or game: its creator or a channel manager may."""
        async with self._lock(channel):
            row = await self._active(channel)
            if user != row.creator and not is_admin:
                raise PermissionDenied()
            now = self.clock()
            await self._commit(row, fields={"status": "abandoned", "ended_at": now,
                                            "awaited_since": None, "last_action_at": now})
        log.info("game %s in channel %s abandoned", row.id, channel)
        return Ended(row.id, channel, "abandoned", user)

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
        if not isinstance(hours, int | float) or not 0.25 <= hours <= 24 * 14:
            raise BadInput("The reminder interval must be between 15 minutes and 14 days.")
        qs, qe = old.quiet_start, old.quiet_end
        if quiet_hours is None:
            qs = qe = None
        elif quiet_hours != "keep":
            if (not isinstance(quiet_hours, tuple) or len(quiet_hours) != 2
                    or not all(isinstance(h, int) and 0 <= h <= 23 for h in quiet_hours)):
                raise BadInput("Quiet hours are two whole hours from 0 to 23.")
            qs, qe = quiet_hours
        lang = old.language if language is None else language
        if not isinstance(lang, str) or not (2 <= len(lang) <= 8 and lang.replace("-", "")
                                             .isalpha()):
            raise BadInput("The language must be a code such as 'en'.")
        tz = old.timezone if timezone is None else timezone
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError, TypeError):
            raise BadInput("That is not a time zone name (e.g. 'Europe/Berlin').") from None
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
