"""``python -m render.gallery OUTDIR``: boards from real engine games, for a human to look at.

For 3 and 4 players it drives a seeded game with random legal actions and writes the board
at set-up, mid-round (with what the last action did), while an offer is chosen, at the end
of the first passage, and at game over.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine import apply, legal_actions, new_game, public_events

from . import render_board
from .story import highlight_from_events

NAMES = {"111": "Alice", "222": "Bartolomeo di Rialto", "333": "Chiara", "444": "Dario"}
Step = tuple[Any, list[dict[str, Any]]]


def playthrough(players: list[str], seed: int) -> Iterator[Step]:
    """Every (state, public events) of a game played by seeded random legal actions."""
    state = new_game(players=players, seed=seed)
    rng = random.Random(seed)
    yield state, []
    while not state.finished:
        pid = state.waiting_for[0]
        state, events = apply(state, pid, rng.choice(legal_actions(state, pid)))
        yield state, [e.to_dict() for e in public_events(events)]


def first(players: list[str], seed: int, when: Callable[[Any, list[dict[str, Any]]], bool]
          ) -> Step:
    """The first step of the game for which ``when(state, events)`` holds (or the last)."""
    step: Step | None = None
    for step in playthrough(players, seed):
        if when(*step):
            return step
    assert step is not None
    return step


def moments(players: list[str], seed: int) -> dict[str, Step]:
    """The moments the gallery shows."""
    def types(ev: list[dict[str, Any]]) -> set[str]:
        return {e["type"] for e in ev}
    return {
        "setup": first(players, seed, lambda s, ev: s.public_view()["phase"] == "setup_bridges"),
        "mid_round": first(players, seed, lambda s, ev: s.public_view()["round"] >= 2
                           and bool(types(ev) & {"aristocrat_placed", "district_scored",
                                                 "bridge_built", "transferred"})),
        "choose": first(players, seed, lambda s, ev: s.public_view()["round"] >= 2
                        and s.public_view()["phase"] == "choose"),
        "end_of_passage": first(players, seed, lambda s, ev: "passage_scored" in types(ev)),
        "game_over": first(players, seed, lambda s, ev: s.finished),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m render.gallery OUTDIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for n, seed in ((3, 3), (4, 4)):
        players = list(NAMES)[:n]
        for label, (state, events) in moments(players, seed).items():
            png = render_board(state.public_view(), names=NAMES,
                               highlight=highlight_from_events(events, NAMES))
            path = out / f"{n}p_{label}.png"
            path.write_bytes(png)
            print(f"{path}  {len(png) / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
