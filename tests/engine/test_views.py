"""What leaves the engine: phases as a StrEnum with the JSON unchanged."""

from engine import GameState, Phase

from .helpers import fresh


def test_phases_are_a_str_enum_and_the_json_is_unchanged():
    """Phase is a StrEnum: the state holds Phase values, the stored JSON and the views keep
    the plain strings they always had."""
    s = fresh(3)
    assert s.phase is Phase.SPLIT and s.phase == "split"
    assert '"phase":"split"' in s.to_json()
    again = GameState.from_json(s.to_json())
    assert again.phase is Phase.SPLIT and again == s
    view = s.public_view()
    assert type(view["phase"]) is str and view["phase"] == "split"
    assert all(type(k) is str for k in view["awaiting"].values())
    assert view["awaiting"] == {p: "split" for p in s.waiting_for}
