"""One test per ruling R1-R17 of RULES.md, each named after it."""

import itertools

import pytest

from engine import (
    Banish,
    ChooseBanished,
    Crossing,
    DeclineBanishment,
    DiscardCard,
    Doge,
    GameState,
    IllegalAction,
    KeepRolls,
    PlaceAristocrat,
    PlaceBridge,
    Reroll,
    Split,
    TakeOverBridge,
    Transfer,
    apply,
    decode,
    legal_actions,
    new_game,
    public_events,
)
from engine.board import BY_NAME, DISTRICT_NAMES, DISTRICTS, NEIGHBOURS, PAIRS
from engine.cards import BANISHMENT, BRIDGE, DOGE, TRANSFER, district_card
from engine.describe import describe
from engine.rules import options
from engine.state import Banishment

from .helpers import count, fresh, in_play, position, seat_of, with_drawn


def test_r1_board_values_live_in_one_table():
    """R1: San Marco 8/6 on die 1, Castello on die 6; ten canals; one table."""
    assert BY_NAME["San Marco"].die == 1
    assert (BY_NAME["San Marco"].first, BY_NAME["San Marco"].second) == (8, 6)
    assert BY_NAME["Castello"].die == 6
    assert sorted(d.die for d in DISTRICTS) == [1, 2, 3, 4, 5, 6]
    assert len(PAIRS) == 10
    assert set(NEIGHBOURS["San Marco"]) == {"Cannaregio", "Castello", "San Polo", "Dorsoduro"}
    assert "Santa Croce" not in NEIGHBOURS["Castello"]


def test_r2_bridges_only_on_canals_at_most_three_per_pair_one_per_owner():
    """R2: a pair with 3 bridges, or with one of the player's own, is not offered."""
    s = position(4, bridges=[("San Marco", "Castello", "B"), ("San Marco", "Castello", "C"),
                             ("San Marco", "Castello", "D"), ("San Marco", "Dorsoduro", "A")])
    s = in_play(s, "A", [BRIDGE])
    pairs = {(a.a, a.b) for a in legal_actions(s, "A")}
    assert ("San Marco", "Castello") not in pairs  # full
    assert ("San Marco", "Dorsoduro") not in pairs  # A owns one there
    assert ("San Marco", "Cannaregio") in pairs
    for bad in ("bridge:SM-CS", "bridge:SM-DD", "bridge:CS-SC"):  # CS-SC is no canal
        with pytest.raises(IllegalAction) as e:
            apply(s, "A", decode(bad))
        assert e.value.code == "action.illegal"


def _seed_with_four_equal_rolls() -> tuple[int, GameState]:
    for seed in range(20000):
        s = new_game(["a", "b", "c"], seed)
        if s.phase == "setup_reroll":
            return seed, s
    raise AssertionError("no seed with four equal rolls")


def test_r3_four_equal_rolls_may_be_kept_or_rerolled_before_bridges():
    """R3: the player chooses; a reroll changes the fourth roll until it differs."""
    _, s = _seed_with_four_equal_rolls()
    pid = s.waiting_for[0]
    seat = seat_of(s, pid)
    assert len(set(s.setup_rolls[seat])) == 1
    assert set(legal_actions(s, pid)) == {KeepRolls(), Reroll()}
    kept, _ = apply(s, pid, KeepRolls())
    assert kept.setup_rolls[seat] == s.setup_rolls[seat]
    rerolled, events = apply(s, pid, Reroll())
    rolls = rerolled.setup_rolls[seat]
    assert rolls[:3] == s.setup_rolls[seat][:3] and rolls[3] != rolls[0]
    assert sum(r[seat] for r in rerolled.districts) == 8
    assert any(e.type == "setup_rerolled" for e in events)


def test_r4_three_players_place_two_bridges_in_two_passes():
    """R4: 1,2,3,1,2,3 with three players; one pass with four."""
    for n, expected in ((3, [0, 1, 2, 0, 1, 2]), (4, [0, 1, 2, 3])):
        s = new_game([f"p{i}" for i in range(n)], 5)
        while s.phase == "setup_reroll":
            s, _ = apply(s, s.waiting_for[0], KeepRolls())
        order = []
        while s.phase == "setup_bridges":
            pid = s.waiting_for[0]
            order.append(s.players.index(pid))
            s, _ = apply(s, pid, legal_actions(s, pid)[0])
        assert order == expected
        assert len(s.bridges) == len(expected)


