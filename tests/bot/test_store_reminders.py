"""The reminder pass reads only the due games (issue 11, item 5): each running game's next
due time is stored (``games.remind_at``, kept by triggers from its own times and its
channel's interval) and indexed, so 10,000 waiting games cost the pass nothing until they
are due (it used to load every waiting game on the event loop: a 1 s stall with ~5,000)."""

from __future__ import annotations

from pathlib import Path

from bot.store import SCHEMA_VERSION, Seat, Settings, Store

from .test_store import _make_v1_file

HOUR = 3600.0


async def _running(store: Store, channel: int, since: float) -> int:
    g = await store.create_game(1, channel, Seat("111"), 3, now=since)
    await store.commit(g.id, 0, fields={"status": "running", "awaited_since": since,
                                        "state": "{}"})
    return g.id


async def test_due_games_follow_the_stored_times_and_the_channel_interval(
        tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.db")
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
    store = await Store.open(tmp_path / "s.db")
    try:
        plan = await store._all(
            "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = 'running' "
            "AND remind_at <= 1.0 ORDER BY remind_at")
        assert any("games_remind_at" in str(row[-1]) for row in plan), plan
    finally:
        await store.close()


async def test_an_upgraded_file_knows_when_its_running_games_are_due(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _make_v1_file(path)  # game 2 runs in channel 70 (interval 2 h), awaited since 31.0
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.due_games(31.0 + 2 * HOUR - 1) == []
        [due] = await store.due_games(31.0 + 2 * HOUR)
        assert due.game.id == 2 and due.settings.reminder_hours == 2.0
    finally:
        await store.close()


async def test_due_games_come_a_page_at_a_time_oldest_first(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.db")
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
