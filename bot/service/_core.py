"""The service's core: loading a channel's game, the one check of a click, playing
computer moves and committing a change with its log rows (the calls build on it)."""

from __future__ import annotations

import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Protocol

import engine
from bot.locks import KeyedLocks, LockTimeout
from bot.service.errors import (
    BadInput,
    Code,
    GameAbandoned,
    GameNotStarted,
    GameOver,
    NoGame,
    NotInGame,
    NotYourTurn,
    SeatPassed,
    StalePrompt,
    StorageFailed,
)
from bot.service.posts import Line, Post, PostKind, move_post, outbox_entry
from bot.service.results import (
    GameStatus,
    Lobby,
    Update,
)
from bot.store import (
    GameRow,
    HistoryRow,
    LogRow,
    RowChanges,
    Seat,
    SeatNames,
    StaleWrite,
    Store,
    awaiting_column,
)
from bot.work import DISCORD, Workers
from engine import Action, Event, GameState
from engine.views import PublicView

log = logging.getLogger("bot.service")

MAX_COMPUTER_MOVES = 5000  # a guard: a whole game is ~100-200 actions

AppliedAction = tuple[str, Action, tuple[Event, ...]]  # who, what, what happened


class ComputerPlayers(Protocol):
    """The hook for computer players.

    ``seat(taken, count, level)`` returns ``count`` new seats (``Seat(pid, name,
    computer=True)``, pids unlike any Discord id, e.g. ``"ai.normal.1"``) for a game whose
    seats ``taken`` holds; raises ValueError for an unknown level.
    ``choose(state, pid, level)`` returns one of ``engine.legal_actions(state, pid)`` — also
    for a human's pid whose seat a computer has taken over, or whose turn timer ran out, at
    ``level`` (None: a computer's own level, normal for a human). It may take a while: it
    runs in Discord's worker lane (a worker process when configured), so it must pickle.
    """

    def seat(self, taken: Sequence[str], count: int, level: str = "normal") -> list[Seat]: ...

    def choose(self, state: GameState, pid: str, level: str | None = None) -> Action: ...


@dataclass(frozen=True)
class Loaded:
    """A row and its parsed state (None for a lobby): read once per call."""

    row: GameRow
    state: GameState | None

    @classmethod
    def of(cls, row: GameRow) -> Loaded:
        return cls(row, None if row.state is None else GameState.from_json(row.state))

    @property
    def status(self) -> GameStatus:
        return GameStatus(self.row.status)



def seat_names(players: Sequence[Seat]) -> SeatNames:
    """Each seat's display name (pid → name; seats without one left out), told apart: Discord
    display names need not be unique, so two players called the same read "Alex (seat 1)"
    and "Alex (seat 3)" — no select or post offers two players that read the same. The
    names carry who plays each seat a substitute took over (a mention names them)."""
    named = [(n, s) for n, s in enumerate(players, 1) if s.name]
    counts = Counter(s.name.casefold() for _, s in named if s.name)
    return SeatNames({s.pid: (f"{s.name} (seat {n})" if counts[s.name.casefold()] > 1
                              else s.name) for n, s in named if s.name},
                     {s.pid: s.user for s in players if s.user is not None})

