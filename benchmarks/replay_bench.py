"""The replay animation and the game file over many games (Discord takes files up to 8 MB).

Run: python benchmarks/replay_bench.py [--games 200] [--players 4] [--level easy]

Plays ``--games`` seeds with computer players, checks every game's file with the open
checker (``engine.replay.verify``), then draws the replay GIF of the longest game (the most
public steps) and of the shortest, and the summary picture: frames, bytes, seconds.
Discord's upload limit without boosts is 8 MB.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.ai import choose_action, computer_pid  # noqa: E402
from engine.replay import game_file, verify  # noqa: E402
from render.replay import render_replay  # noqa: E402
from render.summary import render_summary  # noqa: E402

LIMIT = 8 * 1024 * 1024


def play(players: list[str], seed: int, level: str) -> list[tuple[str, str]]:
    state = engine.new_game(players, seed)
    actions = []
    while not state.finished:
        pid = state.waiting_for[0]
        action = choose_action(state, pid, level=level, seed=seed)
        state, _ = engine.apply(state, pid, action)
        actions.append((pid, action.encode()))
    return actions


def frames_of(players: list[str], seed: int, actions: list[tuple[str, str]]
              ) -> tuple[list[tuple[engine.PublicView, list[dict]]], list[dict]]:
    state, setup = engine.start_game(players, seed)
    evs = [e.to_dict() for e in engine.public_events(setup)]
    frames = [(state.public_view(), evs)]
    every = list(evs)
    for pid, text in actions:
        state, events = engine.apply(state, pid, engine.decode(text))
        evs = [e.to_dict() for e in engine.public_events(events)]
        frames.append((state.public_view(), evs))
        every += evs
    return frames, every


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--level", choices=("easy", "normal"), default="easy")
    parser.add_argument("--out", type=Path, default=None, help="write the longest GIF here")
    args = parser.parse_args()
    players = [computer_pid(args.level, i + 1) for i in range(args.players)]
    t0 = time.perf_counter()
    games = {seed: play(players, seed, args.level) for seed in range(args.games)}
    t_play = time.perf_counter() - t0
    t0 = time.perf_counter()
    accepted = sum(verify(game_file(players, seed, acts)).ok for seed, acts in games.items())
    t_verify = time.perf_counter() - t0
    print(f"{args.games} games, {args.players} players ({args.level}): played in "
          f"{t_play:.1f} s; game files confirmed by the checker: {accepted}/{args.games} "
          f"({t_verify / args.games * 1000:.0f} ms per file)")
    by_length = sorted(games, key=lambda s: len(games[s]))
    for label, seed in (("longest", by_length[-1]), ("shortest", by_length[0])):
        frames, events = frames_of(players, seed, games[seed])
        t0 = time.perf_counter()
        gif = render_replay(frames)
        took = time.perf_counter() - t0
        print(f"{label} game (seed {seed}): {len(frames)} frames, replay GIF "
              f"{len(gif) / 1024 / 1024:.2f} MB ({len(gif) / LIMIT:.0%} of 8 MB), drawn in "
              f"{took:.1f} s ({took / len(frames) * 1000:.0f} ms per frame)")
        if label == "longest":
            t0 = time.perf_counter()
            png = render_summary(frames[-1][0], events)
            print(f"summary picture: {len(png) / 1024:.0f} KB in "
                  f"{(time.perf_counter() - t0) * 1000:.0f} ms")
            if args.out is not None:
                args.out.write_bytes(gif)
    return 0 if accepted == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
