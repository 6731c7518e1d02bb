"""Shards across processes (a bot too big for one process), through the fake Discord: two bot
processes (``python -m bot`` with SHARD_COUNT=2 and SHARD_IDS=0 or 1) on one PostgreSQL
database. Each guild's interactions reach only the process holding its shard; games in guilds of
both shards are played to the end while one process is SIGKILLed mid-game and started again (its
games go on, and every move a channel post reported is in the database); every due reminder is
sent exactly once — by the process that holds its guild, also when the other one is down and
when a process dies between posting a reminder and recording it."""

from __future__ import annotations

import asyncio
import random
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

from bot.service import GameService
from bot.store import open_store
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table
from tests.fakediscord.process import (
    kill_bot_process,
    start_bot_process,
    stop_bot_processes,
)

from .test_discord_crash import CrashRun, last_prompt, play, reported_moves

HOUR = 3600.0
# Leases 3 s long: a channel the killed process held is taken over after 3 s, not 10.
SHARD_ENV = {"SHARD_COUNT": "2", "SANMARCO_REMINDER_SECONDS": "0.3",
             "SANMARCO_LEASE_SECONDS": "3"}


def is_reminder(message: FakeMessage) -> bool:
    return message.content.startswith("Reminder")


def reminders(fake: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel) if is_reminder(m)]


class Shop:
    """The PostgreSQL database as the test reads it (connections of its own)."""

    def __init__(self, conn: asyncpg.Pool) -> None:
        self.conn = conn

    async def version_of(self, channel: int) -> int | None:
        return await self.conn.fetchval(
            "SELECT (state::json->>'version')::int FROM games WHERE channel_id = $1 "
            "ORDER BY id DESC LIMIT 1", channel)

    async def finished(self, channel: int) -> bool:
        return await self.conn.fetchval(
            "SELECT status = 'finished' FROM games WHERE channel_id = $1 "
            "ORDER BY id DESC LIMIT 1", channel) is True

    async def stored(self) -> dict[int, tuple[int, str, int]]:
        """game id -> (game version, status, channel)."""
        return {r[0]: (r[1] or 0, r[2], r[3]) for r in await self.conn.fetch(
            "SELECT id, (state::json->>'version')::int, status, channel_id FROM games")}

    async def missing(self, fake: FakeDiscord, run: CrashRun) -> list[str]:
        """Moves a channel post reported that the database does not hold."""
        reported_moves(fake, run)
        stored = await self.stored()
        return [f"game {g}: reported v{v}, stored {stored.get(g)}"
                for g, v in run.reported.items() if g not in stored or stored[g][0] < v]

    async def make_due(self) -> None:
        """Every running game has waited (and was last reminded) 13 hours longer."""
        await self.conn.execute(
            "UPDATE games SET awaited_since = awaited_since - $1, "
            "last_reminded_at = last_reminded_at - $1 WHERE status = 'running'", 13 * HOUR)


async def _eventually(check: Callable[[], bool], seconds: float = 30) -> None:
    for _ in range(int(seconds / 0.1)):
        if check():
            return
        await asyncio.sleep(0.1)
    assert check()


async def _open(fake: FakeDiscord, table: Table) -> None:
    """A game of one person and two easy computer players (they move inside each call)."""
    [user] = table.users
    rec = await fake.slash(user, "sanmarco game new", channel_id=table.channel_id, seats=3,
                           computers=2, level="easy")
    lobby = await fake.public_post(rec)
    await table.click(user, lobby, lobby.component("start")["custom_id"])


