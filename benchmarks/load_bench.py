"""The bot's games under a storm of page, /check and hint work (issue 36), through the fake
Discord: does anyone with a game link slow every game on the bot?

    python benchmarks/load_bench.py [--games 3] [--seconds 40] [--think 0.3] [--streams 200]

The real bot (``SanMarcoBot`` with its SQLite service and its game pages, as ``python -m
bot`` runs it) runs in its own process; the fake Discord and the players run in this one.
Games are played at a brisk pace (``--think``), first ``--seconds`` quiet, then
``--seconds`` under the storm: other processes request every replay picture of the running
games in three languages (uncached: each game's replay changes at every move), hold
``--streams`` event streams, and post ``/check`` every half second, while every game's
awaited player asks for a hint every half second (a picture fetcher refused 503 waits its
Retry-After, as a browser's reload would; the others ask at their pace). Onlookers ask
``/sanmarco status`` in every game's channel each second throughout. The storm's processes
run at the lowest priority (``load_storm.py``): they stand for clients on other machines.

Printed per phase: every interaction's first response (the callback: Discord's 3-second
deadline) p50/p95/max, a click's board post p50/p95, onlookers' status answers p50/p95, the
bot's event-loop lag p99 (sampled in the bot process), and the storm's work done (pictures/s,
hints/s, /check per second, refusals), and where the bot's CPU went (its loop thread, its
other threads, its worker processes). On a shared machine, say its load with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.discord_bench import _fresh_post, _open_game, _pct, _Table  # noqa: E402
from tests.fakediscord import FakeDiscord, InteractionRecord  # noqa: E402
from tests.fakediscord.harness import point_discord_at  # noqa: E402
from tests.fakediscord.players import awaited_ids, game_over_words  # noqa: E402

STORM = Path(__file__).with_name("load_storm.py")  # the storm's client processes


def _bot_child(port: int, db: str, web_port: int) -> None:
    """The bot process, pointed at the fake server; samples its loop's lag. SIGUSR1: the
    storm begins; SIGUSR2: print ``lag <quiet p99 ms> <storm p99 ms> <work counters>``."""
    import discord

    from bot.client import SanMarcoBot
    from bot.config import Config, default_render_processes

    class _Fake:
        api_base = f"http://127.0.0.1:{port}/api/v10"
        gateway_url = f"ws://127.0.0.1:{port}/ws"

    point_discord_at(_Fake())  # type: ignore[arg-type]
    lags: dict[str, list[float]] = {"quiet": [], "storm": []}
    phase = ["quiet"]

    class Bot(SanMarcoBot):
        async def on_ready(self) -> None:
            print("ready", flush=True)

    async def sample() -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(0.02)
            lags[phase[0]].append((loop.time() - began - 0.02) * 1000)

    def report(bot: SanMarcoBot) -> None:
        work = getattr(bot.service, "work", None)
        counters = {"done": dict(getattr(work, "done", {})),
                    "refused": dict(getattr(work, "refused", {}))}
        print(f"lag {_pct(lags['quiet'], 0.99):.1f} {_pct(lags['storm'], 0.99):.1f} "
              f"{json.dumps(counters)}", flush=True)

    async def main() -> None:
        workers = int(os.environ.get("SANMARCO_RENDER_PROCESSES")
                      or default_render_processes())
        side: dict[str, Any] = {}  # as python -m bot reads SANMARCO_WORK_PROCESSES
        if "work_processes" in {f.name for f in dataclasses.fields(Config)}:
            side["work_processes"] = int(os.environ.get("SANMARCO_WORK_PROCESSES")
                                         or default_render_processes())
        config = Config(token="fake-token", db_path=db, render_processes=workers,
                        game_threads=False, web_port=web_port, **side)
        async with Bot(config, guild_ready_timeout=0.01, max_messages=None) as bot:
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGUSR1, lambda: phase.__setitem__(0, "storm"))
            loop.add_signal_handler(signal.SIGUSR2, lambda: report(bot))
            sampler = asyncio.create_task(sample())
            try:
                await bot.start("fake-token")
            finally:
                sampler.cancel()

    discord.utils.setup_logging(level=40)
    try:
        if os.environ.get("SANMARCO_BENCH_PROFILE"):  # the loop's thread, profiled
            import cProfile

            cProfile.runctx("asyncio.run(main())", globals(), locals(),
                            os.environ["SANMARCO_BENCH_PROFILE"])
        else:
            asyncio.run(main())
    except KeyboardInterrupt:
        pass


def _far_away() -> None:
    """The storm's clients stand for other machines: on this one they take only the CPU
    the bot leaves (the lowest priority), so the figures are the bot's, not the clients'."""
    os.nice(19)


def _random_game_file(path: Path) -> None:
    """A whole game of random legal moves, as its file (what /check verifies)."""
    from engine import apply, legal_actions, start_game
    from engine.replay import game_file

    rng = random.Random(5)
    players = ["1", "2", "3"]
    state, _ = start_game(players, 77)
    actions: list[tuple[str, str]] = []
    while not state.public_view()["finished"]:
        pid = state.waiting_for[0]
        action = rng.choice(legal_actions(state, pid))
        state, _ = apply(state, pid, action)
        actions.append((pid, action.encode()))
    path.write_text(json.dumps(game_file(players, 77, actions)))


async def _opened(fake: FakeDiscord, table: _Table, channel: int) -> None:
    """A new game in ``channel``, once its first board is posted (a minute at most)."""
    await _open_game(fake, channel, table)
    give_up = time.perf_counter() + 60
    while not awaited_ids(fake.last_channel_message(channel)) \
            and time.perf_counter() < give_up:
        await asyncio.sleep(0.05)


async def _keep_playing(fake: FakeDiscord, table: _Table, channel: int, end: float) -> None:
    """Play the channel's game, and new ones after it, until ``end``."""
    while time.perf_counter() < end:
        acted_on = None
        while time.perf_counter() < end:
            post = await _fresh_post(table, acted_on)
            if game_over_words() in post.content or not await table.step(post):
                break
            acted_on = post.id
        if time.perf_counter() < end:
            await _opened(fake, table, channel)


