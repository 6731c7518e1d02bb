"""Taking back one's last move, where it is fair (nothing drawn or revealed, R5).

Which moves may be taken back is a rule, so the engine says it (``engine.undo_block``: nothing
drawn by chance, nothing hidden revealed, no committed split). Who and when is the service's:
only the player who made the game's last move, while nobody — not even a computer — has moved
since, and only a move they made themselves (not one the turn timer made for them). No
snapshot is stored: the state before the move is rebuilt by replaying the game's log from its
seed without that move, and the move's log row is deleted, so the audit replays exactly.
"""

from __future__ import annotations

from dataclasses import replace

import engine
from bot.service.errors import (
    Code,
    GameAbandoned,
    GameNotStarted,
    GameOver,
    ServiceError,
    StalePrompt,
    UndoRefused,
)
from bot.service.results import GameStatus, Undone, Update
from bot.store import GameRow, LogRow, RowChanges, Seat, StaleWrite, awaiting_column
from bot.work import DISCORD
from engine import Action, Event, GameState, UndoBlock

from ._core import Core, Loaded, log
from .posts import TookBack, move_post, outbox_entry

UNDO_CODES: dict[UndoBlock, Code] = {
    UndoBlock.SPLIT: Code.UNDO_SPLIT, UndoBlock.ROLL: Code.UNDO_ROLL,
    UndoBlock.DRAW: Code.UNDO_DRAW, UndoBlock.REVEAL: Code.UNDO_REVEAL,
    UndoBlock.END: Code.UNDO_END, UndoBlock.CHANCE: Code.UNDO_CHANCE,
}


class UndoCalls(Core):
    """``undo``: take back the caller's last move."""

    async def undo(self, channel: int, user: str, *, expected_version: int | None = None,
                   game_id: int | None = None) -> Undone:
        """Take back ``user``'s last move in the channel's game: the state becomes exactly
        what it was before it (the same JSON), and the decision is theirs again, with its
        wait counted from when it began. Refused (UndoRefused, the code says why) when the
        game's last move is not theirs (someone, a computer too, has moved since), when the
        computer made it for them, or when the engine says it drew or revealed something.
        ``game_id``/``expected_version``: what the Undo button was made for (the game must
        not have moved on since)."""
        async with self._lock(channel):
            loaded = await self._load(channel)
            row = loaded.row
            self._check_running(loaded, game_id)
            stored = self._started(loaded)
            seat = self._seat_of(row, user)
            user = seat.pid  # the seat's engine id (a substitute plays under it)
            if expected_version is not None and expected_version != self._turn(stored, row):
                raise UndoRefused(Code.UNDO_MOVED_ON)
            rows = await self._own_last_move(row, seat)
            before, action = await self._state_before(row, rows)
            now = self.clock()
            # The decision's wait counts from when it began (the move before this one), so
            # taking a move back never buys time against the turn timer; no reminder at once.
            since = rows[-2].at if len(rows) > 1 else row.created_at
            fields: RowChanges = {"state": before.to_json(), "last_action_at": now,
                                  "awaited_since": since, "last_reminded_at": now,
                                  "awaiting": awaiting_column(before.waiting_for)}
            update = self._taken_back(row, before, user)
            post = replace(move_post(row.guild_id, update, [TookBack(user, action)]),
                           practice=row.practice)
            last = rows[-1]
            try:
                await self.store.take_back(row.id, row.version, last.seq, fields,
                                           [outbox_entry(post, now)])
            except StaleWrite:
                raise StalePrompt() from None
            log.info("game %s: %s took back %s (v%d)", row.id, user, action.kind, last.seq)
            return Undone(user, action, update)

    @staticmethod
    def _check_running(loaded: Loaded, game_id: int | None) -> None:
        """The game the Undo button was made for, and one being played."""
        if game_id is not None and game_id != loaded.row.id:
            raise StalePrompt()
        if loaded.status is GameStatus.LOBBY:
            raise GameNotStarted()
        if loaded.status is GameStatus.FINISHED:
            raise GameOver()
        if loaded.status is GameStatus.ABANDONED:
            raise GameAbandoned()

    async def _own_last_move(self, row: GameRow, seat: Seat) -> list[LogRow]:
        """The game's log, if its last move is the seat's own: made by its player (a
        substitute: since they sat down), not by a computer or the turn timer for them."""
        rows = await self.store.actions(row.id)
        # A substitute takes back only their own moves: none made before they sat down.
        taken = max((r.seq for r in await self.store.substitutes(row.id)
                     if r.pid == seat.pid), default=0)
        if not any(r.pid == seat.pid and r.seq > taken for r in rows):
            raise UndoRefused(Code.UNDO_NOTHING)
        if rows[-1].pid != seat.pid:
            raise UndoRefused(Code.UNDO_MOVED_ON)
        if seat.computer or seat.timeouts:  # the computer made the seat's last move
            raise UndoRefused(Code.UNDO_COMPUTER)
        return rows

    async def _state_before(self, row: GameRow, rows: list[LogRow]
                            ) -> tuple[GameState, Action]:
        """The state before the last move, and that move, if the engine lets it be taken
        back (the log must replay to the stored state)."""
        before, action, after, events = await self.work.run(DISCORD, UndoCalls._replay,
                                                            row, rows)
        if after.to_json() != row.state:
            log.error("game %s: the log does not replay to the stored state; nothing "
                      "taken back", row.id)
            raise ServiceError(Code.INTERNAL)
        block = engine.undo_block(before, action, after, events)
        if block is not None:
            raise UndoRefused(UNDO_CODES[block])
        return before, action

    def _taken_back(self, row: GameRow, before: GameState, user: str) -> Update:
        """What the players see once ``user``'s move is taken back: their decision again."""
        view = before.public_view()
        return Update(row.id, row.channel_id,
                      self._turn(before, replace(row, undos=row.undos + 1)), view,
                      self._names(row), (), {}, (), dict(view["awaiting"]), True, False,
                      (), 0, user, engine.legal_actions(before, user),
                      before.private_view(user)["private"])

    @staticmethod
    def _replay(row: GameRow, rows: list[LogRow]
                ) -> tuple[GameState, Action, GameState, tuple[Event, ...]]:
        """The state before the last logged action, that action, and what it did: the
        game replayed from its seed (in Discord's worker lane)."""
        state, _ = Core._new_state(row)
        for r in rows[:-1]:
            state, _ = engine.apply(state, r.pid, engine.decode(r.action))
        action = engine.decode(rows[-1].action)
        after, events = engine.apply(state, rows[-1].pid, action)
        return state, action, after, events