def test_r5_offers_are_revealed_only_when_both_splits_are_committed():
    """R5: distributor I's offers stay hidden until distributor II has committed too."""
    s = fresh(4)
    d1, d2 = (s.players[c.distributor] for c in s.columns)
    assert set(s.waiting_for) == {d1, d2}
    s1, ev = apply(s, d1, Split((0, 1, 0, 1, 0, 1, 0, 1)))
    assert s1.public_view()["offers"] == []
    assert s1.waiting_for == (d2,)
    with pytest.raises(IllegalAction) as e:  # a committed split cannot be changed
        apply(s1, d1, Split((1, 0, 0, 0, 0, 0, 0, 0)))
    assert e.value.code == "action.not_your_turn"
    s2, ev = apply(s1, d2, Split((0, 0, 0, 0, 0, 0, 0, 1)))
    view = s2.public_view()
    assert [o["distributor"] for o in view["offers"]] == [d1]  # only column I
    assert any(e.type == "offers_revealed" and e["distributor"] == d1 for e in ev)
    assert not any(e.type == "offers_revealed" and e["distributor"] == d2 for e in ev)


def test_r6_extra_round_starter_is_next_clockwise_still_in_the_passage():
    """R6: after a round with starter A where B and C went out, the extra round's starter
    is D (next clockwise after A still in), and roles are drawn among A and D only."""
    s = position(4, limit={"A": [3], "B": [3, 3, 3, 1], "C": [3, 3, 3, 3], "D": [2]})
    s = in_play(s.evolve(starter=0, in_passage=(0, 1, 2, 3)), "A", [district_card("San Marco")])
    s, events = apply(s, "A", decode("district:SM"))
    started = [e for e in events if e.type == "round_started"][-1]
    assert started["extra"] is True
    assert started["starter"] == "D"
    assert started["roles"] == [{"distributor": "D", "decision_makers": ["A"]}]
    assert {e["player"] for e in events if e.type == "player_out"} == {"B", "C"}


def test_r7_a_card_with_no_legal_effect_is_discarded_and_logged():
    """R7: a transfer with no opposing aristocrat anywhere can only be discarded; the player
    may not discard a card that has an effect."""
    s = position(3, districts={"San Marco": {"A": 3}})
    s = in_play(s, "A", [TRANSFER, district_card("San Marco")])
    acts = legal_actions(s, "A")
    assert DiscardCard(TRANSFER) in acts
    assert DiscardCard(district_card("San Marco")) not in acts
    with pytest.raises(IllegalAction):
        apply(s, "A", DiscardCard(district_card("San Marco")))
    # when only cards without effect are left they go by themselves, and the log says so
    s2, events = apply(s, "A", decode("district:SM"))
    discarded = [e for e in events if e.type == "card_discarded"]
    assert discarded and discarded[0]["card"] == TRANSFER
    assert discarded[0]["reason"] == "no legal effect"


def test_r8_empty_action_deck_is_refilled_from_discards_limit_deck_never():
    """R8: the discards become the action deck; limit cards simply run out."""
    s = position(4, limit={"A": [1], "B": [1], "C": [1], "D": [1]})
    s = s.evolve(action_deck=(), action_discard=tuple([district_card("Castello")] * 5
                                                      + [TRANSFER] * 7),
                 limit_deck=("limit:2",))
    s = in_play(s.evolve(starter=0, in_passage=(0, 1, 2, 3)), "A", [district_card("San Marco")])
    s2, events = apply(s, "A", decode("district:SM"))
    assert any(e.type == "action_deck_reshuffled" for e in events)
    drawn = [c for col in s2.columns for c in col.drawn]
    assert sum(1 for c in drawn if not c.startswith("limit")) == 10
    assert [c for c in drawn if c.startswith("limit")] == ["limit:2"]
    # 12 discards + the card just played, less 10 drawn
    assert s2.public_view()["deck"] == {"action": 3, "limit": 0}


