"""The replay animation: one frame per public step, the board's own pictures, and
small enough for Discord's upload limit."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from render.gallery import playthrough
from render.replay import HEIGHT, LAST_MS, WIDTH, frame_image, render_replay

from .conftest import P3

MAX_UPLOAD = 8 * 1024 * 1024


def test_the_replay_has_a_frame_per_step_and_each_frame_is_the_board_then() -> None:
    steps = [(state.public_view(), events) for state, events in playthrough(P3, 3)]
    names = {"111": "Alice"}
    gif = render_replay(steps, names)
    assert gif[:6] == b"GIF89a" and len(gif) < MAX_UPLOAD
    anim = Image.open(io.BytesIO(gif))
    assert anim.n_frames == len(steps) and anim.size == (WIDTH, HEIGHT)
    assert anim.info.get("loop") == 0
    for k in (0, len(steps) // 2, len(steps) - 1):
        anim.seek(k)
        expected = frame_image(*steps[k], k, len(steps), names)
        assert ImageChops.difference(anim.convert("RGB"), expected.convert("RGB")).getbbox() \
            is None, k
    assert anim.info["duration"] == LAST_MS  # the final standings stay longest


def test_a_replay_of_nothing_is_refused() -> None:
    try:
        render_replay([])
    except ValueError:
        return
    raise AssertionError("an empty replay was drawn")
