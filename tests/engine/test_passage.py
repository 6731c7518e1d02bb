"""RULES.md §7 (the end of a passage) and §8 (the end of the game)."""

from engine import Banish, apply, decode, legal_actions
from engine.cards import DOGE, district_card

from .helpers import in_play, position


def _end_round(limit, n=4, starter=0):
    s = position(n, limit=limit)
    s = in_play(s.evolve(starter=starter, in_passage=tuple(range(n))), "A",
                [district_card("San Marco")])
    return apply(s, "A", decode("district:SM"))


def test_nobody_out_means_another_normal_round_with_the_next_starter():
    s, ev = _end_round({"A": [3], "B": [2], "C": [1], "D": [3, 3]})
    start = next(e for e in ev if e.type == "round_started")
    assert start["extra"] is False and start["starter"] == "B"
    assert s.round == 2 and s.phase == "split"  # fresh() was in round 1


def test_one_or_no_player_under_ten_ends_the_passage_at_once():
    s, ev = _end_round({"A": [3, 3, 3, 3], "B": [3, 3, 3, 1], "C": [3, 3, 3, 3], "D": [1]})
    assert not any(e.type == "round_started" and e["extra"] for e in ev)
    scored = next(e for e in ev if e.type == "passage_scored")
    assert scored["bonus"] == {"D": 11}
    assert scored["banisher"] == "D"
    assert s.phase == "banish" and s.waiting_for == ("D",)


def test_three_players_under_ten_in_a_four_player_game_play_one_extra_round():
    s, ev = _end_round({"A": [3], "B": [3, 3, 3, 3], "C": [1], "D": [2]})
    start = next(e for e in ev if e.type == "round_started")
    assert start["extra"] is True
    assert len(start["roles"]) == 1 and len(start["roles"][0]["decision_makers"]) == 2
    assert len(s.columns[0].drawn) == 10  # 6 action + 4 limit cards


def test_after_the_third_passage_every_district_is_scored_and_winners_named():
    s = position(3, districts={"San Marco": {"A": 3, "B": 1}, "Castello": {"C": 2}},
                 limit={"A": [3, 3, 3, 3], "B": [3, 3, 3, 3], "C": [1]})
    s = in_play(s.evolve(passage=3, starter=0, in_passage=(0, 1, 2)), "A",
                [district_card("Cannaregio")])
    s, ev = apply(s, "A", decode("district:CN"))
    assert s.phase == "banish" and s.waiting_for == ("C",)
    s, ev = apply(s, "C", Banish("Santa Croce"))
    scored = [e["district"] for e in ev if e.type == "district_scored"]
    assert scored == ["San Marco", "Cannaregio", "Santa Croce", "San Polo", "Dorsoduro",
                      "Castello"]
    assert s.finished and s.public_view()["finished"] is True
    over = next(e for e in ev if e.type == "game_over")
    # C: bonus 12 - 1 = 11, Castello 7 → 18; A: San Marco 8 + Cannaregio 7 = 15
    assert over["winners"] == ["C"] and s.public_view()["winners"] == ["C"]
    assert legal_actions(s, "A") == ()


def test_first_doge_goes_to_any_district_and_scores_it():
    s = in_play(position(3, districts={"Santa Croce": {"B": 1}}), "A", [DOGE])
    acts = legal_actions(s, "A")
    assert len(acts) == 6 and all(not a.route for a in acts)
    s2, ev = apply(s, "A", decode("doge:SC"))
    assert s2.doge == 2 and s2.prestige[1] == 5


def test_own_bridges_are_free_and_canal_crossing_needs_a_bridgeless_district():
    s = position(3, doge="San Marco", bridges=[("San Marco", "Castello", "A")])
    s = in_play(s, "A", [DOGE])
    acts = legal_actions(s, "A")
    assert not any(c.owner is None for a in acts for c in a.route)  # SM has a bridge
    s2, ev = apply(s, "A", decode("doge:CS/via:SM-CS@A"))
    assert not any(e.type == "toll_paid" for e in ev) and s2.prestige[0] == 0
