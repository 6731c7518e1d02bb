"""Advice for a person (``engine.ai.advice``): the hard computer's choice and the runner-up
with a reason, read from the caller's own view only (R15), for every kind of decision; and
the review of a finished game, which names decisions the game really had. Budgets are tiny
and uncapped (``max_seconds=None``) so that the advice is deterministic and the tests fast."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engine import GameState, apply, legal_actions, new_game
from engine.actions import Action, DiscardCard, decode
from engine.ai import Budget, choose_action
from engine.ai.advice import REASON_KINDS, Advice, advise, review
from engine.ai.model import FIRST, IDX
from engine.cards import ALL_CARDS
from engine.game import card_of

from .test_ai_hard import _secrets_changed

TINY = Budget(playouts=4, max_seconds=None, candidates=3)


def _decisions(n: int, seed: int, steps: int = 10_000
               ) -> Iterator[tuple[GameState, str, tuple[Action, ...]]]:
    """A game of normal players: (state, pid, legal) at each decision with a choice."""
    s = new_game([str(100 + i) for i in range(n)], seed)
    for _ in range(steps):
        if s.finished:
            return
        pid = s.waiting_for[0]
        legal = legal_actions(s, pid)
        if len(legal) > 1:
            yield s, pid, legal
        s, _ = apply(s, pid, choose_action(s, pid, level="normal", seed=seed))


def _cards_named(advice: Advice) -> set[str]:
    """Every card an advice names: its reasons' and its actions' own."""
    out: set[str] = set()
    for choice in (advice.best, advice.runner_up):
        if choice is None:
            continue
        if choice.reason.card is not None:
            out.add(choice.reason.card)
        card = card_of(choice.action)
        if card is not None:
            out.add(card)
        if isinstance(choice.action, DiscardCard):
            out.add(choice.action.card)
    return out


def test_r15_advice_does_not_depend_on_secrets_the_player_cannot_see():
    """Changing the seed, the deck order and other distributors' unrevealed cards leaves the
    caller's view as it was, and the advice (actions, values, reasons) with it."""
    kinds = set()
    for n, seed in ((4, 3), (3, 5)):
        for s, pid, legal in _decisions(n, seed, steps=60):
            other = _secrets_changed(s, pid)
            assert other.private_view(pid) == s.private_view(pid)
            mine = advise(s.private_view(pid), legal, pid, seed=11, budget=TINY)
            theirs = advise(other.private_view(pid), legal_actions(other, pid), pid, seed=11,
                            budget=TINY)
            assert theirs == mine
            kinds.add(str(s.phase))
    assert {"split", "choose", "play"} <= kinds


def test_advice_never_names_a_card_the_caller_cannot_see():
    """Every card an advice names is in the caller's own view (their hand, their drawn
    cards, a revealed offer)."""
    named = 0
    for s, pid, legal in _decisions(3, 8, steps=120):
        view = s.private_view(pid)
        seen = json.dumps(view)
        for card in _cards_named(advise(view, legal, pid, seed=2, budget=TINY)):
            assert card in ALL_CARDS or card.startswith("district:"), card
            assert f'"{card}"' in seen, (card, s.phase)
            named += 1
    assert named > 0


@pytest.mark.parametrize("n,seed", [(3, 1), (4, 2)])  # (two tests: a worker each)
def test_every_decision_kind_gets_a_ranked_choice_with_a_known_reason(n: int, seed: int):
    """For every phase with a choice: the best is legal, the runner-up another action,
    each reason of a known kind."""
    phases: set[str] = set()
    for s, pid, legal in _decisions(n, seed):
        a = advise(s.private_view(pid), legal, pid, seed=0, budget=TINY)
        assert a.pid == pid and a.phase == str(s.phase)
        assert a.best.action in legal
        assert a.best.reason.kind in REASON_KINDS
        if a.runner_up is not None:
            assert a.runner_up.action != a.best.action
            assert a.runner_up.reason.kind in REASON_KINDS
        phases.add(str(s.phase))
    assert {"setup_bridges", "split", "choose", "play", "banish_victims"} <= phases


def test_a_leading_placement_names_the_district_and_its_first_place_points():
    """"It makes you the leader of X, worth about N points": a placement that takes the
    lead names the district and the first place's points there."""
    found = 0
    for s, pid, legal in _decisions(3, 4, steps=200):
        a = advise(s.private_view(pid), legal, pid, seed=0, budget=TINY)
        r = a.best.reason
        if r.kind == "leads_district":
            assert r.district is not None and r.points == FIRST[IDX[r.district]]
            found += 1
    assert found > 0


