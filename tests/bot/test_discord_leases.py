"""One deliverer per channel across processes, through the fake Discord. A channel whose
lease another process holds is left to it, and taken over once its lease ran out. Two bot processes
(``python -m bot``, unsharded) on one PostgreSQL both deliver the same channel (the one that
holds the gateway session gets the clicks; both read the outbox at every periodic pass,
ten times a second here), while a third writer commits notes in bursts. Every post shows
once, every DM once, and nothing is left in the outbox."""

from __future__ import annotations

import asyncio
import re
import subprocess
import time
from collections import Counter
from pathlib import Path

from bot.service import LEASE_SECONDS, GameService
from bot.store import open_store
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CHANNEL_POST
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import findings
from tests.fakediscord.players import Table, awaited_ids
from tests.fakediscord.process import start_bot_processes, stop_bot_processes
from tests.fakediscord.scenarios import NEW, _acting, dm_requests, dms_lost, two_games

from .test_discord_shards import last_prompt

HOUR = 3600.0
LEASE = 3.0  # seconds a lease lasts in the bot processes of the slow send's test
SHORT = {"lease_seconds": 2.5}  # the harness bot's leases: a held channel retried ~2 s


def _posts_of(nonce: str | None) -> range:
    """The outbox posts a channel message delivered, by its nonce (``sm<id>``, a catch-up's
    ``sm<first>-<last>``, ``t`` a post sent without its board; not ``f``, the mention
    instead of a refused DM)."""
    match = re.fullmatch(r"sm(\d+)(?:-(\d+))?(t?)", nonce or "")
    if match is None:
        return range(0)
    return range(int(match[1]), int(match[2] or match[1]) + 1)


async def _drained(svc: GameService, channel: int) -> None:
    """Wait until the channel's posts have all left the outbox."""
    for _ in range(300):
        if not await svc.pending_posts(channel):
            return
        await asyncio.sleep(0.1)
    assert await svc.pending_posts(channel) == []


def _each_post_once(fake: FakeDiscord, channel: int) -> Counter[int]:
    """Each outbox post is in one channel message at most (the notes' words repeat, so
    their texts cannot tell): a catch-up grouped twice would cover a post twice. Returns
    how often each post is covered."""
    covered = Counter(post for m in fake.channel_messages(channel)
                      for post in _posts_of(m.nonce))
    assert [post for post, times in covered.items() if times > 1] == []
    return covered


async def test_two_processes_on_one_postgresql_deliver_every_post_once(
        fake: FakeDiscord, pg_url: str, tmp_path: Path) -> None:
    users = [fake.add_user(name) for name in ("ann", "bob", "cid")]
    channel = fake.channel_id
    logs = [tmp_path / "bot0.log", tmp_path / "bot1.log"]
    svc = GameService(await open_store(pg_url))  # the third writer
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for user in users:
            await svc.set_notify_mode(fake.guild_id, str(user.id), "dm")
        procs = await start_bot_processes(fake, pg_url, logs, cwd=tmp_path,
                                          SANMARCO_REMINDER_SECONDS="0.1")
        lobby = await fake.public_post(await fake.slash(users[0], NEW))
        for user in users[1:]:
            await fake.click(user, lobby, lobby.component("join")["custom_id"])
        await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
        # the click is answered (deferred) before the start commits: wait for its prompt
        await until(lambda: bool(awaited_ids(last_prompt(fake, channel))), 60,
                    what="the game's first prompt")
        table = Table(fake, users, channel_id=channel, wait_for="finished")
        away = str(users[2].id)
        for _ in range(8):
            for _ in range(3):  # a burst of notes: both processes' passes find them
                await svc.set_away(fake.guild_id, away, time.time() + HOUR)
                await svc.back(fake.guild_id, away)
            await _drained(svc, channel)  # the notes' Now line is the newest prompt
            assert await table.step(last_prompt(fake, channel))
        await _drained(svc, channel)
        await asyncio.sleep(1.0)  # ten more passes of both processes
        lost = [p for f in await findings(fake, svc, [channel]) for p in f.lost]
    finally:
        stop_bot_processes(procs)
        await svc.close()
    assert lost == []
    assert len(_each_post_once(fake, channel)) > 30
    assert dm_requests(fake) and dms_lost(fake) == []
    for user in users:
        dms = Counter(m.nonce for m in fake.dms(user))
        assert [n for n, times in dms.items() if times > 1] == [], user.name
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
    assert not fake.unknown, [(r.method, r.path) for r in fake.unknown]


