"""Why an action was refused. Codes are stable: the bot maps them to its answers."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow now. ``code`` is stable, ``message`` is for players.

    Codes: ``action.malformed``, ``action.unknown_player``, ``action.not_your_turn``,
    ``action.wrong_phase``, ``action.illegal``, ``game.over``, ``state.stale``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


class MalformedAction(IllegalAction):
    """Text or an object that is not an action at all (a parse error, not a rule error)."""

    def __init__(self, message: str) -> None:
        super().__init__("action.malformed", message)


class InvalidState(ValueError):
    """A stored state that does not load: says exactly which field is wrong."""
