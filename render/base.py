"""The static base: lagoon, districts, canals, district titles and the empty panel.

Nothing here depends on the game, so the fast path draws it once and keeps it as a
paletted image; the naive path redraws it every time.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.board import BY_NAME, DISTRICT_NAMES

from . import layout as L
from . import palette as C
from . import places as P
from .canvas import Canvas
from .fonts import font

_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
         5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def draw_base(cv: Canvas) -> None:
    """Everything that is the same on every board."""
    cv.rect((0, 0, L.MAP_RIGHT, L.HEIGHT), C.WATER)
    _waves(cv)
    for name in DISTRICT_NAMES:
        cv.polygon(L.POLYGONS[name], C.LAND[name], C.COAST, 6)
    _canals(cv)
    _bridge_slots(cv)
    for name in DISTRICT_NAMES:
        _title(cv, name)
    cv.rect(L.PANEL, C.PANEL_BG)


def _waves(cv: Canvas) -> None:
    """Small wave marks on the lagoon: a texture that says water without costing bytes."""
    for row, y in enumerate(range(30, L.HEIGHT, 70)):
        for x in range(20 + (row % 2) * 60, L.MAP_RIGHT - 30, 120):
            cv.line([(x, y), (x + 12, y - 6), (x + 24, y), (x + 36, y - 6)], C.WAVE, 3)


def _canals(cv: Canvas) -> None:
    """Canals with a quay edge on both banks, clipped to the land so they open cleanly
    into the lagoon."""
    land = Image.new("L", cv.image.size, 0)
    mask = ImageDraw.Draw(land)
    for name in DISTRICT_NAMES:
        mask.polygon(list(L.POLYGONS[name]), fill=255, outline=255, width=6)
    water = cv.image.copy()
    wv = type(cv)(water)
    for extra, colour in ((QUAY, C.COAST), (0, C.WATER)):
        for pts, width in canal_strokes():
            wv.line(pts, colour, width + extra)
            if len(pts) == 1:  # a junction, rounded off
                (x, y), r = pts[0], (width + extra) / 2
                wv.ellipse((x - r, y - r, x + r, y + r), colour)
    cv.image.paste(water, (0, 0), land)


QUAY = 10  # extra stroke width for the quay edges of a canal


def canal_strokes() -> list[tuple[list[L.Point], int]]:
    """Every canal as (polyline, water width); single points are junctions (discs). Canals
    that reach the lagoon are drawn a little past the coast so they open into it."""
    coast = {L.N_COAST, L.E_COAST, L.W_COAST}
    out: list[tuple[list[L.Point], int]] = [(_extended(L.GC), L.GRAND_CANAL_WIDTH)]
    for pts in L.SMALL_CANALS:
        out.append((_extended(pts) if pts[-1] in coast else list(pts), L.CANAL_WIDTH))
    junctions = {p for pts in L.SMALL_CANALS for p in (pts[0], pts[-1]) if p not in coast}
    out.extend(([p], L.CANAL_WIDTH) for p in sorted(junctions))
    return out


def _extended(pts: tuple[L.Point, ...]) -> list[L.Point]:
    """The polyline made 40 px longer at both ends so it opens into the lagoon."""
    def push(a: L.Point, b: L.Point) -> L.Point:
        d = math.dist(a, b)
        return (a[0] + (a[0] - b[0]) / d * 40, a[1] + (a[1] - b[1]) / d * 40)
    return [push(pts[0], pts[1]), *pts, push(pts[-1], pts[-2])]


def _bridge_slots(cv: Canvas) -> None:
    """Faint marks where a bridge can stand, so the canals read as places to build."""
    for sites in L.BRIDGE_SITES.values():
        for s in sites:
            nx, ny = -math.sin(s.angle), math.cos(s.angle)
            h = s.span / 2 - 4
            cv.line([(s.x - nx * h, s.y - ny * h), (s.x + nx * h, s.y + ny * h)], C.SLOT, 6)


def _title(cv: Canvas, name: str) -> None:
    """District name, its die (pips) and its two scoring values."""
    p = L.PLAQUES[name]
    d = BY_NAME[name]
    land = C.LAND[name]
    cv.text((p.x, p.y), name, font(*P.TITLE_FONT), C.INK, land, anchor="mt")
    x, y = P.values_origin(name)
    _die(cv, (x, y - P.DIE / 2), P.DIE, d.die)
    x += P.DIE + P.VALUE_GAP
    disc = P.DISC
    for value, colour in ((d.first, C.GOLD), (d.second, C.SILVER)):
        cv.ellipse((x, y - disc / 2, x + disc, y + disc / 2), colour, C.INK_SOFT, 2)
        cv.text((x + disc / 2, y + 1), str(value), font("bold", 28), C.INK, colour, anchor="mm")
        x += disc + P.VALUE_GAP


def _die(cv: Canvas, at: L.Point, size: int, number: int) -> None:
    x, y = at
    cv.rect((x, y, x + size, y + size), C.WHITE, C.INK, 2, radius=7)
    cx, cy, step, r = x + size / 2, y + size / 2, size * 0.26, size * 0.09
    for i, j in _PIPS[number]:
        px, py = cx + i * step, cy + j * step
        cv.ellipse((px - r, py - r, px + r, py + r), C.INK)
