"""The board table: districts, their die numbers and scoring values, and the canals.

R1: only San Marco's 8/6, die 1 = San Marco and die 6 = Castello are printed in the rule
texts; the other values and die numbers are project defaults, and so are the ten neighbour
pairs (the books print no list). ``DISTRICTS`` and ``_PAIRS`` below are the ONE data table a
group edits to match its printed board; every rule reads them from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class District:
    """One district of Venice as printed on the board."""

    name: str
    code: str  # two letters, used in action text
    die: int
    first: int
    second: int


DISTRICTS: tuple[District, ...] = (
    District("San Marco", "SM", 1, 8, 6),
    District("Cannaregio", "CN", 2, 7, 4),
    District("Santa Croce", "SC", 3, 5, 3),
    District("San Polo", "SP", 4, 6, 3),
    District("Dorsoduro", "DD", 5, 6, 4),
    District("Castello", "CS", 6, 7, 5),
)

DISTRICT_NAMES: tuple[str, ...] = tuple(d.name for d in DISTRICTS)
BY_NAME: dict[str, District] = {d.name: d for d in DISTRICTS}
BY_CODE: dict[str, District] = {d.code: d for d in DISTRICTS}
BY_DIE: dict[int, District] = {d.die: d for d in DISTRICTS}
# A district's index in board order: the engine's internal district number everywhere.
INDEX: Mapping[str, int] = MappingProxyType({name: i for i, name in enumerate(DISTRICT_NAMES)})

# The ten canals (neighbouring pairs), RULES.md §2: part of the board table above. R1: a
# project default like the values (taken from the real sestieri of Venice); bridges and the
# Doge's canal crossing use only these pairs.
_PAIRS = (
    ("San Marco", "Cannaregio"),
    ("San Marco", "Castello"),
    ("San Marco", "San Polo"),
    ("San Marco", "Dorsoduro"),
    ("Cannaregio", "Castello"),
    ("Cannaregio", "Santa Croce"),
    ("Cannaregio", "San Polo"),
    ("Santa Croce", "San Polo"),
    ("Santa Croce", "Dorsoduro"),
    ("San Polo", "Dorsoduro"),
)


def pair(a: str, b: str) -> tuple[str, str]:
    """The canonical (board-ordered) form of a neighbouring pair."""
    return (a, b) if INDEX[a] < INDEX[b] else (b, a)


PAIRS: tuple[tuple[str, str], ...] = tuple(sorted({pair(a, b) for a, b in _PAIRS},
                                                  key=lambda p: (INDEX[p[0]], INDEX[p[1]])))
PAIR_SET: frozenset[tuple[str, str]] = frozenset(PAIRS)
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    name: tuple(n for n in DISTRICT_NAMES if pair(name, n) in PAIR_SET and n != name)
    for name in DISTRICT_NAMES
}

TOTAL_BRIDGES = 12
MAX_BRIDGES_PER_PAIR = 3
ARISTOCRATS_PER_PLAYER = 25
PASSAGES = 3
LIMIT_OUT = 10  # limit points that take a player out of the passage (§7)
CANAL_CROSSING_COST = 2  # R11/R12: the Doge's crossing from a bridgeless district


def is_neighbour_pair(a: str, b: str) -> bool:
    """True if a canal joins the two districts (bridges may stand only there, R2)."""
    return a in BY_NAME and b in BY_NAME and a != b and pair(a, b) in PAIR_SET
