"""Views from real engine games, played by seeded random legal actions."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import pytest

from render.gallery import playthrough

P4 = ["111", "222", "333", "444"]
P3 = ["111", "222", "333"]


@lru_cache(maxsize=4)
def _views(players: tuple[str, ...], seed: int) -> tuple[dict[str, Any], ...]:
    return tuple(state.public_view() for state, _ in playthrough(list(players), seed))


def game_views(players: list[str], seed: int) -> list[dict[str, Any]]:
    """Every public view of one whole game (deep copies: tests may edit them)."""
    return [copy.deepcopy(v) for v in _views(tuple(players), seed)]


@pytest.fixture
def mid4() -> dict[str, Any]:
    """A 4-player view in the middle of the second round of a passage."""
    return next(v for v in game_views(P4, 4) if v["round"] >= 2 and v["phase"] == "play")


@pytest.fixture
def mid3() -> dict[str, Any]:
    return next(v for v in game_views(P3, 3) if v["round"] >= 2 and v["phase"] == "play")
