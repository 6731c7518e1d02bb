"""Seats during a game: handing a seat to a computer or to a person (a substitute), taking
it back from the computer, and ending the game."""

from __future__ import annotations

from dataclasses import replace

from bot.service.errors import (
    AlreadyComputer,
    AlreadyVoted,
    AwayTooEarly,
    Code,
    ComputersUnavailable,
    GameNotStarted,
    NoGame,
    NotAVoter,
    NotAwaited,
    NotInGame,
    NotReplaced,
    PermissionDenied,
    ServiceError,
    StalePrompt,
    SubstituteIsBot,
    SubstituteSeated,
    TooEarlyToReplace,
)
from bot.service.results import (
    Ended,
    GameStatus,
    MyGame,
    Reclaimed,
    Replacement,
    Update,
)
from bot.store import (
    DEFAULT_REMINDER_HOURS,
    GameRow,
    RowChanges,
    Seat,
    Settings,
    StaleWrite,
    SubstituteRow,
)
from engine import GameState

from ._core import Core, Loaded, log
from ._notify import my_game_of
from ._timers import away_held
from .posts import (
    AbandonedBy,
    Line,
    PracticeEnded,
    ReplaceVote,
    SeatReclaimed,
    SeatReplaced,
    SeatTaken,
    SubstituteVote,
    outbox_entry,
)


