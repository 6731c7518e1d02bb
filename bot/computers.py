"""Computer players for the service: seats named ``ai.<level>.<n>`` and moves from
``engine.ai`` (pure, deterministic). A human's seat handed to a computer plays under the
human's own pid, so the log still replays, at the level the channel chose (normal unless
set, issue 12)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import Seat
from engine import Action, GameState
from engine.ai import LEVELS, choose_action, computer_name, computer_pid, is_computer, level_of

TAKEN_OVER_LEVEL = "normal"


class EngineComputers:
    """``ComputerPlayers`` (see bot.service) backed by engine.ai."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def seat(self, taken: Sequence[str], count: int, level: str = "normal") -> list[Seat]:
        """``count`` new computer seats, numbered after those already in ``taken``."""
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a computer level")
        used = {int(p.rsplit(".", 1)[1]) for p in taken if is_computer(p)}
        seats: list[Seat] = []
        n = 1
        while len(seats) < count:
            if n not in used:
                pid = computer_pid(level, n)
                seats.append(Seat(pid, computer_name(pid), computer=True))
            n += 1
        return seats

    def choose(self, state: GameState, pid: str, level: str | None = None) -> Action:
        """``pid``'s move: a computer player's at its own level; a human's (a seat taken
        over, or a decision whose turn timer ran out) at ``level``, else normal."""
        if level is None:
            level = level_of(pid) if is_computer(pid) else TAKEN_OVER_LEVEL
        return choose_action(state, pid, level=level, seed=self.seed)
