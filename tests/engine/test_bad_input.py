"""Bad input of every kind raises an ActionError with a stable code and changes nothing.

Parse errors (MalformedAction, ``action.malformed``) are separate from rule refusals
(IllegalAction, every other code), as python-chess's InvalidMoveError / IllegalMoveError.
"""

import dataclasses

import pytest

from engine import (
    ERROR_CODES,
    Action,
    ActionError,
    ChooseBanished,
    Crossing,
    DiscardCard,
    Doge,
    GameState,
    IllegalAction,
    InvalidState,
    MalformedAction,
    PlaceAristocrat,
    Split,
    TakeOffer,
    Transfer,
    apply,
    decode,
    legal_actions,
)
from engine.cards import TRANSFER, district_card

from .helpers import fresh, in_play, position


def refused(state, pid, action, code, **kw):
    before = state.to_json()
    with pytest.raises(ActionError) as exc:
        apply(state, pid, action, **kw)
    assert exc.value.code == code
    assert code in ERROR_CODES
    assert exc.value.message and "Traceback" not in exc.value.message
    assert all(isinstance(v, str | int) for v in exc.value.params.values())
    assert state.to_json() == before
    return exc.value


def test_parse_errors_are_not_rule_refusals():
    """MalformedAction is no longer an IllegalAction: a caller can tell "that is not an
    action" from "the rules do not allow it"."""
    assert not issubclass(MalformedAction, IllegalAction)
    assert issubclass(MalformedAction, ActionError) and issubclass(IllegalAction, ActionError)
    assert MalformedAction("x").code == "action.malformed"


def test_a_player_not_in_the_game():
    s = fresh(4)
    split = legal_actions(s, s.waiting_for[0])[0]
    refused(s, "Z", split, "action.unknown_player")
    refused(s, 12345, split, "action.unknown_player")


def test_a_seated_player_who_is_not_awaited():
    s = fresh(4)
    idle = next(p for p in s.players if p not in s.waiting_for)
    refused(s, idle, Split((0, 1, 0, 1, 0, 1, 0, 1)), "action.not_your_turn")


def test_the_wrong_phase_names_the_phase_as_a_param():
    s = fresh(4)
    e = refused(s, s.waiting_for[0], TakeOffer(0), "action.wrong_phase")
    assert dict(e.params) == {"phase": "split"}
    refused(s, s.waiting_for[0], decode("doge:SM"), "action.wrong_phase")


@pytest.mark.parametrize("text", ["", "nonsense", "split:0193", "take:x", "take:12",
                                  "district:XX", "transfer:SM@", "doge:SM/via:SM-CN",
                                  "victims:a=b", "discard:joker", "bridge:SM", "x" * 1000,
                                  "takeover:SM-CN@1", "keep:now", "banish:nowhere",
                                  "doge:SP/via:SM-CN@A\n,CN-SP@B"])
def test_malformed_text(text):
    s = fresh(4)
    with pytest.raises(MalformedAction):
        decode(text)
    refused(s, s.waiting_for[0], text, "action.malformed")  # text is never an action


@pytest.mark.parametrize("text", ["keep", "take:1", "split:0101", "district:SM"])
def test_apply_takes_action_values_not_text(text):
    """Text is parsed only by decode (where a person types it): apply refuses even the
    text of a legal action."""
    s = fresh(4)
    refused(s, s.waiting_for[0], text, "action.malformed")


def test_not_an_action_object():
    s = fresh(4)
    refused(s, s.waiting_for[0], 42, "action.malformed")
    refused(s, s.waiting_for[0], None, "action.malformed")
    refused(s, s.waiting_for[0], Action(), "action.malformed")


@pytest.mark.parametrize("action", [
    Split((True, False, True, False, True, False, True, False)),
    Split((0, 1, 0, 1, 0, 1, 0, 1.0)),
    Split([0, 1, 0, 1, 0, 1, 0, 1]),
    TakeOffer(True),
    TakeOffer(1.0),
    TakeOffer("1"),
    PlaceAristocrat("Atlantis"),
    PlaceAristocrat("San Marco", "Atlantis"),
    Transfer("Castello", 3),
    Transfer("Castello", "B", "SM"),
    Doge("San Marco", ("SM-CN@B",)),
    Doge("Castello", (Crossing("San Marco", "Castello", 7),)),
    ChooseBanished((("B", True),)),
    DiscardCard(3),
])
def test_action_values_with_wrong_field_types_are_malformed(action):
    """An Action whose fields have the wrong types or values is malformed, whatever the
    phase: its text would not decode back to it, so a stored log could not replay."""
    s = fresh(4)
    refused(s, s.waiting_for[0], action, "action.malformed")