def test_r9_take_over_only_where_the_result_obeys_r2():
    """R9: with all 12 out, taking over on a pair where A already owns one is legal only
    when the bridge is moved to a pair where A owns none and that has room."""
    bridges = [("San Marco", "Cannaregio", "A"), ("San Marco", "Cannaregio", "B"),
               ("San Marco", "Castello", "B"), ("San Marco", "Castello", "C"),
               ("San Marco", "Castello", "D"), ("San Marco", "San Polo", "B"),
               ("San Marco", "San Polo", "C"), ("San Marco", "San Polo", "D"),
               ("San Marco", "Dorsoduro", "B"), ("San Marco", "Dorsoduro", "C"),
               ("San Marco", "Dorsoduro", "D"), ("Cannaregio", "Castello", "C")]
    s = in_play(position(4, bridges=bridges), "A", [BRIDGE])
    acts = legal_actions(s, "A")
    assert acts and all(isinstance(a, TakeOverBridge) for a in acts)
    assert TakeOverBridge("San Marco", "Cannaregio", "B", "San Marco", "Cannaregio") not in acts
    assert TakeOverBridge("San Marco", "Cannaregio", "B", "Cannaregio", "Castello") in acts
    assert TakeOverBridge("San Marco", "Castello", "B", "San Marco", "Castello") in acts
    # moving onto a full pair breaks R2
    assert TakeOverBridge("Cannaregio", "Castello", "C", "San Marco", "Dorsoduro") not in acts
    s2, _ = apply(s, "A", TakeOverBridge("San Marco", "Castello", "B", "San Marco", "Castello"))
    assert s2.reserve[seat_of(s2, "B")] == s.reserve[seat_of(s, "B")] + 1
    assert s2.reserve[seat_of(s2, "A")] == s.reserve[seat_of(s, "A")] - 1
    assert len(s2.bridges) == 12


def test_r10_banisher_chooses_which_opponents_lose_and_own_go_last():
    """R10: roll 3 against B 2 and C 2: A chooses; the rest of a big roll hits A's own."""
    s = position(3, districts={"San Marco": {"A": 2, "B": 2, "C": 2}})
    s = in_play(s, "A", [BANISHMENT])
    for seed in range(200):  # find an RNG position that rolls a 3
        trial = s.evolve(rng=seed)
        s2, ev = apply(trial, "A", Banish("San Marco"))
        roll = next(e["roll"] for e in ev if e.type == "banishment_rolled")
        if roll == 3:
            break
    assert s2.phase == "banish_victims" and s2.waiting_for == ("A",)
    choices = legal_actions(s2, "A")
    assert set(choices) == {ChooseBanished((("B", 2), ("C", 1))),
                            ChooseBanished((("B", 1), ("C", 2)))}
    s3, ev = apply(s2, "A", ChooseBanished((("B", 2), ("C", 1))))
    assert (count(s3, "San Marco", "A"), count(s3, "San Marco", "B"),
            count(s3, "San Marco", "C")) == (2, 0, 1)
    assert [e["removed"] for e in ev if e.type == "banished"] == [{"B": 2, "C": 1}]


def test_r11_doge_player_chooses_the_route_and_so_whom_to_pay():
    """R11: two bridges on one pair, owned by B and C: the route decides who is paid."""
    s = position(4, doge="San Marco", bridges=[("San Marco", "Castello", "B"),
                                                ("San Marco", "Castello", "C")])
    s = in_play(s, "A", [DOGE])
    via_b = Doge("Castello", (Crossing("San Marco", "Castello", "B"),))
    via_c = Doge("Castello", (Crossing("San Marco", "Castello", "C"),))
    assert via_b in legal_actions(s, "A") and via_c in legal_actions(s, "A")
    s2, ev = apply(s, "A", via_c)
    assert [(e["owner"], e["amount"]) for e in ev if e.type == "toll_paid"] == [("C", 1)]
    assert s2.prestige[seat_of(s2, "C")] == 1 and s2.prestige[seat_of(s2, "A")] == -1


def test_r12_prestige_may_go_below_zero():
    """R12: the 2-point canal crossing from a bridgeless district with 0 prestige → -2."""
    s = position(3, doge="Santa Croce", districts={"Cannaregio": {"B": 1}})
    s = in_play(s, "A", [DOGE])
    canal = Doge("Cannaregio", (Crossing("Santa Croce", "Cannaregio", None),))
    assert canal in legal_actions(s, "A")
    s2, ev = apply(s, "A", canal)
    assert s2.prestige[seat_of(s2, "A")] == -2
    assert [e["cost"] for e in ev if e.type == "canal_crossed"] == [2]


