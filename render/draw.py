"""The game on the map: player counts, leaders, bridges, the Doge, and the highlight."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.board import DISTRICT_NAMES, INDEX, pair
from engine.views import BridgeView, PublicView

from . import layout as L
from . import palette as C
from . import places as P
from .base import QUAY, canal_strokes
from .canvas import Canvas
from .fonts import font
from .palette import RGB
from .words import ENGLISH, Tr


# -- player tokens ---------------------------------------------------------------------------
def token(cv: Canvas, cx: float, cy: float, size: float, seat: int, fill: RGB,
          letter: RGB, bg: RGB) -> None:
    """The seat's shape with its letter: colour is never the only cue (colour-blind play)."""
    shape = C.SEAT_SHAPES[seat % len(C.SEAT_SHAPES)]
    h = size / 2
    dy = 0.0
    if shape == "circle":
        cv.ellipse((cx - h, cy - h, cx + h, cy + h), fill)
    elif shape == "square":
        cv.rect((cx - h * 0.9, cy - h * 0.9, cx + h * 0.9, cy + h * 0.9), fill, radius=4)
    elif shape == "triangle":
        cv.polygon([(cx, cy - h * 1.1), (cx + h * 1.15, cy + h * 0.9),
                    (cx - h * 1.15, cy + h * 0.9)], fill)
        dy = h * 0.3
    else:
        cv.polygon([(cx, cy - h * 1.15), (cx + h * 1.15, cy), (cx, cy + h * 1.15),
                    (cx - h * 1.15, cy)], fill)
    face = font("bold", round(size * (0.5 if shape == "triangle" else 0.6)))
    cv.text((cx, cy + dy), C.SEAT_LETTERS[seat % len(C.SEAT_LETTERS)], face, letter, fill,
            anchor="mm")


def _crown(cv: Canvas, x: float, y: float, w: float) -> None:
    """A small gold crown whose base sits at (x, y): this player leads the district."""
    h = w * 0.7
    cv.polygon([(x, y), (x, y - h * 0.55), (x + w * 0.25, y - h * 0.25), (x + w * 0.5, y - h),
                (x + w * 0.75, y - h * 0.25), (x + w, y - h * 0.55), (x + w, y)],
               C.GOLD, C.GOLD_DARK, 2)


# -- districts -------------------------------------------------------------------------------
def badge_order(view: PublicView, district: str) -> list[str]:
    """Players shown in a district, most aristocrats first, then seat order."""
    counts = view["districts"][district]
    seat = {p: i for i, p in enumerate(view["players"])}
    present = [p for p in view["players"] if counts.get(p, 0) > 0]
    return sorted(present, key=lambda p: (-counts[p], seat[p]))


def draw_districts(cv: Canvas, view: PublicView, tr: Tr = ENGLISH) -> None:
    """Each player's count as a badge (shape, letter, big number); the leaders crowned."""
    seat = {p: i for i, p in enumerate(view["players"])}
    for name in DISTRICT_NAMES:
        land = C.LAND[name]
        counts = view["districts"][name]
        shown = badge_order(view, name)
        if not shown:
            cv.text(P.empty_origin(name), P.empty_text(tr), font(*P.EMPTY_FONT), C.INK_SOFT,
                    land, anchor="mm")
            continue
        top = counts[shown[0]]
        for slot, pid in enumerate(shown):
            x, y = L.badge_origin(name, slot)
            _badge(cv, x, y, seat[pid], counts[pid], counts[pid] == top, land)


def _badge(cv: Canvas, x: float, y: float, seat: int, count: int, leads: bool,
           land: RGB) -> None:
    colour = C.player_colour(seat)
    w, h = L.BADGE_W, L.BADGE_H
    if leads:
        cv.rect((x - 5, y - 5, x + w + 5, y + h + 5), C.GOLD, C.GOLD_DARK, 2, radius=14)
    cv.rect((x, y, x + w, y + h), colour, C.BLACK, 2, radius=10)
    token(cv, x + h / 2, y + h / 2, h * 0.64, seat, C.WHITE, colour, C.WHITE)
    cv.text((x + w - 25, y + h / 2 + 1), str(count), font("bold", 32), C.WHITE, colour,
            anchor="mm")
    if leads:
        _crown(cv, x + P.CROWN_X, y + 2, P.CROWN_W)


# -- bridges ---------------------------------------------------------------------------------
_SLOTS = {1: (1,), 2: (0, 2), 3: (0, 1, 2)}


def bridge_places(view: PublicView) -> list[tuple[BridgeView, L.BridgeSite]]:
    """Each bridge with the place it is drawn at (owners in seat order along a canal)."""
    seat = {p: i for i, p in enumerate(view["players"])}
    by_pair: dict[tuple[str, str], list[BridgeView]] = {}
    for b in view.get("bridges") or []:
        by_pair.setdefault(pair(b["a"], b["b"]), []).append(b)
    out = []
    for key in sorted(by_pair, key=lambda k: (INDEX[k[0]], INDEX[k[1]])):
        owners = sorted(by_pair[key], key=lambda b: seat.get(b["owner"], 99))
        slots = _SLOTS.get(len(owners), tuple(range(len(owners))))
        sites = L.BRIDGE_SITES[key]
        for b, s in zip(owners, slots, strict=False):
            out.append((b, sites[min(s, len(sites) - 1)]))
    return out


