"""The game state: one frozen value. Internally players are seat indices (0-based) and
districts are indices into ``board.DISTRICTS``; views and events speak pids and names."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Any

from . import board
from .board import DISTRICT_NAMES, TOTAL_BRIDGES
from .cards import ACTION_DECK, ALL_CARDS, LIMIT_DECK, is_limit
from .errors import InvalidState
from .phases import Phase
from .views import SCHEMA_VERSION, PrivateView, PublicView, build_private, build_public


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the stone tablet this round: a distributor, their decision-makers in
    choosing order, the cards they drew (secret until revealed) and their split."""

    distributor: int
    deciders: tuple[int, ...]
    drawn: tuple[str, ...]
    split: tuple[int, ...] | None = None
    revealed: bool = False
    taken: tuple[int | None, ...] = ()

    @property
    def n_offers(self) -> int:
        return len(self.deciders) + 1

    def offer(self, k: int) -> tuple[str, ...]:
        assert self.split is not None
        return tuple(c for c, o in zip(self.drawn, self.split, strict=True) if o == k)


@dataclass(frozen=True, slots=True)
class Banishment:
    """A banishment under way: named district and roll once known; reason card|passage."""

    banisher: int
    district: int | None
    roll: int | None
    reason: str


@dataclass(frozen=True)
class GameState:
    """Everything about one game. Treat as a value: ``apply`` returns a new one."""

    players: tuple[str, ...]
    seed: int
    rng: int
    version: int = 0
    phase: Phase = Phase.SETUP_REROLL
    districts: tuple[tuple[int, ...], ...] = ()  # [district][seat]
    bridges: tuple[tuple[int, int, int], ...] = ()  # (a, b, owner) with a < b, sorted
    reserve: tuple[int, ...] = ()
    prestige: tuple[int, ...] = ()
    limit_cards: tuple[tuple[int, ...], ...] = ()
    doge: int | None = None
    passage: int = 1
    round: int = 0
    extra_round: bool = False
    starter: int | None = None
    in_passage: tuple[int, ...] = ()
    action_deck: tuple[str, ...] = ()
    action_discard: tuple[str, ...] = ()
    limit_deck: tuple[str, ...] = ()
    setup_rolls: tuple[tuple[int, ...], ...] = ()
    queue: tuple[int, ...] = ()  # set-up: seats still to decide (R3) or to place a bridge
    columns: tuple[Column, ...] = ()
    column: int = 0
    steps: tuple[tuple[str, int], ...] = ()  # what is left of the current column
    hand: tuple[str, ...] = ()  # action cards of the offer being played, still to play
    hand_player: int | None = None
    banishment: Banishment | None = None
    winners: tuple[int, ...] = ()
    # Answers computed from this value (legal actions, the public view). init=False, so
    # dataclasses.replace() and evolve() give the new value a fresh cache: a shared one once
    # made a changed state answer with the old state's legal actions.
    _cache: dict[Any, Any] = field(default_factory=dict, init=False, compare=False,
                                   repr=False, hash=False)

    # ---- derived facts -------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == Phase.GAME_OVER

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players who must decide now (two distributors split at once)."""
        return tuple(self.players[s] for s in self.waiting_seats)

    @property
    def waiting_seats(self) -> tuple[int, ...]:
        p = self.phase
        if p in (Phase.SETUP_REROLL, Phase.SETUP_BRIDGES):
            return self.queue[:1]
        if p == Phase.SPLIT:
            return tuple(c.distributor for c in self.columns if c.split is None)
        if p == Phase.CHOOSE:
            return (self.steps[0][1],) if self.steps else ()
        if p == Phase.PLAY:
            return () if self.hand_player is None else (self.hand_player,)
        if p in (Phase.BANISH, Phase.BANISH_VICTIMS):
            return () if self.banishment is None else (self.banishment.banisher,)
        return ()

    def seat(self, pid: str) -> int | None:
        try:
            return self.players.index(pid)
        except ValueError:
            return None

    def limit_total(self, seat: int) -> int:
        return sum(self.limit_cards[seat])

    def bridges_in_supply(self) -> int:
        return TOTAL_BRIDGES - len(self.bridges)

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (and, like every new value, its own empty cache)."""
        return replace(self, **changes)

    # ---- views ------------------------------------------------------------------------
    def public_view(self) -> PublicView:
        """Everything anyone may see (RULES.md §9, R15): no drawn cards, splits, deck order
        or seed. A fresh copy each call: the caller may change it."""
        key = ("public_view",)
        if key in self._cache:
            cached: PublicView = json.loads(self._cache[key])
            return cached
        view = build_public(self)
        self._cache[key] = json.dumps(view)
        return view

    def private_view(self, pid: str) -> PrivateView:
        """The public view plus what pid alone may see: their drawn cards and split (R15)."""
        return build_private(self, self.public_view(), pid)

    # ---- JSON ---------------------------------------------------------------------------
    def to_json(self) -> str:
        """Lossless, versioned JSON (contains secrets: for the store, never for a channel)."""
        data: dict[str, Any] = {"schema": SCHEMA_VERSION}
        for f in fields(self):
            if f.name == "_cache":
                continue
            value = getattr(self, f.name)
            if f.name == "columns":
                value = [{"distributor": c.distributor, "deciders": list(c.deciders),
                          "drawn": list(c.drawn),
                          "split": None if c.split is None else list(c.split),
                          "revealed": c.revealed, "taken": list(c.taken)} for c in value]
            elif f.name == "banishment" and value is not None:
                value = {"banisher": value.banisher, "district": value.district,
                         "roll": value.roll, "reason": value.reason}
            data[f.name] = _jsonable(value)
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Load and validate. Raises InvalidState naming exactly what is wrong."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise InvalidState(f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise InvalidState("the state must be a JSON object")
        if data.get("schema") != SCHEMA_VERSION:
            raise InvalidState(f"schema {data.get('schema')!r} is not {SCHEMA_VERSION}")
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "_cache":
                continue
            if f.name not in data:
                raise InvalidState(f"field {f.name!r} is missing")
            kwargs[f.name] = data[f.name]
        try:
            state = _build(kwargs)
        except InvalidState:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise InvalidState(f"malformed state: {exc}") from None
        _validate(state)
        return state


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _ints(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise InvalidState(f"{name} must be a list of integers")
    return tuple(value)


def _strs(value: Any, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidState(f"{name} must be a list of strings")
    return tuple(value)


def _build(d: dict[str, Any]) -> GameState:
    for name in ("seed", "rng", "version", "passage", "round", "column"):
        if type(d[name]) is not int:
            raise InvalidState(f"{name} must be an integer")
    cols = []
    for i, c in enumerate(d["columns"]):
        cols.append(Column(c["distributor"], _ints(c["deciders"], f"columns[{i}].deciders"),
                           _strs(c["drawn"], f"columns[{i}].drawn"),
                           None if c["split"] is None else _ints(c["split"],
                                                                 f"columns[{i}].split"),
                           bool(c["revealed"]), tuple(c["taken"])))
    b = d["banishment"]
    try:
        phase = Phase(d["phase"])
    except ValueError:
        raise InvalidState(f"phase {d['phase']!r} is unknown") from None
    return GameState(
        players=_strs(d["players"], "players"), seed=d["seed"], rng=d["rng"],
        version=d["version"], phase=phase,
        districts=tuple(_ints(row, "districts row") for row in d["districts"]),
        bridges=tuple(tuple(_ints(x, "bridge")) for x in d["bridges"]),  # type: ignore[misc]
        reserve=_ints(d["reserve"], "reserve"), prestige=_ints(d["prestige"], "prestige"),
        limit_cards=tuple(_ints(x, "limit_cards") for x in d["limit_cards"]),
        doge=d["doge"], passage=d["passage"], round=d["round"],
        extra_round=bool(d["extra_round"]), starter=d["starter"],
        in_passage=_ints(d["in_passage"], "in_passage"),
        action_deck=_strs(d["action_deck"], "action_deck"),
        action_discard=_strs(d["action_discard"], "action_discard"),
        limit_deck=_strs(d["limit_deck"], "limit_deck"),
        setup_rolls=tuple(_ints(x, "setup_rolls") for x in d["setup_rolls"]),
        queue=_ints(d["queue"], "queue"), columns=tuple(cols), column=d["column"],
        steps=tuple((str(k), int(s)) for k, s in d["steps"]),
        hand=_strs(d["hand"], "hand"), hand_player=d["hand_player"],
        banishment=None if b is None else Banishment(b["banisher"], b["district"], b["roll"],
                                                     b["reason"]),
        winners=_ints(d["winners"], "winners"),
    )


def _validate(s: GameState) -> None:
    n = len(s.players)
    if n not in (3, 4) or len(set(s.players)) != n:
        raise InvalidState("players must be 3 or 4 distinct ids")
    if len(s.districts) != len(DISTRICT_NAMES) or any(len(r) != n for r in s.districts):
        raise InvalidState("districts must be 6 rows of one count per player")
    for name, vec in (("reserve", s.reserve), ("prestige", s.prestige),
                      ("limit_cards", s.limit_cards), ("setup_rolls", s.setup_rolls)):
        if len(vec) != n:
            raise InvalidState(f"{name} must have one entry per player")
    if len(s.bridges) > TOTAL_BRIDGES:
        raise InvalidState("more than 12 bridges")
    for a, b, o in s.bridges:
        if not (0 <= a < b < 6) or not (0 <= o < n) or \
                not board.is_neighbour_pair(DISTRICT_NAMES[a], DISTRICT_NAMES[b]):
            raise InvalidState(f"bridge {(a, b, o)} is not on a canal")
    for seat in range(n):
        placed = sum(r[seat] for r in s.districts) + sum(1 for br in s.bridges if br[2] == seat)
        if placed + s.reserve[seat] != board.ARISTOCRATS_PER_PLAYER:
            raise InvalidState(f"player {s.players[seat]} does not have 25 aristocrats")
    if s.doge is not None and not 0 <= s.doge < 6:
        raise InvalidState("doge is not a district")
    if not 1 <= s.passage <= board.PASSAGES:
        raise InvalidState("passage must be 1-3")
    for c in s.action_deck + s.action_discard + s.limit_deck + s.hand:
        if c not in ALL_CARDS:
            raise InvalidState(f"{c!r} is not a card")
    for row in s.limit_cards:
        for v in row:
            if v not in (1, 2, 3):
                raise InvalidState("limit cards are worth 1, 2 or 3")
    _check_cards(s)


def _column_cards(c: Column) -> list[str]:
    """The cards still lying in a column: all of them until the split is committed, then
    those of the offers nobody has taken yet."""
    if c.split is None:
        return list(c.drawn)
    if len(c.split) != len(c.drawn) or len(c.taken) != c.n_offers or \
            any(not 0 <= k < c.n_offers for k in c.split):
        raise InvalidState("a column's split does not match its cards and offers")
    return [card for card, k in zip(c.drawn, c.split, strict=True) if c.taken[k] is None]


def _check_cards(s: GameState) -> None:
    """RULES.md §1: all 62 action and 28 limit cards are somewhere (deck, discards, the hand
    being played, the columns, the players' limit cards), each exactly once."""
    in_columns = [card for c in s.columns for card in _column_cards(c)]
    for card in in_columns:
        if card not in ALL_CARDS:
            raise InvalidState(f"{card!r} is not a card")
    actions = Counter(s.action_deck + s.action_discard + s.hand) + \
        Counter(c for c in in_columns if not is_limit(c))
    limits = Counter(s.limit_deck) + Counter(c for c in in_columns if is_limit(c)) + \
        Counter(f"limit:{v}" for row in s.limit_cards for v in row)
    for what, have, want in (("action", actions, Counter(ACTION_DECK)),
                             ("limit", limits, Counter(LIMIT_DECK))):
        if have != want:
            missing, extra = want - have, have - want
            parts = [f"missing {n} x {c}" for c, n in sorted(missing.items())]
            parts += [f"{n} x {c} too many" for c, n in sorted(extra.items())]
            raise InvalidState(f"the {what} cards do not add up: " + ", ".join(parts))
