"""One drawing interface over two kinds of image.

``RGBCanvas`` draws straight colours (the naive path, and the static base before it is
paletted once). ``PaletteCanvas`` draws palette indices into a "P" image, so the per-render
work stays one byte per pixel; its text is anti-aliased by pasting the glyph mask at a few
alpha levels in blends taken from the fixed palette.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette
from .fonts import Font
from .palette import RGB

Point = tuple[float, float]

# Thresholds that split an 8-bit glyph coverage into palette.RAMP_LEVELS steps.
_LEVEL_TABLES = tuple(
    [255 if v >= (2 * k - 1) * 255 / (2 * palette.RAMP_LEVELS) else 0 for v in range(256)]
    for k in range(1, palette.RAMP_LEVELS + 1)
)


@lru_cache(maxsize=4096)
def _glyph_masks(text: str, face: Font, anchor: str
                 ) -> tuple[tuple[int, int], tuple[Image.Image, ...]]:
    """The text's offset from its anchor and one hard mask per alpha level (cached:
    counts, names and labels repeat from one render to the next)."""
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return (left, top), tuple(mask.point(t) for t in _LEVEL_TABLES)


class Canvas:
    """What the drawing code needs; colours are always palette RGB triples."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def ink(self, colour: RGB) -> RGB | int:
        return colour

    def polygon(self, points: Sequence[Point], fill: RGB | None,
                outline: RGB | None = None, width: int = 1) -> None:
        self.draw.polygon(list(points), fill=None if fill is None else self.ink(fill),
                          outline=None if outline is None else self.ink(outline), width=width)

    def line(self, points: Sequence[Point], colour: RGB, width: int) -> None:
        self.draw.line(list(points), fill=self.ink(colour), width=width, joint="curve")

    def ellipse(self, box: Sequence[float], fill: RGB | None,
                outline: RGB | None = None, width: int = 1) -> None:
        self.draw.ellipse(list(box), fill=None if fill is None else self.ink(fill),
                          outline=None if outline is None else self.ink(outline), width=width)

    def rect(self, box: Sequence[float], fill: RGB | None, outline: RGB | None = None,
             width: int = 1, radius: int = 0) -> None:
        self.draw.rounded_rectangle(list(box), radius=radius,
                                    fill=None if fill is None else self.ink(fill),
                                    outline=None if outline is None else self.ink(outline),
                                    width=width)

    def fill_mask(self, at: tuple[int, int], mask: Image.Image, colour: RGB) -> None:
        """Paint ``colour`` wherever the (0/255) mask is set."""
        self.image.paste(self.ink(colour), at, mask)

    def text(self, xy: Point, text: str, face: Font, fill: RGB, bg: RGB,
             anchor: str = "la") -> None:
        """Draw ``text``; ``bg`` is the colour it sits on (the paletted path blends to it)."""
        self.draw.text(xy, text, font=face, fill=self.ink(fill), anchor=anchor)


class RGBCanvas(Canvas):
    """Direct colour drawing: Pillow's own anti-aliased text."""


class PaletteCanvas(Canvas):
    """Drawing into a "P" image that carries ``palette.flat_palette()``."""

    def ink(self, colour: RGB) -> int:
        return palette.INDEX[colour]

    def text(self, xy: Point, text: str, face: Font, fill: RGB, bg: RGB,
             anchor: str = "la") -> None:
        (dx, dy), masks = _glyph_masks(text, face, anchor)
        at = (round(xy[0]) + dx, round(xy[1]) + dy)
        ramp = palette.RAMPS.get((fill, bg))
        if ramp is None:  # no blend for this pair: hard edges, still the right colour
            self.image.paste(self.ink(fill), at, masks[len(masks) // 2])
            return
        for index, mask in zip(ramp, masks, strict=True):
            self.image.paste(index, at, mask)
