"""One possible world behind a player's view: a full ``GameState`` that looks exactly like
what the player sees, with every secret drawn at random (a *determinization*).

The hard level (``engine.ai.search``) plays its candidate actions out on such worlds. A
world is built from ``state.private_view(pid)`` alone (R15): the cards the player has not
seen — the order of both decks and the cards other distributors hold face down — are dealt
at random from what is left once every card the view shows is counted (the discard pile,
the revealed offers, the hand being played, everyone's limit cards, the player's own drawn
cards). A committed split the player cannot see is made by the normal heuristic for the
sampled cards: that is how a normal computer splits, and a sensible guess for a person. The
world's random number generator (dice, reshuffles, the next round's roles) and its seed are
drawn too. Nothing in it comes from the real state, so the search cannot peek.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..board import DISTRICT_NAMES
from ..cards import ACTION_DECK, LIMIT_DECK, card_order, is_limit
from ..phases import Phase
from ..state import Banishment, Column, GameState

View = Mapping[str, Any]
# (world without that split, distributor's pid) -> the split's assignment of drawn cards
SplitGuess = Callable[[GameState, str], tuple[int, ...]]

IDX = {name: i for i, name in enumerate(DISTRICT_NAMES)}
SETUP_PHASES = ("setup_reroll", "setup_bridges")


def _assignment(drawn: Sequence[str], offers: Sequence[Sequence[str]]) -> tuple[int, ...]:
    """The offer of each drawn card, given each offer's cards in drawn order."""
    pos = [0] * len(offers)
    out = []
    for card in drawn:
        for k, cards in enumerate(offers):
            if pos[k] < len(cards) and cards[pos[k]] == card:
                pos[k] += 1
                out.append(k)
                break
        else:
            raise ValueError(f"the view's offers do not hold the drawn card {card!r}")
    return tuple(out)


def _deal(role: Mapping[str, Any]) -> tuple[int, int]:
    """How many action and limit cards a distributor draws (RULES.md §4)."""
    return (6, 4) if len(role["decision_makers"]) == 2 else (5, 3)


