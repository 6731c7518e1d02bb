"""The end-of-game picture: final standings, prestige over the game and where the
points came from, from the public view and public events alone, probed pixel by pixel."""

from __future__ import annotations

import copy
import io
from functools import lru_cache
from typing import Any

import pytest
from PIL import Image

from render import palette as C
from render.gallery import playthrough
from render.summary import WIDTH, SummaryLayout, prestige_story, render_summary

from .conftest import P3, P4


@lru_cache(maxsize=4)
def _game(players: tuple[str, ...], seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    steps = list(playthrough(list(players), seed))
    events = [e for _, evs in steps for e in evs]
    state = steps[-1][0]
    assert state.finished
    return state.public_view(), events


def finished(players: list[str], seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    view, events = _game(tuple(players), seed)
    return copy.deepcopy(view), copy.deepcopy(events)


def image(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize(("players", "seed"), [(P3, 3), (P3, 8), (P4, 4), (P4, 9)])
def test_every_prestige_point_is_accounted_for_by_a_public_event(players: list[str],
                                                                 seed: int) -> None:
    view, events = finished(players, seed)
    story = prestige_story(view["players"], events)
    assert {p: s.total for p, s in story.sources.items()} == view["prestige"]
    assert story.points[-1].kind == "final" and story.points[-1].prestige == view["prestige"]
    assert [pt.kind for pt in story.points].count("passage") == 3
    assert all(v == 0 for v in story.points[0].prestige.values())
    # the rounds of each passage come before its scoring, passages in order
    assert [pt.passage for pt in story.points[1:]] == sorted(pt.passage
                                                             for pt in story.points[1:])


@pytest.mark.parametrize(("players", "seed"), [(P3, 3), (P4, 4)])
def test_the_summary_shows_standings_chart_and_breakdown_in_the_board_colours(
        players: list[str], seed: int) -> None:
    view, events = finished(players, seed)
    names = {"111": "Alice", "222": "Bartolomeo di Rialto e Venezia", "333": "Chiara"}
    img = image(render_summary(view, events, names))
    lay = SummaryLayout(len(players))
    assert img.size == (WIDTH, lay.height)
    assert img.getpixel((3, 3)) == C.PANEL_BG
    seat = {p: i for i, p in enumerate(view["players"])}
    # standings, best first: each row's seat mark is that player's colour, winners lit
    for i, row in enumerate(view["standings"]):
        x, y = lay.standing_token(i)
        assert img.getpixel((x - 14, y + 8)) == C.player_colour(seat[row["player"]])
        lit = C.PANEL_ROW_ACTIVE if row["player"] in view["winners"] else C.PANEL_ROW
        assert img.getpixel((34, y)) == lit
    # the chart: every player's line is drawn in the plotting area
    left, top, right, bottom = lay.chart
    chart = img.crop((left, top, right + 1, bottom + 1))
    counts = {c: n for n, c in chart.getcolors(1 << 16) or []}
    for s in range(len(players)):
        assert counts.get(C.player_colour(s), 0) > 300, s
    # the breakdown: one row per seat, in seat order
    for s in range(len(players)):
        x, y = lay.table_token(s)
        assert img.getpixel((x - 10, y + 6)) == C.player_colour(s)
    # only the board's palette is used (the picture is paletted like the board)
    assert set(c for _, c in img.getcolors(1 << 16) or []) <= set(C.COLOURS)


def test_a_shared_win_lights_every_winner_and_colour_is_never_the_only_cue() -> None:
    view, events = finished(P4, 4)
    # make it a shared win (R14): the top two tied and both winners
    top, second = view["standings"][0], view["standings"][1]
    second["prestige"], second["rank"] = top["prestige"], 1
    view["winners"] = [top["player"], second["player"]]
    img = image(render_summary(view, events))
    lay = SummaryLayout(4)
    for i in (0, 1):
        assert img.getpixel((34, lay.standing_token(i)[1])) == C.PANEL_ROW_ACTIVE
    assert img.getpixel((34, lay.standing_token(2)[1])) == C.PANEL_ROW
    # each seat mark carries its letter in white: a shape and a letter, not just a colour
    for s in range(4):
        x, y = lay.table_token(s)
        mark = img.crop((x - 20, y - 20, x + 21, y + 21))
        assert any(c == C.WHITE for _, c in mark.getcolors(4096) or [])


def test_the_same_game_gives_the_same_picture_and_negative_prestige_fits() -> None:
    view, events = finished(P3, 3)
    assert render_summary(view, events) == render_summary(view, events)
    # R12: prestige may go below zero; the chart's scale takes it in
    events = [{"type": "canal_crossed", "player": "111", "cost": 2}] * 20 + events
    view["prestige"]["111"] -= 40
    story = prestige_story(view["players"], events)
    assert story.sources["111"].canals == 40 and story.sources["111"].total == \
        view["prestige"]["111"]
    image(render_summary(view, events))
