"""RULES.md §6 and the rule book's three San Marco scorings (seeds/001, 'Beispiele')."""

from engine import apply, decode
from engine.cards import DOGE
from engine.rules.scoring import district_points

from .helpers import in_play, position


def test_four_three_one_gives_eight_six_nothing():
    """Anja 4, Bernd 3, Christian 2 → 8, 6, 0 (example 1)."""
    assert district_points([4, 3, 2], 8, 6) == [8, 6, 0]


def test_two_two_one_gives_six_six_nothing():
    """Anja and Bernd 2 each, Christian 1 → 6, 6, 0 (example 2): tied first take the lower."""
    assert district_points([2, 2, 1], 8, 6) == [6, 6, 0]


def test_five_three_three_gives_eight_nothing_nothing():
    """Anja 5, Bernd and Christian 3 each → 8, 0, 0 (example 3): tied second scores nothing."""
    assert district_points([5, 3, 3], 8, 6) == [8, 0, 0]


def test_absent_players_never_score_and_a_lone_player_takes_first():
    assert district_points([0, 3, 0, 0], 8, 6) == [0, 8, 0, 0]
    assert district_points([0, 0, 0, 0], 8, 6) == [0, 0, 0, 0]


def test_a_doge_scoring_reports_every_prestige_change_in_district_scored():
    s = position(3, districts={"San Marco": {"A": 4, "B": 3, "C": 2}})
    s = in_play(s, "A", [DOGE])
    s2, events = apply(s, "A", decode("doge:SM"))
    scored = [e for e in events if e.type == "district_scored"]
    assert scored[0]["district"] == "San Marco"
    assert scored[0]["points"] == {"A": 8, "B": 6}
    assert s2.prestige[:3] == (8, 6, 0)
