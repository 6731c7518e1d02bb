"""The board picture: a public view in, PNG bytes out (no discord, no database, no secrets)."""

from .board import render_board, render_board_naive
from .story import highlight_from_events

__all__ = ["highlight_from_events", "render_board", "render_board_naive"]
