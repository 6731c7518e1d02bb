"""The digest's board: what changed since a player's last move is highlighted — districts
rimmed, several bridges ringed, the Doge's medallion ringed — and the picture changes only
there (the rest of the board reads exactly as without the highlight)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from render import layout as L
from render import render_board
from render.draw import bridge_places

from .conftest import P4, game_views

Box = tuple[float, float, float, float]


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def _changed(plain: bytes, lit: bytes) -> list[tuple[int, int]]:
    """Every pixel that differs (on a 2-pixel grid: thin strokes are wider than that)."""
    diff = ImageChops.difference(_image(plain), _image(lit)).convert("L")
    return [(x, y) for x in range(0, L.WIDTH, 2) for y in range(0, L.HEIGHT, 2)
            if diff.getpixel((x, y))]


def _inside(xy: tuple[int, int], boxes: list[Box]) -> bool:
    x, y = xy
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes)


def _district_box(name: str) -> Box:
    xs = [p[0] for p in L.POLYGONS[name]]
    ys = [p[1] for p in L.POLYGONS[name]]
    return min(xs), min(ys), max(xs), max(ys)


def _ring_box(x: float, y: float, r: float) -> Box:
    return x - r - 6, y - r - 6, x + r + 6, y + r + 6


@pytest.fixture
def later() -> dict[str, Any]:
    """A 4-player view late in a game: bridges on every side, the Doge placed."""
    view = next(v for v in reversed(game_views(P4, 4)) if v["doge"] and len(v["bridges"]) >= 3
                and not v["finished"])
    return view


def test_districts_bridges_and_the_doge_are_highlighted_only_where_they_are(
        later: dict[str, Any]) -> None:
    plain = render_board(later)
    bridges = later["bridges"][:2]
    lit = render_board(later, highlight={"district": ["Castello", "San Polo"],
                                         "bridges": bridges, "doge": True})
    changed = _changed(plain, lit)
    places = {(b["a"], b["b"], b["owner"]): s for b, s in bridge_places(later)}
    boxes = [_district_box("Castello"), _district_box("San Polo")]
    for b in bridges:
        site = places[(b["a"], b["b"], b["owner"])]
        boxes.append(_ring_box(site.x, site.y, site.span / 2 + 26))
    doge_x, doge_y = L.PLAQUES[later["doge"]].doge
    boxes.append(_ring_box(doge_x, doge_y, L.DOGE_R + 12))
    assert changed, "the highlight drew nothing"
    outside = [p for p in changed if not _inside(p, boxes)]
    assert not outside, outside[:10]
    # each part drew something of its own
    for box in boxes:
        assert any(_inside(p, [box]) for p in changed), box


@pytest.mark.parametrize("highlight", [{"doge": True}, {"bridges": "bridges"},
                                       {"district": ["Dorsoduro"]}])
def test_each_highlight_alone_changes_only_its_place(later: dict[str, Any],
                                                     highlight: dict[str, Any]) -> None:
    if highlight.get("bridges") == "bridges":
        highlight = {"bridges": later["bridges"][-1:]}
    plain = render_board(later)
    changed = _changed(plain, render_board(later, highlight=highlight))
    assert changed
    xs, ys = [x for x, _ in changed], [y for _, y in changed]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    if "district" in highlight:
        x0, y0, x1, y1 = _district_box("Dorsoduro")
        assert x0 <= min(xs) and max(xs) <= x1 and y0 <= min(ys) and max(ys) <= y1
    else:  # a ring: a small place of the map, never the panel
        assert width < 160 and height < 160 and max(xs) < L.MAP_RIGHT


def test_no_highlight_and_an_empty_one_draw_the_same_board(later: dict[str, Any]) -> None:
    plain = render_board(later)
    assert render_board(later, highlight={"district": [], "bridges": [],
                                          "doge": False}) == plain


@pytest.mark.parametrize("bad", [{"doge": "yes"}, {"bridges": {"a": "San Marco"}},
                                 {"bridges": [{"a": "San Marco", "b": "Santa Croce"}]}])
def test_a_malformed_digest_highlight_is_refused(later: dict[str, Any], bad: Any) -> None:
    with pytest.raises(ValueError):
        render_board(later, highlight=bad)
