"""Nothing on the map collides: titles, dice, badges, crowns and the Doge stay inside their
district clear of the highlight rim, of each other, and of every bridge place (up to three
per canal), for 3 and 4 players; and every word fits its box — in English,
German and French, on the board's map and panel and on the summary picture."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import pytest
from PIL import Image, ImageDraw

from bot.i18n import LANGUAGES, translations
from engine.board import DISTRICT_NAMES
from render import layout as L
from render import places as P
from render.draw import land_masks
from render.words import ENGLISH, Tr

MARGIN = 2  # px of clear land kept around everything


def _grown(box: P.Box, by: float = MARGIN) -> tuple[int, int, int, int]:
    return (int(box[0] - by), int(box[1] - by), int(box[2] + by) + 1, int(box[3] + by) + 1)


@lru_cache(maxsize=1)
def _bridges() -> Image.Image:
    """Every bridge place filled with a plank (three on every canal)."""
    mask = Image.new("L", (L.WIDTH, L.HEIGHT), 0)
    d = ImageDraw.Draw(mask)
    for sites in L.BRIDGE_SITES.values():
        for site in sites:
            d.polygon(P.bridge_corners(site), fill=255, outline=255, width=3)
    return mask


def collisions(players: int = 4, tr: Tr = ENGLISH) -> list[str]:
    """Every problem, as a sentence (empty when the layout is clean); the empty district's
    words in the language of ``tr``."""
    problems = []
    for name in DISTRICT_NAMES:
        (x0, y0), _, inner = land_masks(name)
        boxes = P.district_boxes(name, players, tr)
        for what, box in boxes.items():
            left, top, right, bottom = _grown(box)
            safe = inner.crop((left - x0, top - y0, right - x0, bottom - y0))
            if safe.getextrema()[0] < 255:
                problems.append(f"{name} {what} {box} leaves the land or touches the rim")
            if _bridges().crop((left, top, right, bottom)).getextrema()[1] > 0:
                problems.append(f"{name} {what} {box} touches a bridge place")
        for (a, box_a), (b, box_b) in combinations(boxes.items(), 2):
            if {a, b} & {"empty"} and (a.startswith("badge") or b.startswith("badge")):
                continue  # 'no aristocrats' is shown only when there is no badge
            ga, gb = _grown(box_a), box_b
            if ga[0] < gb[2] and gb[0] < ga[2] and ga[1] < gb[3] and gb[1] < ga[3]:
                problems.append(f"{name} {a} overlaps {b}")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [3, 4])
def test_nothing_on_the_map_collides(players: int, language: str) -> None:
    assert collisions(players, translations(language)) == []


if __name__ == "__main__":
    print("\n".join(collisions()) or "clean")