def test_split_of_booleans_is_malformed_bug():
    """Regression: Split((True, False, ...)) equals a legal split by value, was applied and
    stored, and its text "split:TrueFalse..." bricked the game's replay."""
    s = fresh(4)
    d = s.waiting_for[0]
    legal = Split((1, 0, 1, 0, 1, 0, 1, 0))
    bools = Split(tuple(bool(i) for i in legal.assignment))
    assert bools == legal  # equal by value, so a membership test alone lets it in
    refused(s, d, bools, "action.malformed")
    s2, _ = apply(s, d, legal)
    assert s2.version == s.version + 1


def test_a_split_of_the_wrong_shape_has_its_own_code():
    s = fresh(3)
    d = s.waiting_for[0]
    n = len(s.columns[0].drawn)
    for bad in ([0] * n, [0, 1] + [0] * (n - 2), [0, 1, 2]):
        e = refused(s, d, Split(tuple(bad)), "action.split_shape")
        assert dict(e.params) == {"cards": n, "offers": 3}  # public counts, no card (R15)


def test_foreign_values_are_refused():
    s = in_play(position(3, districts={"Castello": {"B": 2}}), "A", [TRANSFER])
    refused(s, "A", Transfer("Castello", "nobody"), "action.illegal")
    refused(s, "A", Transfer("Castello", "A"), "action.illegal")  # one's own aristocrat
    e = refused(s, "A", Transfer("San Marco", "B"), "action.illegal")  # B has none there
    assert e.params["move"] == "Replace one of B's aristocrats in San Marco with yours"
    refused(s, "A", Split((0, 1)), "action.wrong_phase")


def test_a_card_not_in_the_hand_has_its_own_code():
    s = in_play(position(3, districts={"Castello": {"B": 2}}), "A", [TRANSFER])
    e = refused(s, "A", decode("district:SM"), "action.no_such_card")
    assert dict(e.params) == {"card": district_card("San Marco")}


def test_discarding_a_card_with_a_legal_effect_has_its_own_code():
    """R7: a card that has a legal effect may not be skipped."""
    s = in_play(position(3, districts={"Castello": {"B": 2}}), "A", [TRANSFER])
    e = refused(s, "A", DiscardCard(TRANSFER), "action.must_play")
    assert dict(e.params) == {"card": TRANSFER}


def test_an_action_from_another_state_is_refused():
    s = fresh(3)
    d = s.waiting_for[0]
    n = len(s.columns[0].drawn)
    s2, _ = apply(s, d, Split(tuple([0, 1, 2] + [0] * (n - 3))))
    chooser = s2.waiting_for[0]
    s3, _ = apply(s2, chooser, TakeOffer(1))
    # offer 1 is gone: the old button's action is refused
    while s3.phase == "play":
        pid = s3.waiting_for[0]
        s3, _ = apply(s3, pid, legal_actions(s3, pid)[0])
    if s3.phase == "choose":
        refused(s3, s3.waiting_for[0], TakeOffer(1), "action.illegal")
    refused(s2, chooser, TakeOffer(0), "state.stale", expected_version=s.version)


def test_a_finished_game_takes_nothing():
    s = fresh(3).evolve(phase="game_over", winners=(0,))
    refused(s, "A", decode("keep"), "game.over")


def test_every_error_code_is_raised_somewhere_and_listed():
    """ERROR_CODES is exactly the set of codes apply can raise (a bot test walks it to check
    each code has a sentence)."""
    s = fresh(3)
    d = s.waiting_for[0]
    idle = next(p for p in s.players if p not in s.waiting_for)
    hand = in_play(position(3, districts={"Castello": {"B": 2}}), "A", [TRANSFER])
    cases = {
        "game.over": (s.evolve(phase="game_over"), d, decode("keep"), {}),
        "state.stale": (s, d, Split((0, 1, 2)), {"expected_version": s.version + 1}),
        "action.malformed": (s, d, "split:012", {}),
        "action.unknown_player": (s, "Z", Split((0, 1, 2)), {}),
        "action.not_your_turn": (s, idle, Split((0, 1, 2)), {}),
        "action.wrong_phase": (s, d, TakeOffer(0), {}),
        "action.split_shape": (s, d, Split((0, 1, 2)), {}),
        "action.no_such_card": (hand, "A", decode("district:SM"), {}),
        "action.must_play": (hand, "A", DiscardCard(TRANSFER), {}),
        "action.illegal": (hand, "A", Transfer("San Marco", "B"), {}),
    }
    assert set(cases) == set(ERROR_CODES) and len(ERROR_CODES) == len(set(ERROR_CODES))
    for code, (state, pid, action, kw) in cases.items():
        refused(state, pid, action, code, **kw)


