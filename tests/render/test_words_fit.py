"""Every word on the pictures fits its box, in English, German and French (the layout test
in each language; German words are longer).

A recording canvas keeps every word, box and disc the drawing code makes. For every step of
whole games (3 and 4 players) and the summary picture of each:

- a word drawn inside a box (a row, a chip, an offer, a disc) stays inside it, and every
  word of the side panel stays between its margins;
- no two words overlap;
- no word is cut with an ellipsis — except the caption telling what just happened, whose
  whole sentence is in the channel's post (player names are ordinary ones here; a very long
  display name is cut by design, tests/render/test_names.py);
- a box stays inside the box it is drawn in (the limit bar inside its row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, translations
from render import layout as L
from render import panel
from render import summary as S
from render.board import _draw_game
from render.canvas import RGBCanvas
from render.fonts import Font
from render.gallery import playthrough
from render.story import highlight_from_events
from render.words import Tr

NAMES = {"111": "Anja", "222": "Bernd", "333": "Christian", "444": "Daniela"}
TOLERANCE = 2  # px: a glyph's side bearing (the "j" of "jouer") may reach past its origin
Box = tuple[float, float, float, float]


@dataclass
class Word:
    text: str
    box: Box
    at: tuple[float, float]


@dataclass
class Recorder(RGBCanvas):
    """Draws as RGBCanvas does and keeps what was drawn, in order."""

    image: Image.Image
    words: list[Word] = field(default_factory=list)
    shapes: list[tuple[str, Box]] = field(default_factory=list)
    order: list[Word | tuple[str, Box]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.image)

    def rect(self, box: Sequence[float], fill: Any, outline: Any = None, width: int = 1,
             radius: int = 0) -> None:
        self._shape("rect", box)
        super().rect(box, fill, outline, width, radius)

    def ellipse(self, box: Sequence[float], fill: Any, outline: Any = None,
                width: int = 1) -> None:
        self._shape("ellipse", box)
        super().ellipse(box, fill, outline, width)

    def _shape(self, kind: str, box: Sequence[float]) -> None:
        b = (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
        self.shapes.append((kind, b))
        self.order.append((kind, b))

    def text(self, xy: tuple[float, float], text: str, face: Font, fill: Any, bg: Any,
             anchor: str = "la") -> None:
        left, top, right, bottom = face.getbbox(text, anchor=anchor)
        word = Word(text, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom), xy)
        self.words.append(word)
        self.order.append(word)
        super().text(xy, text, face, fill, bg, anchor)


def _inside(a: Box, b: Box) -> bool:
    t = TOLERANCE
    return a[0] >= b[0] - t and a[1] >= b[1] - t and a[2] <= b[2] + t and a[3] <= b[3] + t


def _overlap(a: Box, b: Box) -> bool:
    t = TOLERANCE
    return a[0] + t < b[2] and b[0] + t < a[2] and a[1] + t < b[3] and b[1] + t < a[3]


def _holds(box: Box, point: tuple[float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def misfits(cv: Recorder, region: Box, *, caption: str | None = None,
            nested: bool = True) -> list[str]:
    """Every word or box of ``region`` that does not fit (empty: all fit). ``nested``:
    boxes must stay inside the boxes they are drawn in, too (not on the summary's chart,
    where the seat marks sit on the passage bands' edges)."""
    problems: list[str] = []
    boxes: list[Box] = []
    words: list[Word] = []
    for item in cv.order:
        if isinstance(item, Word):
            if not _holds(region, item.at) or (not nested and len(item.text) == 1):
                continue  # (a seat's letter on the summary's chart: a mark, not a word)
            inner = [b for b in boxes if _holds(b, item.at)]
            box = min(inner, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if inner else region
            if not _inside(item.box, box):
                problems.append(f"{item.text!r} {_r(item.box)} leaves {_r(box)}")
            if "…" in item.text and not (caption and caption.startswith(
                    item.text.rstrip("…").rstrip())):
                problems.append(f"{item.text!r} is cut")
            words.append(item)
            continue
        kind, shape = item
        centre = ((shape[0] + shape[2]) / 2, (shape[1] + shape[3]) / 2)
        if not _holds(region, centre):
            continue
        outer = [b for b in boxes if _holds(b, centre) and b != shape]
        if nested and kind == "rect" and outer:
            box = min(outer, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
            if not _inside(shape, box):
                problems.append(f"a box {_r(shape)} leaves {_r(box)}")
        boxes.append(shape)
    for a, b in combinations(words, 2):
        if len(a.text) > 1 and len(b.text) > 1 and _overlap(a.box, b.box):
            problems.append(f"{a.text!r} overlaps {b.text!r}")
    return problems


def _r(box: Box) -> tuple[int, ...]:
    return tuple(round(v) for v in box)


@lru_cache(maxsize=8)
def _game(players: int, seed: int) -> tuple[tuple[Any, list[dict[str, Any]]], ...]:
    return tuple(playthrough(list(NAMES)[:players], seed))


GAMES = ((3, 3), (4, 4), (4, 11))


def board_misfits(tr: Tr, players: int, seed: int) -> list[str]:
    """What does not fit on the board's side panel at any step of a whole game."""
    found: dict[str, str] = {}
    region = (panel.X0, 0.0, panel.X1, float(L.HEIGHT))
    for k, (state, events) in enumerate(_game(players, seed)):
        highlight = highlight_from_events(events, NAMES, tr) if events else None
        cv = Recorder(Image.new("RGB", (L.WIDTH, L.HEIGHT)))
        _draw_game(cv, state.public_view(), highlight, NAMES, tr)
        for problem in misfits(cv, region, caption=(highlight or {}).get("caption")):
            found.setdefault(problem, f"step {k}: {problem}")
    return sorted(found.values())


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_word_of_the_board_panel_fits_its_box(language: str, players: int,
                                                     seed: int) -> None:
    assert board_misfits(translations(language), players, seed) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_word_of_the_summary_fits_its_box(language: str, players: int,
                                                seed: int) -> None:
    steps = _game(players, seed)
    events = [e for _, evs in steps for e in evs]
    view = steps[-1][0].public_view()
    lay = S.SummaryLayout(players)
    cv = Recorder(Image.new("RGB", (S.WIDTH, lay.height)))
    S.draw_summary(cv, view, events, NAMES, translations(language))
    region = (S.PAD, 0.0, S.WIDTH - S.PAD, float(lay.height))
    assert misfits(cv, region, nested=False) == []


def test_the_recorder_finds_a_word_too_long_for_its_box() -> None:
    """The instrument: a word running out of its chip, one cut short, two overlapping, and
    a box out of its row are each reported; a fitting word is not."""
    cv = Recorder(Image.new("RGB", (200, 100)))
    from render.fonts import font
    face = font("bold", 20)
    cv.rect((0, 0, 200, 100), (0, 0, 0))
    cv.rect((10, 10, 60, 40), (0, 0, 0))
    cv.text((12, 12), "Entscheider", face, (255, 255, 255), (0, 0, 0))
    cv.text((12, 60), "fits", face, (255, 255, 255), (0, 0, 0))
    cv.text((30, 62), "over", face, (255, 255, 255), (0, 0, 0))
    cv.text((100, 75), "Verteil…", face, (255, 255, 255), (0, 0, 0))
    cv.rect((150, 50, 230, 60), (0, 0, 0))
    problems = misfits(cv, (0, 0, 200, 100))
    assert len(problems) == 4, problems
    assert any("'Entscheider'" in p and "leaves" in p for p in problems)
    assert any("'Verteil…' is cut" in p for p in problems)
    assert any("'fits' overlaps 'over'" in p for p in problems)
    assert any(p.startswith("a box") for p in problems)