async def _ask(fake: FakeDiscord, user_of: Any, channel: int, what: str, every: float,
               start: float, end: float, out: list[tuple[float, float, str]]) -> None:
    """Every ``every`` s from ``start`` to ``end``: ``what`` by ``user_of()`` (None: skip);
    records (sent, answer ms, answer's first words)."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    while time.perf_counter() < end:
        user = user_of()
        if user is not None:
            began = time.perf_counter()
            rec = await fake.slash(user, what, channel_id=channel)
            words = ""
            try:
                words = rec.response.content or ""
            except LookupError:
                pass
            out.append((began, (time.perf_counter() - began) * 1000, words))
            fake_records.append(rec)
        await asyncio.sleep(every)


fake_records: list[InteractionRecord] = []


async def run(args: argparse.Namespace, folder: Path) -> None:
    db = folder / "bench.db"
    game_file = folder / "game.json"
    _random_game_file(game_file)
    fake = FakeDiscord()
    channels = [fake.add_channel() for _ in range(args.games)]
    tables = [_Table(fake, [fake.add_user(f"g{i}p{k}") for k in range(3)], channel_id=ch,
                     think=args.think, wait_for="finished") for i, ch in enumerate(channels)]
    onlookers = [fake.add_user(f"onlooker{i}") for i in range(args.games)]
    for i, t in enumerate(tables):
        t.rng.seed(i)
    await fake.start()
    point_discord_at(fake)
    web_port = 18000 + os.getpid() % 1000
    child = subprocess.Popen([sys.executable, __file__, "--bot-child", str(fake.port), str(db),
                              str(web_port)], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout is not None
    if (await asyncio.to_thread(child.stdout.readline)).strip() != "ready":
        child.kill()
        raise SystemExit("the bot did not start")
    storm: list[subprocess.Popen[str]] = []
    cpu: list[dict[str, float]] = [_cpu(child.pid)]
    status: list[tuple[float, float, str]] = []
    hints: list[tuple[float, float, str]] = []
    try:
        await asyncio.gather(*(_opened(fake, t, ch) for t, ch in zip(tables, channels,
                                                                     strict=True)))
        began = time.perf_counter()
        storm_at, end = began + args.seconds, began + 2 * args.seconds
        users = {u.id: u for t in tables for u in t.users}

        def awaited(table: _Table) -> Any:
            ids = awaited_ids(fake.last_channel_message(table.channel_id))
            return users.get(ids[0]) if ids else None

        async def storm_starts() -> None:
            await asyncio.sleep(max(0.0, storm_at - time.perf_counter()))
            cpu.append(_cpu(child.pid))
            child.send_signal(signal.SIGUSR1)
            for kind in ("pictures", "streams", "check"):
                storm.append(subprocess.Popen(
                    [sys.executable, str(STORM), kind, str(web_port), str(db),
                     str(end - time.perf_counter()), str(args.streams), str(game_file)],
                    stdout=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=_far_away,
                    env={**os.environ, "PYTHONPATH": str(ROOT)}))

        await asyncio.gather(
            storm_starts(),
            *(_keep_playing(fake, t, ch, end) for t, ch in zip(tables, channels, strict=True)),
            *(_ask(fake, lambda u=u: u, ch, "sanmarco status", 1.0, began + 3, end, status)
              for u, ch in zip(onlookers, channels, strict=True)),
            *(_ask(fake, lambda t=t: awaited(t), ch, "sanmarco hint", 0.5, storm_at, end, hints)
              for t, ch in zip(tables, channels, strict=True)))
        cpu.append(_cpu(child.pid))
        child.send_signal(signal.SIGUSR2)
        lag_line = await asyncio.to_thread(child.stdout.readline)
        storm_counts: dict[str, int] = {}
        for proc in storm:
            out, _ = await asyncio.to_thread(proc.communicate, None, 60)
            for key, value in json.loads(out.strip().splitlines()[-1] or "{}").items():
                storm_counts[key] = storm_counts.get(key, 0) + value
    finally:
        for proc in storm:
            if proc.poll() is None:
                proc.kill()
        child.send_signal(signal.SIGINT)
        await asyncio.to_thread(child.wait, 30)
        await fake.close()
    _print(args, tables, status, hints, lag_line, storm_counts, storm_at, end)
    for phase, (a, b) in zip(("quiet", "storm"), zip(cpu, cpu[1:], strict=False), strict=False):
        took = b["t"] - a["t"]
        print(f" {phase} CPU (share of one core): bot's loop thread "
              f"{(b['loop'] - a['loop']) / took:.0%}, its other threads "
              f"{(b['threads'] - a['threads']) / took:.0%}, its worker processes "
              f"{(b['workers'] - a['workers']) / took:.0%}")


def _ticks(stat: Path) -> float:
    """User + system CPU seconds in a /proc stat file (0 where gone)."""
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _cpu(pid: int) -> dict[str, float]:
    """CPU seconds so far of the bot's loop thread, its other threads, and its worker
    processes (where the time goes: the loop's own work or the workers'), from /proc."""
    loop = _ticks(Path(f"/proc/{pid}/task/{pid}/stat"))  # the main thread's id: the pid
    threads = sum(_ticks(t / "stat") for t in Path(f"/proc/{pid}/task").iterdir()) - loop
    workers = 0.0
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                workers += _ticks(proc / "stat")
    return {"loop": loop, "threads": threads, "workers": workers, "t": time.perf_counter()}


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name}: n=0"
    return (f"  {name}: n={len(values)} p50={_pct(values, 0.5):.0f} ms "
            f"p95={_pct(values, 0.95):.0f} ms max={max(values):.0f} ms")


def _print(args: argparse.Namespace, tables: list[_Table], status: list[tuple[float, float, str]],
           hints: list[tuple[float, float, str]], lag_line: str, storm: dict[str, int],
           storm_at: float, end: float) -> None:
    from bot import text
    from bot.i18n import translations

    en = translations("en")
    busy_words = text.refusal(en, "work.busy")
    cool_words = text.refusal(en, "hint.cooldown", {"seconds": 0}).split(":")[0]
    records = [r for t in tables for r in t.interactions] + fake_records
    _, quiet_lag, storm_lag, counters = lag_line.split(" ", 3)
    print(f"load_bench: {args.games} games, think {args.think}s, {args.seconds:.0f}s quiet then "
          f"{args.seconds:.0f}s storm ({args.streams} streams, 6 picture fetchers in 3 "
          f"languages, 2 /check posters every 0.5s, hints every 0.5s), "
          f"SANMARCO_RENDER_PROCESSES={os.environ.get('SANMARCO_RENDER_PROCESSES', 'default')}"
          f" SANMARCO_WORK_PROCESSES={os.environ.get('SANMARCO_WORK_PROCESSES', 'default')}")
    for phase, lo, hi in (("quiet", 0.0, storm_at), ("storm", storm_at, end)):
        inside = [r for r in records if lo <= r.t_sent < hi]
        print(f" {phase}:")
        print(_line("first response (all interactions)",
                    [(r.t_callback - r.t_sent) * 1000 for r in inside if r.t_callback]))
        print(f"  past Discord's 3 s: "
              f"{sum(1 for r in inside if r.t_callback and r.t_callback - r.t_sent > 3)}"
              f" (no callback: {sum(1 for r in inside if not r.t_callback)})")
        print(_line("click → board post",
                    [(r.t_files - r.t_sent) * 1000 for r in inside if r.t_files]))
        print(_line("onlookers' /sanmarco status answer",
                    [ms for t, ms, _ in status if lo <= t < hi]))
        print(f"  loop lag p99: {quiet_lag if phase == 'quiet' else storm_lag} ms")
    took = end - storm_at
    asked = [(ms, words) for _, ms, words in hints]
    given = [ms for ms, w in asked if w and not w.startswith((busy_words, cool_words))]
    print(" storm's work:")
    print(f"  pictures: {storm.get('picture 200', 0) / took:.1f}/s served, "
          f"{storm.get('picture 503', 0)} refused busy (503), "
          f"other: {_others(storm, 'picture')}")
    print(f"  hints: {len(given) / took:.2f}/s given, "
          f"{sum(1 for _, w in asked if w.startswith(busy_words))} refused busy, "
          f"{sum(1 for _, w in asked if w.startswith(cool_words))} refused cooldown; "
          + _line("hint answer", [ms for ms, _ in asked]).strip())
    print(f"  /check: {storm.get('check 200', 0) / took:.1f}/s served, "
          f"{storm.get('check 503', 0)} refused busy (503)")
    print(f"  streams: {storm.get('stream 200', 0)} opened, {storm.get('stream error', 0)} "
          f"errors; bot's work counters {counters.strip()}")


def _others(counts: dict[str, int], kind: str) -> dict[str, int]:
    return {k: v for k, v in counts.items()
            if k.startswith(kind) and k[-3:] not in ("200", "503", "404")}


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--bot-child":
        _bot_child(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--streams", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    main()
