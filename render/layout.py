"""Where things go on the 1600x1000 picture.

The map is a stylised Venice, not a street map: the Grand Canal runs as an S from the
north-west to the basin of San Marco, with Cannaregio, San Marco and Castello on its
north-east bank and Santa Croce, San Polo and Dorsoduro on the other. That single drawing
gives exactly the ten neighbouring pairs of RULES.md §2 (the three districts of each bank
touch each other; across the Grand Canal only CN-SC, CN-SP, SM-SP and SM-DD face each
other), so every canal on the picture is a place where a bridge may stand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.board import DISTRICT_NAMES, MAX_BRIDGES_PER_PAIR, PAIRS

Point = tuple[float, float]

WIDTH, HEIGHT = 1600, 1000
MAP_RIGHT = 1060          # the map is x < MAP_RIGHT, the side panel the rest
PANEL = (MAP_RIGHT, 0, WIDTH, HEIGHT)

GRAND_CANAL_WIDTH = 54
CANAL_WIDTH = 26

# -- the key points ------------------------------------------------------------------------
# The Grand Canal, from the lagoon in the north-west to the basin in the south-east.
GC: tuple[Point, ...] = ((40, 372), (250, 322), (430, 330), (585, 405), (642, 560),
                         (622, 725), (700, 850), (850, 915))
C1: Point = (305, 324)     # Santa Croce | San Polo canal leaves the Grand Canal
J1: Point = (617, 490)     # Cannaregio | San Marco canal leaves the Grand Canal
C2: Point = (626, 690)     # San Polo | Dorsoduro canal leaves the Grand Canal
T_NE: Point = (752, 338)   # where Cannaregio, San Marco and Castello meet
T_SW: Point = (305, 700)   # where Santa Croce, San Polo and Dorsoduro meet
N_COAST: Point = (640, 88)    # Cannaregio | Castello canal reaches the lagoon
E_COAST: Point = (1030, 762)  # San Marco | Castello canal reaches the lagoon
W_COAST: Point = (52, 778)    # Santa Croce | Dorsoduro canal reaches the lagoon

_NORTH_COAST = ((40, 250), (110, 140), (280, 72), (500, 52))
_EAST_COAST = ((900, 128), (1012, 212), (1046, 370), (1050, 560), (1046, 680))
_SOUTH_COAST = ((760, 962), (560, 984), (340, 972), (150, 912))
_WEST_COAST = ((18, 630), (16, 480))


def _segment_of(p: Point) -> int:
    """Index i of the Grand Canal segment GC[i]..GC[i+1] that holds p."""
    best, best_d = 0, math.inf
    for i in range(len(GC) - 1):
        d = _dist_to_segment(p, GC[i], GC[i + 1])
        if d < best_d:
            best, best_d = i, d
    return best


def _dist_to_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _gc_between(p: Point, q: Point) -> list[Point]:
    """The Grand Canal from p to q (both on it), inclusive."""
    i, j = _segment_of(p), _segment_of(q)
    return [p, *GC[i + 1: j + 1], q]


# -- the six districts as polygons ---------------------------------------------------------
POLYGONS: dict[str, tuple[Point, ...]] = {
    "Cannaregio": (GC[0], *_NORTH_COAST, N_COAST, T_NE, J1,
                   *reversed(_gc_between(GC[0], J1)[1:-1])),
    "Castello": (N_COAST, *_EAST_COAST, E_COAST, T_NE),
    "San Marco": (J1, T_NE, E_COAST, (960, 830), GC[-1], *reversed(_gc_between(J1, GC[-1])[1:-1])),
    "Santa Croce": (GC[0], *_gc_between(GC[0], C1)[1:], T_SW, W_COAST, *_WEST_COAST),
    "San Polo": (*_gc_between(C1, C2), T_SW),
    "Dorsoduro": (*_gc_between(C2, GC[-1]), *_SOUTH_COAST, W_COAST, T_SW),
}

# -- the canals between districts (each a polyline) ----------------------------------------
BORDERS: dict[tuple[str, str], tuple[Point, ...]] = {
    ("San Marco", "Cannaregio"): (J1, T_NE),
    ("San Marco", "Castello"): (T_NE, E_COAST),
    ("San Marco", "San Polo"): tuple(_gc_between(J1, C2)),
    ("San Marco", "Dorsoduro"): tuple(_gc_between(C2, GC[-1])),
    ("Cannaregio", "Castello"): (T_NE, N_COAST),
    ("Cannaregio", "Santa Croce"): tuple(_gc_between(GC[0], C1)),
    ("Cannaregio", "San Polo"): tuple(_gc_between(C1, J1)),
    ("Santa Croce", "San Polo"): (C1, T_SW),
    ("Santa Croce", "Dorsoduro"): (T_SW, W_COAST),
    ("San Polo", "Dorsoduro"): (T_SW, C2),
}
GRAND_CANAL_PAIRS = frozenset({("San Marco", "San Polo"), ("San Marco", "Dorsoduro"),
                               ("Cannaregio", "Santa Croce"), ("Cannaregio", "San Polo")})
SMALL_CANALS: tuple[tuple[Point, ...], ...] = tuple(
    pts for pair, pts in BORDERS.items() if pair not in GRAND_CANAL_PAIRS)

assert set(BORDERS) == set(PAIRS), "the map must show exactly the board's neighbouring pairs"
assert set(POLYGONS) == set(DISTRICT_NAMES)


# -- bridge places -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BridgeSite:
    """One place for a bridge: its centre, the canal's direction there, and the canal width."""

    x: float
    y: float
    angle: float  # radians, direction along the canal
    span: float   # canal width the bridge crosses


