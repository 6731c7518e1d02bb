"""The turn timer: when a decision has waited longer than its channel's timer (quiet
hours not counted), the computer makes that one decision for the player; after three such
decisions in a row it plays their seat until they ``reclaim`` it.

Everything comes from stored times (the decision's start, the channel's settings), never from
sleeps in memory, so a restart changes nothing: the pass asks ``due_timers(now)`` (an indexed
read of the games whose timer may have run out), then ``time_out`` each one.

A player away from the server's games (``bot.service._away``) is not timed out while away:
their wait counts from their return, and the game waits on them at most the channel's
``away_cap_hours`` from the decision's start; then the timer runs as usual
(``decision_due``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.service.errors import ComputersUnavailable, StalePrompt
from bot.service.results import GameStatus, TimedOut, TimerDue
from bot.store import DueGame, GameRow, RowChanges, Seat, Settings, Shards
from bot.work import DISCORD
from engine import Action, GameState, apply, decode

from ._core import MAX_COMPUTER_MOVES, AppliedAction, ComputerPlayers, Core, log
from .posts import HandedOver, Line, TimedOutMove

TIMER_PAGE = 200  # due games read at a time
TIMEOUTS_TO_HAND_OVER = 3  # timed-out decisions in a row before the computer takes the seat
_MAX_SEGMENTS = 24 * 400  # hours walked at most (a 14-day timer with long quiet hours)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _quiet_hour(hour: int, start: int, end: int) -> bool:
    return start <= hour < end if start < end else (hour >= start or hour < end)


def timer_due(since: float, settings: Settings) -> float | None:
    """When a decision that started at ``since`` has waited the channel's turn timer, not
    counting the channel's quiet hours (whole local hours [start, end) in its time zone);
    None when the channel has no timer. Never inside quiet hours: a wait that would end at
    their start ends when they end."""
    left = settings.turn_timer_hours * 3600
    if left <= 0:
        return None
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return since + left
    zone = _zone(settings.timezone)
    t = since
    for _ in range(_MAX_SEGMENTS):
        local = datetime.fromtimestamp(t, zone)
        # the next local hour boundary (DST changes fall on them)
        boundary = t + 3600 - (local.minute * 60 + local.second + local.microsecond / 1e6)
        if not _quiet_hour(local.hour, start, end):
            if t + left < boundary:
                return t + left
            left -= boundary - t
        t = boundary
    return t + left  # pragma: no cover - quiet hours never leave this many hours to count


def after_quiet(t: float, settings: Settings) -> float:
    """``t``, or the end of the channel's quiet hours when ``t`` falls inside them."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return t
    zone = _zone(settings.timezone)
    for _ in range(48):  # quiet hours last at most 23 hours; DST may add one
        local = datetime.fromtimestamp(t, zone)
        if not _quiet_hour(local.hour, start, end):
            return t
        t += 3600 - (local.minute * 60 + local.second + local.microsecond / 1e6)
    return t  # pragma: no cover - quiet hours never last this long


def away_held(since: float, away_until: float | None, settings: Settings,
              hours: float) -> float | None:
    """Until when a game holds the wait for one player's decision (started at ``since``)
    because they were away during it (``away_until``: until when, or the moment they came
    back): ``hours`` from their return, but never past the channel's cap from the
    decision's start. None when their away time does not touch the decision or the
    channel does not wait on away players (a cap of 0)."""
    cap = settings.away_cap_hours
    if away_until is None or away_until <= since or cap <= 0:
        return None
    return min(away_until + hours * 3600, since + cap * 3600)


def decision_due(since: float, settings: Settings,
                 away_until: float | None = None) -> float | None:
    """When the turn timer runs out on one player's decision that started at ``since``
    (``timer_due``). A player away during it (``away_until``) has the full timer again
    from their return, within the channel's cap from the decision's start: away past the
    cap, the timer runs out at the cap (as it would have without the away time, had that
    been later). Never inside quiet hours. None when the channel has no timer."""
    due = timer_due(since, settings)
    cap = settings.away_cap_hours
    if due is None or away_until is None or away_until <= since or cap <= 0:
        return due
    back = timer_due(away_until, settings)
    assert back is not None
    return max(due, after_quiet(min(back, since + cap * 3600), settings))


