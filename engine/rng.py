"""The game's own random numbers: splitmix64, one integer of state kept in the game state.

Never the global ``random`` module: the same seed and actions must give the same game bit for
bit on any machine and after any JSON round trip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

MASK = (1 << 64) - 1
T = TypeVar("T")


def next64(state: int) -> tuple[int, int]:
    """Advance the generator: (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class Rng:
    """A mutable cursor over the state integer, used inside one ``apply`` call."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection so there is no modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = MASK - (MASK + 1) % n
        while True:
            self.state, x = next64(self.state)
            if x <= limit:
                return x % n

    def die(self) -> int:
        return self.below(6) + 1

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates shuffle of a copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
