"""The invariant checker counts doubled text posts (``invariants.doubled_text``): a line of
the game's log shown more often than it happened, or a text post that tells no move posted
twice; two moves that read the same are not a doubling, the log says how often."""

from __future__ import annotations

import itertools
from collections import Counter

from tests.fakediscord.invariants import doubled_text
from tests.fakediscord.messages import FakeMessage

_ids = itertools.count(1)


def _post(content: str, *, buttons: bool = False) -> FakeMessage:
    button = {"type": 2, "custom_id": f"sm:1:1.{next(_ids)}:next"}
    components = [{"type": 1, "components": [button]}]
    return FakeMessage(next(_ids), 7, content, 0, components if buttons else [], [], [])


PLACES = "<@1> places an aristocrat in Castello."
SPLITS = "<@2> has split their cards."
NOW = "**Now** — <@1>: play a card"


def test_a_catch_up_sent_twice_is_a_doubling() -> None:
    posts = [_post(f"{PLACES}\n{SPLITS}"), _post(f"{PLACES}\n{SPLITS}"), _post(NOW, buttons=True)]
    found = doubled_text(posts, Counter({PLACES: 1, SPLITS: 2}))
    assert found == [f"2× (happened 1×) {PLACES!r}"]  # two splits happened: shown twice


def test_a_catch_up_grouped_differently_twice_is_a_doubling() -> None:
    posts = [_post(PLACES), _post(f"{PLACES}\n{SPLITS}")]
    assert doubled_text(posts, Counter({PLACES: 1, SPLITS: 1})) == [
        f"2× (happened 1×) {PLACES!r}"]


def test_two_moves_that_read_the_same_are_no_doubling() -> None:
    posts = [_post(PLACES), _post(SPLITS), _post(PLACES), _post(f"{SPLITS}\n{NOW}",
                                                               buttons=True)]
    assert doubled_text(posts, Counter({PLACES: 2, SPLITS: 2})) == []


def test_a_note_posted_twice_is_a_doubling() -> None:
    note = "The settings of this channel changed: turn timer 1 hour.\n" + NOW
    assert doubled_text([_post(note), _post(note)], Counter()) == [f"2× text {note[:70]!r}"]
