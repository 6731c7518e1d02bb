"""Figures for faults and abuse (what a player sees when things go wrong), one section each:

- ``fuzz``: bad input of every kind — every public service call with hostile values in
  every parameter, malformed Action values, and through the real bot and the fake Discord
  random move texts, offer numbers, forged buttons and select values: how many were tried,
  how many tracebacks (apologies or logged crashes), how many changed the game after a
  refusal;
- ``locked``: another process holds the database: how soon every interaction gets its
  first answer (Discord's limit is 3 s), when the "busy" answer comes, and how soon another
  channel is answered meanwhile;
- ``reminders``: how long the reminder pass holds up the event loop with 10,000 stored games
  (and how long the old pass, which read every waiting game on the loop, did);
- ``timers``: the same for the whole periodic pass — turn timers (the default
  moves made and committed) and reminders;
- ``locks``: the memory the per-channel locks hold after 100,000 channels were used;
- ``crash``: the whole bot process SIGKILLed at random moments while games are played;
  reported moves missing afterwards;
- ``discord`` (``discord_faults.py``): Discord failing as it does (outages, a
  message stored then answered 502, expired tokens, deleted messages and channels, lost
  permissions, late clicks, gateway reconnects, archived threads): per scenario the saved
  changes the channel never shows, posts made twice, tracebacks logged, the time to catch
  up once Discord answers again, and the most posts one channel got in any 5 seconds.

    python benchmarks/faults_bench.py                      # every section
    python benchmarks/faults_bench.py reminders --games 10000 --due 0.01
    python benchmarks/faults_bench.py timers --games 10000 --due 0.01
    python benchmarks/faults_bench.py crash --kills 20
    python benchmarks/faults_bench.py discord [--wait 15] [--only zombie]
    python benchmarks/faults_bench.py discord --only "#37"  # issue 37's scenarios

Prints figures; asserts nothing (the behaviour is asserted by the tests).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import logging
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import SQLiteStore  # noqa: E402
from bot.store.queries import GAME_COLS, game_row  # noqa: E402

HOUR = 3600.0
NOW = 1.8e9


# ---------------------------------------------------------------------------- loop stalls
async def loop_stall(work: Callable[[], Awaitable[Any]], tick: float = 0.001
                     ) -> tuple[float, float]:
    """Run ``work`` while a ticker on the same loop sleeps ``tick`` seconds at a time;
    returns (the longest the ticker was held up beyond its tick, the work's duration), in
    seconds. What every other channel's interactions wait for meanwhile."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    done = False

    async def ticker() -> None:
        nonlocal worst
        while not done:
            before = loop.time()
            await asyncio.sleep(tick)
            worst = max(worst, loop.time() - before - tick)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(tick * 3)
    started = time.perf_counter()
    await work()
    took = time.perf_counter() - started
    done = True
    await task
    return worst, took


# ---------------------------------------------------------------------------- reminders
def _states(n: int) -> list[engine.GameState]:
    """``n`` mid-game states played by the engine alone (stored games are copies)."""
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        state = engine.new_game(["111", "222", "333", "444"][: 3 + seed % 2], seed=seed)
        for _ in range(rng.randint(5, 60)):
            pid = rng.choice(state.waiting_for)
            state, _ = engine.apply(state, pid, rng.choice(engine.legal_actions(state, pid)))
        out.append(state)
    return out


def _fill(path: Path, games: int, due: float, *, timer_hours: float = 0.0,
          quiet_every: int = 0) -> int:
    """Bulk-insert ``games`` running games (a share ``due`` of them awaited for longer than
    their 12-hour interval); returns how many are due at NOW. With ``timer_hours`` every
    channel has that turn timer; with ``quiet_every`` every n-th channel has quiet
    hours around NOW, so its games' timers are found due by the index but pushed on."""
    states = _states(24)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    if timer_hours:
        quiet_hour = int(NOW // HOUR) % 24  # UTC: the hour NOW falls in
        db.executemany(
            "INSERT INTO channel_settings (channel_id, turn_timer_hours, quiet_start, "
            "quiet_end) VALUES (?, ?, ?, ?)",
            [(10_000 + i, timer_hours,
              *(((quiet_hour - 3) % 24, (quiet_hour + 3) % 24)
                if quiet_every and i % quiet_every == 0 else (None, None)))
             for i in range(games)])
    n_due = 0
    rng = random.Random(1)
    for i in range(games):
        state = states[i % len(states)]
        is_due = rng.random() < due
        n_due += is_due
        since = NOW - (13 if is_due else rng.uniform(0, 11.5)) * HOUR
        seats = json.dumps([{"pid": p, "name": f"Player {p}", "computer": False}
                            for p in state.players])
        db.execute(
            "INSERT INTO games (guild_id, channel_id, status, creator, seats, players, seed, "
            "state, version, created_at, last_action_at, awaited_since) "
            "VALUES (1, ?, 'running', '111', ?, ?, 1, ?, ?, ?, ?, ?)",
            (10_000 + i, len(state.players), seats, state.to_json(), state.version,
             since, since, since))
    db.execute("COMMIT")
    db.close()
    return n_due


async def _old_pass(store: SQLiteStore, now: float) -> int:
    """The reminder pass as it was before it read only the due games (for comparison):
    every waiting game read, its row made on the event loop, each due one's state parsed
    there too."""
    rows = await store.query_sql(
        f"SELECT {GAME_COLS}, 12.0 FROM games "
        "WHERE status = 'running' AND awaited_since IS NOT NULL")
    due = 0
    for r in rows:
        row = game_row(r)
        assert row.awaited_since is not None and row.state is not None
        if now - max(row.awaited_since, row.last_reminded_at or 0.0) >= r[-1] * HOUR:
            engine.GameState.from_json(row.state).public_view()
            due += 1
    return due


async def reminders(games: int, due: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        await (await SQLiteStore.open(path)).close()  # the current schema
        n_due = _fill(path, games, due)
        service = GameService(await SQLiteStore.open(path))
        try:
            found: list[int] = []

            async def new() -> None:
                found.append(len(await service.due_reminders(NOW)))

            async def old() -> None:
                found.append(await _old_pass(service.store, NOW))

            await new()  # warm the caches once
            found.clear()
            stall_new, took_new = await loop_stall(new)
            stall_old, took_old = await loop_stall(old)
            print(f"reminder pass, {games:,} running games, {n_due} due "
                  f"(found {found[0]} / {found[1]}):")
            print(f"  indexed query, states read in a worker thread: loop stall "
                  f"{stall_new * 1000:.1f} ms, pass {took_new * 1000:.0f} ms "
                  f"(target stall < 50 ms: {'met' if stall_new < 0.05 else 'NOT met'})")
            print(f"  the old pass (every waiting game on the loop): loop stall "
                  f"{stall_old * 1000:.0f} ms, pass {took_old * 1000:.0f} ms")
            everything = NOW + 24 * HOUR  # the worst case: every game due at once
            stall_all, took_all = await loop_stall(
                lambda: service.due_reminders(everything))
            print(f"  every one of the {games:,} due at once: loop stall "
                  f"{stall_all * 1000:.1f} ms, pass {took_all * 1000:.0f} ms")
        finally:
            await service.close()


# ---------------------------------------------------------------------------- timers
async def _timer_passes(games: int, due: float, pool: Any) -> str:
    """Two periodic passes over ``games`` stored games (the computer thinking in ``pool``,
    None: a thread); what they did and how long they held the event loop up."""
    from bot.computers import EngineComputers

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        await (await SQLiteStore.open(path)).close()  # the current schema
        n_due = _fill(path, games, due, timer_hours=12.0, quiet_every=3)
        service = GameService(await SQLiteStore.open(path), lambda: NOW,
                              computers=EngineComputers())
        service.thinking = pool
        try:
            if pool is not None:  # the worker is warm in the bot (it draws boards)
                await asyncio.get_running_loop().run_in_executor(pool, engine.new_game,
                                                                 ["1", "2", "3"], 1)
            counts: list[tuple[int, int]] = []

            async def one_pass() -> None:
                found = await service.due_timers(NOW)
                for item in found:
                    await service.time_out(item.channel, game_id=item.game_id,
                                           version=item.version)
                counts.append((len(found), len(await service.due_reminders(NOW))))

            stall, took = await loop_stall(one_pass)
            stall2, took2 = await loop_stall(one_pass)
        finally:
            await service.close()
    return (f"{n_due} due by their start, {counts[0][0]} default moves made and committed "
            f"(the rest in quiet hours, pushed on), {counts[0][1]} reminders due; loop stall "
            f"{stall * 1000:.1f} ms, pass {took * 1000:.0f} ms (target stall < 50 ms: "
            f"{'met' if stall < 0.05 else 'NOT met'}); the next pass: {counts[1][0]} moves, "
            f"loop stall {stall2 * 1000:.1f} ms, pass {took2 * 1000:.0f} ms")


async def timers(games: int, due: float) -> None:
    """The periodic pass as the bot runs it, without Discord — the turn timers
    (due games by index, quiet hours pushed on, the computer's default move for each due
    one, committed) and then the reminders — with 10,000 stored running games. The computer
    thinks in a worker process, as in the bot on a machine with two cores or more (its
    render worker); for comparison, in a thread (the bot with SANMARCO_RENDER_PROCESSES=0)."""
    import concurrent.futures
    import multiprocessing

    print(f"timer and reminder pass, {games:,} running games with a 12-hour turn timer, "
          f"a share {due:g} waited 13 hours (a third of the channels in quiet hours now):")
    pool = concurrent.futures.ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"))
    try:
        print("  computer thinking in a worker process: "
              + await _timer_passes(games, due, pool))
    finally:
        pool.shutdown()
    print("  computer thinking in a thread: " + await _timer_passes(games, due, None))


# ---------------------------------------------------------------------------- fuzz
class _Crashes(logging.Handler):
    """Counts log records that carry a traceback (an unexpected error somewhere)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.count += 1


def _garbage_actions(rng: random.Random, n: int) -> list[object]:
    """Action values with fields of the wrong kind or out of range, and non-actions."""
    kinds = [engine.Split, engine.TakeOffer, engine.PlaceAristocrat, engine.PlaceBridge,
             engine.Doge, engine.Banish, engine.DiscardCard, engine.Transfer,
             engine.ChooseBanished, engine.TakeOverBridge]
    junk: list[object] = [None, True, -1, 2**70, 1.5, "", "x" * 500, "San Marco", (),
                          (True, False), ((1, 2),), ("111", 3), b"1"]
    out: list[object] = []
    while len(out) < n:
        kind = rng.choice(kinds)
        try:
            fields = [rng.choice(junk) for _ in kind.__dataclass_fields__]
            out.append(kind(*fields))
        except TypeError:
            out.append(rng.choice(junk))
    return out


async def fuzz(seed: int, discord_inputs: int) -> None:
    from bot.computers import EngineComputers
    from bot.service.errors import ServiceError
    from tests.bot.test_service_faults import HOSTILE, VALID, _calls, _dump

    crashes = _Crashes()
    logging.getLogger().addHandler(crashes)
    rng = random.Random(seed)
    tried = refused = internal = changed = 0
    with tempfile.TemporaryDirectory() as tmp:
        svc = GameService(await SQLiteStore.open(Path(tmp) / "f.db"), lambda: NOW,
                          computers=EngineComputers(), seeds=lambda: 7)
        try:
            await svc.create_lobby(1, 10, "111")
            for pid in ("222", "333"):
                await svc.join(10, pid)
            await svc.start(10, "111")
            cases: list[tuple[str, list[object], dict[str, object]]] = []
            for name, signature in _calls(svc):
                params = [p for p in signature.parameters.values() if p.name in VALID]
                for param in params:
                    for bad in HOSTILE:
                        kwargs = {p.name: VALID[p.name] for p in params
                                  if p.default is inspect.Parameter.empty or p is param}
                        kwargs[param.name] = bad
                        args = [kwargs.pop(p.name) for p in params
                                if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
                                and p.default is inspect.Parameter.empty]
                        cases.append((name, args, kwargs))
            view = await svc.public_view(10)
            for action in _garbage_actions(rng, 2000):
                pid = rng.choice([*view["waiting_for"], "111", "222", "333", "999"])
                cases.append(("act", [10, pid, action], {}))
            for name, args, kwargs in cases:
                before = await _dump(svc)
                tried += 1
                try:
                    await getattr(svc, name)(*args, **kwargs)
                except ServiceError as exc:
                    refused += 1
                    internal += exc.code == "internal"
                    changed += await _dump(svc) != before
        finally:
            await svc.close()
    print(f"fuzz, service boundary: {tried:,} inputs tried, {refused:,} refused, "
          f"{internal} ended as 'internal' (a crash), {changed} changed something after a "
          f"refusal, {crashes.count} tracebacks logged")
    d_tried, d_sorry, d_changed = await _discord_fuzz(rng, discord_inputs)
    logging.getLogger().removeHandler(crashes)
    print(f"fuzz, through the bot and the fake Discord: {d_tried:,} inputs tried, {d_sorry} "
          f"apologies (an error that was not a refusal), {d_changed} game changes not "
          f"made by a legal move, {crashes.count} tracebacks logged in all")


async def _discord_fuzz(rng: random.Random, n: int) -> tuple[int, int, int]:
    """Random move texts, offer numbers, forged components and select values from the
    awaited player and from others, against a running game through the real bot."""
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.harness import BotHarness, point_discord_at
    from tests.fakediscord.players import Table, awaited_ids

    fake = FakeDiscord()
    await fake.start()
    point_discord_at(fake)
    tried = sorry = changed = 0
    with tempfile.TemporaryDirectory() as tmp:
        harness = BotHarness(fake, Path(tmp) / "d.db")
        users = [fake.add_user(n) for n in ("ann", "bob", "cid", "eve")]
        await harness.start(seed=3)
        service = harness.bot.service  # type: ignore[union-attr]
        try:
            lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new"))
            for u in users[1:3]:
                await fake.click(u, lobby, lobby.component("join")["custom_id"])
            await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
            await harness.settle()
            table = Table(fake, users[:3])
            alphabet = "abcdefghijklmnopqrstuvwxyz:/>-~@=,.#0123456789 SMCNPDO\x00\n<>"
            tags = ["take", "next", "card", "grp", "pick", "ok", "more", "build", "asg",
                    "commit", "reset", "back", "join", "leave", "cpu", "start", "zzz"]
            for i in range(n):
                if i % 50 == 0:
                    await table.step()  # the game moves on between the bursts
                    await harness.settle()
                post = fake.last_channel_message()
                awaited = [u for u in users if u.id in awaited_ids(post)]
                user = rng.choice(awaited + users) if awaited else rng.choice(users)
                version = (await service.status(fake.channel_id)).version
                kind = rng.random()
                tried += 1
                if kind < 0.35:
                    move = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
                    rec = await fake.slash(user, "sanmarco play", move=move)
                elif kind < 0.5:
                    rec = await fake.slash(user, "sanmarco take",
                                           offer=rng.choice([-1, 0, 1, 3, 99, 2**40]))
                else:
                    head = (post.custom_ids() or [f"sm:{fake.channel_id}:1.0:next"])[0]
                    game_version = head.split(":")[2]
                    arg = "".join(rng.choice("0123456789.,-c") for _ in range(
                        rng.randint(0, 14)))
                    cid = f"sm:{fake.channel_id}:{game_version}:{rng.choice(tags)}" + (
                        f":{arg}" if arg else "")
                    select = rng.random() < 0.5
                    post.components.append({"type": 1, "components": [
                        {"type": 3 if select else 2, "custom_id": cid[:100], "label": "x",
                         "style": 1, "options": [{"label": "x", "value": "0"}]}]})
                    if select:
                        values = [str(rng.randint(-3, 60)) for _ in range(rng.randint(0, 3))]
                        rec = await table.select(user, post, cid[:100], values)
                    else:
                        rec = await table.click(user, post, cid[:100])
                    post.components.pop()
                await harness.settle()
                answers = [m for m in rec.messages if m.content]
                sorry += any(m.content.startswith("Sorry") for m in answers)
                after = (await service.status(fake.channel_id)).version
                if after != version and not any("**Now**" in m.content or "Game over" in
                                                 m.content for m in fake.channel_messages()
                                                 if m.id > rec.since_id):
                    changed += 1
            audit = await service.audit(fake.channel_id)
            changed += not audit.ok
        finally:
            await harness.stop()
            await fake.close()
    return tried, sorry, changed


# ---------------------------------------------------------------------------- locked
async def locked(clicks: int) -> None:
    """A locked database: first answers, busy answers, another channel meanwhile."""
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.harness import BotHarness, point_discord_at

    fake = FakeDiscord()
    await fake.start()
    point_discord_at(fake)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "l.db"
        harness = BotHarness(fake, db)
        users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
        await harness.start(seed=3)
        service = harness.bot.service  # type: ignore[union-attr]
        try:
            lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new"))
            for u in users[1:]:
                await fake.click(u, lobby, lobby.component("join")["custom_id"])
            await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
            await harness.settle()
            pid = (await service.status(fake.channel_id)).awaiting
            awaited = next(u for u in users if str(u.id) in pid)
            move = (await service.legal_actions(fake.channel_id, str(awaited.id)))[0]
            other = sqlite3.connect(db, isolation_level=None, timeout=0)
            other.execute("BEGIN IMMEDIATE")  # another process holds a write transaction
            try:
                recs = [await fake.slash(awaited, "sanmarco play", move=move.encode(),
                                         wait=False) for _ in range(clicks)]
                t0 = time.perf_counter()
                side = await fake.slash(users[1], "sanmarco status",
                                        channel_id=fake.other_channel_id)
                side_ms = (time.perf_counter() - t0) * 1000
                await asyncio.gather(*(asyncio.wait_for(r.completed.wait(), 60)
                                       for r in recs))
            finally:
                other.execute("ROLLBACK")
                other.close()
            first = sorted((r.t_callback or 0) - r.t_sent for r in recs)
            final = [m for r in recs for m in r.messages if m.content]
            busy = sum("busy" in m.content for m in final)
            done = [r for r in recs if r.completed.is_set()]
            print(f"locked database (another process holds a write transaction), {clicks} "
                  "moves sent at once in one channel:")
            print(f"  first answer (deferral): p50 {first[len(first) // 2] * 1000:.0f} ms, "
                  f"max {first[-1] * 1000:.0f} ms (Discord's limit 3,000 ms: "
                  f"{'met' if first[-1] < 3 else 'NOT met'})")
            print(f"  final answers: {len(done)} of {clicks}, {busy} say the game is busy "
                  "and nothing changed (each write waits at most the 3 s busy timeout)")
            print(f"  /sanmarco status in another channel meanwhile: answered in full in "
                  f"{side_ms:.0f} ms ({side.response.content[:40]!r}...)")
        finally:
            await harness.stop()
            await fake.close()


# ---------------------------------------------------------------------------- locks
async def locks(channels: int) -> None:
    """Memory the per-channel locks hold after ``channels`` channels were each used once."""
    import tracemalloc

    from bot.locks import KeyedLocks

    async def use(lock_for: Callable[[int], Any]) -> tuple[int, int]:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for channel in range(channels):
            async with lock_for(channel):
                pass
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return after - before, channels

    grown: dict[int, asyncio.Lock] = {}  # as the service and the poster kept them before
    old, _ = await use(lambda ch: grown.setdefault(ch, asyncio.Lock()))
    keyed: KeyedLocks[int] = KeyedLocks()
    new, _ = await use(keyed)
    print(f"per-channel locks after {channels:,} channels were used once: "
          f"{new / 2**20:.2f} MiB held, {len(keyed)} locks alive (a lock per channel kept "
          f"for ever, as before: {old / 2**20:.1f} MiB, {len(grown):,} locks)")


# ---------------------------------------------------------------------------- crash
async def crash(kills: int, games: int, seed: int) -> None:
    from tests.bot.test_discord_crash import crash_run
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.harness import point_discord_at

    # The fake's web server reports each request a killed bot left half sent: not news.
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    fake = FakeDiscord()
    await fake.start()
    point_discord_at(fake)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            run = await crash_run(fake, Path(tmp) / "c.db", games=games, kills=kills,
                                  seed=seed, log=Path(tmp) / "bot.log")
            tracebacks = (Path(tmp) / "bot.log").read_text().count("Traceback")
    finally:
        await fake.close()
    print(f"SIGKILL of the whole bot process (python -m bot against the fake Discord), "
          f"{games} games played by button:")
    print(f"  {run.kills} kills, {run.cut_short} interactions cut short by them, "
          f"{run.posts} moves reported in channel posts")
    print(f"  reported moves missing after restart: {len(run.missing)}; games that do not "
          f"replay from their log: {len(run.not_replaying)}; tracebacks in the bot's log: "
          f"{tracebacks}")


# ---------------------------------------------------------------------------- main
SECTIONS: dict[str, Callable[[argparse.Namespace], Awaitable[None]]] = {
    "fuzz": lambda a: fuzz(a.seed, a.discord_inputs),
    "locked": lambda a: locked(a.clicks),
    "reminders": lambda a: reminders(a.games, a.due),
    "timers": lambda a: timers(a.games, a.due),
    "locks": lambda a: locks(a.channels),
    "crash": lambda a: crash(a.kills, 3, a.seed),
    "discord": lambda a: _discord_faults(a.wait, a.only),
}


async def _discord_faults(wait: float, only: str | None) -> None:
    from benchmarks.discord_faults import discord

    await discord(wait, only)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sections", nargs="*", help=f"which figures: {', '.join(SECTIONS)} "
                                                    "(default: all)")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--due", type=float, default=0.01,
                        help="share of the games whose reminder is due")
    parser.add_argument("--clicks", type=int, default=20, help="moves sent while locked")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--channels", type=int, default=100_000, help="for the locks")
    parser.add_argument("--discord-inputs", type=int, default=600)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--wait", type=float, default=15.0,
                        help="discord: seconds to wait for the channels to catch up")
    parser.add_argument("--only", help="discord: the scenarios whose name contains this")
    args = parser.parse_args()
    for name in args.sections or list(SECTIONS):
        if name not in SECTIONS:
            parser.error(f"no section {name!r}")
        asyncio.run(SECTIONS[name](args))


if __name__ == "__main__":
    main()
