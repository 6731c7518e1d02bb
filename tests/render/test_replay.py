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


def test_each_frame_draws_the_names_of_its_step_when_a_seat_changed_hands() -> None:
    """A seat handed to another person mid-game: the frames before the hand-over are drawn
    with the name of the one who played it then, the later ones with the substitute's."""
    steps = [(state.public_view(), events) for state, events in playthrough(P3, 3)][:12]
    cut = len(steps) // 2
    per_frame: list[dict[str, str] | None] = [
        {"111": "Ann"} if k <= cut else {"111": "Eve"} for k in range(len(steps))]
    anim = Image.open(io.BytesIO(render_replay(steps, {"111": "Eve"}, frame_names=per_frame)))
    assert anim.n_frames == len(steps)
    for k in (0, cut, cut + 1, len(steps) - 1):
        anim.seek(k)
        expected = frame_image(*steps[k], k, len(steps), per_frame[k])
        assert ImageChops.difference(anim.convert("RGB"), expected.convert("RGB")).getbbox() \
            is None, k
    anim.seek(0)
    as_eve = frame_image(*steps[0], 0, len(steps), {"111": "Eve"})
    assert ImageChops.difference(anim.convert("RGB"), as_eve.convert("RGB")).getbbox() \
        is not None  # the first frame names Ann, not the seat's player at the end
    try:
        render_replay(steps, frame_names=per_frame[1:])
    except ValueError:
        return
    raise AssertionError("a replay with names for fewer frames was drawn")
