"""A catch-up's pings survive a SIGKILL: the bot (``python -m bot``, its own process) tells a
missed move as text, then is killed before the whole post that follows it. The pings that
text owed (whose decision started in the move told) were written on the next waiting post
in the transaction that let the told post go, so the restarted bot's whole post pings them.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.service import GameService
from bot.store import SQLiteStore
from tests.fakediscord import CHANNEL_POST, FakeDiscord
from tests.fakediscord import scenarios as sc
from tests.fakediscord.harness import until
from tests.fakediscord.invariants import check_invariants
from tests.fakediscord.messages import FakeUser
from tests.fakediscord.players import Table, awaited_ids
from tests.fakediscord.process import kill_bot_process, start_bot_process, stop_bot_process

from .test_discord_crash import open_games

WHOLE = "**Now**"  # what a whole post says and a catch-up's text does not


# Seconds the bot processes hold a channel's lease: the restarted one waits for the killed
# one's to run out (10 s by default).
LEASE = 2.0


def _owed(db: Path) -> list[str]:
    """The pings the outbox holds for the channel's next whole post (as the file has it)."""
    conn = sqlite3.connect(db)
    try:
        return [r[0] for r in conn.execute("SELECT owed FROM outbox WHERE owed IS NOT NULL")]
    finally:
        conn.close()


def _waiting(db: Path) -> int:
    """How many posts the outbox holds (as the file has it)."""
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM outbox").fetchone()[0])
    finally:
        conn.close()


async def _awaited(db: Path, table: Table) -> FakeUser:
    """The player the stored game awaits (read from the bot's file)."""
    service = GameService(await SQLiteStore.open(db))
    try:
        status = await service.status(table.channel_id)
    finally:
        await service.close()
    return table.user(int(next(p for p in status.awaiting if p.isdigit())))


async def _move_by_command(fake: FakeDiscord, table: Table, user: FakeUser) -> None:
    """The awaited player's move by its command (its channel post has not come)."""
    offers = await fake.autocomplete(user, "sanmarco take", "offer",
                                     channel_id=table.channel_id, offer=0)
    await (table.slash_take(user) if offers else table.slash_play(user))


async def test_a_sigkill_between_a_catch_ups_text_and_its_whole_post_loses_no_ping(
        fake: FakeDiscord, tmp_path: Path) -> None:
    db, log = tmp_path / "sanmarco.db", tmp_path / "bot.log"
    here = fake.channel_id
    table = Table(fake, [fake.add_user(n) for n in ("ann", "bob", "cid")], channel_id=here,
                  wait_for="finished")
    proc = await start_bot_process(fake, db, log=log, SANMARCO_LEASE_SECONDS=str(LEASE))
    try:
        await open_games(fake, [table])
        await until(lambda: WHOLE in fake.last_channel_message(here).content, sc.CATCH_UP)
        outage = fake.faults.outage(CHANNEL_POST, channel=here)  # the answers go on
        # Two moves: the first is told as text (its pings owed to the post after it), the
        # second, the game's last, goes whole (a game's last move always does).
        for _ in range(2):
            await _move_by_command(fake, table, await _awaited(db, table))
        # Discord takes the catch-up's text, never the whole post that follows it.
        fake.faults.fail(CHANNEL_POST, status=503, times=None, channel=here, content=WHOLE)
        shown = len(fake.channel_messages(here))
        outage.stop()
        await until(lambda: bool(_owed(db)), 30, what="the catch-up's text sent")
        kill_bot_process(proc)
        told = fake.channel_messages(here)[shown:]
        assert told and not any(WHOLE in m.content for m in told)
        fake.faults.clear()
        proc = await start_bot_process(fake, db, log=log, SANMARCO_LEASE_SECONDS=str(LEASE))
        # the restarted process waits for the killed one's lease on the channel to run out
        await until(lambda: WHOLE in fake.last_channel_message(here).content,
                    sc.CATCH_UP + LEASE, what="the whole post after the restart")
        # the post is in the channel a moment before the outbox lets it go
        await until(lambda: not _waiting(db), sc.CATCH_UP, what="the outbox empty")
    finally:
        stop_bot_process(proc)
    whole = fake.last_channel_message(here)
    awaited = awaited_ids(whole)
    assert awaited and set(awaited) <= whole.pinged(), (whole.content, whole.pinged())
    service = GameService(await SQLiteStore.open(db))
    try:
        await check_invariants(fake, service, [here])
        assert await service.pending_posts(here) == []
    finally:
        await service.close()
    assert "Traceback" not in log.read_text()