async def test_two_shard_processes_on_one_postgresql_play_remind_and_survive_a_kill(
        fake: FakeDiscord, pg_url: str, tmp_path: Path) -> None:
    guilds = [fake.add_guild(shard=0, of=2, channels=2), fake.add_guild(shard=1, of=2,
                                                                         channels=2)]
    shard_of = {ch: s for s, g in enumerate(guilds) for ch in fake.guild_channels[g]}
    tables = [Table(fake, [fake.add_user(f"p{ch}")], channel_id=ch, wait_for="finished",
                    rng=random.Random(ch % 1000)) for ch in shard_of]
    logs = [tmp_path / "shard0.log", tmp_path / "shard1.log"]

    async def start(shard: int) -> subprocess.Popen[bytes]:
        return await start_bot_process(fake, pg_url, cwd=tmp_path, log=logs[shard],
                                       shards=(shard,), SHARD_IDS=str(shard), **SHARD_ENV)

    conn = await asyncpg.create_pool(pg_url, min_size=1, max_size=4)
    shop = Shop(conn)
    procs = list(await asyncio.gather(start(0), start(1)))  # their start-ups overlap
    try:
        for table in tables:
            await _open(fake, table)
        # Each guild's interactions went to the process that holds its shard, only.
        assert {(shard, g) for shard, g in fake.dispatched if g in guilds} == {
            ((0, 2), guilds[0]), ((1, 2), guilds[1])}
        assert fake.shard_identifies == {0: 1, 1: 1}
        assert sum(r.path == "/gateway/bot" for r in fake.requests) == 2  # one per process
        # the commands are the same for every shard: only shard 0's process syncs them
        assert sum(r.method == "PUT" and r.path.endswith("/commands")
                   for r in fake.requests) == 1

        # Reminders: every due one is sent once, by the process holding its guild.
        await shop.make_due()
        await _eventually(lambda: all(reminders(fake, ch) for ch in shard_of))
        await asyncio.sleep(1.5)  # five more passes of both processes
        assert {ch: len(reminders(fake, ch)) for ch in shard_of} == dict.fromkeys(shard_of, 1)
        # ... none is lost while a process is down: its guilds wait for it, and the other
        # process leaves them alone.
        kill_bot_process(procs[1])
        await shop.make_due()
        await _eventually(lambda: all(len(reminders(fake, ch)) == 2
                                      for ch, s in shard_of.items() if s == 0))
        await asyncio.sleep(1.0)
        assert [len(reminders(fake, ch)) for ch, s in shard_of.items() if s == 1] == [1, 1]
        procs[1] = await start(1)
        await _eventually(lambda: all(len(reminders(fake, ch)) == 2 for ch in shard_of))
        await asyncio.sleep(1.0)
        assert {ch: len(reminders(fake, ch)) for ch in shard_of} == dict.fromkeys(shard_of, 2)

        # Play; SIGKILL shard 1's process mid-game; shard 0's games go on meanwhile.
        run = CrashRun()
        tasks = {ch: asyncio.create_task(play(t, shop.version_of, shop.finished))
                 for ch, t in zip(shard_of, tables, strict=True)}
        await asyncio.sleep(2.0)
        kill_bot_process(procs[1])
        for ch, task in tasks.items():
            if shard_of[ch] == 1:
                task.cancel()
        running = {ch for _, status, ch in (await shop.stored()).values()
                   if status == "running"}
        assert {ch for ch, s in shard_of.items() if s == 1} <= running  # killed mid-game
        versions = {ch: await shop.version_of(ch) or 0 for ch in shard_of}
        for ch, s in shard_of.items():  # shard 0's players go on while shard 1 is down
            for _ in range(600):
                if s == 1 or tasks[ch].done() or (await shop.version_of(ch) or 0) > versions[ch]:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"channel {ch} stood still while shard 1 was down")
        assert procs[1].poll() is not None  # (it still is)
        assert await shop.missing(fake, run) == []
        procs[1] = await start(1)
        for ch, table in zip(shard_of, tables, strict=True):
            if tasks[ch].cancelled() or shard_of[ch] == 1:
                tasks[ch] = asyncio.create_task(play(table, shop.version_of, shop.finished))
        done = await asyncio.wait_for(asyncio.gather(*tasks.values(), return_exceptions=True),
                                      300)
        assert not [r for r in done if isinstance(r, BaseException)], done

        # Every game ended, holds every reported move, and replays from its log.
        assert await shop.missing(fake, run) == []
        stored = await shop.stored()
        assert sorted(ch for _, status, ch in stored.values() if status == "finished") == \
            sorted(shard_of)
        # (a channel the killed process held waits for its lease to run out: 3 s)
        await _eventually(lambda: all("Game over" in last_prompt(fake, ch).content
                                      for ch in shard_of))
        svc = GameService(await open_store(pg_url))
        try:
            for game, (_, _, channel) in stored.items():
                assert (await svc.audit(channel, game_id=game)).ok, game
        finally:
            await svc.close()
    finally:
        stop_bot_processes(procs)
        await conn.close()
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
    assert not fake.unknown, [(r.method, r.path) for r in fake.unknown]


async def test_a_reminder_posted_before_a_crash_is_not_posted_twice(
        fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reminder is recorded with its post (the outbox), and the process dies after
    Discord took the post but before the outbox let it go: the restarted bot posts it again
    with the same nonce, and Discord answers with the message it already has — one reminder
    in the channel."""
    from .test_service import Clock

    clock = Clock()
    bot = await harness.start(seed=3, clock=clock)
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    table = Table(fake, users)
    rec = await fake.slash(users[0], "sanmarco game new")
    lobby = await fake.public_post(rec)
    for user in users[1:]:
        await table.click(user, lobby, lobby.component("join")["custom_id"])
    await table.click(users[0], lobby, lobby.component("start")["custom_id"])
    cog = bot.get_cog("SanMarco")  # type: ignore[attr-defined]
    clock.t += 13 * HOUR

    async def dies(*args: object, **kwargs: object) -> None:
        raise asyncio.CancelledError  # the process is gone before the outbox lets it go

    with monkeypatch.context() as patch:
        patch.setattr(cog.service, "posts_sent", dies)
        await cog.reminders.run_once()
    assert len(reminders(fake, fake.channel_id)) == 1
    await cog.reminders.run_once()  # after the restart: still in the outbox, posted again
    await cog.reminders.run_once()  # now delivered and recorded: not due any more
    posts = [r for r in fake.requests if r.method == "POST"
             and r.path == f"/channels/{fake.channel_id}/messages"
             and str((r.json or {}).get("content", "")).startswith("Reminder")]
    # posted again after the "crash" (a second time too when the pass's own resume found the
    # dead worker before the restart did: timing), always with the one nonce
    assert len(posts) >= 2 and len({p.json["nonce"] for p in posts}) == 1
    assert all(p.json["enforce_nonce"] is True for p in posts)
    assert len(reminders(fake, fake.channel_id)) == 1
    assert len(fake.deduplicated) == len(posts) - 1
    clock.t += 13 * HOUR  # the next reminder is another one
    await cog.reminders.run_once()
    assert len(reminders(fake, fake.channel_id)) == 2
    assert Counter(m.nonce for m in reminders(fake, fake.channel_id)).most_common(1)[0][1] == 1
