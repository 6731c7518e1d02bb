"""The service's refusals: one class per reason, each with a stable ``code`` and a sentence.

The Discord adapter maps ``code`` to its own wording and may show ``message`` as is: a
message never carries a secret (drawn cards, splits, deck order, seed).
"""

from __future__ import annotations

from engine import ActionError


class ServiceError(Exception):
    """A refused call. Nothing was written. ``code`` is stable; ``message`` is one sentence."""

    code = "service.error"
    default = "That cannot be done."

    def __init__(self, message: str | None = None, *, code: str | None = None) -> None:
        self.message = message or self.default
        if code is not None:
            self.code = code
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class NoGame(ServiceError):
    code = "game.none"
    default = "There is no game in this channel."


class GameExists(ServiceError):
    code = "game.exists"
    default = "This channel already has a game."


class GameNotStarted(ServiceError):
    code = "game.not_started"
    default = "The game has not started yet."


class GameStarted(ServiceError):
    code = "game.started"
    default = "The game has already started."


class GameOver(ServiceError):
    code = "game.over"
    default = "This game is over."


class GameAbandoned(ServiceError):
    code = "game.abandoned"
    default = "This game was abandoned."


class NotInGame(ServiceError):
    code = "player.not_in_game"
    default = "You are not playing in this game."


class GameFull(ServiceError):
    code = "lobby.full"
    default = "The game is full."


class AlreadyJoined(ServiceError):
    code = "lobby.already_joined"
    default = "You have already joined this game."


class NotJoined(ServiceError):
    code = "lobby.not_joined"
    default = "You have not joined this game."


class NotEnoughPlayers(ServiceError):
    code = "lobby.not_enough"
    default = "San Marco needs at least 3 players."


class NotCreator(ServiceError):
    code = "lobby.not_creator"
    default = "Only the player who opened the game can do that."


class PermissionDenied(ServiceError):
    code = "permission.denied"
    default = "Only the player who opened the game or a channel manager can do that."


class NotYourTurn(ServiceError):
    code = "action.not_your_turn"
    default = "It is not your turn."


class StalePrompt(ServiceError):
    code = "state.stale"
    default = "That prompt is out of date; the game has moved on."


class BadInput(ServiceError):
    code = "input.malformed"
    default = "That input is not valid."


class ComputersUnavailable(ServiceError):
    code = "computer.unavailable"
    default = "Computer players are not available on this bot."


class AlreadyComputer(ServiceError):
    code = "replace.already"
    default = "A computer already plays that seat."


class AlreadyVoted(ServiceError):
    code = "replace.already_voted"
    default = "You have already voted to replace that player."


class NotReplaced(ServiceError):
    code = "replace.not_replaced"
    default = "Your seat is not played by the computer."


class RuleError(ServiceError):
    """The engine refused the action; its code (``action.illegal``, ``action.malformed``,
    ``action.wrong_phase``) and its sentence for the player are kept."""

    code = "action.illegal"


_BY_ENGINE_CODE: dict[str, type[ServiceError]] = {
    "action.not_your_turn": NotYourTurn,
    "state.stale": StalePrompt,
    "game.over": GameOver,
    "action.unknown_player": NotInGame,
}


def from_illegal(exc: ActionError) -> ServiceError:
    """The ServiceError for an engine refusal (same code family, the engine's sentence)."""
    cls = _BY_ENGINE_CODE.get(exc.code)
    if cls is not None:
        return cls(exc.message)
    return RuleError(exc.message, code=exc.code)