def test_public_encode_hides_a_split_and_nothing_else():
    """R15: a split's assignment is secret until revealed, so a log line shows "split";
    every other action's text is public as it is."""
    assert Split((0, 1, 1, 0)).public_encode() == "split"
    for text in ("keep", "take:1", "district:SM>CN", "banish:none", "victims:B=1,C=0",
                 "doge:SP/via:SM~CN,CN-SP@B", "transfer:CS@B/from:SM", "discard:doge"):
        assert decode(text).public_encode() == text == decode(text).encode()


def test_replace_gives_a_fresh_cache():
    """dataclasses.replace must not share the state's cache (it once made a changed state
    answer with the old state's legal actions)."""
    s = in_play(position(3, districts={"Castello": {"B": 2}}), "A", [TRANSFER])
    assert legal_actions(s, "A") and s.public_view()
    t = dataclasses.replace(s, hand=(district_card("Castello"),))
    assert t._cache is not s._cache and t._cache == {}
    assert set(legal_actions(t, "A")) == {PlaceAristocrat("Castello")}


def test_from_json_says_exactly_what_is_wrong():
    s = fresh(3)
    good = s.to_json()
    assert GameState.from_json(good) == s
    with pytest.raises(InvalidState, match="not JSON"):
        GameState.from_json("{")
    with pytest.raises(InvalidState, match="schema"):
        GameState.from_json(good.replace('"schema":1', '"schema":99'))
    with pytest.raises(InvalidState, match="'reserve' is missing"):
        GameState.from_json(good.replace('"reserve"', '"reserv"'))
    broken = s.evolve(reserve=(0,) + s.reserve[1:]).to_json()
    with pytest.raises(InvalidState, match="25 aristocrats"):
        GameState.from_json(broken)
    with pytest.raises(InvalidState, match="phase 'lunch' is unknown"):
        GameState.from_json(s.evolve(phase="lunch").to_json())


def test_from_json_finds_a_missing_or_duplicated_card():
    """§1: all 62 action and 28 limit cards must be accounted for (deck, discards, hand,
    the cards lying in the columns, the players' limit cards)."""
    s = fresh(3)
    deck = s.action_deck
    with pytest.raises(InvalidState, match=f"action cards do not add up: missing 1 x {deck[0]}"):
        GameState.from_json(s.evolve(action_deck=deck[1:]).to_json())
    with pytest.raises(InvalidState, match="action cards do not add up: 1 x doge too many"):
        GameState.from_json(s.evolve(action_deck=deck + ("doge",)).to_json())
    with pytest.raises(InvalidState, match="limit cards do not add up: 1 x limit:2 too many"):
        GameState.from_json(s.evolve(limit_cards=((2,), (), ())).to_json())
    col = s.columns[0]
    lost = dataclasses.replace(col, drawn=col.drawn[1:])
    with pytest.raises(InvalidState, match=f"missing 1 x {col.drawn[0]}"):
        GameState.from_json(s.evolve(columns=(lost,)).to_json())


def test_from_json_counts_cards_wherever_a_real_game_has_them():
    """Every state of a real game loads: cards taken from an offer are in the hand, the
    discards or the players' limit cards; untaken offers still lie in their column."""
    s = fresh(3)
    d = s.waiting_for[0]
    n = len(s.columns[0].drawn)
    s, _ = apply(s, d, Split(tuple([0, 1, 2] + [0] * (n - 3))))
    s, _ = apply(s, s.waiting_for[0], TakeOffer(0))
    while not s.finished and s.round == 1:
        assert GameState.from_json(s.to_json()) == s
        pid = s.waiting_for[0]
        s, _ = apply(s, pid, legal_actions(s, pid)[-1])
