"""A mutable working copy of a GameState, used inside one ``apply`` and then frozen.

Rule functions change a ``Work`` and append events; nothing outside ``apply``/``new_game``
ever sees it, so the state values the callers hold are never mutated.
"""

from __future__ import annotations

from typing import Any

from ..board import ARISTOCRATS_PER_PLAYER, DISTRICT_NAMES
from ..events import Event
from ..phases import Phase
from ..rng import Rng
from ..state import Banishment, Column, GameState


class Work:
    def __init__(self, s: GameState) -> None:
        self.players = s.players
        self.n = len(s.players)
        self.seed = s.seed
        self.rng = Rng(s.rng)
        self.version = s.version
        self.phase = Phase(s.phase)
        self.districts = [list(r) for r in s.districts]
        self.bridges = list(s.bridges)
        self.reserve = list(s.reserve)
        self.prestige = list(s.prestige)
        self.limit_cards = [list(x) for x in s.limit_cards]
        self.doge = s.doge
        self.passage = s.passage
        self.round = s.round
        self.extra_round = s.extra_round
        self.starter = s.starter
        self.in_passage = list(s.in_passage)
        self.action_deck = list(s.action_deck)
        self.action_discard = list(s.action_discard)
        self.limit_deck = list(s.limit_deck)
        self.setup_rolls = [list(x) for x in s.setup_rolls]
        self.queue = list(s.queue)
        self.columns: list[Column] = list(s.columns)
        self.column = s.column
        self.steps = list(s.steps)
        self.hand = list(s.hand)
        self.hand_player = s.hand_player
        self.banishment: Banishment | None = s.banishment
        self.winners = list(s.winners)
        self.events: list[Event] = []

    @classmethod
    def fresh(cls, players: tuple[str, ...], seed: int) -> Work:
        n = len(players)
        s = GameState(players=players, seed=seed, rng=seed,
                      districts=tuple((0,) * n for _ in DISTRICT_NAMES),
                      reserve=(ARISTOCRATS_PER_PLAYER,) * n, prestige=(0,) * n,
                      limit_cards=((),) * n, setup_rolls=((),) * n)
        return cls(s)

    def freeze(self) -> GameState:
        return GameState(
            players=self.players, seed=self.seed, rng=self.rng.state, version=self.version,
            phase=self.phase, districts=tuple(tuple(r) for r in self.districts),
            bridges=tuple(sorted(self.bridges)), reserve=tuple(self.reserve),
            prestige=tuple(self.prestige), limit_cards=tuple(tuple(x) for x in self.limit_cards),
            doge=self.doge, passage=self.passage, round=self.round,
            extra_round=self.extra_round, starter=self.starter,
            in_passage=tuple(self.in_passage), action_deck=tuple(self.action_deck),
            action_discard=tuple(self.action_discard), limit_deck=tuple(self.limit_deck),
            setup_rolls=tuple(tuple(x) for x in self.setup_rolls), queue=tuple(self.queue),
            columns=tuple(self.columns), column=self.column, steps=tuple(self.steps),
            hand=tuple(self.hand), hand_player=self.hand_player, banishment=self.banishment,
            winners=tuple(self.winners),
        )

    # ---- small helpers used by several rule modules --------------------------------------
    def pid(self, seat: int) -> str:
        return self.players[seat]

    def emit(self, type_: str, visible_to: tuple[str, ...] | None = None, **data: Any) -> None:
        self.events.append(Event(type_, data, visible_to))

    def count(self, district: int, seat: int) -> int:
        return self.districts[district][seat]

    def take_aristocrat(self, seat: int, source: int | None) -> None:
        """R13: from the reserve, or from ``source`` (a district) when the reserve is empty."""
        if source is None:
            assert self.reserve[seat] > 0
            self.reserve[seat] -= 1
        else:
            assert self.reserve[seat] == 0 and self.districts[source][seat] > 0
            self.districts[source][seat] -= 1

    def add_prestige(self, seat: int, amount: int) -> None:
        self.prestige[seat] += amount
