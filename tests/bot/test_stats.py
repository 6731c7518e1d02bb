"""A server's memory through the service on real SQLite files: stats and the
leaderboard over stored games (3 and 4 players, shared wins, computer players, abandoned
games left out), the rating rebuild equal to the table kept up game by game, finished games
re-played for the game file, and the seed kept secret while a game runs (R15)."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot import ratings
from bot.computers import EngineComputers
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.store import SCHEMA_VERSION, HistoryRow, Seat, SQLiteStore
from engine.replay import verify
from tests.dbsql import sqlite_at

from .test_service import Clock, make_service, start_game

GUILD, OTHER_GUILD = 1, 2


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:
    service = await make_service(db)
    yield service
    await service.close()


async def finish(svc: GameService, players: Sequence[str], winners: Sequence[str],
                 scores: dict[str, int], *, guild: int = GUILD, channel: int = 50,
                 at: float = 0.0) -> int:
    """A game stored as finished, with its history row (written by the store's own commit,
    as the service writes it when a game ends)."""
    store = svc.store
    row = await store.create_game(guild, channel, Seat(players[0]), len(players), at)
    seats = tuple(Seat(p, f"Name {p}", computer=p.startswith("ai.")) for p in players)
    await store.commit(row.id, row.version, {"status": "running", "players": seats, "seed": 1})
    await store.commit(row.id, row.version + 1, {"status": "finished", "ended_at": at},
                       history=HistoryRow(row.id, guild, channel, at, tuple(players),
                                          tuple(winners), scores))
    return row.id


async def abandon(svc: GameService, players: Sequence[str], channel: int = 60) -> None:
    row = await svc.store.create_game(GUILD, channel, Seat(players[0]), len(players), 0.0)
    await svc.store.commit(row.id, row.version, {"status": "abandoned", "ended_at": 1.0})


GAMES: list[tuple[list[str], list[str], dict[str, int]]] = [
    (["ann", "bob", "cid"], ["ann"], {"ann": 60, "bob": 50, "cid": 40}),
    (["ann", "bob", "cid", "dan"], ["bob", "ann"], {"ann": 70, "bob": 70, "cid": 30,
                                                   "dan": 65}),  # a shared win (R14)
    (["ann", "ai.normal.1", "ai.easy.2"], ["ai.normal.1"],
     {"ann": 55, "ai.normal.1": 80, "ai.easy.2": 20}),
    (["bob", "ai.normal.1", "ai.normal.2", "ann"], ["ann"],
     {"bob": 10, "ai.normal.1": 40, "ai.normal.2": 45, "ann": 90}),
    (["cid", "dan", "bob"], ["dan"], {"cid": 30, "dan": 75, "bob": 75}),  # dan by San Marco
]


async def store_games(svc: GameService, *, rate_between: bool = False) -> None:
    for k, (players, winners, scores) in enumerate(GAMES):
        await finish(svc, players, winners, scores, at=100.0 + k)
        if rate_between:
            await svc.leaderboard(GUILD)
    await abandon(svc, ["ann", "bob", "cid"])
    await finish(svc, ["ann", "bob", "cid"], ["ann"], {"ann": 99, "bob": 0, "cid": 0},
                 guild=OTHER_GUILD, channel=70)


async def test_stats_count_games_wins_shared_wins_rates_average_and_best_per_size(
        svc: GameService) -> None:
    await store_games(svc)
    ann = await svc.player_stats(GUILD, "ann")
    assert (ann.three.games, ann.three.wins, ann.three.best) == (2, 1, 60)
    assert ann.three.average == pytest.approx(57.5) and ann.three.win_rate == 0.5
    assert (ann.four.games, ann.four.wins, ann.four.best) == (2, 2, 90)  # a shared win counts
    assert ann.four.average == pytest.approx(80.0) and ann.four.win_rate == 1.0
    assert (ann.overall.games, ann.overall.wins, ann.overall.best) == (4, 3, 90)
    bob = await svc.player_stats(GUILD, "bob")
    assert (bob.three.games, bob.three.wins, bob.four.games, bob.four.wins) == (2, 0, 2, 1)
    assert bob.overall.best == 75
    nobody = await svc.player_stats(GUILD, "999")
    assert nobody.overall.games == 0 and nobody.overall.win_rate is None
    # the abandoned game counts nowhere, the other server's game only there
    other = await svc.player_stats(OTHER_GUILD, "ann")
    assert (other.overall.games, other.overall.best) == (1, 99)
    with pytest.raises(ServiceError):
        await svc.player_stats(GUILD, "not a pid!")


async def test_the_leaderboard_rates_people_and_each_computer_level(svc: GameService) -> None:
    await store_games(svc)
    board = await svc.leaderboard(GUILD)
    by = {r.player: r for r in board}
    assert set(by) == {"ann", "bob", "cid", "dan", "ai.normal", "ai.easy"}
    assert [r.place for r in board] == sorted(r.place for r in board)
    assert board[0].player == "ann"  # four games, three wins
    assert by["ai.normal"].games == 2 and by["ai.easy"].games == 1  # one level, counted once
    assert by["ann"].games == 4 and by["dan"].games == 2
    assert by["ai.normal"].is_computer and not by["ann"].is_computer
    assert all(r.score == pytest.approx(r.mu - 3 * r.sigma) for r in board)
    other = await svc.leaderboard(OTHER_GUILD)
    assert other[0].player == "ann"
    assert {r.player for r in other} == {"ann", "bob", "cid"}


def test_a_shared_win_is_a_tie_and_the_order_behind_it_is_by_prestige() -> None:
    assert ratings.ranks(["a", "b", "c", "d"], ["b", "a"],
                         {"a": 70, "b": 70, "c": 30, "d": 65}) == [1, 1, 3, 2]
    assert ratings.ranks(["a", "b", "c"], ["b"], {"a": 5, "b": 5, "c": 5}) == [2, 1, 2]
    table = ratings.fold([HistoryRow(1, 1, 1, 0.0, ("a", "b", "c"), ("a", "b"),
                                     {"a": 9, "b": 9, "c": 1})])
    assert table["a"].mu == table["b"].mu > table["c"].mu
    assert table["a"].sigma == table["b"].sigma


async def test_the_rebuild_gives_exactly_the_table_kept_up_game_by_game(
        svc: GameService) -> None:
    await store_games(svc, rate_between=True)  # rated after each game, as games end
    incremental = await svc.leaderboard(GUILD)
    assert await svc.store.update_ratings(GUILD, ratings.rate) == 0  # nothing left to rate
    rebuilt = await svc.rebuild_ratings(GUILD)
    assert rebuilt == incremental  # the same floats, not just close ones
    again = await svc.leaderboard(GUILD)
    assert again == incremental
    # and the pure folding agrees: one game at a time equals all at once
    history = sorted(await svc.store.history(GUILD), key=lambda h: (h.finished_at, h.game_id))
    step: dict[str, ratings.RatingRow] = {}
    for h in history:
        step = ratings.rate(step, [h])
    assert step == ratings.fold(history)
    assert ratings.leaderboard(step.values()) == incremental


async def test_recent_games_list_date_channel_players_winners_and_the_final_post(
        svc: GameService) -> None:
    await store_games(svc)
    past = await svc.past_games(GUILD, limit=3)
    assert [p.history.game_id for p in past] == [5, 4, 3]
    assert past[0].history.winners == ("dan",) and past[0].names["dan"] == "Name dan"
    assert past[0].url is None
    with pytest.raises(ServiceError) as err:
        await svc.remember_final_post(6, 1, "https://x")  # the abandoned game
    assert err.value.code == "history.not_over"
    await svc.remember_final_post(5, 777, "https://discord.com/channels/1/50/777")
    past = await svc.past_games(GUILD, limit=1)
    assert (past[0].message_id, past[0].url) == (777, "https://discord.com/channels/1/50/777")
    assert len(await svc.past_games(GUILD, limit=1000)) == 5  # abandoned games are not there


async def test_a_finished_game_replays_into_a_game_file_the_checker_accepts(
        db: str) -> None:
    svc = await make_service(db, seed=987654321987,
                             computers=EngineComputers())
    try:
        await svc.create_lobby(GUILD, 10, "111", seats=4, name="Ann")
        for _ in range(3):
            await svc.add_computer(10, "111", level="easy")
        update = await svc.start(10, "111")
        # while the game runs, nothing gives the seed away (R15)
        for call in (svc.finished_game(GUILD, 10), svc.game_file(GUILD, 10)):
            with pytest.raises(ServiceError) as err:
                await call
            assert err.value.code == "history.not_over"
            assert "987654321987" not in str(err.value)
        rng = random.Random(3)
        while not update.finished:  # the computers move inside each call
            legal = await svc.legal_actions(10, "111")
            update = await svc.act(10, "111", rng.choice(legal))
        game = await svc.finished_game(GUILD, 10)
        assert game.seed == 987654321987 and game.view["finished"]
        assert len(game.steps) == len(game.actions) + 1
        assert [e.type for e in game.events][0] == "game_started"
        assert game.events[-1].type == "game_over" and game.final_post is None
        data = json.loads(await svc.game_file(GUILD, 10))
        assert data["seed"] == 987654321987 and data["players"][0] == "111"
        assert data["names"]["111"] == "Ann" and data["game"] == game.game_id
        verdict = verify(data)
        assert verdict.ok, verdict.problem
        # by number, from this server only
        assert (await svc.finished_game(GUILD, 99, game.game_id)).game_id == game.game_id
        for guild, number in ((OTHER_GUILD, game.game_id), (GUILD, 12345)):
            with pytest.raises(ServiceError) as err:
                await svc.finished_game(guild, 10, number)
            assert err.value.code == "history.no_game"
        # the history row the game wrote feeds stats and the leaderboard
        assert (await svc.player_stats(GUILD, "111")).four.games == 1
        assert {r.player for r in await svc.leaderboard(GUILD)} == {"111", "ai.easy"}
    finally:
        await svc.close()


async def test_an_abandoned_game_has_no_replay_and_no_file(db: str) -> None:
    svc = await make_service(db, seed=5)
    try:
        await start_game(svc, 3, channel=10)
        await svc.abandon(10, "111")
        with pytest.raises(ServiceError) as err:
            await svc.game_file(GUILD, 10)
        assert err.value.code == "game.abandoned"
        assert await svc.past_games(GUILD) == [] and await svc.leaderboard(GUILD) == []
    finally:
        await svc.close()


async def test_schema_2_files_are_upgraded_to_keep_final_posts_and_ratings(
        tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    db = sqlite_at(path, 2)  # a file as schema 2 left it: migrations 1 and 2 only
    db.commit()
    db.close()
    svc = GameService(await SQLiteStore.open(path), Clock())
    try:
        assert await svc.store.schema_version() == SCHEMA_VERSION >= 3
        await finish(svc, ["a1", "b2", "c3"], ["a1"], {"a1": 3, "b2": 2, "c3": 1})
        assert [r.player for r in await svc.leaderboard(GUILD)][0] == "a1"
        assert await svc.store.integrity_check() == "ok"
    finally:
        await svc.close()