def _game_with(pid: str, seed: int, budget: Budget) -> tuple[list[str], list[tuple[str, str]]]:
    """A finished 3-player game where ``pid`` always played the advice (``budget``, advice
    seed 0) and the others the normal heuristic: (players, log)."""
    players = ["111", "222", "333"]
    s = new_game(players, seed)
    log: list[tuple[str, str]] = []
    while not s.finished:
        who = s.waiting_for[0]
        legal = legal_actions(s, who)
        if who == pid and len(legal) > 1:
            action = advise(s.private_view(who), legal, who, seed=0, budget=budget).best.action
        else:
            action = choose_action(s, who, level="normal", seed=seed)
        log.append((who, action.encode()))
        s, _ = apply(s, who, action)
    return players, log


def test_the_review_names_decisions_the_game_really_had():
    """A review's mistakes are the player's own logged moves at their step, worst first, at
    most three; the advice-follower's own review finds nothing to regret."""
    players, log = _game_with("111", 9, TINY)
    follower = review(players, 9, log, "111", budget=TINY, worlds=4)
    assert follower.decisions > 10
    assert follower.mistakes == ()
    other = review(players, 9, log, "222", budget=TINY, worlds=4)
    assert other.decisions > 10
    assert 0 < len(other.mistakes) <= 3
    losses = [m.loss for m in other.mistakes]
    assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
    for m in other.mistakes:
        who, text = log[m.seq - 1]
        assert who == "222"
        assert decode(text) == m.played
        assert m.better != m.played
        assert m.reason.kind in REASON_KINDS


def test_a_review_counts_in_prestige_and_never_suggests_what_was_played():
    """Issue 38: a mistake's loss is the prestige the better move was expected to add to
    the player's final prestige (at least half a point, far below the search's values with
    their win bonus), and the better move differs from the played one in effect too (not
    the same offer's cards, the same split relabelled, the same route's tolls)."""
    from engine.ai.advice import MIN_LOSS, same_move
    players, log = _game_with("111", 9, TINY)
    other = review(players, 9, log, "222", budget=TINY, worlds=4)
    assert other.mistakes
    s = new_game(players, 9)
    views = {}
    for seq, (who, text) in enumerate(log, start=1):
        views[seq] = s.private_view(who)
        s, _ = apply(s, who, decode(text))
    for m in other.mistakes:
        assert MIN_LOSS <= m.loss < 25, m
        assert not same_move(views[m.seq], "222", m.better, m.played)
        if m.phase == "split":
            assert m.drawn == tuple(views[m.seq]["private"]["drawn"])
        if m.phase == "choose":
            assert m.offers and all(m.offers)


def test_expected_prestige_of_a_finished_game_is_its_prestige_without_a_win_bonus():
    from engine.ai.advice import expected_prestige
    from engine.ai.search import leaf_value
    s = new_game(["111", "222", "333"], 4)
    while not s.finished:
        who = s.waiting_for[0]
        s, _ = apply(s, who, choose_action(s, who, level="normal", seed=4))
    for me in range(3):
        assert expected_prestige(s, me) == s.prestige[me]
    winner = s.winners[0]
    assert leaf_value(s, winner) > s.prestige[winner] - min(s.prestige)  # the bonus


def test_same_move_sees_relabelled_splits_equal_offers_and_equal_routes():
    from engine.actions import Split, TakeOffer
    from engine.ai.advice import same_move
    view = {"private": {"drawn": ["doge", "transfer", "limit:1"]}, "choosing": {"column": 0},
            "offers": [{"offers": [{"index": 0, "cards": ["doge", "limit:2"]},
                                   {"index": 1, "cards": ["limit:2", "doge"]},
                                   {"index": 2, "cards": ["transfer"]}]}]}
    assert same_move(view, "1", Split((0, 1, 1)), Split((1, 0, 0)))
    assert not same_move(view, "1", Split((0, 1, 1)), Split((0, 0, 1)))
    assert same_move(view, "1", TakeOffer(0), TakeOffer(1))
    assert not same_move(view, "1", TakeOffer(0), TakeOffer(2))
    assert same_move(view, "1", decode("doge:SM"), decode("doge:SM"))


def test_no_runner_up_is_the_best_move_by_other_means():
    from engine.ai.advice import same_move
    seen = 0
    for s, pid, legal in _decisions(3, 5, steps=120):
        view = s.private_view(pid)
        advice = advise(view, legal, pid, seed=0, budget=TINY)
        if advice.runner_up is not None:
            seen += 1
            assert not same_move(view, pid, advice.best.action, advice.runner_up.action)
    assert seen > 10