class Core:
    """What every group of calls shares: the store, the clock, the computer players and one
    lock per channel."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time, *,
                 computers: ComputerPlayers | None = None,
                 seeds: Callable[[], int] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.computers = computers
        self._seeds = seeds or (lambda: secrets.randbits(62))
        self._locks: KeyedLocks[int] = KeyedLocks()  # one per busy channel, freed when idle
        # Where CPU work runs (the computers' thinking, replays, pictures, hints, reviews,
        # /check): the bot gives its configured lanes (bot.work); by default, threads.
        self.work: Workers = Workers()

    async def close(self) -> None:
        await self.store.close()

    @property
    def busy_timeout(self) -> float:
        """How long a call may wait for its turn or for the file before it gives up."""
        return self.store.busy_timeout

    @asynccontextmanager
    async def _lock(self, channel: int) -> AsyncIterator[None]:
        """The channel's turn: one change at a time. Waiting longer than the busy timeout
        (a change stuck on a locked file ahead of it) gives up: the game is busy."""
        try:
            async with self._locks(channel, self.busy_timeout):
                yield
        except LockTimeout:
            raise StorageFailed(Code.STORE_BUSY) from None

    # ------------------------------------------------------------------ loading
    async def _active(self, channel: int) -> GameRow:
        row = await self.store.active_game(channel)
        if row is None:
            raise NoGame()
        return row

    async def _load(self, channel: int) -> Loaded:
        """The channel's active game, else its latest ended one (one read)."""
        row = await self.store.latest_game(channel)
        if row is None:
            raise NoGame()
        return Loaded.of(row)

    @staticmethod
    def _started(loaded: Loaded) -> GameState:
        if loaded.state is None:
            raise GameNotStarted()
        return loaded.state

    @staticmethod
    def _names(row: GameRow) -> SeatNames:
        return seat_names(row.players)

    @staticmethod
    def _seat_of(row: GameRow, user: str) -> Seat:
        """The seat ``user`` (a Discord id) plays: the engine knows it by its pid, which a
        substitute keeps. One whose seat passed to a substitute is told so."""
        seat = row.played_by(user)
        if seat is None:
            raise SeatPassed() if row.passed_on(user) else NotInGame()
        return seat

    @staticmethod
    def _computer_pids(row: GameRow) -> frozenset[str]:
        return frozenset(s.pid for s in row.players if s.computer)

    @staticmethod
    def _levels(players: Sequence[Seat]) -> dict[str, str]:
        """The level each taken-over human seat is played at (computers' own: their pid)."""
        return {s.pid: s.level for s in players if s.computer and s.level}

    @staticmethod
    def _turn(state: GameState, row: GameRow) -> int:
        """The version prompts carry: the state's version, plus 2 per move taken back, so it
        only ever grows (a move +1, a take-back -1 + 2) and a prompt of a taken-back branch
        never matches again."""
        return state.version + 2 * row.undos

    @staticmethod
    def _lobby(row: GameRow, why: str = "") -> Lobby:
        return Lobby(row.id, row.guild_id, row.channel_id, GameStatus(row.status), row.creator,
                     row.seats, tuple(s.pid for s in row.players), Core._names(row),
                     row.version, row.invited, why)

    @staticmethod
    def _thread_post(row: GameRow, players: Sequence[Seat], version: int, *,
                     archive: bool = False) -> list[Post]:
        """The game's thread renamed after ``players`` (or archived, the game over), when
        the bot opened a thread for it; none else (a game in its channel, or in a thread a
        member made, leaves the channel as it is)."""
        if row.parent_id is None:
            return []
        return [Post(PostKind.THREAD, row.guild_id, row.channel_id, row.id, version,
                     names=seat_names(players), players=tuple(s.pid for s in players),
                     archive=archive)]

    async def _commit(self, row: GameRow, fields: RowChanges,
                      actions: Sequence[LogRow] = (), history: HistoryRow | None = None,
                      posts: Sequence[Post] = ()) -> int:
        """Write a change with what it must show the channel (its outbox posts), at once
        (a practice game's posts say so: ``Post.practice``)."""
        if row.practice:
            posts = [replace(p, practice=True) for p in posts]
        try:
            return await self.store.commit(row.id, row.version, fields, actions, history,
                                           [outbox_entry(p, self.clock()) for p in posts])
        except StaleWrite:
            raise StalePrompt() from None

    async def _commit_lobby(self, row: GameRow, fields: RowChanges, *,
                            why: str = "left") -> GameRow:
        """Commit a change of a lobby with its post (the lobby as the change leaves it:
        the post is made, or edited in place; ``why`` a closed lobby closed) and, in its
        own thread, the thread renamed after the seats (archived once the lobby closed);
        returns the row as written."""
        after = replace(row, version=row.version + 1,
                        players=fields.get("players", row.players),
                        status=fields.get("status", row.status),
                        creator=fields.get("creator", row.creator))
        closed = after.status == GameStatus.ABANDONED
        lobby = self._lobby(after, why if closed else "")
        posts = [Post(PostKind.LOBBY, row.guild_id, row.channel_id, row.id, after.version,
                      names=lobby.names, lobby=lobby)]
        if closed or _pids(after.players) != _pids(row.players):
            posts += self._thread_post(row, after.players, after.version, archive=closed)
        await self._commit(row, fields, posts=posts)
        return after

    @staticmethod
    def _note(row: GameRow, state: GameState | None, lines: Sequence[Line], *,
              lobby: Lobby | None = None, mention: Sequence[str] = ()) -> Post:
        """Lines for the channel about a game; a running game's post ends with who acts
        next and the buttons of that decision (``mention``: seats whose player it pings,
        their decision being theirs from now on)."""
        view = state.public_view() if state is not None else None
        running = view is not None and row.status == GameStatus.RUNNING
        return Post(PostKind.NOTE, row.guild_id, row.channel_id, row.id,
                    Core._turn(state, row) if state is not None else row.version,
                    tuple(lines), view=view if running else None, names=Core._names(row),
                    awaiting=dict(view["awaiting"]) if running and view is not None else {},
                    lobby=lobby, mention=tuple(mention))

    async def _away_now(self, guild: int, pids: Sequence[str]) -> dict[str, float]:
        """Which of ``pids`` are away from the guild's games now, until when (epoch s)."""
        now = self.clock()
        return {r.pid: r.until for r in await self.store.away_rows([guild], pids)
                if r.until > now}

    @staticmethod
    def _seats_away(row: GameRow, away: Mapping[str, float]) -> dict[str, float]:
        """``away`` (by person) by the seats those people play in ``row``: a person is away,
        and the seat they play now (a substitute's too) waits on them."""
        return {s.pid: away[s.player] for s in row.players
                if not s.computer and s.player in away}

    async def _reload(self, row: GameRow) -> GameRow:
        new = await self.store.game(row.id)
        assert new is not None
        return new

    # ------------------------------------------------------------------ the one check
    @staticmethod
    def _check_turn(loaded: Loaded, user: str, *, game_id: int | None,
                    expected_version: int | None) -> tuple[GameState, str]:
        """Whether ``user`` may act now in the game a prompt belongs to: the module
        docstring's order, the same for every click and command. Returns the state and the
        pid of the seat ``user`` plays (the engine's player id)."""
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
        state = Core._started(loaded)
        pid = Core._seat_of(row, user).pid
        if pid not in state.waiting_for:
            raise NotYourTurn()
        if expected_version is not None and expected_version != Core._turn(state, row):
            raise StalePrompt()
        return state, pid


    @staticmethod
    def _check_pid(user: str) -> str:
        if not isinstance(user, str) or not engine.actions.PID_RE.match(user):
            raise BadInput(Code.PLAYER_ID)
        return user

    async def _think(self, state: GameState, computers: frozenset[str],
                     levels: Mapping[str, str] | None = None
                     ) -> tuple[GameState, list[AppliedAction]]:
        """Every move awaited from computer players, thought in Discord's worker lane
        (``bot.work``: a worker process when the bot has one), never on the event loop;
        ``levels``: the level of each taken-over human seat that has one."""
        if self.computers is None or not computers:
            return state, []
        return await self.work.run(DISCORD, play_computers, self.computers, state,
                                   computers, dict(levels or {}))

    async def _save(self, row: GameRow, fields: RowChanges, state: GameState,
                    steps: Sequence[AppliedAction], old_waiting: set[str],
                    computers: frozenset[str], now: float, *, old_view: PublicView | None = None,
                    players: Sequence[Seat] | None = None,
                    first_events: Sequence[Event] = (), lines: Sequence[Line] = (),
                    lobby: Lobby | None = None, invite: Sequence[str] = (),
                    people: int = 0) -> Update:
        """Commit state + log rows (+ history when the game ends) + the channel's post (what
        happened, headed by ``lines``; ``lobby``: the lobby it closes) at once; build the
        Update. ``people``: how many of ``steps``, first, a person decided (the acting
        player's move); the computer decided the rest."""
        first_seq = state.version - len(steps) + 1
        actions = [LogRow(first_seq + i, pid, a.encode(), now, computer=i >= people)
                   for i, (pid, a, _) in enumerate(steps)]
        view = state.public_view()
        history = None
        fields["state"] = state.to_json()
        fields["awaiting"] = awaiting_column(state.waiting_for)  # My games: awaited first
        if state.finished:
            fields.update({"status": GameStatus.FINISHED, "ended_at": now,
                           "awaited_since": None})
        if state.finished and not row.practice:  # a practice game is in no history: unrated
            history = HistoryRow(row.id, row.guild_id, row.channel_id, now,
                                 tuple(view["players"]), tuple(view["winners"]),
                                 dict(view["prestige"]))
        all_events = [*first_events, *(e for _, _, evs in steps for e in evs)]
        private: dict[str, list[Event]] = {}
        for e in all_events:
            for pid in e.visible_to or ():
                private.setdefault(pid, []).append(e)
        waiting = state.waiting_for
        mention = tuple(p for p in waiting if p not in old_waiting and p not in computers)
        names = seat_names(players or row.players)
        changed = old_view is None or _board_of(old_view) != _board_of(view)
        update = Update(row.id, row.channel_id, self._turn(state, row), view, names,
                        engine.public_events(all_events),
                        {p: tuple(evs) for p, evs in private.items()}, mention,
                        dict(view["awaiting"]), changed, state.finished,
                        tuple(view["winners"]), len(steps))
        seats = tuple(players or row.players)
        lessons = self._lessons(row, state, all_events, fields)
        posts = [move_post(row.guild_id, update, lines, lobby, invite, lessons)]
        if state.finished and await self.store.hinted(row.id):
            posts[0] = replace(posts[0], hinted=True)  # the final post says hints were used
        if state.finished or _pids(seats) != _pids(row.players):
            # a thread named after its seats (computers filled some), archived at the end
            posts += self._thread_post(row, seats, update.version, archive=state.finished)
        await self._commit(row, fields, actions, history, posts)
        return update


    def _lessons(self, row: GameRow, state: GameState, events: Sequence[Event],
                 fields: RowChanges) -> tuple[str, ...]:
        """The explanations a change of ``row`` brings (a practice game's: ``PracticeCalls``
        says which, and writes them into ``fields`` as shown); none in other games."""
        return ()

    @staticmethod
    def _new_state(row: GameRow) -> tuple[GameState, tuple[Event, ...]]:
        assert row.seed is not None
        return engine.start_game([s.pid for s in row.players], seed=row.seed)


def play_computers(hook: ComputerPlayers, state: GameState, computers: frozenset[str],
                   levels: Mapping[str, str]) -> tuple[GameState, list[AppliedAction]]:
    """Play every move awaited from the seats ``computers`` until a human's turn (a job of
    plain picklable values: it runs in a worker process)."""
    steps: list[AppliedAction] = []
    for _ in range(MAX_COMPUTER_MOVES):
        todo = [p for p in state.waiting_for if p in computers]
        if state.finished or not todo:
            return state, steps
        pid = todo[0]
        level = levels.get(pid)
        action = hook.choose(state, pid, level) if level else hook.choose(state, pid)
        state, events = engine.apply(state, pid, action)
        steps.append((pid, action, events))
    raise RuntimeError("computer players did not stop moving")


def _pids(players: Sequence[Seat]) -> frozenset[str]:
    return frozenset(s.pid for s in players)


def _board_of(view: PublicView) -> dict[str, object]:
    """A view without its version: what a board picture shows."""
    return {k: v for k, v in view.items() if k != "version"}


