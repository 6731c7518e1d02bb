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
from tests.fakediscord.faults import POSTS
from tests.fakediscord.harness import until
from tests.fakediscord.invariants import check_invariants
from tests.fakediscord.players import Table, awaited_ids
from tests.fakediscord.process import kill_bot_process, start_bot_process, stop_bot_process

from .test_discord_crash import open_games

WHOLE = "**Now**"  # what a whole post says and a catch-up's text does not


def _owed(db: Path) -> list[str]:
    """The pings the outbox holds for the channel's next whole post (as the file has it)."""
    conn = sqlite3.connect(db)
    try:
        return [r[0] for r in conn.execute("SELECT owed FROM outbox WHERE owed IS NOT NULL")]
    finally:
        conn.close()


async def test_a_sigkill_between_a_catch_ups_text_and_its_whole_post_loses_no_ping(
        fake: FakeDiscord, tmp_path: Path) -> None:
    db, log = tmp_path / "sanmarco.db", tmp_path / "bot.log"
    here = fake.channel_id
    table = Table(fake, [fake.add_user(n) for n in ("ann", "bob", "cid")], channel_id=here,
                  wait_for="finished")
    mod = fake.add_user("mod", manage_channels=True)
    proc = await start_bot_process(fake, db, log=log)
    try:
        await open_games(fake, [table])
        await until(lambda: WHOLE in fake.last_channel_message(here).content, sc.CATCH_UP)
        outage = fake.faults.outage(*POSTS, channel=here)
        assert await table.step()  # a move: the next player's decision starts with it
        await fake.slash(mod, sc.SETTINGS, channel_id=here, turn_timer=24.0)  # a note
        # Discord takes the catch-up's text, never the whole post that follows it.
        fake.faults.fail(CHANNEL_POST, status=503, times=None, channel=here, content=WHOLE)
        shown = len(fake.channel_messages(here))
        outage.stop()
        await until(lambda: bool(_owed(db)), 30, what="the catch-up's text sent")
        kill_bot_process(proc)
        told = fake.channel_messages(here)[shown:]
        assert told and not any(WHOLE in m.content for m in told)
        fake.faults.clear()
        proc = await start_bot_process(fake, db, log=log)
        await until(lambda: WHOLE in fake.last_channel_message(here).content, sc.CATCH_UP,
                    what="the whole post after the restart")
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
