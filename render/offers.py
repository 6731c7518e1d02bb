"""The revealed offers while a decision-maker chooses (phase "choose"), drawn compactly in
the side panel: each offer's number, its cards as small chips (district code on the
district's colour, action words, limit values) and its total limit points; offers already
taken show who took them. Only the public view's ``offers`` is read: offers not yet
revealed are simply absent from it."""

from __future__ import annotations

from engine.board import BY_NAME
from engine.cards import card_district, card_kind, limit_value
from engine.views import ColumnView, PublicView

from . import palette as C
from . import words
from .canvas import Canvas
from .draw import token
from .fonts import fit, font
from .words import ENGLISH, N_, Tr

HEAD_H = 34          # "Offers from …"
LINE_H = 44          # one line of chips
ROW_GAP = 6
CHIP_H, CHIP_GAP = 34, 6
NUMBER_W = 44        # the offer's number disc
TOTAL_W = 92         # "limit 5" at the right (more when "limit" is a longer word)
_WORDS = {"bridge": N_("Bridge"), "transfer": N_("Transfer"), "doge": N_("Doge"),
          "banishment": N_("Banish")}


def choosing_column(view: PublicView) -> ColumnView | None:
    """The revealed column whose offers a decision-maker is choosing from (the view's
    ``choosing``), else None: drawn only in phase "choose"."""
    choosing = view.get("choosing")
    if view.get("phase") != "choose" or choosing is None:
        return None
    return view["offers"][choosing["column"]]


def _chips(cards: list[str], tr: Tr = ENGLISH) -> list[tuple[str, str, int]]:
    """(kind, label, how many) in card order, identical action cards grouped; limit cards
    one chip each (their values are the point)."""
    out: list[tuple[str, str, int]] = []
    for card in cards:
        kind = card_kind(card)
        if kind == "limit":
            out.append(("limit", str(limit_value(card)), 1))
            continue
        label = (BY_NAME[d].code if (d := card_district(card)) in BY_NAME
                 else tr.gettext(_WORDS[kind]) if kind in _WORDS else kind)
        key = card if kind == "district" else kind
        if out and out[-1][0] == key:
            out[-1] = (key, label, out[-1][2] + 1)
        else:
            out.append((key, label, 1))
    return out


def _chip_width(label: str, n: int) -> float:
    w = font("bold", 18).getlength(label) + 16
    return w + (font("bold", 16).getlength(f"{n}\u00d7") + 4 if n > 1 else 0)


def _lines(cards: list[str], width: float,
           tr: Tr = ENGLISH) -> list[list[tuple[str, str, int]]]:
    """Chips wrapped to ``width``."""
    lines: list[list[tuple[str, str, int]]] = [[]]
    used = 0.0
    for chip in _chips(cards, tr):
        w = _chip_width(chip[1], chip[2])
        if lines[-1] and used + w > width:
            lines.append([])
            used = 0.0
        lines[-1].append(chip)
        used += w + CHIP_GAP
    return lines


def height(view: PublicView, width: float, tr: Tr = ENGLISH) -> float:
    """Panel height the offers need (0 when no offer is being chosen)."""
    column = choosing_column(view)
    if column is None:
        return 0
    h = HEAD_H
    for o in column["offers"]:
        n = 1 if o.get("taken_by") is not None else len(_lines(
            o["cards"], _chips_room(width, tr), tr))
        h += n * LINE_H + ROW_GAP
    return h + 8


def _total_width(tr: Tr = ENGLISH) -> float:
    """Room for "limit 10" at an offer's right end, in the language of ``tr``."""
    word = font("sans", 20).getlength(tr.gettext("limit"))
    return max(TOTAL_W, 16 + font("bold", 28).getlength("10") + word)


def _chips_room(width: float, tr: Tr = ENGLISH) -> float:
    return width - NUMBER_W - _total_width(tr) - 8


def draw_offers(cv: Canvas, view: PublicView, names: dict[str, str] | None, x0: float,
                top: float, x1: float, tr: Tr = ENGLISH) -> None:
    column = choosing_column(view)
    if column is None:
        return
    seat = {p: i for i, p in enumerate(view["players"])}
    head = tr.gettext("Offers from {player}").format(
        player=words.display(column["distributor"], names))
    cv.text((x0, top + 2), fit(head, font("sans", 24), x1 - x0), font("sans", 24),
            C.PANEL_MUTED, C.PANEL_BG)
    y = top + HEAD_H
    for o in column["offers"]:
        taker = o.get("taken_by")
        lines = [[]] if taker is not None else _lines(o["cards"], _chips_room(x1 - x0, tr),
                                                      tr)
        h = len(lines) * LINE_H
        bg = C.PANEL_ROW
        cv.rect((x0, y, x1, y + h), bg, radius=10)
        cy = y + LINE_H / 2
        disc = C.CHIP if taker is not None else C.GOLD
        cv.ellipse((x0 + 6, cy - 16, x0 + 38, cy + 16), disc)
        cv.text((x0 + 22, cy + 1), str(int(o.get("index", 0)) + 1), font("bold", 22),
                C.PANEL_TEXT if taker is not None else C.INK, disc, anchor="mm")
        if taker is not None:
            k = seat.get(taker, 0)
            token(cv, x0 + NUMBER_W + 16, cy, 28, k, C.player_colour(k), C.WHITE, bg)
            label = tr.gettext("taken by {player}").format(player=words.display(taker, names))
            face = font("sans", 22)
            cv.text((x0 + NUMBER_W + 38, cy), fit(label, face, x1 - x0 - NUMBER_W - 50),
                    face, C.PANEL_MUTED, bg, anchor="lm")
        else:
            for k, line in enumerate(lines):
                _draw_line(cv, line, x0 + NUMBER_W, y + k * LINE_H + LINE_H / 2)
            total = sum(limit_value(c) for c in o["cards"] if card_kind(c) == "limit")
            big = font("bold", 28)
            cv.text((x1 - 10, cy + 1), str(total), big, C.GOLD, bg, anchor="rm")
            cv.text((x1 - 16 - big.getlength(str(total)), cy + 2), tr.gettext("limit"),
                    font("sans", 20), C.PANEL_MUTED, bg, anchor="rm")
        y += h + ROW_GAP


def _draw_line(cv: Canvas, chips: list[tuple[str, str, int]], x: float, cy: float) -> None:
    for key, label, n in chips:
        w = _chip_width(label, n)
        if key == "limit":
            fill, ink = C.GOLD, C.INK
        elif key.startswith("district:"):
            fill, ink = C.LAND[key.split(":", 1)[1]], C.INK
        else:
            fill, ink = C.CHIP, C.PANEL_TEXT
        cv.rect((x, cy - CHIP_H / 2, x + w, cy + CHIP_H / 2), fill, C.BLACK, 2, radius=7)
        tx = x + 8
        if n > 1:
            count = f"{n}\u00d7"
            cv.text((tx, cy + 1), count, font("bold", 16), ink, fill, anchor="lm")
            tx += font("bold", 16).getlength(count) + 4
        cv.text((tx, cy + 1), label, font("bold", 18), ink, fill, anchor="lm")
        x += w + CHIP_GAP
