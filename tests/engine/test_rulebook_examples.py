"""The rule book's worked examples (seeds/001, the German edition), replayed in the engine."""

import pytest

from engine import Banish, PlaceAristocrat, Split, TakeOffer, apply, decode, legal_actions
from engine.cards import BANISHMENT, district_card

from .helpers import count, in_play, position, seat_of, with_drawn


def test_bernd_castello_card_places_in_castello_or_over_his_bridge_in_san_marco():
    """'Bernd hat Castello mit San Marco durch eine eigene Brücke verbunden. Er spielt die
    Gebietskarte „Castello“ aus. Er darf seinen Adligen entweder in Castello oder in San
    Marco einsetzen.'"""
    s = position(3, bridges=[("San Marco", "Castello", "B"), ("San Marco", "Castello", "C")])
    s = in_play(s, "B", [district_card("Castello")])
    assert set(legal_actions(s, "B")) == {PlaceAristocrat("Castello"),
                                          PlaceAristocrat("Castello", "San Marco")}
    s2, _ = apply(s, "B", PlaceAristocrat("Castello", "San Marco"))
    assert count(s2, "San Marco", "B") == 1 and count(s2, "Castello", "B") == 0
    # C's bridge on the same pair is no use to B
    s = in_play(position(3, bridges=[("San Marco", "Castello", "C")]), "B",
                [district_card("Castello")])
    assert legal_actions(s, "B") == (PlaceAristocrat("Castello"),)


def test_anja_banishes_san_marco_with_a_five_against_two_two_two():
    """'Dort haben Bernd, Christian und sie selbst jeweils zwei Adlige platziert. Anja
    würfelt eine „Fünf“ und muss nun, zusätzlich zu den vier gegnerischen Adligen, auch
    einen eigenen aus San Marco entfernen.'"""
    s = position(3, districts={"San Marco": {"A": 2, "B": 2, "C": 2}})
    s = in_play(s, "A", [BANISHMENT])
    for rng in range(500):
        s2, ev = apply(s.evolve(rng=rng), "A", Banish("San Marco"))
        if next(e["roll"] for e in ev if e.type == "banishment_rolled") == 5:
            break
    else:  # pragma: no cover
        pytest.fail("no roll of 5")
    banished = next(e for e in ev if e.type == "banished")
    assert banished["roll"] == 5
    assert banished["removed"] == {"A": 1, "B": 2, "C": 2}
    assert (count(s2, "San Marco", "A"), count(s2, "San Marco", "B"),
            count(s2, "San Marco", "C")) == (1, 0, 0)
    for p in "ABC":
        assert s2.reserve[seat_of(s2, p)] == s.reserve[seat_of(s, p)] + banished["removed"][p]


def test_limit_example_three_six_ten_twelve_extra_round_bonus_six_and_three():
    """'Nach einer Runde haben Anja 3, Bernd 6, Christian 10 und Daniela 12 Limitpunkte …
    Anja besitzt nun 6 und Bernd 9 … Anja erhält 6 Prestigepunkte (12-6=6) und darf
    zusätzlich die Aktion Verbannung ausführen. Bernd … erhält 3 Prestigepunkte (12-9=3).'"""
    s = position(4, limit={"A": [3], "B": [3, 3], "C": [3, 3, 2, 2], "D": [3, 3, 3, 3]},
                 districts={"Dorsoduro": {"A": 1, "B": 1}})
    s = in_play(s.evolve(starter=3, in_passage=(0, 1, 2, 3)), "D",
                [district_card("San Marco")])
    s, ev = apply(s, "D", decode("district:SM"))
    start = next(e for e in ev if e.type == "round_started")
    assert start["extra"] is True and s.in_passage == (0, 1)
    # the extra round: 2 players, one distributor, 5 action + 3 limit cards into 2 offers
    dist = s.players[s.columns[0].distributor]
    chooser = "B" if dist == "A" else "A"
    drawn = {dist: [district_card("Dorsoduro")] * 5 + ["limit:1", "limit:2", "limit:3"]}
    s = with_drawn(s, drawn)
    # offer 0 carries the 3 that brings A to 6; offer 1 the 1 + 2 that bring B to 9
    s, _ = apply(s, dist, Split((0, 0, 0, 0, 1, 1, 1, 0)))
    pick = 0 if chooser == "A" else 1
    s, ev = apply(s, chooser, TakeOffer(pick))
    while s.phase == "play":
        pid = s.waiting_for[0]
        s, more = apply(s, pid, legal_actions(s, pid)[0])
        ev += more
    scored = next(e for e in ev if e.type == "passage_scored")
    assert scored["limit"] == {"A": 6, "B": 9, "C": 10, "D": 12}
    assert scored["bonus"] == {"A": 6, "B": 3}
    assert scored["banisher"] == "A"
    assert s.phase == "banish" and s.waiting_for == ("A",)
    assert s.prestige[0] == 6 and s.prestige[1] == 3 and s.prestige[2] == 0
    s, ev = apply(s, "A", Banish("Santa Croce"))
    assert any(e.type == "passage_started" and e["passage"] == 2 for e in ev)
    assert s.passage == 2 and all(s.limit_total(i) == 0 for i in range(4))


def test_tie_for_fewest_limit_points_means_no_banishment():
    s = position(3, limit={"A": [2], "B": [2], "C": [3, 3, 3, 3]})
    s = in_play(s.evolve(starter=0, in_passage=(0, 1, 2)), "C", [district_card("San Marco")])
    s, ev = apply(s, "C", decode("district:SM"))
    # nobody under 10 but A and B → extra round, so not yet scored
    assert s.extra_round is True
    s = s.evolve(limit_cards=((2,), (2,), (3, 3, 3, 3)))
    s = in_play(s.evolve(extra_round=True, in_passage=(0, 1)), "A", [district_card("San Marco")])
    s, ev = apply(s, "A", decode("district:SM"))
    scored = next(e for e in ev if e.type == "passage_scored")
    assert scored["banisher"] is None
    assert s.passage == 2 and s.phase == "split"