def draw_bridges(cv: Canvas, view: PublicView,
                 highlight: dict[str, str] | list[dict[str, str]] | None) -> None:
    """Every bridge as a plank across its canal in the owner's colour, with the seat letter;
    the highlighted ones (one, or several: those built since a player's last move) ringed."""
    seat = {p: i for i, p in enumerate(view["players"])}
    marked = [] if highlight is None else [highlight] if isinstance(highlight, dict) \
        else highlight
    lit = {(pair(h["a"], h["b"]), h.get("owner")) for h in marked}
    for b, s in bridge_places(view):
        k = seat.get(b["owner"], 0)
        colour = C.player_colour(k)
        corners = P.bridge_corners(s)
        if (pair(b["a"], b["b"]), b["owner"]) in lit:
            r = s.span / 2 + P.BRIDGE_OVERHANG + 12
            cv.ellipse((s.x - r - 3, s.y - r - 3, s.x + r + 3, s.y + r + 3), None, C.BLACK, 3)
            cv.ellipse((s.x - r, s.y - r, s.x + r, s.y + r), None, C.HIGHLIGHT, 7)
        cv.polygon(corners, colour, C.BLACK, 3)
        cv.text((s.x, s.y + 1), C.SEAT_LETTERS[k % 4], font("bold", 22), C.WHITE, colour,
                anchor="mm")


# -- the Doge --------------------------------------------------------------------------------
def doge_token(cv: Canvas, cx: float, cy: float, r: float, bg: RGB) -> None:
    """A gold medallion with the Doge's horned cap (corno ducale)."""
    cv.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), C.BLACK)
    cv.ellipse((cx - r, cy - r, cx + r, cy + r), C.GOLD)
    s = r / 34
    cap = [(-20, 8), (-21, -2), (-16, -12), (-6, -19), (6, -24), (15, -25), (19, -14),
           (21, -2), (20, 8)]
    cv.polygon([(cx + x * s, cy - 2 * s + y * s) for x, y in cap], C.CRIMSON, C.BLACK, 2)
    cv.rect((cx - 23 * s, cy + 4 * s, cx + 23 * s, cy + 13 * s), C.GOLD_DARK, C.BLACK, 2,
            radius=3)
    cv.text((cx, cy + 23 * s), "DOGE", font("bold", max(8, round(13 * s))), C.INK, C.GOLD,
            anchor="mm")


def draw_doge(cv: Canvas, view: PublicView, lit: bool = False) -> None:
    """The Doge's medallion in its district; ``lit``: ringed as the bridges are (the Doge
    moved since a player's last move)."""
    where = view.get("doge")
    if where in L.PLAQUES:
        x, y = L.PLAQUES[where].doge
        if lit:
            r = L.DOGE_R + 12
            cv.ellipse((x - r - 3, y - r - 3, x + r + 3, y + r + 3), None, C.BLACK, 3)
            cv.ellipse((x - r, y - r, x + r, y + r), None, C.HIGHLIGHT, 7)
        doge_token(cv, x, y, L.DOGE_R, C.LAND[where])


# -- the highlight ---------------------------------------------------------------------------
RIM = 9  # px of bright rim inside a highlighted district's quays


def draw_district_highlight(cv: Canvas, districts: list[str]) -> None:
    """A bright rim just inside the quays of the districts that just changed (scored,
    placed, banished)."""
    for name in districts:
        offset, mask = _rim(name)
        cv.fill_mask(offset, mask, C.HIGHLIGHT)


_RIMS: dict[str, tuple[tuple[int, int], Image.Image]] = {}


def _rim(name: str) -> tuple[tuple[int, int], Image.Image]:
    """The district's land minus itself shrunk by RIM (computed once per district)."""
    if name not in _RIMS:
        offset, land, inner = land_masks(name)
        _RIMS[name] = (offset, ImageChops.subtract(land, inner))
    return _RIMS[name]


def land_masks(name: str) -> tuple[tuple[int, int], Image.Image, Image.Image]:
    """(offset, land, inner): the district's land (its polygon minus canals, quays and
    coast) and that land shrunk by RIM, where drawings are safe from the highlight rim.
    Pure geometry; the masks start at ``offset`` on the picture."""
    xs = [p[0] for p in L.POLYGONS[name]]
    ys = [p[1] for p in L.POLYGONS[name]]
    x0, y0 = int(min(xs)) - 4, int(min(ys)) - 4
    land = Image.new("L", (int(max(xs)) + 5 - x0, int(max(ys)) + 5 - y0), 0)
    d = ImageDraw.Draw(land)
    def moved(pts: list[L.Point]) -> list[L.Point]:
        return [(x - x0, y - y0) for x, y in pts]
    d.polygon(moved(list(L.POLYGONS[name])), fill=255, outline=0, width=6)
    for pts, width in canal_strokes():
        w = width + QUAY
        if len(pts) == 1:
            (x, y), = moved(pts)
            d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=0)
        else:
            d.line(moved(pts), fill=0, width=w, joint="curve")
    return (x0, y0), land, land.filter(ImageFilter.MinFilter(2 * RIM + 1))
