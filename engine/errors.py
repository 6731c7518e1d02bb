"""Why an action was refused, with stable codes the bot maps to its own sentences.

Two families, as python-chess's ``InvalidMoveError`` / ``IllegalMoveError``:

- :class:`MalformedAction` — the text or value is not an action at all (a parse error);
- :class:`IllegalAction` — a real action the rules refuse now (a rule error).

Both are :class:`ActionError`: ``code`` (stable, one of :data:`ERROR_CODES`), ``message`` (a
short English default) and ``params`` (facts a caller's sentence table may format; never a
secret, R15). Codes, in the order ``apply`` checks them:

=========================  =============================================  ==============
code                       when                                           params
=========================  =============================================  ==============
``game.over``              the game has ended                             —
``state.stale``            ``expected_version`` is not the state's        —
``action.malformed``       not an action (wrong type, bad field value)    —
``action.unknown_player``  the pid has no seat in this game               —
``action.not_your_turn``   the player is seated but not awaited           —
``action.wrong_phase``     that kind of action does not belong here       ``phase``
``action.split_shape``     a split that does not give every drawn card    ``cards``,
                           an offer or leaves an offer empty              ``offers``
``action.no_such_card``    a card that is not in the hand being played    ``card``
``action.must_play``       discarding a card that has a legal effect (R7) ``card``
``action.illegal``         any other action the rules do not allow now    ``move``
=========================  =============================================  ==============
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

Params = Mapping[str, str | int]

ERROR_CODES: tuple[str, ...] = (
    "game.over",
    "state.stale",
    "action.malformed",
    "action.unknown_player",
    "action.not_your_turn",
    "action.wrong_phase",
    "action.split_shape",
    "action.no_such_card",
    "action.must_play",
    "action.illegal",
)

# The facts (params) each code carries; a sentence table may name only these.
ERROR_PARAMS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "action.wrong_phase": ("phase",),
    "action.split_shape": ("cards", "offers"),
    "action.no_such_card": ("card",),
    "action.must_play": ("card",),
    "action.illegal": ("move",),
})


class ActionError(Exception):
    """An action was refused and nothing changed. ``code`` is stable (see ERROR_CODES),
    ``message`` a short English default, ``params`` the facts behind it (no secrets)."""

    def __init__(self, code: str, message: str, params: Params | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: Params = MappingProxyType(dict(params or {}))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class MalformedAction(ActionError):
    """Text or a value that is not an action at all (a parse error, not a rule error)."""

    def __init__(self, message: str, params: Params | None = None) -> None:
        super().__init__("action.malformed", message, params)


class IllegalAction(ActionError):
    """A well-formed action the rules do not allow now (every code but action.malformed)."""


class InvalidState(ValueError):
    """A stored state that does not load: says exactly which field is wrong."""
