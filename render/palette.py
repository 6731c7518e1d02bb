"""The fixed colour palette.

Every colour the board uses is named here, so the cached path can draw straight into a
"P" (paletted) image: one byte per pixel makes the PNG small and fast to encode. Text is
anti-aliased by a short ramp of blends between a text colour and the background it sits on;
the (text, background) pairs that need a ramp are listed in ``RAMP_PAIRS``.
"""

from __future__ import annotations

from typing import Final

RGB = tuple[int, int, int]

# -- the lagoon and the land ---------------------------------------------------------------
WATER: Final[RGB] = (128, 176, 186)
WATER_DEEP: Final[RGB] = (110, 160, 172)
WAVE: Final[RGB] = (158, 198, 206)
COAST: Final[RGB] = (150, 128, 96)
LAND: Final[dict[str, RGB]] = {
    "San Marco": (243, 222, 172),
    "Cannaregio": (236, 214, 182),
    "Santa Croce": (228, 218, 186),
    "San Polo": (240, 210, 186),
    "Dorsoduro": (232, 220, 198),
    "Castello": (234, 222, 170),
}
INK: Final[RGB] = (52, 40, 30)
INK_SOFT: Final[RGB] = (120, 98, 74)
WHITE: Final[RGB] = (255, 255, 255)
BLACK: Final[RGB] = (22, 22, 26)
GOLD: Final[RGB] = (236, 184, 40)
GOLD_DARK: Final[RGB] = (140, 100, 12)
SILVER: Final[RGB] = (204, 206, 212)
CRIMSON: Final[RGB] = (176, 32, 48)
HIGHLIGHT: Final[RGB] = (255, 214, 0)
SLOT: Final[RGB] = (104, 150, 162)  # an empty bridge place, a shade of the water

# -- the side panel ------------------------------------------------------------------------
PANEL_BG: Final[RGB] = (34, 40, 52)
PANEL_ROW: Final[RGB] = (50, 58, 74)
PANEL_ROW_ACTIVE: Final[RGB] = (78, 68, 34)
PANEL_TEXT: Final[RGB] = (242, 238, 226)
PANEL_MUTED: Final[RGB] = (170, 176, 190)
PANEL_OUT: Final[RGB] = (110, 116, 130)
CHIP: Final[RGB] = (86, 96, 118)
NEGATIVE: Final[RGB] = (255, 140, 120)

# -- players: Okabe-Ito hues (safe for the common colour-blindnesses), each also tied to a
# seat letter and a shape so that colour is never the only cue.
PLAYER_COLOURS: Final[tuple[RGB, ...]] = (
    (213, 94, 0),     # vermillion
    (0, 114, 178),    # blue
    (0, 135, 106),    # bluish green
    (181, 86, 143),   # reddish purple
)
SEAT_LETTERS: Final[tuple[str, ...]] = ("A", "B", "C", "D")
SEAT_SHAPES: Final[tuple[str, ...]] = ("circle", "square", "triangle", "diamond")

_BASE: tuple[RGB, ...] = (
    WATER, WATER_DEEP, WAVE, COAST, *LAND.values(), INK, INK_SOFT, WHITE, BLACK, GOLD,
    GOLD_DARK, SILVER, CRIMSON, HIGHLIGHT, SLOT, PANEL_BG, PANEL_ROW, PANEL_ROW_ACTIVE,
    PANEL_TEXT, PANEL_MUTED, PANEL_OUT, CHIP, NEGATIVE, *PLAYER_COLOURS,
)

# (text colour, background) pairs drawn with anti-aliased text.
RAMP_PAIRS: Final[tuple[tuple[RGB, RGB], ...]] = (
    *((INK, land) for land in LAND.values()),
    *((INK_SOFT, land) for land in LAND.values()),
    (INK, GOLD), (INK, SILVER), (INK, WHITE), (INK, HIGHLIGHT), (BLACK, WHITE),
    *((WHITE, c) for c in PLAYER_COLOURS),
    *((c, WHITE) for c in PLAYER_COLOURS),
    *((PANEL_TEXT, bg) for bg in (PANEL_BG, PANEL_ROW, PANEL_ROW_ACTIVE, CHIP)),
    *((PANEL_MUTED, bg) for bg in (PANEL_BG, PANEL_ROW, PANEL_ROW_ACTIVE)),
    (PANEL_OUT, PANEL_ROW), (GOLD, PANEL_BG), (GOLD, PANEL_ROW), (GOLD, PANEL_ROW_ACTIVE),
    (NEGATIVE, PANEL_ROW), (NEGATIVE, PANEL_ROW_ACTIVE), (NEGATIVE, PANEL_BG),
    (INK, GOLD), (WHITE, WATER), (INK, WATER),
)
RAMP_LEVELS: Final[int] = 3  # blends at 1/3, 2/3 and the full colour


def _blend(fg: RGB, bg: RGB, t: float) -> RGB:
    return (round(bg[0] + (fg[0] - bg[0]) * t), round(bg[1] + (fg[1] - bg[1]) * t),
            round(bg[2] + (fg[2] - bg[2]) * t))


def _build() -> tuple[list[RGB], dict[RGB, int], dict[tuple[RGB, RGB], tuple[int, ...]]]:
    colours: list[RGB] = []
    index: dict[RGB, int] = {}

    def add(c: RGB) -> int:
        if c not in index:
            index[c] = len(colours)
            colours.append(c)
        return index[c]

    for c in _BASE:
        add(c)
    ramps: dict[tuple[RGB, RGB], tuple[int, ...]] = {}
    for fg, bg in RAMP_PAIRS:
        ramps[(fg, bg)] = tuple(add(_blend(fg, bg, k / RAMP_LEVELS))
                                for k in range(1, RAMP_LEVELS + 1))
    if len(colours) > 256:
        raise ValueError(f"palette has {len(colours)} colours; a P image holds 256")
    return colours, index, ramps


COLOURS, INDEX, RAMPS = _build()


def flat_palette() -> list[int]:
    """The palette as Pillow's ``putpalette`` wants it: 768 ints, unused entries black."""
    flat = [v for c in COLOURS for v in c]
    return flat + [0] * (768 - len(flat))


def player_colour(seat: int) -> RGB:
    """The colour of seat ``seat`` (0-based)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
