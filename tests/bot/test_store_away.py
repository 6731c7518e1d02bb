"""Migration 9 (players away): one away row per server and player, written with the posts
of the games that tell it (all or nothing, each game at the version read), the channel's
cap on how long a game waits on an away player, and an upgrade from schema 8 on both
backends."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.store.migrations.postgres
import bot.store.migrations.sqlite
from bot.store import (
    DEFAULT_AWAY_CAP_HOURS,
    SCHEMA_VERSION,
    AwayRow,
    OutboxEntry,
    Settings,
    SQLiteStore,
    StaleWrite,
    Store,
)
from bot.store.postgres import PostgresStore

from .test_store_days import running_game

HOUR = 3600.0



def _post(channel: int, game: int) -> OutboxEntry:
    return OutboxEntry(channel, 1, game, "note", '{"x":1}', 5.0)


async def test_an_away_row_per_server_and_player_replaced_by_the_next(store: Store) -> None:
    assert await store.away_rows([1]) == []
    await store.set_away(AwayRow(1, "111", 10.0, 500.0), [])
    await store.set_away(AwayRow(2, "111", 10.0, 700.0), [])
    await store.set_away(AwayRow(1, "222", 10.0, 900.0), [])
    assert sorted(await store.away_rows([1]), key=lambda r: r.pid) == [
        AwayRow(1, "111", 10.0, 500.0), AwayRow(1, "222", 10.0, 900.0)]
    assert await store.away_rows([1], ["111"]) == [AwayRow(1, "111", 10.0, 500.0)]
    assert await store.away_rows([1], []) == [] and await store.away_rows([]) == []
    await store.set_away(AwayRow(1, "111", 20.0, 30.0), [])  # back: the moment kept
    assert await store.away_rows([1, 2], ["111"]) in (
        [AwayRow(1, "111", 20.0, 30.0), AwayRow(2, "111", 10.0, 700.0)],
        [AwayRow(2, "111", 10.0, 700.0), AwayRow(1, "111", 20.0, 30.0)])


async def test_the_games_posts_are_written_with_it_or_nothing_is(store: Store) -> None:
    a = await running_game(store, 10, 100.0)
    b = await running_game(store, 20, 100.0)
    va, vb = (await store.game(a)).version, (await store.game(b)).version
    with pytest.raises(StaleWrite):  # b moved on meanwhile: nothing at all is written
        await store.set_away(AwayRow(1, "111", 10.0, 500.0), [(a, va), (b, vb - 1)],
                             [_post(10, a), _post(20, b)])
    assert await store.away_rows([1]) == []
    assert await store.pending_posts(10) == [] and (await store.game(a)).version == va
    await store.set_away(AwayRow(1, "111", 10.0, 500.0), [(a, va), (b, vb)],
                         [_post(10, a), _post(20, b)])
    assert await store.away_rows([1]) == [AwayRow(1, "111", 10.0, 500.0)]
    assert [p.entry.game_id for p in await store.pending_posts(10)] == [a]
    assert [p.entry.game_id for p in await store.pending_posts(20)] == [b]
    # each game has a new row version: a post read before cannot be committed after it
    assert ((await store.game(a)).version, (await store.game(b)).version) == (va + 1, vb + 1)


async def test_coming_back_sets_a_deferred_timer_back_for_the_timer_pass(store: Store) -> None:
    a = await running_game(store, 10, 1000.0)
    b = await running_game(store, 20, 1000.0)  # no turn timer in that channel
    await store.set_settings(Settings(10, turn_timer_hours=1.0))
    row = await store.game(a)
    assert await store.defer_timers([(a, row.version, 90_000.0)]) == 1
    assert await store.due_timer_games(89_999.0) == []
    await store.set_away(AwayRow(1, "111", 10.0, 50.0), [(a, row.version)])
    assert await store.due_timer_games(89_999.0) == []  # going away moves nothing earlier
    row, other = await store.game(a), await store.game(b)
    await store.set_away(AwayRow(1, "111", 10.0, 60.0), [(a, row.version),
                                                        (b, other.version)], recheck=True)
    assert [(d.game.id, d.at) for d in await store.due_timer_games(1000.0)] == [(a, 1000.0)]
    assert await store.due_timer_games(1e12) != [] and all(
        d.game.id != b for d in await store.due_timer_games(1e12))


async def test_the_away_cap_is_a_setting_and_changing_it_places_the_timer_anew(
        store: Store) -> None:
    assert (await store.settings(10)).away_cap_hours == DEFAULT_AWAY_CAP_HOURS == 72.0
    await store.set_settings(Settings(10, away_cap_hours=24.0))
    assert await store.settings(10) == Settings(10, away_cap_hours=24.0)
    a = await running_game(store, 10, 1000.0)
    await store.set_settings(Settings(10, turn_timer_hours=1.0, away_cap_hours=24.0))
    [due] = await store.due_timer_games(1e12)
    assert due.settings.away_cap_hours == 24.0
    row = await store.game(a)
    await store.defer_timers([(a, row.version, 90_000.0)])
    await store.set_settings(Settings(10, turn_timer_hours=1.0, away_cap_hours=0.0))
    assert [d.at for d in await store.due_timer_games(1e12)] == [1000.0 + HOUR]


async def test_a_schema_8_file_is_upgraded_with_the_default_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v8.db"
    with monkeypatch.context() as m:
        m.setattr(bot.store.migrations.sqlite, "MIGRATIONS",
                  bot.store.migrations.sqlite.MIGRATIONS[:8])
        old = await SQLiteStore.open(path)
        try:
            await old.execute_sql("INSERT INTO channel_settings (channel_id, reminder_hours) "
                                  "VALUES (10, 1.0)")
            assert await old.schema_version() == 8
        finally:
            await old.close()
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 9
        assert await store.settings(10) == Settings(10, 1.0, away_cap_hours=72.0)
        await store.set_away(AwayRow(1, "111", 1.0, 2.0), [])
        assert await store.away_rows([1]) == [AwayRow(1, "111", 1.0, 2.0)]
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def test_a_schema_8_postgresql_database_is_upgraded_alike(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(bot.store.migrations.postgres, "MIGRATIONS",
                  bot.store.migrations.postgres.MIGRATIONS[:8])
        async with await PostgresStore.open(pg_url) as old:
            await old.execute_sql("INSERT INTO channel_settings (channel_id, reminder_hours) "
                                  "VALUES (10, 1.0)")
            assert await old.schema_version() == 8
    async with await PostgresStore.open(pg_url) as store:
        assert await store.schema_version() == len(bot.store.migrations.postgres.MIGRATIONS)
        assert await store.settings(10) == Settings(10, 1.0, away_cap_hours=72.0)
        await store.set_away(AwayRow(1, "111", 1.0, 2.0), [])
        assert await store.away_rows([1]) == [AwayRow(1, "111", 1.0, 2.0)]
