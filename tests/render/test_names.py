"""Long display names on the picture (a hostile name must not stall the bot): fitting a name is
a handful of measurements, not one per character (a 1,000-character name took 7.5 s to draw)."""

from __future__ import annotations

from typing import Any

from engine import new_game
from render import render_board
from render.fonts import fit, font


class Counting:
    """A font that counts how many characters it was asked to measure."""

    def __init__(self, face: Any) -> None:
        self.face = face
        self.calls = 0
        self.chars = 0

    def getlength(self, text: str) -> float:
        self.calls += 1
        self.chars += len(text)
        return float(self.face.getlength(text))


def _longest_fitting_prefix(text: str, face: Any, width: float) -> str:
    """What the old one-character-at-a-time loop found."""
    cut = text
    while cut and face.getlength(cut + "…") > width:
        cut = cut[:-1]
    return cut.rstrip() + "…"


def test_a_long_name_is_fitted_in_a_few_measurements() -> None:
    face = Counting(font("bold", 27))
    for n in (1_000, 1_000_000):
        face.calls = face.chars = 0
        out = fit("W" * n, face, 190)  # type: ignore[arg-type]
        assert out.endswith("…") and face.face.getlength(out) <= 190
        assert face.calls <= 12 and face.chars <= 12 * 192, (n, face.calls, face.chars)


def test_fitting_cuts_where_the_old_loop_did() -> None:
    face = font("sans", 24)
    for text in ("Ann", "Bartholomew the Magnificent of Venice", "W" * 60,
                 "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
                 "a  b  c  d " * 20):
        for width in (40.0, 120.0, 190.0, 300.0):
            expected = text if face.getlength(text) <= width else \
                _longest_fitting_prefix(text, face, width)
            assert fit(text, face, width) == expected, (text, width)


def test_a_board_with_enormous_names_renders() -> None:
    view = new_game(["1", "2", "3"], seed=0).public_view()
    names = {"1": "W" * 100_000, "2": "x " * 50_000, "3": "\u202e" + "y" * 1000}
    assert render_board(view, names=names).startswith(b"\x89PNG")
