"""The record of substitutes, on both backends: a hand-over is written with its change (or
not at all), read back in order, and travels with a game's history, so ratings and stats
know who played which seat; a seat's substitute finds the game among their games."""

from __future__ import annotations

import pytest

from bot.store import (
    HistoryRow,
    RatingRow,
    Seat,
    SeatNames,
    StaleWrite,
    Store,
    SubstituteRow,
)


async def _running(store: Store, channel: int, seats: tuple[str, ...]) -> int:
    g = await store.create_game(1, channel, Seat(seats[0]), len(seats), now=1.0,
                                others=[Seat(p) for p in seats[1:]])
    await store.commit(g.id, 0, fields={"status": "running", "state": "{}"})
    return g.id


def _sub(game: int, version: int, pid: str, player: str, seq: int = 3) -> SubstituteRow:
    return SubstituteRow(game, version, pid, player, f"name {player}", "999", seq, 5.0)


async def test_a_hand_over_is_written_with_its_change_and_read_in_order(store: Store) -> None:
    game = await _running(store, 10, ("111", "222", "ai.normal.1"))
    row = await store.game(game)
    assert row is not None
    seats = (row.players[0], Seat("222", "bob", user="444"), row.players[2])
    v = await store.commit(game, row.version, {"players": seats},
                           substitutes=[_sub(game, row.version + 1, "222", "444")])
    with pytest.raises(StaleWrite):  # a stale change writes no hand-over either
        await store.commit(game, row.version, {"players": seats},
                           substitutes=[_sub(game, row.version + 1, "ai.normal.1", "555")])
    await store.commit(game, v, substitutes=[_sub(game, v + 1, "ai.normal.1", "555", 9)])
    assert await store.substitutes(game) == [_sub(game, row.version + 1, "222", "444"),
                                             _sub(game, v + 1, "ai.normal.1", "555", 9)]
    again = await store.game(game)
    assert again is not None and again.seat("222") == Seat("222", "bob", user="444")
    assert again.played_by("444") == again.seat("222") and again.played_by("222") is None
    assert again.passed_on("222") and not again.passed_on("444")


async def test_a_substitute_finds_the_game_among_their_games_and_the_first_player_not(
        store: Store) -> None:
    game = await _running(store, 10, ("111", "222", "333"))
    row = await store.game(game)
    assert row is not None
    await store.commit(game, row.version, {"players": (
        row.players[0], Seat("222", "bob", user="444"), row.players[2])})
    assert [g.id for g, _, _ in await store.player_games(1, "444")] == [game]
    assert await store.player_games(1, "222") == []
    assert [g.id for g, _, _ in await store.player_games(1, "111")] == [game]


async def test_history_ratings_and_past_games_carry_the_substitutes(store: Store) -> None:
    game = await _running(store, 10, ("111", "222", "333"))
    other = await _running(store, 20, ("111", "222", "333"))
    row = await store.game(game)
    assert row is not None
    v = await store.commit(game, row.version, {"players": (
        row.players[0], Seat("222", "bob", user="444"), row.players[2])},
        substitutes=[_sub(game, row.version + 1, "222", "444")])
    v = await store.commit(game, v, substitutes=[_sub(game, v + 1, "222", "222")])
    for g, at in ((game, 7.0), (other, 8.0)):
        current = await store.game(g)
        assert current is not None
        await store.commit(g, current.version, {"status": "finished"}, history=HistoryRow(
            g, 1, 10, at, ("111", "222", "333"), ("111",), {"111": 9, "222": 5, "333": 1}))
    newest, oldest = await store.history(1)
    assert newest.game_id == other and newest.substitutes == {}
    assert oldest.substitutes == {"222": ("444", "222")}
    assert oldest.people("222") == ("222", "444", "222") and oldest.people("111") == ("111",)
    seen: list[HistoryRow] = []

    def rate(table: dict[str, RatingRow], games: list[HistoryRow]) -> dict[str, RatingRow]:
        seen.extend(games)
        return table

    assert await store.update_ratings(1, rate) == 2
    assert [g.substitutes for g in seen] == [{"222": ("444", "222")}, {}]
    past = await store.past_games(1, game_id=game)
    assert past[0].history.substitutes == {"222": ("444", "222")}
    assert isinstance(past[0].names, SeatNames) and past[0].names.playing == {"222": "444"}
