"""Stopping the bot as systemd, a container's runtime or Ctrl-C does (SIGTERM, SIGINT): the
bot runs as ``python -m bot`` in its own process against the fake Discord. It exits 0 at
once when idle; with posts waiting behind a failing or slow Discord it gives them the
shutdown's bound (``SHUTDOWN_WAIT``), then exits 0, and what was not sent goes out at the
next start, every committed move in the channel once. A player who acts while it stops is
told privately that it is restarting, and nothing is done."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
from pathlib import Path

import pytest

from bot import text
from bot.client import SHUTDOWN_WAIT
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.store import SQLiteStore
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CALLBACK, CHANNEL_POST
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import caught_up, check_invariants, is_apology, said
from tests.fakediscord.players import Table
from tests.fakediscord.process import kill_bot_process, start_bot_process, stop_bot_process
from tests.fakediscord.scenarios import sigterm_mid_delivery, two_games

from .test_discord_crash import open_games

# Room beyond the bound for the process to close Discord's connection and the file on a
# loaded machine: a guard against a hang, not a measure.
TEARDOWN = 20.0
# The stop-mid-delivery tests' bound (SANMARCO_SHUTDOWN_SECONDS): 3 s, not the default 10.
BOUND = 3.0


async def exit_code(proc: subprocess.Popen[bytes], within: float) -> int | None:
    """The process's exit status once it ended, or None if it still runs after ``within``
    seconds (waited for without blocking the fake Discord in this process)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while proc.poll() is None and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return proc.poll()


def log_text(log: Path) -> str:
    return log.read_text() if log.exists() else ""


async def test_sigterm_while_idle_exits_0_at_once(fake: FakeDiscord, tmp_path: Path,
                                                  db: str) -> None:
    """On both stores (a PostgreSQL pool is closed as an SQLite file is)."""
    log = tmp_path / "bot.log"
    proc = await start_bot_process(fake, db, log=log, cwd=tmp_path, LOG_LEVEL="INFO")
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        # Nothing in flight: it does not wait out the bound.
        assert await exit_code(proc, SHUTDOWN_WAIT) == 0, log_text(log)[-2000:]
    finally:
        kill_bot_process(proc)
    said_ = log_text(log)
    assert "SIGTERM: stopping" in said_
    assert "stopped: 0 post(s) left in the outbox for the next start" in said_
    assert "Traceback" not in said_, said_[-2000:]


@pytest.mark.parametrize("sig, discord_is", [(signal.SIGTERM, "failing"),
                                             (signal.SIGINT, "slow")])