def test_r13_empty_reserve_takes_an_own_aristocrat_from_a_district_never_a_bridge():
    """R13: with an empty reserve every placing action names a district to take from."""
    s = position(3, districts={"San Polo": {"A": 23}, "Dorsoduro": {"A": 1}},
                 bridges=[("San Marco", "Castello", "A")], reserve={"A": 0})
    s = in_play(s, "A", [district_card("San Marco")])
    acts = set(legal_actions(s, "A"))
    assert acts == {PlaceAristocrat("San Marco", None, "San Polo"),
                    PlaceAristocrat("San Marco", None, "Dorsoduro"),
                    PlaceAristocrat("San Marco", "Castello", "San Polo"),
                    PlaceAristocrat("San Marco", "Castello", "Dorsoduro")}
    with pytest.raises(IllegalAction):
        apply(s, "A", PlaceAristocrat("San Marco"))  # the reserve is empty
    s2, _ = apply(s, "A", PlaceAristocrat("San Marco", None, "Dorsoduro"))
    assert count(s2, "Dorsoduro", "A") == 0 and count(s2, "San Marco", "A") == 1
    assert len(s2.bridges) == 1


def test_r13_district_card_never_takes_from_the_district_where_it_ends_up():
    """R13: "replace them elsewhere": with an empty reserve, district:SM/from:SM (a no-op
    that skipped the card) is not legal; over a bridge the aristocrat ends in the
    neighbouring district, so then the card's own district is a source."""
    s = position(3, districts={"San Marco": {"A": 20}, "Castello": {"A": 4}},
                 bridges=[("San Marco", "Castello", "A")], reserve={"A": 0})
    s = in_play(s, "A", [district_card("San Marco")])
    assert set(legal_actions(s, "A")) == {PlaceAristocrat("San Marco", None, "Castello"),
                                          PlaceAristocrat("San Marco", "Castello", "San Marco")}
    with pytest.raises(IllegalAction) as e:
        apply(s, "A", decode("district:SM/from:SM"))
    assert e.value.code == "action.illegal"
    s2, _ = apply(s, "A", decode("district:SM>CS/from:SM"))
    assert count(s2, "San Marco", "A") == 19 and count(s2, "Castello", "A") == 5


def test_r13_district_card_with_no_source_elsewhere_has_no_legal_effect():
    """R13 + R7: every own aristocrat stands in the card's district and no own bridge leads
    away: there is no legal source, so the card can only be discarded."""
    s = position(3, districts={"San Marco": {"A": 24}}, bridges=[("Cannaregio", "Castello", "A")],
                 reserve={"A": 0})
    s = in_play(s, "A", [district_card("San Marco"), TRANSFER])
    assert DiscardCard(district_card("San Marco")) in legal_actions(s, "A")
    assert not any(isinstance(a, PlaceAristocrat) for a in legal_actions(s, "A"))


def test_r13_transfer_never_takes_from_the_transfer_district():
    """R13: transfer:CS@B/from:CS removed B's aristocrat without adding one of A's own; the
    replacement must come from another district."""
    s = position(3, districts={"Castello": {"A": 20, "B": 2}, "San Marco": {"A": 4, "B": 1}},
                 reserve={"A": 0})
    s = in_play(s, "A", [TRANSFER])
    assert set(legal_actions(s, "A")) == {Transfer("Castello", "B", "San Marco"),
                                          Transfer("San Marco", "B", "Castello")}
    with pytest.raises(IllegalAction):
        apply(s, "A", decode("transfer:CS@B/from:CS"))
    s2, _ = apply(s, "A", decode("transfer:CS@B/from:SM"))
    assert (count(s2, "Castello", "A"), count(s2, "Castello", "B")) == (21, 1)
    assert count(s2, "San Marco", "A") == 3
    # all of A's aristocrats in the only district with an opponent: no legal effect (R7)
    alone = position(3, districts={"Castello": {"A": 25, "B": 2}}, reserve={"A": 0})
    alone = in_play(alone, "A", [TRANSFER])
    assert legal_actions(alone, "A") == (DiscardCard(TRANSFER),)


def test_r13_bridge_card_takes_from_any_district_even_one_it_joins():
    """R13: a bridge's aristocrat ends on the bridge, never in a district, so every district
    holding one of the player's own is a source, the bridge's own ends included."""
    s = position(3, districts={"San Marco": {"A": 25}}, reserve={"A": 0})
    s = in_play(s, "A", [BRIDGE])
    acts = legal_actions(s, "A")
    assert PlaceBridge("San Marco", "Cannaregio", "San Marco") in acts
    assert {a.source for a in acts} == {"San Marco"} and len(acts) == len(PAIRS)
    s2, _ = apply(s, "A", PlaceBridge("San Marco", "Cannaregio", "San Marco"))
    assert count(s2, "San Marco", "A") == 24 and len(s2.bridges) == 1
    full = [(a, b, o) for (a, b), o in zip(PAIRS, "BCBCBCBCBC", strict=True)]
    full += [("San Marco", "Castello", "B"), ("Santa Croce", "Dorsoduro", "C")]  # R2 holds
    t = in_play(position(3, districts={"San Marco": {"A": 25}}, bridges=full,
                         reserve={"A": 0}), "A", [BRIDGE])
    takeovers = legal_actions(t, "A")
    assert takeovers and all(isinstance(a, TakeOverBridge) and a.source == "San Marco"
                             for a in takeovers)


