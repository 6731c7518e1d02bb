"""Computer players for the service: seats named ``ai.<level>.<n>`` and moves from
``engine.ai`` (pure, deterministic). A human's seat handed to a computer plays under the
human's own pid, so the log still replays, at the level the channel chose (normal unless
set). Levels: ``engine.ai.LEVELS`` (easy, normal, hard); a hard decision takes up to
about a second (``hard_budget``, default ``engine.ai.search.HARD``), which is why the service
calls ``choose`` off the event loop."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.store import Seat
from engine import Action, GameState
from engine.ai import (
    LEVELS,
    Budget,
    choose_action,
    computer_name,
    computer_pid,
    is_computer,
    level_of,
    search,
)

TAKEN_OVER_LEVEL = "normal"


def hard_budget(playouts: int | None) -> Budget | None:
    """The hard level's budget with ``playouts`` per decision (None: the engine's default,
    ``engine.ai.search.HARD``); the bot's ``SANMARCO_HARD_PLAYOUTS``."""
    return None if playouts is None else dataclasses.replace(search.HARD, playouts=playouts)


class EngineComputers:
    """``ComputerPlayers`` (see bot.service) backed by engine.ai."""

    def __init__(self, seed: int = 0, hard_budget: Budget | None = None) -> None:
        self.seed = seed
        self.hard_budget = hard_budget

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
        return choose_action(state, pid, level=level, seed=self.seed, budget=self.hard_budget)