class SeatCalls(Core):
    """The calls about who plays a seat, and abandoning the game."""

    async def vote_replace(self, channel: int, voter: str, target: str, *,
                           by: str | None = None, by_name: str | None = None,
                           by_bot: bool = False, is_admin: bool = False) -> Replacement:
        """Vote to hand ``target``'s seat (the person who plays it, or a computer player's
        id) to a computer player, or with ``by`` to that person (``by_name``: their display
        name; ``by_bot``: Discord says it is a bot, which is refused).

        Who decides: a channel manager, or the seat's own player, at once; otherwise a vote
        of the humans who play a seat themselves, the target's aside. A seat a person plays
        is voted on only once the game has waited on them for the channel's reminder
        interval (a target away during the decision: from their return, up to the channel's
        away cap from its start); a seat a computer plays keeps nobody waiting, so its vote
        opens at once. One proposal at a time: a vote names where the seat goes (a
        computer, or a person), and a vote for another place starts a new vote (the earlier
        votes lapse). It passes when more than half of the voters back it. The pid stays
        either way, so the log replays; a computer's seat is reclaimed by its person, a
        person's seat passes on."""
        if by is None and self.computers is None:
            raise ComputersUnavailable()
        if by is not None:
            self._check_pid(by)
            if by_bot:
                raise SubstituteIsBot()
        async with self._lock(channel):
            row = await self._active(channel)
            seat = self._seat_to_replace(row, voter, target, by, is_admin)
            own = voter == seat.player
            state = self._started(Loaded.of(row))
            now = self.clock()
            settings = await self.store.settings(channel)
            if not (is_admin or own or seat.computer):
                await self._check_vote_open(row, state, seat, settings, now)
            # Who votes now: the humans who play a seat themselves, the target's aside.
            electors = {s.player for s in row.players if not s.computer and s is not seat}
            needed = len(electors) // 2 + 1
            standing = seat.votes if seat.vote_for == by else ()  # another place: anew
            if voter in standing:
                raise AlreadyVoted()
            votes = (*(v for v in standing if v in electors), voter)
            if not (is_admin or own or len(votes) >= needed):
                return await self._record_vote(row, state, seat, voter, by, votes, needed)
            if by is not None:
                return await self._substitute(row, state, seat, by, by_name, voter,
                                              len(votes), needed)
            update = await self._hand_to_computer(row, state, seat, settings, now)
            return Replacement(seat.pid, True, len(votes), needed, self._names(row), update)

    def _seat_to_replace(self, row: GameRow, voter: str, target: str, by: str | None,
                         is_admin: bool) -> Seat:
        """``target``'s seat, if it may be voted away to ``by`` (None: a computer) and
        ``voter`` may vote on it."""
        if row.status != GameStatus.RUNNING:
            raise GameNotStarted()
        seat = row.played_by(target)
        if seat is None:
            raise NotInGame(Code.UNKNOWN_PLAYER)
        if by is None and seat.computer:
            raise AlreadyComputer()
        if by is not None and row.played_by(by) is not None:
            raise SubstituteSeated()
        if not is_admin and self._seat_of(row, voter).computer and voter != seat.player:
            raise NotAVoter()
        return seat

    async def _check_vote_open(self, row: GameRow, state: GameState, seat: Seat,
                               settings: Settings, now: float) -> None:
        """A person's seat is voted on only once the game has waited on them for the
        reminder interval (from their return, while away: up to the channel's cap)."""
        if seat.pid not in state.waiting_for:
            raise NotAwaited()
        # the reminder interval, or the default one when reminders are off
        hours = settings.reminder_hours or DEFAULT_REMINDER_HOURS
        since = row.awaited_since or now
        opens = since + hours * 3600
        # a player away during the decision: the interval from their return, the
        # game waiting on them up to the channel's cap
        until = next((r.until for r in await self.store.away_rows(
            [row.guild_id], [seat.player])), None)
        held = away_held(since, until, settings, hours)
        if held is not None and until is not None and until > now \
                and now < max(opens, held):
            raise AwayTooEarly(opens=int(max(opens, held)) + 1)
        opens = max(opens, held or opens)
        if now < opens:
            raise TooEarlyToReplace(opens=int(opens) + 1)

    async def _record_vote(self, row: GameRow, state: GameState, seat: Seat, voter: str,
                           by: str | None, votes: tuple[str, ...], needed: int) -> Replacement:
        """A vote that does not pass yet: kept on the seat, and said in the channel."""
        players = tuple(replace(s, votes=votes, vote_for=by) if s is seat else s
                        for s in row.players)
        line: Line = (ReplaceVote(voter, seat.pid, len(votes), needed) if by is None
                      else SubstituteVote(voter, seat.pid, by, len(votes), needed))
        await self._commit(row, {"players": players},
                           posts=[self._note(row, state, [line])])
        awaiting = state.public_view()["awaiting"]
        return Replacement(seat.pid, False, len(votes), needed, self._names(row),
                           awaiting=dict(awaiting), by=by)

    async def _hand_to_computer(self, row: GameRow, state: GameState, seat: Seat,
                                settings: Settings, now: float) -> Update:
        """The seat to a computer player at the channel's level for absent players, which
        then plays at once if the game waits on it."""
        players = tuple(replace(s, computer=True, votes=(), vote_for=None, timeouts=0,
                                level=settings.computer_level) if s is seat else s
                        for s in row.players)
        computers = frozenset(s.pid for s in players if s.computer)
        new_state, steps = await self._think(state, computers, self._levels(players))
        fields: RowChanges = {"players": players, "last_action_at": now}
        if steps:
            fields.update({"awaited_since": now, "last_reminded_at": None})
        update = await self._save(row, fields, new_state, steps, set(state.waiting_for),
                                  computers, now, old_view=state.public_view(),
                                  players=players,
                                  lines=[SeatReplaced(seat.pid, new_state.finished)])
        log.info("game %s: seat %s handed to a computer player", row.id, seat.pid)
        return update

    async def _substitute(self, row: GameRow, state: GameState, seat: Seat, by: str,
                          by_name: str | None, voter: str, votes: int,
                          needed: int) -> Replacement:
        """Seat ``seat`` passes to the person ``by`` (the channel's lock is held): they play
        it from now on under its pid, the one before loses it, the hand-over is recorded
        with the change, and the channel is told (pinging them when the game waits on the
        seat: the decision is theirs now, its wait starts anew)."""
        now = self.clock()
        players = tuple(replace(s, computer=False, user=None if by == s.pid else by,
                                name=by_name or None, votes=(), vote_for=None, timeouts=0,
                                level=None) if s is seat else s for s in row.players)
        fields: RowChanges = {"players": players, "last_action_at": now}
        awaited = seat.pid in state.waiting_for
        if awaited:
            fields.update({"awaited_since": now, "last_reminded_at": None})
        after = replace(row, players=players, version=row.version + 1)
        order = list(state.public_view()["players"])  # the seat order the board letters
        taken = SeatTaken(seat.pid, by, seat.player, order.index(seat.pid) + 1)
        posts = [self._note(after, state, [taken], mention=[seat.pid] if awaited else []),
                 *self._thread_post(row, players, after.version)]
        record = SubstituteRow(row.id, after.version, seat.pid, by, by_name, voter,
                               state.version, now, before_name=seat.name)
        try:
            await self.store.commit(row.id, row.version, fields,
                                    posts=[outbox_entry(p, now) for p in posts],
                                    substitutes=[record])
        except StaleWrite:
            raise StalePrompt() from None
        log.info("game %s: seat %s passed to a substitute", row.id, seat.pid)
        return Replacement(seat.pid, True, votes, needed, self._names(after),
                           awaiting=dict(state.public_view()["awaiting"]), by=by)

    async def reclaim(self, channel: int, user: str) -> Reclaimed:
        """A player whose seat a computer took over plays it again."""
        async with self._lock(channel):
            row = await self._active(channel)
            seat = self._seat_of(row, user)
            if not seat.computer:
                raise NotReplaced()
            players = tuple(replace(s, computer=False, votes=(), vote_for=None, timeouts=0,
                                    level=None) if s is seat else s for s in row.players)
            now = self.clock()
            fields: RowChanges = {"players": players, "last_action_at": now}
            state = self._started(Loaded.of(row))
            if seat.pid in state.waiting_for:  # back at a decision: its wait starts now
                fields.update({"awaited_since": now, "last_reminded_at": None})
            await self._commit(row, fields, posts=[self._note(row, state,
                                                              [SeatReclaimed(seat.pid)])])
            return Reclaimed(seat.pid, self._names(row), dict(state.public_view()["awaiting"]))

    # ------------------------------------------------------------------ ending
    async def abandon(self, channel: int, user: str, *, is_admin: bool = False) -> Ended:
        """End the channel's lobby or game: its creator or a channel manager may."""
        async with self._lock(channel):
            row = await self._active(channel)
            if user != row.creator and not is_admin:
                raise PermissionDenied()
            now = self.clock()
            lobby = (self._lobby(replace(row, status=GameStatus.ABANDONED.value,
                                         version=row.version + 1), "abandoned")
                     if row.status == GameStatus.LOBBY else None)
            await self._commit(row, {"status": GameStatus.ABANDONED, "ended_at": now,
                                     "awaited_since": None, "last_action_at": now},
                               posts=[self._note(replace(row, status=GameStatus.ABANDONED),
                                                 None, [PracticeEnded(user) if row.practice
                                                        else AbandonedBy(user)], lobby=lobby),
                                      *self._thread_post(row, row.players, row.version + 1,
                                                         archive=True)])
        log.info("game %s in channel %s abandoned", row.id, channel)
        return Ended(row.id, channel, GameStatus.ABANDONED, user)

    async def end_suspended(self, guild: int, user: str, game_id: int, *,
                            is_admin: bool = False) -> Ended:
        """End a game whose channel is gone (it waits, suspended: nothing can be posted
        there), from any channel of its server: its opener or a server manager may. Nothing
        is posted and nothing is rated (an abandoned game has no result)."""
        row = await self.store.game(game_id)
        if row is None or row.guild_id != guild or row.status not in (GameStatus.LOBBY,
                                                                        GameStatus.RUNNING):
            raise NoGame()
        if row.practice and user != row.creator:
            raise NoGame()  # a learner's practice game: never said to exist to anyone else
        place = await self.store.place(row.channel_id)
        if place is None or place.gone_at is None:
            raise ServiceError(Code.NOT_SUSPENDED)
        if user != row.creator and not is_admin:
            raise PermissionDenied()
        async with self._lock(row.channel_id):
            now = self.clock()
            await self._commit(row, {"status": GameStatus.ABANDONED, "ended_at": now,
                                     "awaited_since": None, "last_action_at": now})
        log.info("game %s of a gone channel %s ended", row.id, row.channel_id)
        return Ended(row.id, row.channel_id, GameStatus.ABANDONED, user)

    async def suspended_games(self, guild: int) -> list[MyGame]:
        """The server's games whose channel is gone, newest first (to end them)."""
        rows = await self.store.suspended_games(guild)
        # a practice game is its learner's (and ``learn`` ends one whose thread is gone)
        return [my_game_of(r, None, True) for r in rows if not r.practice]