async def test_a_send_slower_than_the_lease_goes_out_once_from_two_processes(
        fake: FakeDiscord, pg_url: str, tmp_path: Path) -> None:
    """Two bot processes on one PostgreSQL, both reading the outbox ten times a second,
    their leases 3 s long. A note's post is answered 500 twice: discord.py tries it again
    after 1 and 3 s, so the send lasts some 4 s, longer than a lease. Its worker's lease is
    renewed meanwhile, and fenced: the other process never delivers the channel too.
    Every post shows once, nothing is left in the outbox, no traceback."""
    users = [fake.add_user(name) for name in ("ann", "bob", "cid")]
    channel = fake.channel_id
    logs = [tmp_path / "bot0.log", tmp_path / "bot1.log"]
    svc = GameService(await open_store(pg_url))  # the third writer
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs = await start_bot_processes(fake, pg_url, logs, cwd=tmp_path,
                                          SANMARCO_REMINDER_SECONDS="0.1",
                                          SANMARCO_LEASE_SECONDS=str(LEASE))
        lobby = await fake.public_post(await fake.slash(users[0], NEW))
        for user in users[1:]:
            await fake.click(user, lobby, lobby.component("join")["custom_id"])
        await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
        table = Table(fake, users, channel_id=channel, wait_for="finished")
        await _drained(svc, channel)
        slow = fake.faults.fail(CHANNEL_POST, status=500, times=2, channel=channel)
        away = str(users[2].id)
        await svc.set_away(fake.guild_id, away, time.time() + HOUR)
        await until(lambda: slow.hits >= 1, what="the slow send")
        await svc.back(fake.guild_id, away)  # committed while the slow send lasts
        await _drained(svc, channel)
        assert slow.hits == 2
        assert await table.step(last_prompt(fake, channel))
        await _drained(svc, channel)
        lost = [p for f in await findings(fake, svc, [channel]) for p in f.lost]
    finally:
        stop_bot_processes(procs)
        await svc.close()
    assert lost == []
    _each_post_once(fake, channel)
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


async def test_a_channel_another_process_holds_waits_for_it_and_is_taken_over_when_it_dies(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Another process's worker holds the channel (its lease, taken in the store): this
    process leaves the channel's posts to it; once it lets go they go out, once; a holder
    that dies is taken over when its lease runs out (the service's clock moved past it)."""
    run = await two_games(fake, harness, clock=True, config=SHORT)
    here, service = run.channels[0], run.service
    deliverer = harness.bot.get_cog("SanMarco").deliverer  # type: ignore[union-attr]
    shown = len(fake.channel_messages(here))
    assert await service.take_lease(here, "other:1")
    await _acting(run, run.here, run.here.step)
    await deliverer.idle()
    assert len(fake.channel_messages(here)) == shown  # the holder's to send
    assert await service.pending_posts(here)
    await service.release_lease(here, "other:1")  # the holder was done
    await run.passes(1, every=1.0)
    assert await run.until_caught_up() is not None
    shown = len(fake.channel_messages(here))
    assert await service.take_lease(here, "dead:1")  # a holder that dies now
    await _acting(run, run.here, run.here.step)
    await deliverer.idle()
    assert len(fake.channel_messages(here)) == shown
    await service.store.execute_sql(  # its lease ran out (the database's clock moved on)
        "UPDATE leases SET until = until - ? WHERE owner = ?", LEASE_SECONDS + 1.0, "dead:1")
    await run.passes(1, every=LEASE_SECONDS + 1.0)
    assert await run.until_caught_up() is not None
    assert await service.pending_posts(here) == []
    assert [p for f in await run.findings() for p in f.problems()] == []
