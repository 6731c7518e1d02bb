"""Render timing and PNG size: the cached paletted path against a naive full redraw.

Run: python benchmarks/render_bench.py [repeats]
Both boards come from the same real engine game (4 players, mid-game), in one run.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import apply, legal_actions, new_game  # noqa: E402
from render import render_board  # noqa: E402


def mid_game_view(seed: int = 7, actions: int = 70) -> dict:
    """A 4-player game driven by random legal actions until mid-game."""
    state = new_game(players=["111", "222", "333", "444"], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.finished:
            break
        pid = state.waiting_for[0]
        state, _ = apply(state, pid, rng.choice(legal_actions(state, pid)))
    return state.public_view()


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    view = mid_game_view()
    names = {"111": "Alice", "222": "Bob", "333": "Chiara", "444": "Dario"}
    highlight = {"district": "San Marco", "caption": "San Marco scored"}

    t = time.perf_counter()
    cached = render_board(view, names=names, highlight=highlight)
    first = (time.perf_counter() - t) * 1000
    naive = render_board(view, names=names, highlight=highlight, naive=True)

    fast_ms = _median_ms(lambda: render_board(view, names=names, highlight=highlight),
                         repeats)
    naive_ms = _median_ms(
        lambda: render_board(view, names=names, highlight=highlight, naive=True), repeats)
    print(f"mid-game board 1600x1000, median of {repeats}")
    print(f"  naive full redraw (RGB)      {naive_ms:7.1f} ms  {len(naive) / 1024:6.1f} KB")
    print(f"  cached base + palette (P)    {fast_ms:7.1f} ms  {len(cached) / 1024:6.1f} KB")
    print(f"  first cached render (builds the base and glyph caches) {first:.1f} ms")
    print(f"  ratio cached/naive           {fast_ms / naive_ms:7.2f}  (target <= 0.25)")


if __name__ == "__main__":
    main()
