"""Latency of the real bot under 50 concurrent games, through the fake Discord server.

    python benchmarks/discord_bench.py [--games 50] [--seconds 30] [--think 1.0] [--in-process]
    SANMARCO_RENDER_PROCESSES=0 python benchmarks/discord_bench.py   # boards in a thread
    python benchmarks/discord_bench.py --think 0 --seconds 20 --backup-during

The bot (the real ``SanMarcoBot`` with its SQLite service, as ``python -m bot`` runs it)
runs in its own process, as it would against the real Discord; the fake Discord server and
the fake players run in this one. Each game has three players who click the bot's own
buttons and selects (as in the tests). Measured at the fake server, per interaction: from
the moment it dispatches INTERACTION_CREATE to

- *ack*: the interaction callback (Discord's 3-second deadline applies to this one);
- *post*: for game actions, the message carrying the new board PNG (the full answer).

``--think`` is each player's mean pause before a click, in seconds (0 = every player clicks
the instant the previous answer arrives, a saturation test). Prints p50/p95/max.

``--backup-during``: halfway through the play the bot takes a backup as its hourly schedule
does (``bot.backup.Schedule``: the online copy and its check in a thread of the bot's
process); the run then restores the copy into a new file and replays every game in it, and
prints the backup's time, size and games replayed, and the board posts' latency while it
ran.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord  # noqa: E402
from tests.fakediscord.harness import BotHarness, point_discord_at  # noqa: E402
from tests.fakediscord.players import Table, awaited_ids, game_over_words, tag_of  # noqa: E402


class _Table(Table):
    """Players of a bot in another process: after "Play next card"/"Your move" they wait
    for their private panel itself. The wire's ``finished`` judges a click deferred as an
    update done at the channel's next write, which may be another click's post."""

    async def click(self, user: FakeUser, msg: FakeMessage, cid: str) -> InteractionRecord:
        rec = await super().click(user, msg, cid)
        if tag_of(cid) == "next" and self.wait_for == "finished":
            give_up = time.perf_counter() + 10.0
            while not rec.messages and not (rec.updated and rec.updated.ephemeral) \
                    and time.perf_counter() < give_up:
                await asyncio.sleep(0.01)
        return rec


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def _open_game(fake: FakeDiscord, channel: int, table: Table) -> None:
    a, b, c = table.users
    rec = await fake.slash(a, "sanmarco game new", channel_id=channel, seats=3)
    lobby = fake.public_answer(rec)
    for user in (b, c):
        await table.click(user, lobby, lobby.component("join")["custom_id"])
    await table.click(a, lobby, lobby.component("start")["custom_id"])


async def _play(table: Table, deadline: float) -> int:
    steps, acted_on = 0, None
    while time.perf_counter() < deadline:
        post = await _fresh_post(table, acted_on)
        if not await table.step(post):
            break
        steps, acted_on = steps + 1, post.id
    return steps


async def _fresh_post(table: Table, acted_on: int | None, timeout: float = 10.0
                      ) -> FakeMessage:
    """The channel's newest post once it is not the one acted on last and says who is
    awaited (or that the game is over): a bot in another process posts a change through
    its outbox after it answered the click, so the wire alone cannot tell when the post
    that follows a click is in (waiting ``timeout`` at most)."""
    assert table.channel_id is not None
    give_up = time.perf_counter() + timeout
    while True:
        post = table.fake.last_channel_message(table.channel_id)
        if post.id != acted_on and (awaited_ids(post) or game_over_words() in post.content):
            return post
        if time.perf_counter() > give_up:
            return post
        await asyncio.sleep(0.01)


def _bot_child(port: int, db: str, backup_dir: str | None = None) -> None:
    """The bot process: the real bot, pointed at the fake server on ``port``. With
    ``backup_dir``, SIGUSR1 makes it take a backup there as its schedule does, and print
    ``backup <start> <end> <path> <bytes> <games checked> <ok>`` (perf_counter times)."""
    import discord

    from bot.backup import Schedule
    from bot.client import SanMarcoBot
    from bot.config import Backups, Config, Keep, default_render_processes

    class _Fake:
        api_base = f"http://127.0.0.1:{port}/api/v10"
        gateway_url = f"ws://127.0.0.1:{port}/ws"

    point_discord_at(_Fake())  # type: ignore[arg-type]

    class Bot(SanMarcoBot):
        async def on_ready(self) -> None:
            print("ready", flush=True)

    async def backup() -> None:
        assert backup_dir is not None
        began = time.perf_counter()
        result = await Schedule(db, Backups((Keep(24, "h"),), backup_dir)).run_once()
        if result is not None:
            print(f"backup {began} {time.perf_counter()} {result.path} {result.size} "
                  f"{result.check.audited} {result.check.ok}", flush=True)

    async def main() -> None:
        workers = int(os.environ.get("SANMARCO_RENDER_PROCESSES")
                      or default_render_processes())
        pending: set[asyncio.Task[None]] = set()
        if backup_dir is not None:
            asyncio.get_running_loop().add_signal_handler(
                signal.SIGUSR1, lambda: pending.add(asyncio.create_task(backup())))
        # Each game in its own channel, as before games had threads: the figures compare
        # with earlier runs, and a thread adds one request at the opening only.
        async with Bot(Config(token="fake-token", db_path=db, render_processes=workers,
                              game_threads=False),
                       guild_ready_timeout=0.01, max_messages=None) as bot:
            await bot.start("fake-token")

    discord.utils.setup_logging(level=40)
    try:
        if os.environ.get("SANMARCO_BENCH_PROFILE"):
            import cProfile

            cProfile.runctx("asyncio.run(main())", globals(), locals(),
                            os.environ["SANMARCO_BENCH_PROFILE"])
        else:
            asyncio.run(main())
    except KeyboardInterrupt:  # the parent's SIGINT: the run is over
        pass


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), 0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


async def _start_child(fake: FakeDiscord, db: Path,
                       backup_dir: Path | None = None) -> subprocess.Popen[str]:
    extra = [] if backup_dir is None else [str(backup_dir)]
    proc = subprocess.Popen(
        [sys.executable, __file__, "--bot-child", str(fake.port), str(db), *extra],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    line = await asyncio.to_thread(proc.stdout.readline)
    if line.strip() != "ready":
        proc.kill()
        raise RuntimeError(f"bot process did not start: {line!r}")
    return proc


async def run(games: int, seconds: float, think: float, db: Path,
              in_process: bool = False, backup_during: bool = False) -> dict[str, object]:
    fake = FakeDiscord()
    channels = [fake.add_channel() for _ in range(games)]
    tables = [_Table(fake, [fake.add_user(f"g{i}p{k}") for k in range(3)], channel_id=ch,
                    think=think, wait_for="handled" if in_process else "finished")
              for i, ch in enumerate(channels)]
    for i, t in enumerate(tables):
        t.rng.seed(i)
    await fake.start()
    point_discord_at(fake)
    own_cpu = _own_cpu()
    harness = BotHarness(fake, db)
    child: subprocess.Popen[str] | None = None
    cpu = 0.0
    if in_process:
        await harness.start()
    else:
        child = await _start_child(fake, db, db.parent / "backups" if backup_during else None)
    try:
        await asyncio.gather(*(_open_game(fake, ch, t) for ch, t in zip(channels, tables,
                                                                        strict=True)))
        started = time.perf_counter()
        if backup_during and child is not None:
            asyncio.get_running_loop().call_later(seconds / 2, child.send_signal,
                                                  signal.SIGUSR1)
        steps = await asyncio.gather(*(_play(t, started + seconds) for t in tables))
        wall = time.perf_counter() - started
    finally:
        if child is not None:
            cpu = _cpu_seconds(child.pid)
            child.send_signal(2)  # SIGINT: a clean stop (and a written profile, if asked)
            await asyncio.to_thread(child.wait, 30)
        else:
            await harness.stop()
        await fake.close()
    records: list[InteractionRecord] = [r for t in tables for r in t.interactions]
    bot_cpu = round(cpu, 1) if child is not None else None
    fake_cpu = round(_own_cpu() - own_cpu, 1)
    ack = [(r.t_callback - r.t_sent) * 1000 for r in records if r.t_callback]
    post = [(r.t_files - r.t_sent) * 1000 for r in records if r.t_files]
    finished = sum(1 for t in tables if "Game over" in fake.last_channel_message(
        t.channel_id).content)
    backup: dict[str, object] = {}
    if backup_during and child is not None and child.stdout is not None:
        backup = await _backup_figures(child.stdout.read(), db, records)
    return {**backup, "games": games, "interactions": len(records), "actions with board": len(post),
            "steps": sum(steps), "finished games": finished, "seconds": round(wall, 1),
            "bot process CPU seconds": bot_cpu, "fake+players CPU seconds": fake_cpu,
            "ack_ms": ack, "post_ms": post, "unknown_routes": len(fake.unknown)}


async def _backup_figures(child_output: str, db: Path,
                          records: list[InteractionRecord]) -> dict[str, object]:
    """The backup the bot took halfway: its time, size and check; the copy restored into a
    new file and every game in it replayed; the board posts' latency while it ran."""
    from bot.backup import replay_audit, restore

    lines = [line.split() for line in child_output.splitlines() if line.startswith("backup ")]
    if not lines:
        return {"backup": "NOT taken (the run was too short?)"}
    _, began, ended, path, size, checked, ok = lines[0]
    restored = db.parent / "restored" / "sanmarco.db"
    check, _ = await asyncio.to_thread(restore, path, str(restored), time.time())
    replayed = await replay_audit(str(restored))
    during = [(r.t_files - r.t_sent) * 1000 for r in records
              if r.t_files and float(began) <= r.t_sent <= float(ended)]
    return {"backup seconds (copy + check, under load)": round(float(ended) - float(began), 2),
            "backup MB": round(int(size) / 1e6, 2),
            "backup check": f"{'ok' if ok == 'True' else 'FAILED'}, {checked} game(s) replay",
            "restored copy": f"{check}; replayed again: {replayed.audited} game(s), "
                             f"{len(replayed.not_replaying)} not replaying",
            "board post during the backup": (
                f"n={len(during)} p50={statistics.median(during):.1f} ms "
                f"p95={_pct(during, 0.95):.1f} ms max={max(during):.1f} ms")
            if during else "n=0"}


def main() -> None:
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--bot-child":
        _bot_child(int(sys.argv[2]), sys.argv[3], *sys.argv[4:5])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--in-process", action="store_true",
                        help="run the bot in this process too (all on one event loop)")
    parser.add_argument("--backup-during", action="store_true",
                        help="the bot takes a backup halfway; restore it and replay its games")
    args = parser.parse_args()
    if args.backup_during and args.in_process:
        parser.error("--backup-during needs the bot in its own process")
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run(args.games, args.seconds, args.think,
                                 Path(tmp) / "bench.db", args.in_process, args.backup_during))
    ack: list[float] = result.pop("ack_ms")  # type: ignore[assignment]
    post: list[float] = result.pop("post_ms")  # type: ignore[assignment]
    where = "one process" if args.in_process else "bot in its own process"
    if not args.in_process:
        from bot.config import default_render_processes

        workers = os.environ.get("SANMARCO_RENDER_PROCESSES") or default_render_processes()
        where += f" with {workers} render process(es)"
    print(f"discord_bench: {args.games} concurrent games, think {args.think}s, "
          f"{args.seconds}s of play, {where}")
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
