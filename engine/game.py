"""The engine's public functions: ``start_game``/``new_game``, ``legal_actions``, ``apply``."""

from __future__ import annotations

import itertools

from .actions import (
    PID_RE,
    Action,
    Banish,
    ChooseBanished,
    DeclineBanishment,
    DiscardCard,
    Doge,
    KeepRolls,
    PlaceAristocrat,
    PlaceBridge,
    Reroll,
    Split,
    TakeOffer,
    TakeOverBridge,
    Transfer,
    checked,
)
from .board import DISTRICT_NAMES, INDEX
from .cards import BANISHMENT, BRIDGE, DOGE, TRANSFER, card_order, district_card
from .describe import card_label, describe
from .errors import IllegalAction
from .events import Event
from .phases import Phase
from .rules import banishment, cardplay, options, rounds, setup
from .rules.work import Work
from .state import GameState

# Which kinds of action each phase accepts (for the "wrong phase" answer). "no_banish" is
# listed in play so that declining a banishment CARD is refused as illegal (R7), not as
# belonging to another phase.
PHASE_KINDS: dict[Phase, frozenset[str]] = {
    Phase.SETUP_REROLL: frozenset({"keep", "reroll"}),
    Phase.SETUP_BRIDGES: frozenset({"bridge"}),
    Phase.SPLIT: frozenset({"split"}),
    Phase.CHOOSE: frozenset({"take"}),
    Phase.PLAY: frozenset({"district", "bridge", "takeover", "transfer", "doge", "banish",
                           "no_banish", "discard"}),
    Phase.BANISH: frozenset({"banish", "no_banish"}),
    Phase.BANISH_VICTIMS: frozenset({"victims"}),
    Phase.GAME_OVER: frozenset(),
}


def _check_players(players: list[str] | tuple[str, ...], seed: int) -> tuple[str, ...]:
    players = tuple(players)
    if len(players) not in (3, 4):
        raise ValueError("San Marco is played by 3 or 4 players.")
    if len(set(players)) != len(players):
        raise ValueError("Every player may sit at the table only once.")
    for p in players:
        if not isinstance(p, str) or not PID_RE.match(p):
            raise ValueError(f"{p!r} is not a valid player id.")
    if not isinstance(seed, int):
        raise ValueError("The seed must be an integer.")
    return players


def start_game(players: list[str] | tuple[str, ...], seed: int
               ) -> tuple[GameState, tuple[Event, ...]]:
    """A new game for 3 or 4 players and the events of its set-up: ``game_started`` (the
    seat order, drawn from ``seed``) and every player's ``setup_rolled``.

    Raises ValueError for a wrong number of players, duplicates or ids that are not
    ``[A-Za-z0-9_.]{1,40}``.
    """
    w = setup.start(_check_players(players, seed), seed)
    return w.freeze(), tuple(w.events)


def new_game(players: list[str] | tuple[str, ...], seed: int) -> GameState:
    """``start_game`` without its events (DESIGN.md's contract). Raises ValueError."""
    return start_game(players, seed)[0]


def _split_actions(n_cards: int, n_offers: int) -> tuple[Split, ...]:
    return tuple(Split(a) for a in itertools.product(range(n_offers), repeat=n_cards)
                 if len(set(a)) == n_offers)


_SPLIT_CACHE: dict[tuple[int, int], tuple[Split, ...]] = {}


def legal_actions(state: GameState, pid: str) -> tuple[Action, ...]:
    """Every legal action for ``pid`` now, in a fixed order; empty if pid is not awaited."""
    if not isinstance(pid, str):
        return ()
    key = ("legal", pid)
    cached = state._cache.get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    result = _legal(state, pid)
    state._cache[key] = result
    return result


def _legal(state: GameState, pid: str) -> tuple[Action, ...]:
    seat = state.seat(pid)
    if seat is None or seat not in state.waiting_seats:
        return ()
    phase = state.phase
    if phase == Phase.SETUP_REROLL:
        return (KeepRolls(), Reroll())
    if phase == Phase.SETUP_BRIDGES:
        return tuple(PlaceBridge(DISTRICT_NAMES[a], DISTRICT_NAMES[b])
                     for a, b in options.legal_pairs_for_new_bridge(state, seat))
    if phase == Phase.SPLIT:
        col = next(c for c in state.columns if c.distributor == seat and c.split is None)
        k = (len(col.drawn), col.n_offers)
        if k not in _SPLIT_CACHE:
            _SPLIT_CACHE[k] = _split_actions(*k)
        return _SPLIT_CACHE[k]
    if phase == Phase.CHOOSE:
        col = state.columns[state.column]
        return tuple(TakeOffer(k) for k in range(col.n_offers) if col.taken[k] is None)
    if phase == Phase.PLAY:
        out: list[Action] = []
        for card in sorted(set(state.hand), key=card_order):
            opts = options.card_options(state, seat, card)
            out.extend(opts if opts else [DiscardCard(card)])
        return tuple(out)
    if phase == Phase.BANISH:
        b = state.banishment
        return tuple(options.banish_options(passage=b is not None and b.reason == "passage"))
    if phase == Phase.BANISH_VICTIMS:
        b = state.banishment
        assert b is not None and b.district is not None and b.roll is not None
        counts = list(state.districts[b.district])
        present = [s for s in range(len(counts)) if s != seat and counts[s] > 0]
        return tuple(ChooseBanished(tuple((state.players[s], vec[s]) for s in present))
                     for vec in options.victim_choices(counts, seat, b.roll))
    return ()


def _split_column_size(state: GameState, seat: int) -> tuple[int, int] | None:
    """(drawn cards, offers) of the seat's split still to make."""
    col = next((c for c in state.columns if c.distributor == seat and c.split is None), None)
    return None if col is None else (len(col.drawn), col.n_offers)