def test_r14_tie_on_prestige_goes_to_san_marco_then_shared():
    """R14: most aristocrats in San Marco among the tied; still tied, they share the win."""
    from engine.rules.scoring import winners

    assert winners([10, 10, 3], [1, 2, 5]) == [1]
    assert winners([10, 10, 3], [2, 2, 5]) == [0, 1]
    assert winners([4, 10, 10, 10], [9, 0, 1, 0]) == [2]


def test_r15_nothing_secret_in_public_view_or_public_events():
    """R15: drawn cards, splits, deck order and the seed stay out of the public view and
    public events until revealed; the owner's private view has them."""
    s = new_game(["111", "222", "333", "444"], 987654321)
    events_all = []
    while s.phase in ("setup_reroll", "setup_bridges"):
        pid = s.waiting_for[0]
        s, ev = apply(s, pid, legal_actions(s, pid)[0])
        events_all += ev
    d1 = s.players[s.columns[0].distributor]
    secret = s.columns[0].drawn
    view = s.public_view()
    text = str(view)
    assert "987654321" not in text and "seed" not in view and "rng" not in view
    assert "private" not in view and view["offers"] == []
    assert s.private_view(d1)["private"]["drawn"] == list(secret)
    other = next(p for p in s.players if p not in s.waiting_for)
    assert s.private_view(other)["private"] == {}
    s2, ev = apply(s, d1, Split(tuple([0] * (len(secret) - 1) + [1])))
    for e in public_events(ev + tuple(events_all)):
        assert "cards" not in e.data or e.type != "cards_drawn"
    assert all(e.visible_to == (d1,) for e in ev if e.type == "cards_drawn")
    assert str(s2.public_view()).count("limit:") == 0  # no card of a hidden split


def test_split_must_cover_every_card_and_leave_no_offer_empty():
    s = fresh(3)
    d = s.waiting_for[0]
    n = len(s.columns[0].drawn)
    for bad in ([0] * n, [0, 1] + [0] * (n - 2), [0, 1, 2]):
        with pytest.raises(IllegalAction):
            apply(s, d, Split(tuple(bad)))
    acts = legal_actions(s, d)
    assert len(acts) == 3 ** n - 3 * 2 ** n + 3  # every labelled split into 3 non-empty
    assert all(isinstance(a, Split) for a in itertools.islice(acts, 100))


def test_with_drawn_helper_sets_known_cards():
    s = with_drawn(fresh(3), {})
    assert s.columns


def test_place_bridge_card_uses_an_aristocrat():
    s = in_play(position(3), "A", [BRIDGE])
    s2, ev = apply(s, "A", PlaceBridge("San Marco", "Cannaregio"))
    assert s2.reserve[0] == s.reserve[0] - 1
    assert [e.type for e in ev][:2] == ["card_played", "bridge_built"]


def test_transfer_returns_the_victim_to_its_reserve():
    s = in_play(position(3, districts={"Castello": {"B": 2}}), "A", [TRANSFER])
    s2, _ = apply(s, "A", Transfer("Castello", "B"))
    assert count(s2, "Castello", "B") == 1 and count(s2, "Castello", "A") == 1
    assert s2.reserve[seat_of(s2, "B")] == s.reserve[seat_of(s, "B")] + 1


def test_evolved_state_does_not_reuse_the_old_states_legal_actions_or_view():
    """GameState.evolve makes a new value: its legal actions and public view are its own,
    not the cached answers of the state it was made from."""
    s = position(3)
    bridge_hand = in_play(s, "A", [BRIDGE])
    assert all(isinstance(a, PlaceBridge) for a in legal_actions(bridge_hand, "A"))
    assert bridge_hand.public_view()["hand"]["cards"] == [BRIDGE]
    district_hand = bridge_hand.evolve(hand=(district_card("Castello"),))
    assert set(legal_actions(district_hand, "A")) == {PlaceAristocrat("Castello")}
    assert district_hand.public_view()["hand"]["cards"] == [district_card("Castello")]