def sample_world(view: View, pid: str, rng: random.Random,
                 guess_split: SplitGuess | None = None) -> GameState:
    """A game state consistent with ``pid``'s private ``view``, its secrets drawn from
    ``rng``; ``guess_split`` makes the committed splits ``pid`` cannot see (None: leave them
    unmade, for tests). Raises ValueError during set-up (no secrets worth a world there)
    or if the view is inconsistent."""
    phase = str(view["phase"])
    if phase in SETUP_PHASES:
        raise ValueError("no world is sampled during set-up")
    players = tuple(str(p) for p in view["players"])
    seat = {p: i for i, p in enumerate(players)}
    private = view.get("private") or {}
    revealed = list(view["offers"])
    unknown_actions = Counter(ACTION_DECK)
    unknown_limits = Counter(LIMIT_DECK)
    unknown_actions.subtract(view["discard"])
    hand = view.get("hand")
    if hand is not None:
        unknown_actions.subtract(hand["cards"])
    for p in players:
        unknown_limits.subtract(f"limit:{v}" for v in view["limit_cards"][p])
    for col in revealed:
        for offer in col["offers"]:
            if offer["taken_by"] is None:
                for card in offer["cards"]:
                    (unknown_limits if is_limit(card) else unknown_actions)[card] -= 1
    mine = [str(c) for c in private.get("drawn", [])]
    for card in mine:
        (unknown_limits if is_limit(card) else unknown_actions)[card] -= 1
    if min(unknown_actions.values()) < 0 or min(unknown_limits.values()) < 0:
        raise ValueError("the view shows more cards than the game has")
    actions = sorted(unknown_actions.elements(), key=card_order)
    limits = sorted(unknown_limits.elements(), key=card_order)
    rng.shuffle(actions)
    rng.shuffle(limits)
    # Cards the other unrevealed distributors hold: whatever the decks no longer have,
    # dealt in column order as the engine draws (R8: the limit deck may run short).
    hidden_a = len(actions) - int(view["deck"]["action"])
    hidden_l = len(limits) - int(view["deck"]["limit"])
    columns: list[Column] = []
    guesses: list[int] = []
    for i, role in enumerate(view["roles"]):
        dist = str(role["distributor"])
        deciders = tuple(seat[str(p)] for p in role["decision_makers"])
        n_offers = len(deciders) + 1
        if i < len(revealed):
            col = revealed[i]
            if col["distributor"] != dist:
                raise ValueError("revealed offers out of column order")
            offers = [list(o["cards"]) for o in sorted(col["offers"], key=lambda o: o["index"])]
            drawn = sorted((c for o in offers for c in o), key=card_order)
            taken = tuple(None if o["taken_by"] is None else seat[o["taken_by"]]
                          for o in sorted(col["offers"], key=lambda o: o["index"]))
            columns.append(Column(seat[dist], deciders, tuple(drawn),
                                  _assignment(drawn, offers), True, taken))
            continue
        if dist == pid:
            split = private.get("split")
            assignment = None if split is None else _assignment(mine, split)
            columns.append(Column(seat[dist], deciders, tuple(mine), assignment, False,
                                  (None,) * n_offers))
            continue
        na, nl = _deal(role)
        ka, kl = min(na, hidden_a), min(nl, hidden_l)
        hidden_a -= ka
        hidden_l -= kl
        drawn = sorted(actions[:ka] + limits[:kl], key=card_order)
        del actions[:ka], limits[:kl]
        columns.append(Column(seat[dist], deciders, tuple(drawn), None, False,
                              (None,) * n_offers))
        if view["split_committed"].get(dist, False):
            guesses.append(i)
    if hidden_a or hidden_l:
        raise ValueError("the view's deck counts do not add up")
    column = max(0, len(revealed) - 1)
    steps: tuple[tuple[str, int], ...] = ()
    if revealed and phase != "split":
        c = columns[column]
        took = set(c.taken)
        steps = tuple(("take", s) for s in c.deciders if s not in took)
        if c.distributor not in took:
            steps += (("last", c.distributor),)
    ban = view.get("banishment")
    banishment = None if ban is None else Banishment(
        seat[ban["banisher"]], None if ban["district"] is None else IDX[ban["district"]],
        ban["roll"], ban["reason"])
    doge = view["doge"]
    world = GameState(
        players=players, seed=rng.getrandbits(63), rng=rng.getrandbits(64),
        version=int(view["version"]), phase=Phase(phase),
        districts=tuple(tuple(int(view["districts"][d][p]) for p in players)
                        for d in DISTRICT_NAMES),
        bridges=tuple(sorted((min(IDX[b["a"]], IDX[b["b"]]), max(IDX[b["a"]], IDX[b["b"]]),
                              seat[b["owner"]]) for b in view["bridges"])),
        reserve=tuple(int(view["reserve"][p]) for p in players),
        prestige=tuple(int(view["prestige"][p]) for p in players),
        limit_cards=tuple(tuple(int(v) for v in view["limit_cards"][p]) for p in players),
        doge=None if doge is None else IDX[doge],
        passage=int(view["passage"]), round=int(view["round"]),
        extra_round=bool(view["extra_round"]),
        starter=None if view["starter"] is None else seat[view["starter"]],
        in_passage=tuple(seat[p] for p in view["in_passage"]),
        action_deck=tuple(actions), action_discard=tuple(view["discard"]),
        limit_deck=tuple(limits),
        setup_rolls=tuple(tuple(view["setup_rolls"][p]) for p in players),
        queue=(), columns=tuple(columns), column=column, steps=steps,
        hand=() if hand is None else tuple(hand["cards"]),
        hand_player=None if hand is None else seat[hand["player"]],
        banishment=banishment, winners=(),
    )
    if guess_split is not None and guesses:
        made = list(columns)
        for i in guesses:
            c = made[i]
            assignment = guess_split(world.evolve(columns=tuple(made)),
                                     players[c.distributor])
            made[i] = Column(c.distributor, c.deciders, c.drawn, tuple(assignment), False,
                             c.taken)
        world = world.evolve(columns=tuple(made))
    return world