def decide_time_out(computers: ComputerPlayers, state_json: str, timed_out: Sequence[str],
                    level: str, playing: frozenset[str], hand_over: frozenset[str],
                    levels: Mapping[str, str]) -> tuple[list[tuple[str, str]], int]:
    """The moves of a time-out, as (pid, action text), and how many of them are default
    moves: the computer's default move for each timed-out player still awaited (first),
    then every computer move that follows (``playing``: the
    seats computers play; ``hand_over``: timed-out players whose seat the computer takes if
    it makes their move now). Plain values in and out, so it can run in another process,
    where the computer's thinking never holds the bot's event loop (its GIL) up."""
    state = GameState.from_json(state_json)
    moves: list[tuple[str, str]] = []
    made: set[str] = set()
    for pid in timed_out:
        if state.finished or pid not in state.waiting_for:
            continue
        action = computers.choose(state, pid, level)
        state, _ = apply(state, pid, action)
        moves.append((pid, action.encode()))
        made.add(pid)
    handed = hand_over & made
    computer_seats = playing | handed
    levels = {**levels, **dict.fromkeys(handed, level)}
    for _ in range(MAX_COMPUTER_MOVES):
        todo = [p for p in state.waiting_for if p in computer_seats]
        if state.finished or not todo:
            return moves, len(made)
        pid = todo[0]
        chosen = levels.get(pid)
        action = (computers.choose(state, pid, chosen) if chosen
                  else computers.choose(state, pid))
        state, _ = apply(state, pid, action)
        moves.append((pid, action.encode()))
    raise RuntimeError("computer players did not stop moving")


class TimerCalls(Core):
    """The turn timer's calls: which games are due, and the default moves."""

    async def due_timers(self, now: float, *, shards: Shards | None = None
                         ) -> list[TimerDue]:
        """Running games where a human's decision has waited longer than the channel's turn
        timer at ``now`` (quiet hours not counted); with ``shards``, only in the guilds of
        those Discord shards (this process's, as for reminders). Only the games whose earliest
        timer moment has passed are read (an indexed query, a page at a time), their states in
        Discord's worker lane (``bot.work``); a game whose quiet hours put the moment later
        has it moved on in the store, so the next passes do not read it again before then."""
        if self.computers is None:
            return []  # nobody could make the moves
        due: list[TimerDue] = []
        after: tuple[float, int] | None = None
        while True:
            page = await self.store.due_timer_games(now, after=after, limit=TIMER_PAGE,
                                                    shards=shards)
            if not page:
                return due
            away = await self._away_of(page)
            found, later = await self.work.run(DISCORD, TimerCalls._timers, page, now,
                                               away)
            due += found
            if later:
                await self.store.defer_timers(later)
            after = page[-1].after

    async def _away_of(self, page: Sequence[DueGame]) -> dict[tuple[int, str], float]:
        """Until when each player of the page's servers is (or was) away, by (guild, pid)."""
        rows = await self.store.away_rows({item.game.guild_id for item in page})
        return {(r.guild_id, r.pid): r.until for r in rows}

    @staticmethod
    def _timers(page: list[DueGame], now: float,
                away: Mapping[tuple[int, str], float] | None = None
                ) -> tuple[list[TimerDue], list[tuple[int, int, float]]]:
        due: list[TimerDue] = []
        later: list[tuple[int, int, float]] = []
        for item in page:
            row = item.game
            try:
                assert row.awaited_since is not None and row.state is not None
                # by seat: a seat waits on whoever plays it now (a substitute too)
                held = {s.pid: until for s in row.players
                        if (until := (away or {}).get((row.guild_id, s.player))) is not None
                        and until > row.awaited_since}
                if not held:  # nobody of this game was away during the decision
                    at = timer_due(row.awaited_since, item.settings)
                    if at is None:
                        continue
                    if at > now:
                        later.append((row.id, row.version, at))
                        continue
                    humans = TimerCalls._timed_out(row, GameState.from_json(row.state))
                else:
                    dues = TimerCalls._dues(row, GameState.from_json(row.state),
                                           item.settings, held)
                    if not dues:
                        continue
                    at = min(dues.values())
                    if at > now:
                        later.append((row.id, row.version, at))
                        continue
                    humans = tuple(p for p, t in dues.items() if t <= now)
            except Exception:  # one unreadable game must not stop the others' timers
                log.exception("timers: game %s in channel %s cannot be read", row.id,
                              row.channel_id)
                continue
            if humans:
                due.append(TimerDue(row.id, row.guild_id, row.channel_id, humans,
                                    row.awaited_since, row.version))
        return due, later

    @staticmethod
    def _timed_out(row: GameRow, state: GameState) -> tuple[str, ...]:
        """The awaited players who play their own seat (a computer never waits)."""
        computers = Core._computer_pids(row)
        return tuple(p for p in state.waiting_for if p not in computers)

    @staticmethod
    def _dues(row: GameRow, state: GameState, settings: Settings,
              away: Mapping[str, float]) -> dict[str, float]:
        """When the timer runs out on each awaited human's decision (``away``: until when
        players were away); empty when the channel has no timer."""
        assert row.awaited_since is not None
        out: dict[str, float] = {}
        for pid in TimerCalls._timed_out(row, state):
            at = decision_due(row.awaited_since, settings, away.get(pid))
            if at is not None:
                out[pid] = at
        return out

    async def time_out(self, channel: int, *, game_id: int, version: int) -> TimedOut:
        """The computer (at the channel's level) makes the decision of every awaited human
        whose timer ran out, once each; the seat stays theirs, unless this was their third
        timed-out decision in a row: then the computer plays it until they ``reclaim`` it.
        Computer moves that follow are played too. ``game_id``/``version`` are what
        ``due_timers`` read: a game that changed since is refused (state.stale), as is one
        whose timer has not run out after all (its settings changed, or its player is
        away)."""
        if self.computers is None:
            raise ComputersUnavailable()
        async with self._lock(channel):
            row = await self._active(channel)
            if (row.id != game_id or row.version != version
                    or row.status != GameStatus.RUNNING or row.awaited_since is None
                    or row.state is None):
                raise StalePrompt()
            settings = await self.store.settings(channel)
            now = self.clock()
            away = self._seats_away(row, {r.pid: r.until for r in await self.store.away_rows(
                [row.guild_id], [s.player for s in row.players])})
            before = GameState.from_json(row.state)
            timed_out = tuple(p for p, at in self._dues(row, before, settings, away).items()
                              if at <= now)
            if not timed_out:
                raise StalePrompt()
            hand_over = frozenset(s.pid for s in row.players if s.pid in timed_out
                                  and s.timeouts + 1 >= TIMEOUTS_TO_HAND_OVER)
            moves, n_defaults = await self.work.run(
                DISCORD, decide_time_out, self.computers, row.state, timed_out,
                settings.computer_level, self._computer_pids(row), hand_over,
                self._levels(row.players))
            out = await self.work.run(DISCORD, _outcome, row, before, moves, n_defaults,
                                      hand_over, settings.computer_level)
            if not out.defaults:
                raise StalePrompt()
            fields: RowChanges = {"players": out.players, "last_action_at": now,
                                  "awaited_since": now, "last_reminded_at": None}
            computers = frozenset(s.pid for s in out.players if s.computer)
            lines: list[Line] = [TimedOutMove(p, a) for p, a in out.defaults]
            lines += [HandedOver(p) for p in out.handed_over]
            update = await self._save(row, fields, out.state, out.steps,
                                      set(before.waiting_for), computers, now,
                                      old_view=before.public_view(), players=out.players,
                                      lines=lines)
            log.info("game %s: turn timer ran out for %s%s", row.id,
                     ", ".join(p for p, _ in out.defaults),
                     f"; the computer now plays {', '.join(out.handed_over)}"
                     if out.handed_over else "")
            return TimedOut(update, out.defaults, out.handed_over)


