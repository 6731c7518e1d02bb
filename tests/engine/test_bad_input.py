"""Bad input of every kind raises IllegalAction with a stable code and changes nothing."""

import pytest

from engine import (
    GameState,
    IllegalAction,
    InvalidState,
    MalformedAction,
    Split,
    TakeOffer,
    Transfer,
    apply,
    decode,
    legal_actions,
)
from engine.cards import TRANSFER

from .helpers import fresh, in_play, position


def refused(state, pid, action, code, **kw):
    before = state.to_json()
    with pytest.raises(IllegalAction) as exc:
        apply(state, pid, action, **kw)
    assert exc.value.code == code
    assert exc.value.message and "Traceback" not in exc.value.message
    assert state.to_json() == before
    return exc.value


def test_a_player_not_in_the_game():
    s = fresh(4)
    refused(s, "Z", "split:01010101", "action.unknown_player")
    refused(s, 12345, "split:01010101", "action.unknown_player")


def test_a_seated_player_who_is_not_awaited():
    s = fresh(4)
    idle = next(p for p in s.players if p not in s.waiting_for)
    refused(s, idle, "split:01010101", "action.not_your_turn")


def test_the_wrong_phase():
    s = fresh(4)
    refused(s, s.waiting_for[0], TakeOffer(0), "action.wrong_phase")
    refused(s, s.waiting_for[0], "doge:SM", "action.wrong_phase")


@pytest.mark.parametrize("text", ["", "nonsense", "split:0193", "take:x", "take:12",
                                  "district:XX", "transfer:SM@", "doge:SM/via:SM-CN",
                                  "victims:a=b", "discard:joker", "bridge:SM", "x" * 1000,
                                  "takeover:SM-CN@1", "keep:now"])
def test_malformed_text(text):
    s = fresh(4)
    refused(s, s.waiting_for[0], text, "action.malformed")
    with pytest.raises(MalformedAction):
        decode(text)


def test_not_an_action_object():
    s = fresh(4)
    refused(s, s.waiting_for[0], 42, "action.malformed")
    refused(s, s.waiting_for[0], None, "action.malformed")


def test_foreign_values_are_refused():
    s = in_play(position(3, districts={"Castello": {"B": 2}}), "A", [TRANSFER])
    refused(s, "A", Transfer("Castello", "nobody"), "action.illegal")
    refused(s, "A", Transfer("Castello", "A"), "action.illegal")  # one's own aristocrat
    refused(s, "A", Transfer("San Marco", "B"), "action.illegal")  # B has none there
    refused(s, "A", "district:SM", "action.illegal")  # no such card in hand
    refused(s, "A", Split((0, 1)), "action.wrong_phase")


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
    refused(s, "A", "keep", "game.over")


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
    with pytest.raises(InvalidState, match="phase"):
        GameState.from_json(s.evolve(phase="lunch").to_json())
