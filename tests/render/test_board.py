"""The board picture: valid, deterministic, and showing the view's facts."""

from __future__ import annotations

import copy
import io
import math
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.board import DISTRICT_NAMES, PAIRS
from render import layout as L
from render import palette as C
from render import render_board
from render.draw import badge_order, bridge_places
from render.fonts import fit, font
from render.png import encode_p

from .conftest import P3, P4, game_views


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def rgb_at(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    return image.convert("RGB").getpixel((round(xy[0]), round(xy[1])))


@pytest.mark.parametrize("players,seed", [(P3, 3), (P4, 4)])
def test_every_phase_of_a_real_game_renders_a_valid_png(players: list[str], seed: int) -> None:
    seen: dict[str, dict[str, Any]] = {}
    for view in game_views(players, seed):
        key = "finished" if view["finished"] else view["phase"]
        seen.setdefault(key, view)
    assert {"setup_bridges", "split", "choose", "play", "finished"} <= set(seen)
    for view in seen.values():
        data = render_board(view)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        image = png(data)
        assert image.size == (L.WIDTH, L.HEIGHT) and image.mode == "P"
        assert len(data) <= 60 * 1024


def test_same_view_gives_the_same_bytes(mid4: dict[str, Any]) -> None:
    names = {"111": "Ann"}
    assert render_board(mid4, names=names) == render_board(mid4, names=names)
    assert (render_board(mid4, naive=True)) == render_board(mid4, naive=True)


def test_fast_and_naive_paths_draw_the_same_board(mid4: dict[str, Any]) -> None:
    fast = png(render_board(mid4)).convert("RGB")
    naive = png(render_board(mid4, naive=True)).convert("RGB")
    # same picture; only anti-aliased text edges may differ by the palette's blend steps
    diff = ImageChops.difference(fast, naive).convert("L").point(lambda v: 255 if v > 40 else 0)
    differing = diff.histogram()[255]
    assert differing < 0.01 * L.WIDTH * L.HEIGHT


def test_a_changed_count_changes_the_image(mid4: dict[str, Any]) -> None:
    before = render_board(mid4)
    pid = mid4["players"][0]
    mid4["districts"]["Dorsoduro"][pid] += 1
    assert render_board(mid4) != before


def test_the_right_colour_sits_in_the_right_district(mid4: dict[str, Any]) -> None:
    players = mid4["players"]
    for name in DISTRICT_NAMES:
        for pid in players:
            mid4["districts"][name][pid] = 0
    # each seat alone in its own district: its badge must carry its colour there
    for seat, (pid, name) in enumerate(zip(players, DISTRICT_NAMES, strict=False)):
        mid4["districts"][name][pid] = seat + 2
    image = png(render_board(mid4))
    for seat, name in enumerate(DISTRICT_NAMES[: len(players)]):
        assert badge_order(mid4, name) == [players[seat]]
        x, y = L.badge_origin(name, 0)
        probe = (x + L.BADGE_W - 8, y + 8)  # inside the badge, clear of the number
        assert rgb_at(image, probe) == C.player_colour(seat), name
        assert _inside(probe, L.POLYGONS[name])


def _inside(p: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_three_and_four_players(mid3: dict[str, Any], mid4: dict[str, Any]) -> None:
    assert len(mid3["players"]) == 3 and len(mid4["players"]) == 4
    assert png(render_board(mid3)).size == png(render_board(mid4)).size


def test_twelve_bridges_with_three_on_one_pair(mid4: dict[str, Any]) -> None:
    p = mid4["players"]
    bridges = [{"a": PAIRS[0][0], "b": PAIRS[0][1], "owner": p[k]} for k in range(3)]
    bridges += [{"a": a, "b": b, "owner": p[k % 4]} for k, (a, b) in enumerate(PAIRS[1:10])]
    mid4["bridges"], mid4["bridges_in_supply"] = bridges, 0
    assert len(bridges) == 12
    image = png(render_board(mid4))
    places = bridge_places(mid4)
    assert len(places) == 12
    seat = {pid: k for k, pid in enumerate(p)}
    centres = set()
    for b, site in places:
        # probe the plank near its end, clear of its letter: the owner's colour
        probe = (site.x - math.sin(site.angle) * (site.span / 2 + 6),
                 site.y + math.cos(site.angle) * (site.span / 2 + 6))
        assert rgb_at(image, probe) == C.player_colour(seat[b["owner"]]), b
        centres.add((round(site.x), round(site.y)))
    assert len(centres) == 12  # no two bridges drawn on top of each other


def test_negative_prestige_is_shown(mid4: dict[str, Any]) -> None:
    pid = mid4["players"][1]
    mid4["prestige"][pid] = 3
    positive = render_board(mid4)
    mid4["prestige"][pid] = -3
    negative = png(render_board(mid4))
    assert render_board(mid4) != positive
    # the negative score is tinted: NEGATIVE appears in the panel
    panel = negative.convert("RGB").crop(L.PANEL)
    assert C.NEGATIVE in {c for _, c in panel.getcolors(1 << 16)}


def test_long_display_names_are_cut_to_fit(mid4: dict[str, Any]) -> None:
    long = "Bartolomeo " * 20
    names = {pid: long for pid in mid4["players"]}
    names[mid4["players"][0]] = "\u00c9l\u00e9onore \U0001F600 \u4e2d\u6587"  # odd glyphs
    render_board(mid4, names=names)  # no overflow error
    face = font("bold", 32)
    cut = fit(long, face, 300)
    assert cut.endswith("\u2026") and face.getlength(cut) <= 300
    assert fit("Ann", face, 300) == "Ann"


def test_highlight_changes_the_image(mid4: dict[str, Any]) -> None:
    plain = render_board(mid4)
    assert render_board(mid4, highlight={"district": "Castello"}) != plain
    assert render_board(mid4, highlight={"caption": "Castello scored"}) != plain
    b = {"a": "San Marco", "b": "Castello", "owner": mid4["players"][0]}
    mid4["bridges"].append(b)
    with_bridge = render_board(mid4)
    assert render_board(mid4, highlight={"bridge": b}) != with_bridge


def test_district_highlight_is_a_rim_inside_the_district(mid4: dict[str, Any]) -> None:
    image = png(render_board(mid4, highlight={"district": ["San Marco"]})).convert("RGB")
    lit = [(x, y) for x in range(0, L.MAP_RIGHT, 4) for y in range(0, L.HEIGHT, 4)
           if image.getpixel((x, y)) == C.HIGHLIGHT]
    assert lit and all(_inside(p, L.POLYGONS["San Marco"]) for p in lit)


@pytest.mark.parametrize("bad", [{"district": "Atlantis"}, {"colour": "red"},
                                 {"bridge": {"a": "San Marco", "b": "Santa Croce"}},
                                 {"caption": 3}, ["San Marco"]])
def test_malformed_highlight_is_refused(mid4: dict[str, Any], bad: Any) -> None:
    with pytest.raises(ValueError):
        render_board(mid4, highlight=bad)


def test_game_over_shows_final_standings() -> None:
    views = game_views(P4, 4)
    final = views[-1]
    assert final["finished"] and final["winners"]
    before = render_board(views[-2]) if not views[-2]["finished"] else b""
    assert render_board(final) != before
    # the panel draws the engine's standings (R14), it does not rank the players itself
    ranked = copy.deepcopy(final)
    ranked["standings"].reverse()
    assert render_board(ranked) != render_board(final)


def test_the_limit_bar_counts_to_the_engines_limit(mid4: dict[str, Any],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar's ticks and its red mark come from engine.board.LIMIT_OUT (§7), not a 10
    of the renderer's own."""
    before = render_board(mid4)
    monkeypatch.setattr("render.panel.LIMIT_OUT", 12)
    assert render_board(mid4) != before


def test_paletted_png_writer_round_trips(mid4: dict[str, Any]) -> None:
    image = png(render_board(mid4))
    again = png(encode_p(image))
    assert again.tobytes() == image.tobytes()
    assert again.getpalette() == image.getpalette()


def test_doge_is_drawn_where_it_stands(mid4: dict[str, Any]) -> None:
    for where in ("Castello", "Dorsoduro"):
        mid4["doge"] = where
        image = png(render_board(mid4))
        x, y = L.PLAQUES[where].doge
        assert rgb_at(image, (x - L.DOGE_R + 5, y)) == C.GOLD
    mid4["doge"] = None
    render_board(mid4)  # "not placed yet" in the panel
