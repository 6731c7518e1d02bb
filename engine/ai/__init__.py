"""Computer players: pure decisions from what a player may see, deterministic per seed.

    action = choose_action(state, "ai.normal.1", level="normal", seed=7)

Levels: ``easy`` plays a uniformly random legal action; ``normal`` plays the heuristic of
``engine.ai.heuristic``; ``hard`` searches (``engine.ai.search``: determinized Monte Carlo
playouts with the heuristic as the policy), within a ``Budget`` of playouts per decision.
A decision reads only ``state.private_view(pid)`` and ``legal_actions(state, pid)`` (R15:
never another player's cards, the deck order or the seed), so the same code can run on a
view that came over the wire (``choose_from_view``).

Computer players' pids are ``ai.<level>.<n>`` (``ai.normal.1``, ``ai.easy.2``): valid engine
pids that no Discord id (digits only) can collide with.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import Action
from ..game import legal_actions
from ..state import GameState
from . import heuristic, search
from .search import Budget

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
_PID = re.compile(r"^ai\.(easy|normal|hard)\.([0-9]{1,6})$")


def computer_pid(level: str, n: int) -> str:
    """The pid of computer player ``n`` at ``level``. Raises ValueError for an unknown level."""
    if level not in LEVELS or n < 0:
        raise ValueError(f"{level!r} is not a computer level ({', '.join(LEVELS)})")
    return f"ai.{level}.{n}"


def is_computer(pid: str) -> bool:
    """Whether ``pid`` names a computer player (``ai.<level>.<n>``)."""
    return isinstance(pid, str) and _PID.match(pid) is not None


def level_of(pid: str) -> str:
    """The level in a computer pid. Raises ValueError for a pid that is not a computer's."""
    m = _PID.match(pid) if isinstance(pid, str) else None
    if m is None:
        raise ValueError(f"{pid!r} is not a computer player")
    return m.group(1)


def computer_name(pid: str) -> str:
    """A display name: ``ai.normal.1`` → "Computer 1 (normal)". Raises ValueError."""
    m = _PID.match(pid) if isinstance(pid, str) else None
    if m is None:
        raise ValueError(f"{pid!r} is not a computer player")
    return f"Computer {m.group(2)} ({m.group(1)})"


def choose_action(state: GameState, pid: str, *, level: str = "normal", seed: int,
                  budget: Budget | None = None) -> Action:
    """``pid``'s action now, one of ``legal_actions(state, pid)``; the same (state, pid,
    level, seed, budget) always gives the same action (``budget``: the hard level's,
    default ``search.HARD``; see ``Budget.max_seconds`` for the one exception). Raises
    ValueError if pid is not awaited or the level is unknown."""
    legal = legal_actions(state, pid)
    if not legal:
        raise ValueError(f"{pid!r} has nothing to decide now")
    return choose_from_view(state.private_view(pid), legal, pid, level=level, seed=seed,
                            budget=budget)


def choose_from_view(view: Mapping[str, Any], legal: Sequence[Action], pid: str, *,
                     level: str = "normal", seed: int, budget: Budget | None = None) -> Action:
    """The same decision from ``pid``'s private view and legal actions alone (e.g. as a
    service hands them out). Raises ValueError for an unknown level or no legal action."""
    if level not in LEVELS:
        raise ValueError(f"{level!r} is not a computer level ({', '.join(LEVELS)})")
    if not legal:
        raise ValueError(f"{pid!r} has nothing to decide now")
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and
    # machines, unlike hash() of a tuple (PYTHONHASHSEED).
    rng = random.Random(f"{seed}:{pid}:{view['version']}")
    if level == "easy":
        return legal[rng.randrange(len(legal))]
    if level == "hard":
        return search.choose(view, legal, pid, rng, search.HARD if budget is None else budget)
    return heuristic.choose(view, legal, pid, rng)


__all__ = ["LEVELS", "Budget", "choose_action", "choose_from_view", "computer_name", "computer_pid",
           "is_computer", "level_of"]
