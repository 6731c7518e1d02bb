"""Fonts that ship with the project (DejaVu, under render/assets/).

Loading our own files, with Pillow's BASIC layout (no libraqm), means a machine with no
system fonts and no raqm renders exactly the same pixels.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

ASSETS = Path(__file__).with_name("assets")
_FILES = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "serif": "DejaVuSerif-Bold.ttf",
}

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=256)
def font(kind: str, size: int) -> Font:
    """A shipped font face at a pixel size; cached because loading costs ~1 ms."""
    return ImageFont.truetype(str(ASSETS / _FILES[kind]), size,
                              layout_engine=ImageFont.Layout.BASIC)


def fit(text: str, face: Font, width: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` pixels (long display names).

    The longest prefix that fits is found by bisection, so a long text costs a few
    measurements, not one per character (a 1,000-character name took 7.5 s); a text longer
    than one character per pixel is cut to that many first."""
    cap = max(1, int(width) + 1)
    if len(text) <= cap and face.getlength(text) <= width:
        return text
    text = text[:cap]
    lo, hi = 0, len(text) - 1  # the longest prefix that fits with "…" has lo..hi chars
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if face.getlength(text[:mid] + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def fit_size(text: str, kind: str, size: int, width: float, smallest: int
             ) -> tuple[Font, str]:
    """The largest face of ``kind`` from ``size`` down to ``smallest`` pixels in which
    ``text`` fits ``width``, and the text; if even the smallest is too narrow, that face and
    the text cut with an ellipsis (``fit``). A label of a wordier language (German, French)
    is drawn a little smaller rather than cut."""
    for s in range(size, smallest - 1, -1):
        face = font(kind, s)
        if face.getlength(text) <= width:
            return face, text
    face = font(kind, smallest)
    return face, fit(text, face, width)
