"""The board picture: a public view in, PNG bytes out (no discord, no database, no secrets)."""

from .board import render_board, render_board_naive

__all__ = ["render_board", "render_board_naive"]
