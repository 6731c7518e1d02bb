"""The replay: a whole game as an animated GIF, one frame per public step.

A frame is the board picture after one step (``board_image``: the same drawing as the posts,
with the step's highlight), halved to 800x500 and mapped back onto the board's fixed palette,
with a thin progress bar along the bottom. Only public views and public events come in, so
nothing secret can reach a frame.

Why it stays small (Discord's upload limit is 8 MB without boosts): every frame shares the
one global palette, and Pillow writes each frame as the rectangle that changed since the one
before, with unchanged pixels transparent (long runs that LZW packs well). The progress bar
also makes every step a frame of its own: Pillow would merge two identical frames.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from engine.views import PublicView

from . import layout as L
from . import palette
from .board import board_image
from .story import highlight_from_events
from .words import ENGLISH, Tr

SCALE = 2                   # 1600x1000 -> 800x500
WIDTH, HEIGHT = L.WIDTH // SCALE, L.HEIGHT // SCALE
BAR = 6                     # progress bar height, pixels
STEP_MS = 600               # an ordinary step
SCORING_MS = 1800           # a step in which a district or a passage was scored
LAST_MS = 6000              # the final standings
CLEAR = 255                 # the palette index meaning "as before" (transparent)
_PAD = (255, 0, 255)        # unused palette entries: far from every colour drawn

Frame = tuple[PublicView, Sequence[Mapping[str, Any]]]  # a view and the events that led to it


def _palette_image() -> Image.Image:
    flat = [v for c in palette.COLOURS for v in c]
    flat += list(_PAD) * (256 - len(palette.COLOURS))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _duration(events: Iterable[Mapping[str, Any]]) -> int:
    scored = any(e.get("type") in ("district_scored", "passage_scored") for e in events)
    return SCORING_MS if scored else STEP_MS


def frame_image(view: PublicView, events: Sequence[Mapping[str, Any]], step: int, steps: int,
                names: dict[str, str] | None, pal: Image.Image | None = None,
                tr: Tr = ENGLISH) -> Image.Image:
    """One frame: the board after ``step`` (0-based) of ``steps``, halved, as a "P" image on
    the board palette (index ``CLEAR`` never drawn)."""
    highlight = (highlight_from_events([dict(e) for e in events], names, tr) if events
                 else None)
    big = board_image(view, highlight=highlight, names=names, tr=tr).convert("RGB")
    small = big.reduce(SCALE)
    frame = small.quantize(palette=pal or _palette_image(), dither=Image.Dither.NONE)
    done = round(WIDTH * (step + 1) / max(steps, 1))
    frame.paste(palette.INDEX[palette.PANEL_BG], (0, HEIGHT - BAR, WIDTH, HEIGHT))
    if done:
        frame.paste(palette.INDEX[palette.GOLD], (0, HEIGHT - BAR, done, HEIGHT))
    return frame


def render_replay(frames: Sequence[Frame], names: dict[str, str] | None = None,
                  tr: Tr = ENGLISH, *,
                  frame_names: Sequence[dict[str, str] | None] | None = None) -> bytes:
    """The animated GIF of a game: ``frames`` are (public view, public events of that step)
    from the set-up to the end, drawn in the language of ``tr``; it loops, and holds the
    last frame longest. ``frame_names``: the names to draw on each frame (a seat that
    changed hands is named by whoever made that step), else ``names`` on every one. Raises
    ValueError when there is no frame, or when ``frame_names`` does not match them."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    if frame_names is not None and len(frame_names) != len(frames):
        raise ValueError("a replay needs one set of names per frame")
    per_frame = list(frame_names) if frame_names is not None else [names] * len(frames)
    pal = _palette_image()
    images = [frame_image(view, events, k, len(frames), per_frame[k], pal, tr)
              for k, (view, events) in enumerate(frames)]
    durations = [_duration(events) for _, events in frames]
    durations[-1] = LAST_MS
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=durations,
                   loop=0, optimize=True, transparency=CLEAR, disposal=1)
    return out.getvalue()
