"""Why a call was refused: one stable code per reason, never a sentence.

What a player reads for a code is in ONE table, ``bot.text.REFUSALS`` (engine codes
included), so a refusal raised anywhere — the engine, the service or the Discord adapter —
reaches the player as exactly that sentence. ``params`` carry the facts a sentence may name
(a channel, a level); they never carry a secret (drawn cards, a split, deck order, the seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from engine import ERROR_PARAMS, Action, ActionError


class Code(StrEnum):
    """Every refusal the service and the adapter raise (the engine's own codes are
    ``engine.ERROR_CODES``; the two sets share ``action.not_your_turn``, ``state.stale``
    and ``game.over``, which mean the same everywhere)."""

    NO_GAME = "game.none"
    NOT_IN_SERVER = "game.not_in_server"
    GAME_EXISTS = "game.exists"
    NOT_STARTED = "game.not_started"
    STARTED = "game.started"
    OVER = "game.over"
    ABANDONED = "game.abandoned"
    NOT_IN_GAME = "player.not_in_game"
    LOBBY_FULL = "lobby.full"
    ALREADY_JOINED = "lobby.already_joined"
    NOT_JOINED = "lobby.not_joined"
    NOT_ENOUGH = "lobby.not_enough"
    NOT_CREATOR = "lobby.not_creator"
    TOO_MANY_LOBBIES = "lobby.too_many"
    PERMISSION = "permission.denied"
    NOT_YOUR_TURN = "action.not_your_turn"
    STALE = "state.stale"
    MALFORMED = "input.malformed"
    SEATS = "input.seats"
    COMPUTER_SEATS = "input.computer_seats"
    OFFER_NUMBER = "input.offer_number"
    MOVE_TEXT = "input.move"
    TOPIC = "input.topic"
    PLAYER_ID = "input.player_id"
    SPLIT_INCOMPLETE = "split.incomplete"
    SPLIT_DRAFT = "split.draft"
    REMINDER_HOURS = "settings.reminder_hours"
    QUIET_HOURS = "settings.quiet_hours"
    LANGUAGE = "settings.language"
    TIMEZONE = "settings.timezone"
    COMPUTERS_UNAVAILABLE = "computer.unavailable"
    COMPUTER_UNKNOWN = "computer.unknown"
    COMPUTER_LEVEL = "computer.level"
    ALREADY_COMPUTER = "replace.already"
    ALREADY_VOTED = "replace.already_voted"
    UNKNOWN_PLAYER = "replace.unknown_player"
    NOT_REPLACED = "replace.not_replaced"
    NOT_SUSPENDED = "game.not_suspended"  # ended from elsewhere only when its channel is gone
    # a server's memory: finished games' replays, files and seeds
    NOT_OVER = "history.not_over"
    NO_PAST_GAME = "history.no_game"
    NOT_A_VOTER = "replace.not_voter"
    NOT_AWAITED = "replace.not_awaited"
    TOO_EARLY = "replace.too_early"
    # substitutes: a seat handed to a person
    SEAT_PASSED = "seat.passed"
    SUBSTITUTE_SEATED = "replace.substitute_seated"
    SUBSTITUTE_BOT = "replace.substitute_bot"
    # games that keep moving: settings, notifications, taking a move back
    SETTINGS_PERMISSION = "settings.permission"
    TURN_TIMER = "settings.turn_timer"
    SETTINGS_LEVEL = "settings.computer_level"
    NOTIFY_MODE = "notify.mode"
    UNDO_NOTHING = "undo.nothing"
    UNDO_MOVED_ON = "undo.moved_on"
    UNDO_COMPUTER = "undo.computer"
    UNDO_SPLIT = "undo.split"
    UNDO_ROLL = "undo.roll"
    UNDO_DRAW = "undo.draw"
    UNDO_REVEAL = "undo.reveal"
    UNDO_END = "undo.end"
    UNDO_CHANCE = "undo.chance"
    # a server full of games: threads, the queue, rematches
    THREAD_PERMISSION = "thread.permission"
    THREAD_LIMIT = "thread.limit"
    THREAD_FAILED = "thread.failed"
    QUEUE_ALREADY = "queue.already"
    NOT_SEEKING = "queue.not_in"
    REMATCH_PLAYER = "rematch.not_player"
    REMATCH_OPEN = "rematch.open"
    # away from a server's games
    AWAY_WHEN = "away.when"
    AWAY_PAST = "away.past"
    AWAY_TOO_LONG = "away.too_long"
    NOT_AWAY = "away.not_away"
    AWAY_TOO_EARLY = "replace.away"
    AWAY_CAP = "settings.away_cap"
    # teaching: hints and reviews
    HINTS_OFF = "hint.off"
    # a guided practice game
    NOT_PRACTICE = "practice.not_practice"  # lessons are a practice game's only
    NOT_LEARNER = "practice.not_learner"  # a practice game's lessons are its learner's
    PRACTICE_OPEN = "practice.open"  # one unfinished practice game per learner and server
    PRACTICE_PERMISSION = "practice.permission"  # the bot cannot make the private thread
    # The store could not write (or read): nothing was saved; the code names why.
    STORE_FULL = "store.full"
    STORE_READ_ONLY = "store.read_only"
    STORE_IO = "store.io"
    STORE_BUSY = "store.busy"
    STORE_CORRUPT = "store.corrupt"
    STORE_CANTOPEN = "store.cantopen"
    STORE_FAILED = "store.failed"
    # CPU work (bot.work): the worker lanes are full; a hint or review asked too soon
    BUSY = "work.busy"
    HINT_COOLDOWN = "hint.cooldown"
    INTERNAL = "internal"


class ServiceError(Exception):
    """A refused call; nothing was written. ``code`` is stable, ``params`` name facts."""

    code: str = Code.INTERNAL

    def __init__(self, code: str | None = None, **params: str | int) -> None:
        if code is not None:
            self.code = code
        self.params: Mapping[str, str | int] = params
        super().__init__(self.code)

    def __str__(self) -> str:  # for logs: the code and its facts, never a secret
        facts = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.code}" + (f" ({facts})" if facts else "")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class NoGame(ServiceError):
    code = Code.NO_GAME


class GameExists(ServiceError):
    code = Code.GAME_EXISTS


class GameNotStarted(ServiceError):
    code = Code.NOT_STARTED


class GameStarted(ServiceError):
    code = Code.STARTED


class GameOver(ServiceError):
    code = Code.OVER


class GameAbandoned(ServiceError):
    code = Code.ABANDONED


class NotInGame(ServiceError):
    code = Code.NOT_IN_GAME


class GameFull(ServiceError):
    code = Code.LOBBY_FULL


class AlreadyJoined(ServiceError):
    code = Code.ALREADY_JOINED


class NotJoined(ServiceError):
    code = Code.NOT_JOINED


class NotEnoughPlayers(ServiceError):
    code = Code.NOT_ENOUGH


class NotCreator(ServiceError):
    code = Code.NOT_CREATOR


class TooManyLobbies(ServiceError):
    """The user already has ``count`` open lobbies in this server, in ``channels`` (channel
    ids separated by spaces)."""

    code = Code.TOO_MANY_LOBBIES


class PermissionDenied(ServiceError):
    code = Code.PERMISSION


class NotYourTurn(ServiceError):
    code = Code.NOT_YOUR_TURN


class StalePrompt(ServiceError):
    code = Code.STALE


class BadInput(ServiceError):
    """Input that is not what the call takes (its own code says which)."""

    code = Code.MALFORMED


class ComputersUnavailable(ServiceError):
    code = Code.COMPUTERS_UNAVAILABLE


class AlreadyComputer(ServiceError):
    code = Code.ALREADY_COMPUTER


class AlreadyVoted(ServiceError):
    code = Code.ALREADY_VOTED


class NotReplaced(ServiceError):
    code = Code.NOT_REPLACED


class NotAVoter(ServiceError):
    """Only a human who plays their own seat votes to replace someone."""

    code = Code.NOT_A_VOTER


class NotAwaited(ServiceError):
    """A vote against a player the game is not waiting for."""

    code = Code.NOT_AWAITED


class TooEarlyToReplace(ServiceError):
    """The game has not yet waited the channel's reminder interval on that player;
    ``opens`` (epoch seconds) is when a vote opens."""

    code = Code.TOO_EARLY


class AwayTooEarly(ServiceError):
    """The target is away: the game waits on an away player up to the channel's cap before
    a vote against them opens at ``opens`` (epoch seconds)."""

    code = Code.AWAY_TOO_EARLY


class NotAway(ServiceError):
    """``back`` from a player who is not away."""

    code = Code.NOT_AWAY
class SeatPassed(ServiceError):
    """The user's seat is played by a substitute now: their old prompts and panels are
    refused."""

    code = Code.SEAT_PASSED


class SubstituteSeated(ServiceError):
    """The person named to take a seat over already plays in the game (a substitute must
    not already sit at the table)."""

    code = Code.SUBSTITUTE_SEATED


class SubstituteIsBot(ServiceError):
    """A bot was named to take a seat over: seats pass to people (or to a computer player
    of the bot's own, when no one is named)."""

    code = Code.SUBSTITUTE_BOT


class UndoRefused(ServiceError):
    """A move that may not be taken back; the code says why: nothing to take
    back, someone acted since, the computer made it, or it drew or revealed something
    (``engine.undo_block``)."""

    code = Code.UNDO_NOTHING


class StorageFailed(ServiceError):
    """The store could not save (or read) the change: nothing was written. The code names
    the cause (a full disk, a read-only file, an I/O error, a busy database...)."""

    code = Code.STORE_FAILED


class RuleError(ServiceError):
    """The engine refused the action (or could not parse its text): the engine's code and
    params are kept, so the player reads the sentence for that exact reason. ``action`` is
    the refused move, so that it can be said in the player's language (the engine's
    ``move`` fact is English)."""

    action: Action | None = None


_BY_ENGINE_CODE: dict[str, type[ServiceError]] = {
    "action.not_your_turn": NotYourTurn,
    "state.stale": StalePrompt,
    "game.over": GameOver,
    "action.unknown_player": NotInGame,
}


def from_engine(exc: ActionError, action: Action | None = None) -> ServiceError:
    """The ServiceError for an engine refusal (same code family, the engine's facts, and
    the refused ``action``)."""
    cls = _BY_ENGINE_CODE.get(exc.code)
    if cls is not None:
        return cls()
    error = RuleError(exc.code, **dict(exc.params))
    error.action = action
    return error


# The facts each code's sentence may name (the engine documents its own).
PARAMS: Mapping[str, tuple[str, ...]] = {**ERROR_PARAMS, Code.TOO_EARLY: ("opens",),
                                         Code.AWAY_TOO_EARLY: ("opens",),
                                         Code.TOO_MANY_LOBBIES: ("count", "channels"),
                                         Code.THREAD_PERMISSION: ("permission",),
                                         Code.REMATCH_OPEN: ("channels",),
                                         Code.PRACTICE_OPEN: ("channels",),
                                         Code.PRACTICE_PERMISSION: ("permission",),
                                         Code.HINT_COOLDOWN: ("seconds",)}


class WorkBusy(ServiceError):
    """The worker lanes could not start the job within its budget (``bot.work.Busy``):
    nothing was done; ``retry_after`` seconds is when to ask again."""

    code = Code.BUSY
