"""Sentences and highlights made from the public view and public events."""

from __future__ import annotations

from render import highlight_from_events
from render.words import roles, waiting_line


def test_roles_for_two_columns_and_for_one() -> None:
    four = {"roles": [{"distributor": "a", "decision_makers": ["b"]},
                      {"distributor": "c", "decision_makers": ["d"]}]}
    assert roles(four) == {"a": "Distributor I", "b": "Decision-maker I",
                           "c": "Distributor II", "d": "Decision-maker II"}
    three = {"roles": [{"distributor": "a", "decision_makers": ["b", "c"]}]}
    assert roles(three) == {"a": "Distributor", "b": "Decision-maker 1",
                            "c": "Decision-maker 2"}


def test_waiting_line_names_who_and_what() -> None:
    view = {"waiting_for": ["a", "c"], "awaiting": {"a": "split", "c": "split"}}
    assert waiting_line(view, {"a": "Ann", "c": "Cy"}) == \
        "Waiting for Ann and Cy to split their cards"
    assert waiting_line({"waiting_for": []}, None) == ""


def test_highlight_from_events() -> None:
    h = highlight_from_events([{"type": "card_played", "player": "a", "card": "doge"},
                               {"type": "district_scored", "district": "Castello",
                                "points": {"a": 7, "b": 5}}], {"a": "Ann"})
    assert h == {"district": ["Castello"], "caption": "Castello scored: Ann +7, b +5"}
    h = highlight_from_events([{"type": "bridge_built", "player": "a", "a": "San Marco",
                                "b": "Castello", "setup": True}])
    assert h is not None and h["bridge"] == {"a": "San Marco", "b": "Castello", "owner": "a"}
    assert highlight_from_events([{"type": "split_committed", "player": "a"}]) is None