async def test_a_stop_mid_delivery_exits_0_and_the_next_start_posts_the_rest(
        fake: FakeDiscord, tmp_path: Path, sig: signal.Signals, discord_is: str) -> None:
    db, log = tmp_path / "sanmarco.db", tmp_path / "bot.log"
    tables = [Table(fake, [fake.add_user(f"g{i}p{k}") for k in range(3)],
                    channel_id=fake.add_channel(), wait_for="finished") for i in range(3)]
    channels = [t.channel_id for t in tables if t.channel_id is not None]
    proc = await start_bot_process(fake, db, log=log, LOG_LEVEL="INFO",
                                   SANMARCO_SHUTDOWN_SECONDS=str(BOUND))
    service = GameService(await SQLiteStore.open(db))  # reads what the bot committed

    async def all_caught_up() -> bool:
        return all([await caught_up(fake, service, c) for c in channels])

    try:
        await open_games(fake, tables)
        await until(all_caught_up, 30)
        # Discord stops taking the channel posts (a 503 each), or takes one a channel every
        # few seconds (its 429s): a move in each game waits in the outbox.
        if discord_is == "failing":
            fake.faults.outage(CHANNEL_POST)
        else:
            fake.faults.limit_posts(count=1, per=30.0)
        for table in tables:
            assert await table.step()
        os.killpg(proc.pid, sig)
        await until(lambda: f"{sig.name}: stopping" in log_text(log), 10)
        # A player who acts now is told the bot is restarting; nothing is done.
        late = tables[0]
        rec = await fake.slash(late.users[0], "sanmarco status", channel_id=late.channel_id)
        assert rec.response.ephemeral and rec.response.content == text.stopping(EN)
        post = fake.last_channel_message(late.channel_id)
        rec = await fake.click(late.users[1], post, post.custom_ids()[0])
        await asyncio.wait_for(rec.finished.wait(), 10)
        assert [m.content for m in said(rec)] == [text.stopping(EN)]

        assert await exit_code(proc, BOUND + TEARDOWN) == 0, log_text(log)[-2000:]
        said_ = log_text(log)
        left = int(said_.split("stopped: ")[1].split(" post(s) left")[0])
        assert left >= 1  # Discord took none (or not all) of the posts in time
        assert "Traceback" not in said_, said_[-2000:]
    finally:
        kill_bot_process(proc)

    fake.faults.clear()
    fake.faults.post_limit = None  # Discord takes posts again
    proc = await start_bot_process(fake, db, log=log, LOG_LEVEL="INFO")

    async def sent() -> bool:
        return not await service.outbox_channels()

    try:
        await until(sent, 30)  # what was left went out at the next start
        await until(all_caught_up, 30)
        # Every committed move is in its channel (not only told privately), once.
        await check_invariants(fake, service, channels)
        acts = [r for t in tables for r in t.interactions]
        assert not [m.content for r in acts for m in said(r) if is_apology(m)]
    finally:
        await service.close()
        assert stop_bot_process(proc) == 0
    assert "Traceback" not in log_text(log)


async def test_posts_discord_takes_within_the_bound_go_out_before_the_stop(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The deliverer's drain: a move's post waiting behind an outage shorter than the bound
    is retried during the stop and goes out; the stop leaves nothing behind."""
    run, left = await sigterm_mid_delivery(fake, harness, seconds=3.0)
    assert left == 0
    assert await run.until_caught_up(30) is not None
    await check_invariants(fake, run.service, run.channels, acts=run.acts)


async def test_a_move_being_handled_when_the_stop_comes_completes(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The stop takes no new interaction, but one already begun is not cut short: a move
    whose deferral Discord holds back for a second (a 429) when SIGTERM comes still counts,
    its player reads its answer, and its post goes out before the bot stops."""
    run = await two_games(fake, harness)
    table = run.here
    assert table.channel_id is not None
    before = (await run.service.status(table.channel_id)).version
    user = await run.awaited()
    choices = await fake.autocomplete(user, "sanmarco play", "move",
                                      channel_id=table.channel_id, move="")
    held = fake.faults.rate_limit(CALLBACK, retry_after=1.0)
    move = asyncio.create_task(fake.slash(user, "sanmarco play", channel_id=table.channel_id,
                                          move=choices[0]["value"]))
    await until(lambda: held.hits > 0, 10)
    bot = harness.bot
    assert bot is not None
    left = await bot.shutdown("SIGTERM")  # type: ignore[attr-defined]
    rec = await asyncio.wait_for(move, 10)
    await asyncio.wait_for(rec.finished.wait(), 10)
    assert left == 0
    assert (await run.service.status(table.channel_id)).version == before + 1
    assert said(rec) and all(m.content != text.stopping(EN) for m in said(rec))
    await check_invariants(fake, run.service, run.channels, acts=[*run.acts, rec])


async def test_ready_announced_after_the_bot_closed_is_dropped(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """Regression (CI, a crash test's log): stopped in its first seconds, the bot closed
    while discord.py's start-up task still waited for the guilds; that task then announced
    ``ready`` on a client whose loop ``close`` had taken away — "Task exception was never
    retrieved" with a traceback. An event after ``close`` is now dropped."""
    bot = await harness.start(seed=1)
    await bot.close()
    with caplog.at_level(logging.DEBUG, logger="bot"):
        bot.dispatch("ready")  # what discord.py's _delay_ready does when its wait ends
        bot.dispatch("guild_available", None)
    assert "'ready' event is not handled" in caplog.text
