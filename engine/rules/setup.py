"""Set-up (RULES.md §3): seats, the four rolls with the R3 reroll, bridges (R4)."""

from __future__ import annotations

from ..board import BY_DIE, DISTRICT_NAMES, INDEX
from ..cards import ACTION_DECK, LIMIT_DECK
from ..phases import Phase
from . import rounds
from .work import Work


def _district_of_die(roll: int) -> int:
    return INDEX[BY_DIE[roll].name]


def start(players: tuple[str, ...], seed: int) -> Work:
    """Draw seats, shuffle the decks, roll for everyone; then ask R3 or go to the bridges."""
    w = Work.fresh(players, seed)
    w.players = tuple(w.rng.shuffled(players))  # §3.1: seat order drawn at random
    w.action_deck = w.rng.shuffled(ACTION_DECK)
    w.limit_deck = w.rng.shuffled(LIMIT_DECK)
    w.emit("game_started", players=list(w.players))
    for seat in range(w.n):
        rolls = [w.rng.die() for _ in range(4)]
        w.setup_rolls[seat] = rolls
        for r in rolls:
            d = _district_of_die(r)
            w.districts[d][seat] += 2
            w.reserve[seat] -= 2
        w.emit("setup_rolled", player=w.pid(seat), rolls=rolls,
               districts=[BY_DIE[r].name for r in rolls])
    w.queue = [s for s in range(w.n) if len(set(w.setup_rolls[s])) == 1]
    if w.queue:
        w.phase = Phase.SETUP_REROLL
    else:
        begin_bridges(w)
    return w


def keep(w: Work) -> None:
    """R3: the player keeps four identical rolls."""
    w.queue.pop(0)
    if not w.queue:
        begin_bridges(w)


def reroll(w: Work) -> None:
    """R3: reroll the fourth roll until it differs; its two aristocrats move."""
    seat = w.queue.pop(0)
    rolls = w.setup_rolls[seat]
    old = rolls[3]
    new = old
    while new == old:
        new = w.rng.die()
    w.districts[_district_of_die(old)][seat] -= 2
    w.districts[_district_of_die(new)][seat] += 2
    rolls[3] = new
    w.emit("setup_rerolled", player=w.pid(seat), rolls=list(rolls),
           districts=[BY_DIE[r].name for r in rolls])
    if not w.queue:
        begin_bridges(w)


def begin_bridges(w: Work) -> None:
    """§3.4: one bridge each in seat order; R4: two passes with 3 players."""
    passes = 2 if w.n == 3 else 1
    w.queue = [s for _ in range(passes) for s in range(w.n)]
    w.phase = Phase.SETUP_BRIDGES


def place_setup_bridge(w: Work, a: int, b: int) -> None:
    seat = w.queue.pop(0)
    w.take_aristocrat(seat, None)
    w.bridges.append((min(a, b), max(a, b), seat))
    w.emit("bridge_built", player=w.pid(seat), a=DISTRICT_NAMES[min(a, b)],
           b=DISTRICT_NAMES[max(a, b)], setup=True)
    if not w.queue:
        w.starter = 0  # §3.1: seat 1 starts
        w.in_passage = list(range(w.n))
        w.passage, w.round = 1, 0
        rounds.start_round(w, extra=False)