def _passage_banishment(n: int = 3, **kw) -> GameState:
    """The passage's banishment awaited from A, the single lowest player (§7)."""
    s = position(n, **kw)
    return s.evolve(phase="banish", banishment=Banishment(0, None, None, "passage"),
                    columns=(), steps=(), hand=(), hand_player=None, starter=0,
                    in_passage=tuple(range(n)))


def test_r16_the_lowest_player_may_decline_the_passage_banishment():
    """R16: "darf" / "is allowed to" / "a le droit": a right, not a duty. Declining is
    logged and the passage goes on as after a banishment."""
    s = _passage_banishment(3, districts={"San Marco": {"A": 2, "B": 3}})
    acts = legal_actions(s, "A")
    assert acts == (*(Banish(n) for n in DISTRICT_NAMES), DeclineBanishment())
    assert decode("banish:none") == DeclineBanishment()
    assert DeclineBanishment().encode() == "banish:none"
    assert describe(DeclineBanishment()) == "No banishment"
    s2, ev = apply(s, "A", DeclineBanishment())
    assert [e.type for e in ev][:2] == ["banishment_declined", "passage_started"]
    assert ev[0].to_dict() == {"type": "banishment_declined", "player": "A", "passage": 1}
    assert s2.passage == 2 and s2.phase == "split" and s2.banishment is None
    assert s2.districts == s.districts  # nobody lost an aristocrat
    assert not any(e.type in ("banishment_rolled", "banished") for e in ev)


def test_r16_declining_after_the_third_passage_goes_on_to_the_final_scoring():
    """R16: after the third passage, a declined banishment still leads to the final
    scoring (§8)."""
    s = _passage_banishment(3, districts={"San Marco": {"B": 1}}).evolve(passage=3)
    s2, ev = apply(s, "A", DeclineBanishment())
    assert s2.finished and [e.type for e in ev][-1] == "game_over"


def test_r16_a_banishment_card_cannot_be_declined():
    """R16 is about the passage's banishment only: a banishment card must be played (R7)."""
    s = in_play(position(3, districts={"San Marco": {"B": 1}}), "A", [BANISHMENT])
    assert DeclineBanishment() not in legal_actions(s, "A")
    with pytest.raises(IllegalAction) as e:
        apply(s, "A", DeclineBanishment())
    assert e.value.code == "action.illegal"
    assert DeclineBanishment() not in options.banish_options()


def test_r16_the_normal_computer_declines_only_when_every_banishment_hurts_it():
    """R16: the normal computer player declines when each district's banishment is worth
    less to it than doing nothing (its own aristocrats are the only ones there)."""
    from engine.ai import choose_action

    only_own = {name: {"A": 2} for name in DISTRICT_NAMES}
    s = _passage_banishment(3, districts=only_own)
    assert choose_action(s, "A", seed=0) == DeclineBanishment()
    rivals = {"San Marco": {"A": 1, "B": 4, "C": 3}, "Castello": {"A": 3}}
    s = _passage_banishment(3, districts=rivals)
    assert choose_action(s, "A", seed=0) == Banish("San Marco")


def test_r17_doge_routes_never_enter_a_district_twice():
    """R17: no loops and no return to the start: with bridges SM-CN, CN-CS, CS-SM the Doge
    from San Marco reaches Castello directly or via Cannaregio, never back to San Marco."""
    s = position(3, doge="San Marco", bridges=[("San Marco", "Cannaregio", "B"),
                                                ("Cannaregio", "Castello", "B"),
                                                ("San Marco", "Castello", "B")])
    s = in_play(s, "A", [DOGE])
    routes = [a for a in legal_actions(s, "A") if isinstance(a, Doge)]
    for a in routes:
        visited = [a.route[0].a, *(c.b for c in a.route)] if a.route else []
        assert len(visited) == len(set(visited)), a.encode()
    targets = {(a.target, len(a.route)) for a in routes}
    assert targets == {("San Marco", 0), ("Cannaregio", 1), ("Castello", 2),
                       ("Castello", 1), ("Cannaregio", 2)}
    with pytest.raises(IllegalAction):
        apply(s, "A", decode("doge:SM/via:SM-CN@B,CN-CS@B,CS-SM@B"))  # back to the start
    with pytest.raises(IllegalAction):
        apply(s, "A", decode("doge:CN/via:SM-CN@B,CN-CS@B,CS-CN@B"))  # Cannaregio twice
