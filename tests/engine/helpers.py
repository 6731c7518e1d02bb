"""Build exact positions for rule tests: a real new game, then the board set as a test needs.

Players are relabelled "A", "B", "C"(, "D") in seat order so a test reads like the rule book.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from engine import GameState, apply, legal_actions, new_game
from engine.board import ARISTOCRATS_PER_PLAYER, DISTRICT_NAMES
from engine.board import INDEX as IDX
from engine.state import Column


def fresh(n: int = 4, seed: int = 1) -> GameState:
    """A game right after set-up, waiting for the first round's split(s), seats A, B, C(, D)."""
    s = new_game([f"p{i}" for i in range(n)], seed)
    rng = random.Random(seed)
    while s.phase in ("setup_reroll", "setup_bridges"):
        pid = s.waiting_for[0]
        s, _ = apply(s, pid, rng.choice(legal_actions(s, pid)))
    return s.evolve(players=tuple("ABCD"[:n]))


def position(
    n: int = 4,
    *,
    districts: Mapping[str, Mapping[str, int]] | None = None,
    bridges: Iterable[tuple[str, str, str]] = (),
    reserve: Mapping[str, int] | None = None,
    doge: str | None = None,
    prestige: Mapping[str, int] | None = None,
    limit: Mapping[str, Iterable[int]] | None = None,
    seed: int = 1,
) -> GameState:
    """A fresh game with the board replaced; each reserve makes up the player's 25 unless
    ``reserve`` overrides it (R13 tests empty a reserve on purpose)."""
    s = fresh(n, seed)
    players = s.players
    counts = [[0] * n for _ in DISTRICT_NAMES]
    for name, per in (districts or {}).items():
        for pid, c in per.items():
            counts[IDX[name]][players.index(pid)] = c
    brs = []
    for a, b, owner in bridges:
        x, y = sorted((IDX[a], IDX[b]))
        brs.append((x, y, players.index(owner)))
    res = []
    for seat in range(n):
        placed = sum(r[seat] for r in counts) + sum(1 for br in brs if br[2] == seat)
        res.append(ARISTOCRATS_PER_PLAYER - placed)
    if reserve:
        for pid, r in reserve.items():
            res[players.index(pid)] = r
    s = s.evolve(
        districts=tuple(tuple(r) for r in counts), bridges=tuple(sorted(brs)),
        reserve=tuple(res), doge=None if doge is None else IDX[doge],
        prestige=tuple((prestige or {}).get(p, 0) for p in players),
        limit_cards=tuple(tuple((limit or {}).get(p, ())) for p in players),
    )
    return s


def in_play(s: GameState, pid: str, hand: Iterable[str]) -> GameState:
    """``pid`` is resolving an offer whose action cards are ``hand``; nothing follows in the
    round (the round ends when the hand is done)."""
    seat = s.players.index(pid)
    return s.evolve(phase="play", hand=tuple(hand), hand_player=seat, steps=(), columns=(),
                    column=0, starter=s.starter if s.starter is not None else 0)


def with_drawn(s: GameState, drawn: Mapping[str, list[str]]) -> GameState:
    """Replace this round's drawn cards (split phase) with known ones, deck untouched."""
    cols = []
    for c in s.columns:
        pid = s.players[c.distributor]
        cards = tuple(drawn.get(pid, c.drawn))
        cols.append(Column(c.distributor, c.deciders, cards, None, False, c.taken))
    return s.evolve(columns=tuple(cols))


def play_random(s: GameState, rng: random.Random, steps: int = 100_000) -> GameState:
    for _ in range(steps):
        if s.finished:
            return s
        pid = s.waiting_for[0]
        s, _ = apply(s, pid, rng.choice(legal_actions(s, pid)))
    return s


def seat_of(s: GameState, pid: str) -> int:
    return s.players.index(pid)


def count(s: GameState, district: str, pid: str) -> int:
    return s.districts[IDX[district]][s.players.index(pid)]