@dataclass(frozen=True)
class _Outcome:
    """What a time-out did: the moves applied again here (cheap) for their events."""

    state: GameState
    steps: list[AppliedAction]
    defaults: tuple[tuple[str, Action], ...]
    players: tuple[Seat, ...]
    handed_over: tuple[str, ...]


def _outcome(row: GameRow, state: GameState, moves: Sequence[tuple[str, str]],
             n_defaults: int, hand_over: frozenset[str], level: str) -> _Outcome:
    """Apply the decided moves to the state (their events are what the post tells; the
    first ``n_defaults`` are the default moves) and count the timed-out decisions in the
    seats (in Discord's worker lane)."""
    steps: list[AppliedAction] = []
    for pid, text in moves:
        action = decode(text)
        state, events = apply(state, pid, action)
        steps.append((pid, action, events))
    defaults = tuple((pid, action) for pid, action, _ in steps[:n_defaults])
    made = {p for p, _ in defaults}
    players: list[Seat] = []
    handed: list[str] = []
    for seat in row.players:
        if seat.pid in made:
            seat = replace(seat, timeouts=seat.timeouts + 1)
            if seat.pid in hand_over:
                seat = replace(seat, computer=True, votes=(), vote_for=None, timeouts=0,
                               level=level)
                handed.append(seat.pid)
        players.append(seat)
    return _Outcome(state, steps, defaults, tuple(players), tuple(handed))