def apply(state: GameState, pid: str, action: Action, *,
          expected_version: int | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``pid``'s action and return the new state and what happened.

    ``action`` must be an Action value (text is parsed by ``decode``, where a person types
    it). Raises MalformedAction (``action.malformed``) for anything that is not a
    well-formed Action, and IllegalAction for a refusal, checked in this order:
    ``game.over``, ``state.stale``, [malformed], ``action.unknown_player``,
    ``action.not_your_turn``, ``action.wrong_phase``, ``action.split_shape``,
    ``action.no_such_card``, ``action.must_play``, ``action.illegal``. The given state is
    never changed.
    """
    if state.finished:
        raise IllegalAction("game.over", "The game is over.")
    if expected_version is not None and expected_version != state.version:
        raise IllegalAction("state.stale", "That prompt is out of date; the game has moved on.")
    action = checked(action)
    seat = state.seat(pid) if isinstance(pid, str) else None
    if seat is None:
        raise IllegalAction("action.unknown_player", "You are not playing in this game.")
    if seat not in state.waiting_seats:
        raise IllegalAction("action.not_your_turn", "It is not your turn.")
    if action.kind not in PHASE_KINDS[state.phase]:
        raise IllegalAction("action.wrong_phase", "That is not possible now.",
                            {"phase": str(state.phase)})
    if isinstance(action, Split):
        _check_split(state, seat, action)
    elif action not in legal_actions(state, pid):
        raise _refusal(state, seat, action)
    w = Work(state)
    _dispatch(w, seat, action)
    w.version += 1
    return w.freeze(), tuple(w.events)


def _check_split(state: GameState, seat: int, action: Split) -> None:
    """A split gives every drawn card an offer and leaves no offer empty (§4)."""
    size = _split_column_size(state, seat)
    assert size is not None  # the seat is awaited in the split phase
    cards, offers = size
    if len(action.assignment) != cards or set(action.assignment) != set(range(offers)):
        raise IllegalAction("action.split_shape",
                            "Put every card into an offer and leave no offer empty.",
                            {"cards": cards, "offers": offers})


def _refusal(state: GameState, seat: int, action: Action) -> IllegalAction:
    """The most specific reason a well-formed action of the right kind is not legal now."""
    if state.phase == Phase.PLAY:
        card = card_of(action)
        if card is not None and card not in state.hand:
            return IllegalAction("action.no_such_card", "You have no such card to play.",
                                 {"card": card})
        if isinstance(action, DiscardCard) and options.card_options(state, seat, action.card):
            return IllegalAction("action.must_play",
                                 f"{card_label(action.card)} has a legal effect: play it.",
                                 {"card": action.card})
    move = describe(action)
    return IllegalAction("action.illegal", f"That move is not allowed: {move}", {"move": move})


def card_of(action: Action) -> str | None:
    """The action card a play action uses (None for actions that play no card)."""
    if isinstance(action, PlaceAristocrat):
        return district_card(action.district)
    if isinstance(action, PlaceBridge | TakeOverBridge):
        return BRIDGE
    if isinstance(action, Transfer):
        return TRANSFER
    if isinstance(action, Doge):
        return DOGE
    if isinstance(action, Banish):
        return BANISHMENT
    if isinstance(action, DiscardCard):
        return action.card
    return None


def _dispatch(w: Work, seat: int, action: Action) -> None:
    phase = w.phase
    if phase == Phase.SETUP_REROLL:
        (setup.reroll if isinstance(action, Reroll) else setup.keep)(w)
    elif phase == Phase.SETUP_BRIDGES:
        assert isinstance(action, PlaceBridge)
        setup.place_setup_bridge(w, INDEX[action.a], INDEX[action.b])
    elif phase == Phase.SPLIT:
        assert isinstance(action, Split)
        rounds.commit_split(w, seat, action.assignment)
    elif phase == Phase.CHOOSE:
        assert isinstance(action, TakeOffer)
        rounds.take_offer(w, seat, action.index)
    elif phase == Phase.PLAY:
        _play(w, seat, action)
    elif phase == Phase.BANISH:
        assert w.banishment is not None
        if isinstance(action, DeclineBanishment):
            banishment.decline(w, seat)
        else:
            assert isinstance(action, Banish)
            banishment.name_district(w, seat, INDEX[action.district], "passage")
    elif phase == Phase.BANISH_VICTIMS:
        assert isinstance(action, ChooseBanished) and w.banishment is not None
        vec = [0] * w.n
        for p, k in action.removed:
            vec[w.players.index(p)] = k
        banishment.remove(w, w.banishment, tuple(vec))


def _play(w: Work, seat: int, action: Action) -> None:
    if isinstance(action, DiscardCard):
        rounds.discard(w, seat, action.card, reason="no legal effect")
        rounds.advance(w)
        return
    card = card_of(action)
    assert card is not None
    rounds.play_card(w, seat, card)
    if isinstance(action, PlaceAristocrat):
        cardplay.place_aristocrat(w, seat, action)
    elif isinstance(action, PlaceBridge):
        cardplay.new_bridge(w, seat, action)
    elif isinstance(action, TakeOverBridge):
        cardplay.take_over_bridge(w, seat, action)
    elif isinstance(action, Transfer):
        cardplay.transfer(w, seat, action)
    elif isinstance(action, Doge):
        cardplay.doge(w, seat, action)
    elif isinstance(action, Banish):
        banishment.name_district(w, seat, INDEX[action.district], "card")
        return  # banishment carries on by itself (R10 choice or advance)
    rounds.advance(w)
