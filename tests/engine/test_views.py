"""What leaves the engine: the first events, the views' keys (engine.views), the column being
chosen, the standings (§8, R14) and phases as a StrEnum with the JSON unchanged."""

import json
import random

import pytest

from engine import (
    GameState,
    Phase,
    PrivateView,
    PublicView,
    apply,
    legal_actions,
    new_game,
    public_events,
    start_game,
)
from engine.views import ChoosingView, StandingView

from .helpers import fresh


def _game(n: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    s = new_game([str(100 + i) for i in range(n)], seed)
    states = [s]
    while not s.finished:
        pid = s.waiting_for[0]
        s, _ = apply(s, pid, rng.choice(legal_actions(s, pid)))
        states.append(s)
    return states


GAME4 = _game(4, 2)


def test_start_game_hands_back_the_set_up_events():
    """The game's first events: the seat order and every player's set-up rolls, public, so
    a start post and a log can tell them; new_game is the same state without them."""
    state, events = start_game(["111", "222", "333"], seed=42)
    assert state == new_game(["111", "222", "333"], seed=42)
    assert public_events(events) == events
    assert events[0].to_dict() == {"type": "game_started", "players": list(state.players)}
    rolled = [e for e in events if e.type == "setup_rolled"]
    assert [e["player"] for e in rolled] == list(state.players)
    assert [e["rolls"] for e in rolled] == [list(r) for r in state.setup_rolls]
    with pytest.raises(ValueError):
        start_game(["111", "222"], seed=1)


def test_views_have_exactly_the_typed_keys():
    """engine.views' TypedDicts describe the views exactly (docs/ENGINE_CONTRACT.md)."""
    for s in GAME4[::25] + GAME4[-1:]:
        view = s.public_view()
        assert set(view) == PublicView.__required_keys__
        for row in view["standings"]:
            assert set(row) == StandingView.__required_keys__
        if view["choosing"] is not None:
            assert set(view["choosing"]) == ChoosingView.__required_keys__
        pid = s.players[0]
        assert set(s.private_view(pid)) == PrivateView.__required_keys__
        json.dumps(view)


def test_choosing_names_the_revealed_column_being_chosen_or_played():
    """``choosing`` is the one answer to "which offers are on the table now": the column
    whose offers are chosen from (phase choose) or played (play), None otherwise."""
    seen_second = False
    for s in GAME4:
        view = s.public_view()
        choosing = view["choosing"]
        if view["phase"] in ("choose", "play"):
            assert choosing is not None
            column = view["offers"][choosing["column"]]
            assert column["distributor"] == choosing["distributor"]
            assert choosing["column"] == len(view["offers"]) - 1
            if view["phase"] == "choose":
                assert any(o["taken_by"] is None for o in column["offers"])
            seen_second |= choosing["column"] == 1
        elif view["phase"] in ("split", "setup_reroll", "setup_bridges", "banish",
                               "game_over"):
            assert choosing is None
    assert seen_second, "a 4-player round reaches its second column"


def test_standings_rank_by_prestige_then_san_marco_and_winners_are_rank_one():
    """§8, R14: most prestige, then most aristocrats in San Marco; still tied share a rank;
    at the end the rank-1 players are exactly the winners."""
    final = GAME4[-1].public_view()
    rows = final["standings"]
    keys = [(-r["prestige"], -r["san_marco"]) for r in rows]
    assert keys == sorted(keys)
    assert [r["player"] for r in rows if r["rank"] == 1] == final["winners"]
    for r in rows:
        assert r["prestige"] == final["prestige"][r["player"]]
        assert r["san_marco"] == final["districts"]["San Marco"][r["player"]]
    s = fresh(4)
    sm = list(s.districts[0])
    tied = s.evolve(prestige=(5, 9, 5, 9),
                    districts=((1, 2, 1, 2),) + s.districts[1:],
                    reserve=tuple(r + sm[i] - (1, 2, 1, 2)[i] for i, r in enumerate(s.reserve)))
    rows = tied.public_view()["standings"]
    assert [(r["player"], r["rank"]) for r in rows] == [("B", 1), ("D", 1), ("A", 3), ("C", 3)]


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
