"""Which actions may be taken back (engine/undo.py): only those that drew nothing by
chance and revealed nothing hidden — no die roll, no card drawn or shuffled, no offers
revealed, no committed split (R5), no end of the game (its seed, R15)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Banish,
    ChooseBanished,
    Crossing,
    Doge,
    KeepRolls,
    PlaceAristocrat,
    PlaceBridge,
    Reroll,
    Split,
    Transfer,
    UndoBlock,
    apply,
    decode,
    is_undoable,
    legal_actions,
    new_game,
    undo_block,
)
from engine.cards import BANISHMENT, BRIDGE, DOGE, TRANSFER, district_card
from engine.undo import BLOCKING_EVENTS

from .helpers import fresh, in_play, position
from .test_rulings import _seed_with_four_equal_rolls


def _block(s, pid, action):  # type: ignore[no-untyped-def]
    after, events = apply(s, pid, action)
    return undo_block(s, action, after, events)


SM = district_card("San Marco")


def test_card_plays_that_leave_cards_to_play_may_be_taken_back() -> None:
    """An aristocrat, a bridge, a transfer, a Doge move with its route: yes."""
    s = position(3, districts={"Castello": {"B": 1}},
                 bridges=[("San Marco", "Castello", "B")], doge="San Marco")
    s = in_play(s, "A", [SM, BRIDGE, TRANSFER, DOGE])
    assert _block(s, "A", PlaceAristocrat("San Marco")) is None
    assert _block(s, "A", PlaceBridge("San Marco", "Cannaregio")) is None
    assert _block(s, "A", Transfer("Castello", "B")) is None
    route = Doge("Castello", (Crossing("San Marco", "Castello", "B"),))
    assert route in legal_actions(s, "A")
    assert _block(s, "A", route) is None


def test_the_choice_of_victims_may_be_taken_back_the_banishment_roll_not() -> None:
    """R10: the roll is chance (never), the choice of whom it hits is not (yes)."""
    s = position(3, districts={"San Marco": {"A": 2, "B": 2, "C": 2}})
    s = in_play(s, "A", [BANISHMENT, SM])
    for seed in range(200):
        trial = s.evolve(rng=seed)
        rolled, events = apply(trial, "A", Banish("San Marco"))
        if rolled.phase == "banish_victims":
            break
    assert undo_block(trial, Banish("San Marco"), rolled, events) is UndoBlock.ROLL
    victims = legal_actions(rolled, "A")[0]
    assert isinstance(victims, ChooseBanished)
    assert _block(rolled, "A", victims) is None


def test_a_committed_split_is_never_taken_back_r5() -> None:
    """R5: even when the other distributor has not split yet (nothing is revealed)."""
    s = fresh(4)
    d1 = s.players[s.columns[0].distributor]
    split = Split((0, 1, 0, 1, 0, 1, 0, 1))
    after, events = apply(s, d1, split)
    assert not any(e.type == "offers_revealed" for e in events)
    assert undo_block(s, split, after, events) is UndoBlock.SPLIT


def test_revealing_offers_blocks_the_take_back() -> None:
    """The second split reveals distributor I's offers."""
    s = fresh(4)
    d1, d2 = (s.players[c.distributor] for c in s.columns)
    s, _ = apply(s, d1, Split((0, 1, 0, 1, 0, 1, 0, 1)))
    after, events = apply(s, d2, Split((0, 0, 0, 0, 0, 0, 0, 1)))
    assert BLOCKING_EVENTS["offers_revealed"] is UndoBlock.REVEAL
    assert any(e.type == "offers_revealed" for e in events)
    assert undo_block(s, Split((0, 0, 0, 0, 0, 0, 0, 1)), after, events) is UndoBlock.SPLIT


def _taking(n: int = 4, seed: int = 1):  # type: ignore[no-untyped-def]
    """A game where decision-maker I chooses among distributor I's offers."""
    s = fresh(n, seed)
    for c in s.columns:
        d = s.players[c.distributor]
        s, _ = apply(s, d, legal_actions(s, d)[0])
    assert s.phase == "choose"
    return s


