"""``render_board``: the public view as a PNG, fast path and naive path.

The fast path copies a cached, already paletted base (lagoon, districts, canals, titles) and
draws only the game on top, in palette indices, then writes a one-byte-per-pixel PNG. The
naive path redraws everything in RGB every time; it stays for the benchmark and as a
reference picture (both show the same board).
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.board import BY_NAME, is_neighbour_pair
from engine.views import PublicView

from . import layout as L
from . import palette
from .base import draw_base
from .canvas import Canvas, PaletteCanvas, RGBCanvas
from .draw import draw_bridges, draw_district_highlight, draw_districts, draw_doge
from .panel import draw_panel
from .png import encode_p
from .words import ENGLISH, Tr

Highlight = dict[str, Any]


def render_board(view: PublicView, *, highlight: Highlight | None = None,
                 names: dict[str, str] | None = None, naive: bool = False,
                 tr: Tr = ENGLISH) -> bytes:
    """The board for a public view (docs/ENGINE_CONTRACT.md) as PNG bytes.

    ``highlight`` says what just happened, so the picture tells its story::

        {"district": "Castello"}                  # or a list of names: scored, placed, banished
        {"bridge": {"a": "San Marco", "b": "Castello", "owner": pid}}   # built or taken over
        {"caption": "Castello scored: Ann 7, Bob 5"}                    # shown in the panel
        {"bridges": [{"a": ..., "b": ..., "owner": pid}, ...]}  # several bridges ringed
        {"doge": True}                            # the Doge's medallion ringed (it moved)

    Keys combine; all are optional. ``names`` maps pid -> display name (default: the pid);
    long names are cut with an ellipsis. ``tr``: the translations of the language the
    panel's words are drawn in (district names stay as printed). The same arguments always
    give the same bytes. Raises ValueError for a malformed highlight.
    """
    if not naive:
        return encode_p(board_image(view, highlight=highlight, names=names, tr=tr))
    image = Image.new("RGB", (L.WIDTH, L.HEIGHT))
    cv: Canvas = RGBCanvas(image)
    draw_base(cv)
    _draw_game(cv, view, highlight, names, tr)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def board_image(view: PublicView, *, highlight: Highlight | None = None,
                names: dict[str, str] | None = None, tr: Tr = ENGLISH) -> Image.Image:
    """The fast path's picture before it is encoded: a "P" image on ``palette.COLOURS``
    (the replay animation takes its frames from here). Raises ValueError as render_board."""
    image = _paletted_base().copy()
    _draw_game(PaletteCanvas(image), view, highlight, names, tr)
    return image


def _draw_game(cv: Canvas, view: PublicView, highlight: Highlight | None,
               names: dict[str, str] | None, tr: Tr = ENGLISH) -> None:
    districts, bridges, doge, caption = _parse_highlight(highlight)
    draw_district_highlight(cv, districts)
    draw_bridges(cv, view, bridges)
    draw_districts(cv, view, tr)
    draw_doge(cv, view, doge)
    draw_panel(cv, view, names, caption, tr)


def render_board_naive(view: PublicView, *, highlight: Highlight | None = None,
                       names: dict[str, str] | None = None, tr: Tr = ENGLISH) -> bytes:
    """The same board redrawn from scratch in RGB (for the benchmark)."""
    return render_board(view, highlight=highlight, names=names, naive=True, tr=tr)


@lru_cache(maxsize=1)
def _paletted_base() -> Image.Image:
    """The static base, drawn once in RGB and mapped onto the fixed palette."""
    rgb = Image.new("RGB", (L.WIDTH, L.HEIGHT))
    draw_base(RGBCanvas(rgb))
    pal = Image.new("P", (1, 1))
    pal.putpalette(palette.flat_palette())
    return rgb.quantize(palette=pal, dither=Image.Dither.NONE)


def _parse_highlight(h: Highlight | None) -> tuple[list[str], list[dict[str, str]], bool,
                                                   str | None]:
    """(districts, bridges, doge, caption) of a highlight."""
    if h is None:
        return [], [], False, None
    if not isinstance(h, dict) or set(h) - {"district", "bridge", "bridges", "doge",
                                            "caption"}:
        raise ValueError("highlight is a dict with keys district, bridge, bridges, doge "
                         "and/or caption")
    d = h.get("district")
    districts = [] if d is None else [d] if isinstance(d, str) else list(d)
    for name in districts:
        if name not in BY_NAME:
            raise ValueError(f"highlight: no district called {name!r}")
    one = h.get("bridge")
    many = h.get("bridges") or []
    if not isinstance(many, list):
        raise ValueError("highlight bridges is a list of bridges")
    bridges = ([] if one is None else [one]) + many
    for bridge in bridges:
        if not (isinstance(bridge, dict) and is_neighbour_pair(bridge.get("a", ""),
                                                               bridge.get("b", ""))):
            raise ValueError("highlight bridge is {'a', 'b', 'owner'} on neighbouring districts")
    doge = h.get("doge", False)
    if not isinstance(doge, bool):
        raise ValueError("highlight doge is a flag")
    caption = h.get("caption")
    if caption is not None and not isinstance(caption, str):
        raise ValueError("highlight caption is a string")
    return districts, bridges, doge, caption
