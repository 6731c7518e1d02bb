"""Computer players (for empty and abandoned seats): legal whole games at both levels,
determinism, no peeking at secrets (R15), and a few decisions that show the heuristic is
sensible."""

import time

import pytest

from engine import (
    ChooseBanished,
    Crossing,
    Doge,
    GameState,
    KeepRolls,
    Reroll,
    Split,
    TakeOffer,
    apply,
    doge_cost,
    legal_actions,
    new_game,
)
from engine.ai import (
    choose_action,
    choose_from_view,
    computer_name,
    computer_pid,
    is_computer,
    level_of,
)
from engine.board import DISTRICT_NAMES
from engine.cards import DOGE, TRANSFER, district_card
from engine.state import Banishment

from .helpers import fresh, in_play, position, with_drawn


def play_out(players: list[str], seed: int, *, check: bool = True) -> tuple[GameState, list[str]]:
    """A whole game among computer players; every choice must be a listed legal action."""
    s = new_game(players, seed)
    trace = []
    while not s.finished:
        pid = s.waiting_for[0]
        action = choose_action(s, pid, level=level_of(pid), seed=seed)
        if check:
            assert action in legal_actions(s, pid), (pid, action)
        s, _ = apply(s, pid, action)
        trace.append(action.encode())
        assert len(trace) < 2000
    return s, trace


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("levels", [("normal",) * 4, ("easy",) * 4,
                                    ("normal", "easy", "easy", "easy"),
                                    ("easy", "normal", "normal", "easy")])
def test_whole_games_among_computer_players_use_only_legal_actions(n, levels):
    players = [computer_pid(levels[i], i + 1) for i in range(n)]
    s, trace = play_out(players, seed=11 * n + len(set(levels)))
    assert s.finished and s.winners and len(trace) > 50


def test_same_seed_same_game_and_other_seed_other_choices():
    players = ["ai.normal.1", "ai.normal.2", "ai.easy.3"]
    _, a = play_out(players, seed=5, check=False)
    _, b = play_out(players, seed=5, check=False)
    assert a == b
    s = new_game(["ai.easy.1", "ai.easy.2", "ai.easy.3"], 3)
    while s.phase != "split":
        s, _ = apply(s, s.waiting_for[0], legal_actions(s, s.waiting_for[0])[0])
    pid = s.waiting_for[0]
    splits = {choose_action(s, pid, level="easy", seed=k) for k in range(5)}
    assert len(splits) > 1


def test_a_decision_survives_a_json_round_trip():
    s = new_game(["ai.normal.1", "ai.normal.2", "ai.normal.3", "ai.normal.4"], 9)
    for _ in range(40):
        pid = s.waiting_for[0]
        again = GameState.from_json(s.to_json())
        action = choose_action(s, pid, seed=2)
        assert choose_action(again, pid, seed=2) == action
        s, _ = apply(s, pid, action)


def _hide_secrets_differently(s: GameState) -> GameState:
    """The same game as its players see it, with every secret changed: deck orders, the
    RNG position and the seed (R15)."""
    return s.evolve(action_deck=tuple(reversed(s.action_deck)),
                    limit_deck=tuple(reversed(s.limit_deck)), rng=s.rng ^ 0x5DEECE66D,
                    seed=s.seed + 1)


def test_r15_decisions_do_not_depend_on_secrets_the_player_cannot_see():
    """R15: a computer player decides from its own view only (no deck order, no seed)."""
    s = new_game(["ai.normal.1", "ai.normal.2", "ai.normal.3"], 21)
    seen = set()
    while not s.finished and len(seen) < 6:
        pid = s.waiting_for[0]
        action = choose_action(s, pid, seed=4)
        assert choose_action(_hide_secrets_differently(s), pid, seed=4) == action
        seen.add(s.phase)
        s, _ = apply(s, pid, action)


def test_choose_from_view_matches_choose_action():
    s = fresh(4, seed=3)
    pid = s.waiting_for[0]
    view = s.private_view(pid)
    assert choose_from_view(view, legal_actions(s, pid), pid, seed=1) == \
        choose_action(s, pid, seed=1)
    with pytest.raises(ValueError):
        choose_action(s, pid, level="expert", seed=1)
    idle = next(p for p in s.players if p not in s.waiting_for)
    with pytest.raises(ValueError):
        choose_action(s, idle, seed=1)


def test_computer_pids_levels_and_names():
    assert computer_pid("normal", 1) == "ai.normal.1"
    assert is_computer("ai.easy.2") and not is_computer("123456789012345678")
    assert is_computer("ai.hard.1") and level_of("ai.hard.1") == "hard"
    assert computer_name("ai.hard.3") == "Computer 3 (hard)"
    assert not is_computer("ai.expert.1") and not is_computer("ai.normal.")
    assert level_of("ai.easy.2") == "easy"
    assert computer_name("ai.normal.1") == "Computer 1 (normal)"
    with pytest.raises(ValueError):
        level_of("1234")
    with pytest.raises(ValueError):
        computer_pid("expert", 1)


