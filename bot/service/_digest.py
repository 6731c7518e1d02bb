"""What happened since a player's previous decision: the digest a player coming back after a
day reads instead of scrolling up a busy channel (the awaited post's button, ``/sanmarco
hand`` and ``status``, the DM of their turn).

Computed, never stored: the game is replayed from its seed and log (as ``log`` and
``audit`` do) up to the reader's own last decision, whose board is the one they last saw
move; every later action is what they missed, with its public events (R15: nothing
secret): the others' moves, and the computer's for their seat (a timed-out decision, a
seat it played until they reclaimed it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import engine
from bot.service.errors import StalePrompt
from bot.service.results import Digest, GameStatus, LogEntry
from bot.store import GameRow, LogRow, SubstituteRow, names_at
from bot.work import DISCORD
from engine.board import DISTRICT_NAMES
from engine.views import BridgeView, PublicView

from ._core import Core


class DigestCalls(Core):
    """``digest``: a player's "since your last move"."""

    async def digest(self, channel: int, user: str, *, game_id: int | None = None) -> Digest:
        """What happened in the channel's game (its latest: a finished one stays readable)
        since ``user``'s previous decision; ``game_id``: the game a button was made for (a
        button of an earlier game of the channel is outdated). Only a seated player has a
        previous decision (player.not_in_game; seat.passed for one whose seat a substitute
        plays now)."""
        loaded = await self._load(channel)
        row = loaded.row
        if game_id is not None and game_id != row.id:
            raise StalePrompt()
        self._started(loaded)
        # the seat the reader plays now (a substitute's: since that seat's last decision)
        pid = self._seat_of(row, user).pid
        rows = await self.store.actions(row.id)
        subs = await self.store.substitutes(row.id)  # each move names who made it
        # the replay is pure Python over the whole log: in Discord's worker lane
        digest = await self.work.run(DISCORD, DigestCalls._digest, row, rows, pid, subs)
        return replace(digest, running=loaded.status is GameStatus.RUNNING)

    @staticmethod
    def _digest(row: GameRow, rows: Sequence[LogRow], pid: str,
                subs: Sequence[SubstituteRow] = ()) -> Digest:
        # the person's own last decision: the computer's moves for the seat since (a timed-out
        # decision, a seat it played until its person reclaimed it) are among what they missed
        since = max((r.seq for r in rows if r.pid == pid and not r.computer), default=0)
        names = Core._names(row)
        state, _ = Core._new_state(row)
        before = state.public_view()
        moves: list[LogEntry] = []
        for r in rows:
            action = engine.decode(r.action)
            state, events = engine.apply(state, r.pid, action)
            if r.seq == since:
                before = state.public_view()
            elif r.seq > since:
                moves.append(LogEntry(r.seq, r.pid, action.public_encode(), r.at,
                                      engine.public_events(events),
                                      names_at(names, subs, r.seq) if subs else None,
                                      r.computer))
        view = state.public_view()
        doge = tuple(e["to"] for m in moves for e in m.events if e.type == "doge_moved")
        return Digest(row.id, row.channel_id, pid, since, tuple(moves), before, view,
                      names, _changed_districts(before, view),
                      _new_bridges(before, view), doge)


def _changed_districts(before: PublicView, now: PublicView) -> tuple[str, ...]:
    """The districts whose aristocrats changed (placed, replaced, banished), board order."""
    return tuple(d for d in DISTRICT_NAMES
                 if {p: n for p, n in before["districts"].get(d, {}).items() if n}
                 != {p: n for p, n in now["districts"].get(d, {}).items() if n})


def _new_bridges(before: PublicView, now: PublicView) -> tuple[BridgeView, ...]:
    """The bridges on the board now that were not there then (built, or taken over: a
    bridge with a new owner or place)."""
    def key(b: BridgeView) -> tuple[str, str, str]:
        a, c = sorted((b["a"], b["b"]))
        return a, c, b["owner"]

    old = {key(b) for b in before["bridges"]}
    return tuple(b for b in now["bridges"] if key(b) not in old)
