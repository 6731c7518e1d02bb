"""The revealed offers in the panel while a decision-maker chooses (phase "choose")."""

from __future__ import annotations

import copy
from typing import Any

from render import render_board
from render.offers import _chips, choosing_column, height

from .conftest import P3, P4, game_views


def _choosing(players: list[str], seed: int) -> list[dict[str, Any]]:
    return [v for v in game_views(players, seed) if v["phase"] == "choose"]


def test_offers_are_shown_only_while_an_offer_is_chosen() -> None:
    for view in game_views(P4, 4):
        column = choosing_column(view)
        assert (column is not None) == (view["phase"] == "choose")
        if column is not None:
            assert column in view["offers"]
            assert any(o["taken_by"] is None for o in column["offers"])
            assert height(view, 496) > 0
        else:
            assert height(view, 496) == 0


def test_the_column_being_chosen_is_the_one_not_all_taken() -> None:
    views = [v for v in _choosing(P4, 4) if len(v["offers"]) == 2]
    assert views, "a 4-player round reaches its second column"
    for view in views:
        assert choosing_column(view) is view["offers"][1]


def test_the_panel_shows_the_column_the_engine_names() -> None:
    """Which column is being chosen is the engine's to say (the view's ``choosing``); the
    renderer does not work it out again."""
    view = next(v for v in _choosing(P4, 4) if len(v["offers"]) == 2)
    assert view["choosing"] is not None and view["choosing"]["column"] == 1
    other = copy.deepcopy(view)
    other["choosing"] = {"distributor": view["offers"][0]["distributor"], "column": 0}
    assert choosing_column(other) is other["offers"][0]
    assert render_board(other) != render_board(view)
    other["choosing"] = None
    assert choosing_column(other) is None and height(other, 496) == 0


def test_the_offers_change_the_picture() -> None:
    view = _choosing(P3, 3)[0]
    before = render_board(view)
    edited = copy.deepcopy(view)
    edited["offers"][0]["offers"][0]["cards"].append("limit:3")
    assert render_board(edited) != before
    taken = copy.deepcopy(view)
    taken["offers"][0]["offers"][0]["taken_by"] = view["players"][0]
    assert render_board(taken) != before


def test_chips_group_action_cards_and_keep_limit_values() -> None:
    cards = ["district:San Marco", "district:San Marco", "district:Castello", "transfer",
             "transfer", "doge", "limit:2", "limit:2"]
    assert _chips(cards) == [("district:San Marco", "SM", 2), ("district:Castello", "CS", 1),
                             ("transfer", "Transfer", 2), ("doge", "Doge", 1),
                             ("limit", "2", 1), ("limit", "2", 1)]


def test_the_biggest_offers_with_long_names_still_fit() -> None:
    """Ten cards in one offer of three, every name long: the panel wraps the chips, keeps
    the players' rows and the PNG stays small."""
    view = copy.deepcopy(_choosing(P3, 3)[0])
    every = ["district:San Marco", "district:Cannaregio", "district:Santa Croce", "bridge",
             "transfer", "doge", "banishment", "limit:1", "limit:2", "limit:3"]
    offers = view["offers"][0]["offers"]
    offers[0]["cards"], offers[1]["cards"], offers[2]["cards"] = every, [], every[:6]
    names = {p: "Bartolomeo " * 8 for p in view["players"]}
    data = render_board(view, names=names)
    assert len(data) <= 60 * 1024
    assert height(view, 496) < 400