def _point_at(points: tuple[Point, ...], s: float) -> tuple[Point, float]:
    """The point at arc length s along a polyline, and the direction there."""
    for a, b in zip(points, points[1:], strict=False):
        seg = math.dist(a, b)
        if s <= seg or b == points[-1]:
            t = min(1.0, s / seg)
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), math.atan2(
                b[1] - a[1], b[0] - a[0])
        s -= seg
    raise ValueError("empty polyline")


def _length(points: tuple[Point, ...]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))


BRIDGE_GAP = 58  # between the centres of bridges on one pair


def _sites(pair: tuple[str, str]) -> tuple[BridgeSite, ...]:
    pts = BORDERS[pair]
    mid = _length(pts) / 2
    span = GRAND_CANAL_WIDTH if pair in GRAND_CANAL_PAIRS else CANAL_WIDTH
    sites = []
    for k in range(MAX_BRIDGES_PER_PAIR):
        offset = (k - (MAX_BRIDGES_PER_PAIR - 1) / 2) * BRIDGE_GAP
        (x, y), angle = _point_at(pts, mid + offset)
        sites.append(BridgeSite(x, y, angle, span))
    return tuple(sites)


BRIDGE_SITES: dict[tuple[str, str], tuple[BridgeSite, ...]] = {p: _sites(p) for p in PAIRS}


# -- what sits inside each district ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Plaque:
    """Where a district's title goes and how its player counts are laid out."""

    x: float        # centre of the title line
    y: float        # top of the title line
    cols: int       # player badges per row
    doge: Point     # where the Doge stands in this district
    bx: float = 0   # centre of the badges, if not under the title
    vx: float = 0   # centre of the die and values row, if not under the title
    by: float = 0   # top of the badges, if not under the values
    shear: float = 0  # each badge row this far right of the one above (slanted districts)


PLAQUES: dict[str, Plaque] = {  # found by search under tests/render/test_layout.py's rules
    "Cannaregio": Plaque(436, 84, 4, (640, 277), by=192),
    "Castello": Plaque(824, 152, 1, (995, 573), bx=856, by=260, shear=40),
    "San Marco": Plaque(777, 574, 2, (802, 543), bx=805, by=682, shear=30),
    "Santa Croce": Plaque(164, 414, 2, (101, 682), by=522),
    "San Polo": Plaque(413, 420, 2, (520, 469), bx=441, by=528),
    "Dorsoduro": Plaque(336, 750, 2, (192, 830), bx=516, by=826),
}

BADGE_W, BADGE_H = 88, 50
BADGE_GAP_X, BADGE_GAP_Y = 14, 26  # room for the leaders' gold frames and crowns
TITLE_H = 40        # the name line
VALUES_H = 48       # the die and the 1st/2nd values line
DOGE_R = 24


def badge_origin(district: str, slot: int) -> Point:
    """Top-left corner of the ``slot``-th player badge in a district."""
    p = PLAQUES[district]
    row, col = divmod(slot, p.cols)
    total = p.cols * BADGE_W + (p.cols - 1) * BADGE_GAP_X
    return ((p.bx or p.x) - total / 2 + col * (BADGE_W + BADGE_GAP_X) + row * p.shear,
            (p.by or p.y + TITLE_H + VALUES_H + 16) + row * (BADGE_H + BADGE_GAP_Y))
