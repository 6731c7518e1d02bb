"""The views: what leaves the engine for the bot, the renderer and the computer players.

The TypedDicts are the contract of docs/ENGINE_CONTRACT.md in code, so mypy checks every
reader; the builders are the one place a state becomes a view. A public view holds nothing
secret (RULES.md §9, R15): no drawn cards or splits before they are revealed, no deck order,
no seed. Everything is plain JSON (phases and kinds as their strings).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from .board import DISTRICT_NAMES, INDEX
from .cards import card_order
from .phases import AWAITED, Phase
from .rules.scoring import ranking

if TYPE_CHECKING:
    from .state import GameState

SCHEMA_VERSION = 1


class BridgeView(TypedDict):
    a: str  # district names in board order
    b: str
    owner: str


class RoleView(TypedDict):
    distributor: str
    decision_makers: list[str]  # in choosing order


class OfferView(TypedDict):
    index: int
    cards: list[str]
    taken_by: str | None


class ColumnView(TypedDict):
    distributor: str
    offers: list[OfferView]


class HandView(TypedDict):
    player: str
    cards: list[str]  # action cards of the offer being played, still to play


class DeckView(TypedDict):
    action: int
    limit: int


class BanishmentView(TypedDict):
    banisher: str
    district: str | None
    roll: int | None
    reason: str  # "card" | "passage"


class ChoosingView(TypedDict):
    """The revealed column being chosen from or played now: ``offers[column]``."""

    distributor: str
    column: int


class StandingView(TypedDict):
    """One row of the standings: prestige, then aristocrats in San Marco (§8, R14)."""

    player: str
    rank: int  # players still tied share a rank; at game end rank 1 = the winners
    prestige: int
    san_marco: int


class PublicView(TypedDict):
    """Everything anyone may see (docs/ENGINE_CONTRACT.md lists the keys)."""

    schema: int
    version: int
    players: list[str]  # seat order, seat 1 first
    districts: dict[str, dict[str, int]]  # all six districts, every player (0 included)
    bridges: list[BridgeView]
    bridges_in_supply: int
    reserve: dict[str, int]
    prestige: dict[str, int]
    limit: dict[str, int]  # limit points this passage
    limit_cards: dict[str, list[int]]
    doge: str | None
    passage: int
    round: int  # within the passage, 0 in set-up
    extra_round: bool
    starter: str | None
    in_passage: list[str]
    roles: list[RoleView]
    phase: str  # a Phase value
    waiting_for: list[str]
    awaiting: dict[str, str]  # pid -> an Awaited value
    offers: list[ColumnView]  # revealed columns only
    hand: HandView | None
    split_committed: dict[str, bool]  # distributors whose offers are not revealed yet
    setup_rolls: dict[str, list[int]]
    deck: DeckView
    discard: list[str]
    banishment: BanishmentView | None
    finished: bool
    winners: list[str]
    choosing: ChoosingView | None
    standings: list[StandingView]  # best first


class PrivatePart(TypedDict, total=False):
    """What a distributor alone sees before the reveal; empty for everyone else."""

    drawn: list[str]
    offers: int  # how many offers the split makes
    split: list[list[str]] | None


class PrivateView(PublicView):
    private: PrivatePart


def build_public(s: GameState) -> PublicView:
    """The public view of a state (no secrets, R15)."""
    p = s.players
    n = len(p)
    offers: list[ColumnView] = []
    for col in s.columns:
        if col.revealed:
            offers.append({
                "distributor": p[col.distributor],
                "offers": [{"index": k, "cards": list(col.offer(k)), "taken_by": _pid(p, t)}
                           for k, t in enumerate(col.taken)],
            })
    b = s.banishment
    sm = s.districts[INDEX["San Marco"]]
    hand: HandView | None = None
    if s.hand_player is not None and s.phase in (Phase.PLAY, Phase.BANISH_VICTIMS):
        hand = {"player": p[s.hand_player], "cards": list(s.hand)}
    return {
        "schema": SCHEMA_VERSION,
        "version": s.version,
        "players": list(p),
        "districts": {name: {p[i]: s.districts[d][i] for i in range(n)}
                      for d, name in enumerate(DISTRICT_NAMES)},
        "bridges": [{"a": DISTRICT_NAMES[a], "b": DISTRICT_NAMES[b_], "owner": p[o]}
                    for a, b_, o in s.bridges],
        "bridges_in_supply": s.bridges_in_supply(),
        "reserve": {p[i]: s.reserve[i] for i in range(n)},
        "prestige": {p[i]: s.prestige[i] for i in range(n)},
        "limit": {p[i]: s.limit_total(i) for i in range(n)},
        "limit_cards": {p[i]: list(s.limit_cards[i]) for i in range(n)},
        "doge": None if s.doge is None else DISTRICT_NAMES[s.doge],
        "passage": s.passage,
        "round": s.round,
        "extra_round": s.extra_round,
        "starter": None if s.starter is None else p[s.starter],
        "in_passage": [p[i] for i in s.in_passage],
        "roles": [{"distributor": p[c.distributor],
                   "decision_makers": [p[i] for i in c.deciders]} for c in s.columns],
        "phase": str(s.phase),
        "waiting_for": list(s.waiting_for),
        "awaiting": {pid: str(AWAITED[Phase(s.phase)]) for pid in s.waiting_for},
        "offers": offers,
        "hand": hand,
        "split_committed": {p[c.distributor]: c.split is not None for c in s.columns
                            if not c.revealed},
        "setup_rolls": {p[i]: list(s.setup_rolls[i]) for i in range(n)},
        "deck": {"action": len(s.action_deck), "limit": len(s.limit_deck)},
        "discard": sorted(s.action_discard, key=card_order),
        "banishment": None if b is None else {
            "banisher": p[b.banisher],
            "district": None if b.district is None else DISTRICT_NAMES[b.district],
            "roll": b.roll, "reason": b.reason},
        "finished": s.finished,
        "winners": [p[i] for i in s.winners],
        "choosing": _choosing(s),
        "standings": [{"player": p[i], "rank": rank, "prestige": s.prestige[i],
                       "san_marco": sm[i]} for i, rank in ranking(s.prestige, sm)],
    }


def _pid(players: tuple[str, ...], seat: int | None) -> str | None:
    return None if seat is None else players[seat]


def _choosing(s: GameState) -> ChoosingView | None:
    """Columns are revealed in order (R5), so the current one is also ``offers[column]``."""
    if s.finished or not s.columns or s.column >= len(s.columns):
        return None
    col = s.columns[s.column]
    if not col.revealed:
        return None
    return {"distributor": s.players[col.distributor], "column": s.column}


def build_private(s: GameState, view: PublicView, pid: str) -> PrivateView:
    """``view`` (the state's public view) plus pid's own drawn cards and split (R15)."""
    private: PrivatePart = {}
    seat = s.seat(pid)
    for col in s.columns:
        if seat is not None and col.distributor == seat and not col.revealed:
            private = {
                "drawn": list(col.drawn),
                "offers": col.n_offers,
                "split": None if col.split is None
                else [list(col.offer(k)) for k in range(col.n_offers)],
            }
    return {**view, "private": private}
