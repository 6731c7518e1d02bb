"""Golden images (STYLE.md §4): boards from fixed engine seeds, compared pixel by pixel
with the committed PNGs under tests/render/golden/.

Pixels, not bytes: another zlib build may deflate differently, and another FreeType may
shade a few glyph edges differently, so a small tolerance is allowed. German and French
boards are kept as their side panel, where all their words are (the map's only
word, "no aristocrats", is checked by tests/render/test_layout.py in each language), so the
images stay small. After an intended change to the picture, regenerate and review the PNGs
in the diff:

    SANMARCO_REGEN_GOLDEN=1 pytest tests/render/test_golden.py
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.i18n import translations
from render import highlight_from_events, layout, render_board
from render.gallery import NAMES, moments

GOLDEN = Path(__file__).with_name("golden")
REGEN = os.environ.get("SANMARCO_REGEN_GOLDEN") == "1"
SCALE = 4                   # compared as 4x4-pixel averages: glyph-edge shading evens out
CHANNEL_TOLERANCE = 24      # an average differs if any channel moves more than this
MAX_DIFFERING = 3           # ... and at most this many (one changed digit moves ~10)


def _board(players: int, seed: int, moment: str) -> Callable[[], bytes]:
    def render() -> bytes:
        state, events = moments(list(NAMES)[:players], seed)[moment]
        return render_board(state.public_view(), names=NAMES,
                            highlight=highlight_from_events(events, NAMES))
    return render


def _panel(players: int, seed: int, moment: str, language: str) -> Callable[[], bytes]:
    """The side panel of a board drawn in ``language`` (its names as the bot passes them)."""
    def render() -> bytes:
        tr = translations(language)
        state, events = moments(list(NAMES)[:players], seed)[moment]
        png = render_board(state.public_view(), names=NAMES, tr=tr,
                           highlight=highlight_from_events(events, NAMES, tr))
        out = io.BytesIO()
        Image.open(io.BytesIO(png)).crop(layout.PANEL).save(out, "PNG", optimize=True)
        return out.getvalue()
    return render


CASES: dict[str, Callable[[], bytes]] = {
    "3p_mid_round": _board(3, 3, "mid_round"),     # counts, bridges, highlight, caption
    "4p_choose": _board(4, 4, "choose"),           # the revealed offers, compact rows
    "4p_game_over": _board(4, 4, "game_over"),     # final standings, every district lit
}
for _language in ("de", "fr"):  # the same moments in the books' words
    CASES.update({
        f"{_language}_3p_mid_round": _panel(3, 3, "mid_round", _language),
        f"{_language}_4p_choose": _panel(4, 4, "choose", _language),
        f"{_language}_4p_game_over": _panel(4, 4, "game_over", _language),
    })


def _rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def differing(got: Image.Image, want: Image.Image) -> tuple[int, Any]:
    """How many SCALE x SCALE averages differ by more than the tolerance, and where."""
    size = (got.width // SCALE, got.height // SCALE)
    diff = ImageChops.difference(got.resize(size, Image.Resampling.BOX),
                                 want.resize(size, Image.Resampling.BOX))
    mask = ImageChops.lighter(ImageChops.lighter(*diff.split()[:2]), diff.split()[2])
    mask = mask.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    return mask.histogram()[255], mask.getbbox()


@pytest.mark.parametrize("name", sorted(CASES))
def test_board_matches_its_golden_image(name: str) -> None:
    path = GOLDEN / f"{name}.png"
    data = CASES[name]()
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(data)
        return
    assert path.exists(), f"missing {path}; run with SANMARCO_REGEN_GOLDEN=1"
    want, got = _rgb(path.read_bytes()), _rgb(data)
    assert got.size == want.size
    count, where = differing(got, want)
    assert count <= MAX_DIFFERING, (
        f"{name}: {count} areas differ from {path.name} (within {where}, at 1/{SCALE} "
        "scale); if the change is intended, regenerate with SANMARCO_REGEN_GOLDEN=1 and "
        "review the PNGs")


def test_golden_images_are_not_stale() -> None:
    """Every committed golden image belongs to a case (a renamed case leaves none behind)."""
    on_disk: set[Any] = {p.stem for p in GOLDEN.glob("*.png")}
    assert on_disk <= set(CASES)
