"""Where each thing inside a district is drawn, as boxes.

The drawing code (base.py, draw.py) and the layout tests use the same boxes, so a test can
prove that no title, die, badge, crown or Doge touches another, a bridge, or the rim of a
highlighted district, for any number of players.
"""

from __future__ import annotations

import math

from . import layout as L
from .fonts import font
from .words import ENGLISH, Tr

Box = tuple[float, float, float, float]  # left, top, right, bottom

TITLE_FONT = ("serif", 30)
DIE, DISC, VALUE_GAP = 40, 44, 12          # the die and the two value discs
VALUES_W = DIE + 2 * DISC + 2 * VALUE_GAP
CROWN_W = 26
CROWN_X = 3                                 # the crown's left end, from the badge's
FRAME = 5                                   # the leader's gold frame around a badge
EMPTY_FONT = ("sans", 24)
BRIDGE_HALF_W = 16                          # half the plank's width, along the canal
BRIDGE_OVERHANG = 14                        # plank length beyond each bank


def title_box(name: str) -> Box:
    """The district's name, drawn centred at the plaque's top."""
    p = L.PLAQUES[name]
    left, top, right, bottom = font(*TITLE_FONT).getbbox(name, anchor="mt")
    return (p.x + left, p.y + top, p.x + right, p.y + bottom)


def values_origin(name: str) -> L.Point:
    """Left end and vertical centre of the die | first value | second value row."""
    p = L.PLAQUES[name]
    return ((p.vx or p.x) - VALUES_W / 2, p.y + L.TITLE_H + L.VALUES_H / 2)


def values_box(name: str) -> Box:
    x, y = values_origin(name)
    return (x, y - DISC / 2, x + VALUES_W, y + DISC / 2)


def badge_box(name: str, slot: int) -> Box:
    """A player's badge with the leader's gold frame and crown (drawn up and left of it)."""
    x, y = L.badge_origin(name, slot)
    return (x - FRAME, y + 2 - CROWN_W * 0.7, x + L.BADGE_W + FRAME, y + L.BADGE_H + FRAME)


def empty_text(tr: Tr = ENGLISH) -> str:
    """What an empty district says."""
    return tr.gettext("no aristocrats")


def empty_box(name: str, tr: Tr = ENGLISH) -> Box:
    """'no aristocrats', where the first badge would be."""
    x, y = empty_origin(name)
    left, top, right, bottom = font(*EMPTY_FONT).getbbox(empty_text(tr), anchor="mm")
    return (x + left, y + top, x + right, y + bottom)


def empty_origin(name: str) -> L.Point:
    p = L.PLAQUES[name]
    _, y = L.badge_origin(name, 0)
    return (p.bx or p.x, y + L.BADGE_H / 2)


def doge_box(name: str) -> Box:
    x, y = L.PLAQUES[name].doge
    r = L.DOGE_R + 3  # its black ring
    return (x - r, y - r, x + r, y + r)


def district_boxes(name: str, players: int = 4, tr: Tr = ENGLISH) -> dict[str, Box]:
    """Everything that may be drawn in a district (at most ``players`` badges; the empty
    district's words in the language of ``tr``)."""
    boxes = {"title": title_box(name), "values": values_box(name), "doge": doge_box(name),
             "empty": empty_box(name, tr)}
    for slot in range(players):
        boxes[f"badge{slot}"] = badge_box(name, slot)
    return boxes


def bridge_corners(site: L.BridgeSite) -> list[L.Point]:
    """The plank across the canal at a bridge site."""
    ux, uy = math.cos(site.angle), math.sin(site.angle)
    nx, ny = -uy, ux
    half_len = site.span / 2 + BRIDGE_OVERHANG
    return [(site.x + sx * nx * half_len + sw * ux * BRIDGE_HALF_W,
             site.y + sx * ny * half_len + sw * uy * BRIDGE_HALF_W)
            for sx, sw in ((-1, -1), (-1, 1), (1, 1), (1, -1))]
