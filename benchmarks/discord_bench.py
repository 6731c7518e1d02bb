"""Latency of the real bot under 50 concurrent games, through the fake Discord server.

    python benchmarks/discord_bench.py [--games 50] [--seconds 30] [--think 0.2]

Each game has three fake players who click the bot's own buttons and selects (as in the
tests). Measured at the fake server, per interaction: from the moment it dispatches
INTERACTION_CREATE to

- *ack*: the interaction callback (Discord's 3-second deadline applies to this one);
- *post*: for game actions, the message carrying the new board PNG (the full answer).

``--think`` is each player's mean pause before a click, in seconds (0 = every player clicks
the instant the previous answer arrives, a saturation test). Prints p50/p95/max.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakediscord import FakeDiscord, InteractionRecord  # noqa: E402
from tests.fakediscord.harness import BotHarness, point_discord_at  # noqa: E402
from tests.fakediscord.players import Table  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def _open_game(fake: FakeDiscord, channel: int, table: Table) -> None:
    a, b, c = table.users
    rec = await fake.slash(a, "sanmarco new", channel_id=channel, seats=3)
    lobby = rec.response
    for user in (b, c):
        await table.click(user, lobby, lobby.component("join")["custom_id"])
    await table.click(a, lobby, lobby.component("start")["custom_id"])


async def _play(table: Table, deadline: float) -> int:
    steps = 0
    while time.perf_counter() < deadline and await table.step():
        steps += 1
    return steps


async def run(games: int, seconds: float, think: float, db: Path) -> dict[str, object]:
    fake = FakeDiscord()
    channels = [fake.add_channel() for _ in range(games)]
    tables = [Table(fake, [fake.add_user(f"g{i}p{k}") for k in range(3)], channel_id=ch,
                    think=think)
              for i, ch in enumerate(channels)]
    for i, t in enumerate(tables):
        t.rng.seed(i)
    await fake.start()
    point_discord_at(fake)
    harness = BotHarness(fake, db)
    await harness.start()
    try:
        await asyncio.gather(*(_open_game(fake, ch, t) for ch, t in zip(channels, tables,
                                                                        strict=True)))
        started = time.perf_counter()
        steps = await asyncio.gather(*(_play(t, started + seconds) for t in tables))
        wall = time.perf_counter() - started
    finally:
        await harness.stop()
        await fake.close()
    records: list[InteractionRecord] = [r for t in tables for r in t.interactions]
    ack = [(r.t_callback - r.t_sent) * 1000 for r in records if r.t_callback]
    post = [(r.t_files - r.t_sent) * 1000 for r in records if r.t_files]
    finished = sum(1 for t in tables if "Game over" in fake.last_channel_message(
        t.channel_id).content)
    return {"games": games, "interactions": len(records), "actions with board": len(post),
            "steps": sum(steps), "finished games": finished, "seconds": round(wall, 1),
            "ack_ms": ack, "post_ms": post, "unknown_routes": len(fake.unknown)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run(args.games, args.seconds, args.think,
                                 Path(tmp) / "bench.db"))
    ack: list[float] = result.pop("ack_ms")  # type: ignore[assignment]
    post: list[float] = result.pop("post_ms")  # type: ignore[assignment]
    print(f"discord_bench: {args.games} concurrent games, think {args.think}s, "
          f"{args.seconds}s of play")
    for key, value in result.items():
        print(f"  {key}: {value}")
    for name, values in (("ack (callback)", ack), ("action → board post", post)):
        if values:
            print(f"  {name}: n={len(values)} p50={statistics.median(values):.1f} ms "
                  f"p95={_pct(values, 0.95):.1f} ms max={max(values):.1f} ms")
    if post:
        print(f"  target p95 ≤ 150 ms (board post): "
              f"{'met' if _pct(post, 0.95) <= 150 else 'NOT met'}")


if __name__ == "__main__":
    main()