# ---- sensible decisions ----------------------------------------------------------------
def test_takes_the_offer_whose_doge_scores_a_district_it_leads():
    s0 = fresh(3, seed=4)
    col = s0.columns[0]
    dist, dec = s0.players[col.distributor], s0.players[col.deciders[0]]
    others = [p for p in s0.players if p != dec]
    s = position(3, seed=4, doge="Castello",
                 districts={"Castello": {dec: 4, others[0]: 1, others[1]: 1},
                            "Santa Croce": {others[0]: 2, others[1]: 1}},
                 limit={p: () for p in s0.players})
    drawn = [district_card("Santa Croce"), DOGE, "limit:1", "limit:1", "limit:2"]
    s = with_drawn(s, {dist: drawn})
    # offer 0: Doge + 1 limit, offer 1: Santa Croce + 1 limit, offer 2: limit 2
    s, _ = apply(s, dist, Split((1, 0, 0, 1, 2)))
    assert s.phase == "choose" and s.waiting_for == (dec,)
    assert choose_action(s, dec, seed=0) == TakeOffer(0)


def test_routes_the_doge_over_its_own_bridges_rather_than_pay_a_toll():
    """Same district, two routes: over B's bridge (1 toll) or over A's own two (free)."""
    s = position(4, doge="San Marco",
                 districts={"Castello": {"A": 4, "B": 1, "C": 1},
                            "San Marco": {"B": 3, "C": 2, "A": 1}},
                 bridges=[("San Marco", "Castello", "B"), ("San Marco", "Cannaregio", "A"),
                          ("Cannaregio", "Castello", "A")])
    s = in_play(s, "A", [DOGE])
    tolled = Doge("Castello", (Crossing("San Marco", "Castello", "B"),))
    assert tolled in legal_actions(s, "A")
    action = choose_action(s, "A", seed=0)
    assert isinstance(action, Doge) and action.target == "Castello"
    assert doge_cost(action, "A") == 0 and len(action.route) == 2


def test_transfer_takes_the_majority_where_it_is_one_short():
    s = position(4, districts={"San Marco": {"A": 2, "B": 2},
                               "Santa Croce": {"A": 1, "C": 5}})
    s = in_play(s, "A", [TRANSFER])
    action = choose_action(s, "A", seed=0)
    assert action.encode() == "transfer:SM@B"


def test_banishment_victims_are_taken_from_the_rival_who_leads():
    """R10 choice, roll 1: take B's (2-2 tie for first) rather than C's (B alone first)."""
    s = position(3, districts={"San Marco": {"A": 2, "B": 3, "C": 1}})
    s = in_play(s, "A", []).evolve(phase="banish_victims",
                                   banishment=Banishment(0, 0, 1, "card"))
    assert s.players[0] == "A" and DISTRICT_NAMES[0] == "San Marco"
    assert set(legal_actions(s, "A")) == {ChooseBanished((("B", 1), ("C", 0))),
                                          ChooseBanished((("B", 0), ("C", 1)))}
    assert choose_action(s, "A", seed=0) == ChooseBanished((("B", 1), ("C", 0)))


def test_split_does_not_hand_over_every_action_card():
    """A 4-player split of 5 action cards and 9 limit points: giving the decision-maker
    every action card and keeping 9 limit points would be the worst split there is."""
    s = fresh(4, seed=2)
    dist = s.players[s.columns[0].distributor]
    drawn = [district_card("San Marco"), district_card("Cannaregio"), "bridge", "transfer",
             DOGE, "limit:3", "limit:3", "limit:3"]
    s = with_drawn(s, {dist: drawn})
    action = choose_action(s, dist, seed=0)
    assert isinstance(action, Split) and action in legal_actions(s, dist)
    offers = [[c for c, o in zip(drawn, action.assignment, strict=True) if o == k]
              for k in (0, 1)]
    for offer in offers:
        assert any(not c.startswith("limit") for c in offer), offers


def test_r3_reroll_choice_is_legal_and_quick():
    s = new_game(["ai.normal.1", "ai.normal.2", "ai.normal.3"], 1)
    seat = 0
    counts = [list(r) for r in s.districts]
    for d in range(6):
        counts[d][seat] = 0
    counts[2][seat] = 8
    s = s.evolve(phase="setup_reroll", queue=(seat,), districts=tuple(map(tuple, counts)),
                 setup_rolls=tuple((3, 3, 3, 3) if i == seat else r
                                   for i, r in enumerate(s.setup_rolls)))
    pid = s.players[seat]
    assert choose_action(s, pid, seed=0) in (KeepRolls(), Reroll())


def test_a_three_player_split_is_decided_quickly():
    """~56k legal splits, yet a decision stays well under a second (a table waits on it)."""
    s = fresh(3, seed=8)
    pid = s.waiting_for[0]
    legal_actions(s, pid)  # the engine's own enumeration is not the AI's time
    t0 = time.perf_counter()
    action = choose_action(s, pid, seed=0)
    assert time.perf_counter() - t0 < 1.0
    assert isinstance(action, Split) and action in legal_actions(s, pid)