def test_taking_an_offer_before_its_first_card_may_be_taken_back() -> None:
    s = _taking(4)
    dm = s.waiting_for[0]
    for take in legal_actions(s, dm):
        after, events = apply(s, dm, take)
        if after.phase == "play" and after.waiting_for == (dm,):
            assert undo_block(s, take, after, events) is None
            return
    raise AssertionError("no offer with a card to play")


def test_a_move_that_reveals_the_next_offers_is_not_taken_back() -> None:
    """Distributor I's last card of column I reveals distributor II's offers (R5)."""
    rng = random.Random(2)
    s = fresh(4)
    while not s.finished:
        pid = s.waiting_for[0]
        action = rng.choice(legal_actions(s, pid))
        after, events = apply(s, pid, action)
        if not isinstance(action, Split) and any(e.type == "offers_revealed" for e in events):
            assert undo_block(s, action, after, events) is UndoBlock.REVEAL
            return
        s = after
    raise AssertionError("no move revealed offers")


def test_the_last_card_of_a_round_is_not_taken_back_cards_are_drawn() -> None:
    s = in_play(position(3), "A", [SM])  # nothing follows in this round
    after, events = apply(s, "A", PlaceAristocrat("San Marco"))
    assert any(e.type == "round_started" for e in events)
    assert undo_block(s, PlaceAristocrat("San Marco"), after, events) is UndoBlock.DRAW


def test_set_up_rolls_a_reroll_is_chance_keeping_is_not() -> None:
    """R3."""
    _, s = _seed_with_four_equal_rolls()
    pid = s.waiting_for[0]
    assert _block(s, pid, Reroll()) is UndoBlock.ROLL
    assert _block(s, pid, KeepRolls()) is None


def test_a_set_up_bridge_yes_the_last_one_no_it_starts_the_first_round() -> None:
    s = new_game(["a", "b", "c"], 5)
    while s.phase == "setup_reroll":
        s, _ = apply(s, s.waiting_for[0], KeepRolls())
    blocks = []
    while s.phase == "setup_bridges":
        pid = s.waiting_for[0]
        action = legal_actions(s, pid)[0]
        after, events = apply(s, pid, action)
        blocks.append(undo_block(s, action, after, events))
        s = after
    assert blocks[:-1] == [None] * 5 and blocks[-1] is UndoBlock.DRAW


def test_the_move_that_ends_the_game_is_not_taken_back_it_reveals_the_seed() -> None:
    rng = random.Random(3)
    s = new_game(["a", "b", "c"], 3)
    while True:
        pid = s.waiting_for[0]
        action = rng.choice(legal_actions(s, pid))
        after, events = apply(s, pid, action)
        if after.finished:
            assert undo_block(s, action, after, events) in (UndoBlock.END, UndoBlock.SPLIT)
            assert any(e.type == "game_over" for e in events)
            return
        s = after


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([3, 4]))
def test_an_action_that_may_be_taken_back_used_no_chance_and_revealed_nothing(
        seed: int, players: int) -> None:
    """Whole random games: whenever the rule says yes, the game's random numbers did not
    move, no hidden card became known and it was no split; whenever the random numbers
    moved, the rule says no. And taking back gives exactly the state before."""
    rng = random.Random(seed)
    s = new_game([f"p{i}" for i in range(players)], seed)
    yes = 0
    while not s.finished:
        pid = rng.choice(s.waiting_for)
        action = rng.choice(legal_actions(s, pid))
        after, events = apply(s, pid, action)
        block = undo_block(s, action, after, events)
        if block is None:
            yes += 1
            assert is_undoable(s, action, after, events)
            assert after.rng == s.rng and not isinstance(action, Split)
            assert not {e.type for e in events} & set(BLOCKING_EVENTS)
            assert all(e.visible_to is None for e in events)
            # the decision is the same player's again, with the same choices
            assert pid in s.waiting_for and legal_actions(s, pid)
        if after.rng != s.rng:
            assert block is not None
        s = after
    assert yes > 0


def test_undo_block_is_told_by_decode_round_trip_values_too() -> None:
    """The service decodes the log's text: a decoded action is judged the same."""
    s = in_play(position(3), "A", [SM, SM])
    action = decode(PlaceAristocrat("San Marco").encode())
    assert _block(s, "A", action) is None
