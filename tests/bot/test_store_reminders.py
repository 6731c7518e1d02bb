"""The reminder pass reads only the due games (10,000 waiting games must not stall the bot):
each running game's next due time is stored (``games.remind_at``, kept by triggers from its own
times and its channel's interval) and indexed, so 10,000 waiting games cost the pass nothing
until they are due (it used to load every waiting game on the event loop: a 1 s stall with
~5,000)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import SCHEMA_VERSION, Seat, Settings, Shards, SQLiteStore, Store, open_store

from .test_store import _make_v1_file

HOUR = 3600.0


async def _running(store: Store, channel: int, since: float) -> int:
    g = await store.create_game(1, channel, Seat("111"), 3, now=since)
    await store.commit(g.id, 0, fields={"status": "running", "awaited_since": since,
                                        "state": "{}"})
    return g.id


async def test_due_games_follow_the_stored_times_and_the_channel_interval(db: str) -> None:
    store = await open_store(db)
    try:
        a = await _running(store, 10, 1000.0)
        b = await _running(store, 20, 5000.0)
        await store.create_game(1, 30, Seat("111"), 3, now=0.0)  # a lobby: never due
        assert await store.due_games(1000.0 + 12 * HOUR - 1) == []
        assert [d.game.id for d in await store.due_games(1000.0 + 12 * HOUR)] == [a]
        assert [d.game.id for d in await store.due_games(5000.0 + 12 * HOUR)] == [a, b]
        # A reminder moves the next one on by the interval.
        assert await store.mark_reminded(a, 1, 1000.0 + 12 * HOUR)
        assert [d.game.id for d in await store.due_games(5000.0 + 12 * HOUR)] == [b]
        # A channel's new interval counts at once, for its running games.
        await store.set_settings(Settings(20, reminder_hours=1.0))
        [due] = await store.due_games(5000.0 + HOUR)
        assert due.game.id == b and due.settings.reminder_hours == 1.0
        await store.set_settings(Settings(20, reminder_hours=2.0))
        assert await store.due_games(5000.0 + HOUR) == []
        # A new decision restarts the clock; an ended game is never due.
        await store.commit(b, 1, fields={"awaited_since": 9000.0, "last_reminded_at": None})
        assert await store.due_games(5000.0 + 3 * HOUR) == []
        await store.commit(b, 2, fields={"status": "finished", "awaited_since": None})
        assert [d.game.id for d in await store.due_games(1e12)] == [a]
    finally:
        await store.close()


async def test_the_due_query_uses_the_index(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "s.db")
    try:
        plan = await store.query_sql(
            "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = 'running' "
            "AND remind_at <= 1.0 ORDER BY remind_at")
        assert any("games_remind_at" in str(row[-1]) for row in plan), plan
    finally:
        await store.close()


async def test_an_upgraded_file_knows_when_its_running_games_are_due(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _make_v1_file(path)  # game 2 runs in channel 70 (interval 2 h), awaited since 31.0
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.due_games(31.0 + 2 * HOUR - 1) == []
        [due] = await store.due_games(31.0 + 2 * HOUR)
        assert due.game.id == 2 and due.settings.reminder_hours == 2.0
    finally:
        await store.close()


async def test_due_games_come_a_page_at_a_time_oldest_first(db: str) -> None:
    store = await open_store(db)
    try:
        ids = [await _running(store, 10 + i, since) for i, since in
               enumerate((300.0, 100.0, 200.0, 100.0))]
        now = 300.0 + 12 * HOUR
        first = await store.due_games(now, limit=3)
        assert [d.game.id for d in first] == [ids[1], ids[3], ids[2]]
        rest = await store.due_games(now, after=first[-1].after, limit=3)
        assert [d.game.id for d in rest] == [ids[0]]
        assert await store.due_games(now, after=rest[-1].after) == []
    finally:
        await store.close()


async def test_a_process_reads_the_due_games_of_its_own_shards_only(db: str) -> None:
    """Exactly one process reminds a guild: it lives on shard (guild_id >> 22) % count, and the
    process holding that shard is the only one that reminds its players."""
    store = await open_store(db)
    try:
        guilds = {shard: (300 + shard) << 22 for shard in range(3)}  # on shards 0, 1, 2
        ids = {}
        for shard, guild in guilds.items():
            g = await store.create_game(guild, 10 + shard, Seat("111"), 3, now=0.0)
            await store.commit(g.id, 0, fields={"status": "running", "awaited_since": 0.0,
                                                "state": "{}"})
            ids[shard] = g.id
        now = 13 * HOUR
        assert {d.game.id for d in await store.due_games(now)} == set(ids.values())
        for mine in ((0,), (1,), (0, 2)):
            shards = Shards(3, mine)
            due = await store.due_games(now, shards=shards)
            assert {d.game.id for d in due} == {ids[s] for s in mine}
            assert all(shards.holds(d.game.guild_id) for d in due)
        # and the turn timers' default moves: made by the process of the shard
        for shard in guilds:
            await store.set_settings(Settings(10 + shard, turn_timer_hours=1.0))
        assert {d.game.id for d in await store.due_timer_games(now)} == set(ids.values())
        for mine in ((0,), (1, 2)):
            due = await store.due_timer_games(now, shards=Shards(3, mine))
            assert {d.game.id for d in due} == {ids[s] for s in mine}
        # the same for lobbies nobody started: each process deletes its own guilds' only
        for shard, guild in guilds.items():
            await store.create_game(guild, 20 + shard, Seat("222"), 3, now=0.0)
        assert await store.delete_unstarted(1.0, shards=Shards(3, (1,))) == 1
        assert await store.active_game(21) is None and await store.active_game(20)
        assert await store.delete_unstarted(1.0) == 2
    finally:
        await store.close()


def test_shards_are_checked() -> None:
    assert Shards(2, (0, 1)).holds(1 << 22) and not Shards(2, (0,)).holds(1 << 22)
    for count, ids in ((0, (0,)), (2, ()), (2, (2,)), (2, (-1,))):
        with pytest.raises(ValueError):
            Shards(count, ids)
