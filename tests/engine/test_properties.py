"""Hypothesis playouts (compare OpenSpiel's random_sim_test): random legal play from random
seeds to the end, checking the game's invariants after every step."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameState, apply, decode, legal_actions, new_game, public_events
from engine.board import ARISTOCRATS_PER_PLAYER, MAX_BRIDGES_PER_PAIR, TOTAL_BRIDGES
from engine.cards import ACTION_DECK, LIMIT_DECK, is_limit

SETTINGS = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _cards_in_columns(s: GameState) -> list[str]:
    out: list[str] = []
    for col in s.columns:
        if col.split is None or not col.revealed:
            out += col.drawn
        else:
            for k in range(col.n_offers):
                if col.taken[k] is None:
                    out += col.offer(k)
    return out


def check_invariants(s: GameState) -> None:
    n = len(s.players)
    for seat in range(n):
        on_board = sum(r[seat] for r in s.districts)
        on_bridges = sum(1 for b in s.bridges if b[2] == seat)
        assert s.reserve[seat] >= 0 and all(r[seat] >= 0 for r in s.districts)
        assert s.reserve[seat] + on_board + on_bridges == ARISTOCRATS_PER_PLAYER
    assert len(s.bridges) <= TOTAL_BRIDGES
    per_pair = Counter((a, b) for a, b, _ in s.bridges)
    assert max(per_pair.values(), default=0) <= MAX_BRIDGES_PER_PAIR
    owners = Counter(s.bridges)
    assert max(owners.values(), default=0) == (1 if s.bridges else 0)  # R2: one per owner
    pending = _cards_in_columns(s)
    actions = list(s.action_deck) + list(s.action_discard) + list(s.hand) + \
        [c for c in pending if not is_limit(c)]
    assert Counter(actions) == Counter(ACTION_DECK)
    limits = sorted(int(c[-1]) for c in list(s.limit_deck) + [c for c in pending if is_limit(c)])
    limits += [v for row in s.limit_cards for v in row]
    assert sorted(limits) == sorted(int(c[-1]) for c in LIMIT_DECK)


def prestige_delta_from_events(events, players) -> dict[str, int]:
    delta = dict.fromkeys(players, 0)
    for e in events:
        if e.type == "district_scored":
            for p, pts in e["points"].items():
                delta[p] += pts
        elif e.type == "toll_paid":
            delta[e["payer"]] -= e["amount"]
            delta[e["owner"]] += e["amount"]
        elif e.type == "canal_crossed":
            delta[e["player"]] -= e["cost"]
        elif e.type == "passage_scored":
            for p, b in e["bonus"].items():
                delta[p] += b
    return delta


def playout(n: int, seed: int, choice_seed: int) -> GameState:
    rng = random.Random(choice_seed)
    s = new_game([f"{100 + i}" for i in range(n)], seed)
    check_invariants(s)
    steps = 0
    while not s.finished:
        pid = rng.choice(s.waiting_for)
        acts = legal_actions(s, pid)
        assert acts, "an awaited player always has a legal action"
        action = rng.choice(acts)
        assert decode(action.encode()) == action
        before = s.to_json()
        s2, events = apply(s, pid, action)
        assert s.to_json() == before  # apply never mutates its input
        assert s2.version == s.version + 1
        delta = prestige_delta_from_events(events, s.players)
        for seat, p in enumerate(s.players):
            assert s2.prestige[seat] - s.prestige[seat] == delta[p]
        for e in public_events(events):
            assert e.type != "cards_drawn"
        check_invariants(s2)
        if steps % 37 == 0:
            assert GameState.from_json(s2.to_json()) == s2
        s = s2
        steps += 1
        assert steps < 3000
    assert s.passage == 3 and s.winners
    assert any(True for _ in s.public_view()["winners"])
    return s


@SETTINGS
@given(seed=st.integers(0, 2**63), choice_seed=st.integers(0, 2**32))
def test_random_four_player_games_keep_every_invariant_and_finish(seed, choice_seed):
    playout(4, seed, choice_seed)


@SETTINGS
@given(seed=st.integers(0, 2**63), choice_seed=st.integers(0, 2**32))
def test_random_three_player_games_keep_every_invariant_and_finish(seed, choice_seed):
    playout(3, seed, choice_seed)


def test_same_seed_and_actions_give_the_same_game_bit_for_bit():
    def run():
        rng = random.Random(11)
        s = new_game(["1", "2", "3", "4"], 2024)
        texts = []
        while not s.finished:
            pid = s.waiting_for[0]
            s, _ = apply(s, pid, rng.choice(legal_actions(s, pid)))
            texts.append(s.to_json())
        return texts

    assert run() == run()


def test_an_unlisted_action_is_refused_and_changes_nothing():
    rng = random.Random(5)
    s = new_game(["1", "2", "3"], 77)
    refused = 0
    while not s.finished:
        pid = s.waiting_for[0]
        legal = set(legal_actions(s, pid))
        # an action legal for someone else or in another phase is not legal here
        probe = rng.choice([decode(t) for t in ("keep", "take:2", "district:SM", "doge:CS",
                                                 "banish:SP", "bridge:SM-CN", "discard:doge")])
        if probe not in legal and s.phase != "split":
            before = s.to_json()
            try:
                apply(s, pid, probe)
            except Exception as exc:  # noqa: BLE001 - the type is asserted below
                assert type(exc).__name__ in ("IllegalAction", "MalformedAction")
                refused += 1
            else:  # pragma: no cover
                raise AssertionError(f"{probe} was accepted")
            assert s.to_json() == before
        s, _ = apply(s, pid, rng.choice(sorted(legal, key=lambda a: a.encode())))
    assert refused > 10
