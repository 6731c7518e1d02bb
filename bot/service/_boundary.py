"""The service's boundary: every public call checks its arguments by name and raises only
ServiceErrors (``guard_public_calls`` wraps them all, present and future)."""

from __future__ import annotations

import functools
import inspect
import logging
import math
import unicodedata
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import engine
from bot.service.errors import BadInput, Code, ServiceError, StorageFailed, WorkBusy
from bot.store import LeaseLost, Shards, StorageError, StoreError
from bot.work import Busy

log = logging.getLogger("bot.service")

P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C", bound=type)


MAX_ID = 2**63 - 1  # Discord ids (snowflakes) and row ids fit SQLite's signed 64 bits
NAME_LIMIT = 32  # Discord's longest display name


def _an_id(value: object) -> int:
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise BadInput()
    return value


def _an_id_or_none(value: object) -> int | None:
    return None if value is None else _an_id(value)


def _a_pid(value: object) -> str:
    if not isinstance(value, str) or not engine.actions.PID_RE.match(value):
        raise BadInput(Code.PLAYER_ID)
    return value


def _a_flag(value: object) -> bool:
    if type(value) is not bool:
        raise BadInput()
    return value


def _shards_or_none(value: object) -> Shards | None:
    if value is not None and not isinstance(value, Shards):
        raise BadInput()
    return value


def _a_time(value: object) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
        raise BadInput()
    return float(value)  # type: ignore[arg-type]


def display_name(value: object) -> str | None:
    """A display name as stored and shown: one line, no control characters, at most
    Discord's 32 characters (a longer one is cut); None when nothing is left."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadInput()
    kept = "".join(" " if unicodedata.category(c) in _BLANK else c
                   for c in value[:NAME_LIMIT * 4] if unicodedata.category(c) not in _DROP)
    return " ".join(kept.split())[:NAME_LIMIT] or None


_BLANK = frozenset({"Cc", "Zs", "Zl", "Zp"})  # control characters and line breaks: a space
_DROP = frozenset({"Cf", "Cs"})  # invisible formatting (e.g. right-to-left overrides)


def _of_type(kind: type, code: str = Code.MALFORMED) -> Callable[[object], object]:
    def check(value: object) -> object:
        if type(value) is not kind:
            raise BadInput(code)
        return value
    return check


# What every public call's arguments must be, by name (one place for every call, present
# and future): ids in SQLite's range, pids as the engine writes them, flags as booleans; a
# display name is cleaned and cut. The calls check the rest (ranges, settings, the game).
ARGUMENTS: dict[str, Callable[[object], object]] = {
    "channel": _an_id, "guild": _an_id, "game_id": _an_id_or_none,
    "expected_version": _an_id_or_none, "version": _an_id, "limit": _an_id,
    "user": _a_pid, "voter": _a_pid,
    "target": _of_type(str, Code.UNKNOWN_PLAYER), "pid": _of_type(str, Code.COMPUTER_UNKNOWN),
    "level": _of_type(str, Code.COMPUTER_LEVEL), "seats": _of_type(int, Code.SEATS),
    "is_admin": _a_flag, "turn": _a_flag, "fill_with_computers": _a_flag,
    "now": _a_time, "name": display_name, "shards": _shards_or_none,
    # games that keep moving over days; the calls check the ranges and the values
    "pids": lambda v: _pids(v), "mode": _of_type(str, Code.NOTIFY_MODE),
    "message_id": _an_id, "url": _of_type(str),
    "turn_timer_hours": lambda v: _number_or_none(v, Code.TURN_TIMER),
    "reminder_hours": lambda v: _number_or_none(v, Code.REMINDER_HOURS),
    "computer_level": lambda v: v if v is None else _of_type(str, Code.SETTINGS_LEVEL)(v),
    # a server full of games: threads, the queue, rematches
    "parent": _an_id_or_none, "number": _an_id_or_none, "thread": _an_id,
    "threads": lambda v: v if v is None else _a_flag(v), "fill": _a_flag,
    "pages": lambda v: v if v is None else _a_flag(v),
    "hints": lambda v: v if v is None else _a_flag(v),
    "computers": _of_type(int, Code.COMPUTER_SEATS),
    # players away from a server's games
    "until": lambda v: _number_or_none(v, Code.AWAY_WHEN),
    "away_cap_hours": lambda v: _number_or_none(v, Code.AWAY_CAP),
    # a distributor's half-made split: cards' indices per offer (the call checks the deal)
    "offers": lambda v: _offers(v),
}


def _offers(value: object) -> tuple[tuple[int, ...], ...]:
    """Offers as lists of small whole numbers (a split has a dozen cards at most)."""
    if not isinstance(value, list | tuple) or len(value) > 12:
        raise BadInput(Code.SPLIT_DRAFT)
    out: list[tuple[int, ...]] = []
    for offer in value:
        if not isinstance(offer, list | tuple) or len(offer) > 12 or \
                any(type(i) is not int or not 0 <= i < 100 for i in offer):
            raise BadInput(Code.SPLIT_DRAFT)
        out.append(tuple(offer))
    return tuple(out)


def _pids(value: object) -> tuple[str, ...]:
    """A few pids (a list or tuple of them), as the engine writes them."""
    if not isinstance(value, list | tuple) or len(value) > 64:
        raise BadInput(Code.PLAYER_ID)
    return tuple(_a_pid(v) for v in value)


def _number_or_none(value: object, code: str) -> object:
    if value is None:
        return None
    if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
        raise BadInput(code)
    return value


def _checked(signature: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]
             ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The call's arguments checked (and names cleaned) by ``ARGUMENTS``."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        raise BadInput() from None
    for key, value in bound.arguments.items():
        check = ARGUMENTS.get(key)
        if check is not None:
            bound.arguments[key] = check(value)
    return bound.args, bound.kwargs


def typed_errors(fn: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """A public service call checks its arguments (``ARGUMENTS``) and raises only
    ServiceErrors: a store failure becomes the ServiceError with its code (the cause is
    logged in SQLite's words), anything unexpected is logged with its traceback and becomes
    ``internal`` (the player reads an apology)."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            args, kwargs = _checked(signature, args, kwargs)  # type: ignore[assignment]
            return await fn(*args, **kwargs)
        except ServiceError:
            raise
        except Busy as exc:  # CPU work refused: a clear answer, never a slower game
            raise WorkBusy(retry_after=exc.retry_after) from exc
        except LeaseLost:  # the deliverer's fence: its worker stops (``delivery.worker``)
            raise
        except StorageError as exc:
            log.error("%s%s: not saved: %s (%s)", fn.__name__, _where(args), exc.code, exc)
            raise StorageFailed(exc.code) from exc
        except StoreError as exc:  # a refusal the call did not map: a bug, but typed
            log.error("%s%s: unmapped store refusal %s", fn.__name__, _where(args), exc.code)
            raise StorageFailed(Code.STORE_FAILED) from exc
        except Exception as exc:
            log.error("unexpected error in service call %s%s", fn.__name__, _where(args),
                      exc_info=exc)
            raise ServiceError(Code.INTERNAL) from exc
    return call


def _where(args: tuple[object, ...]) -> str:
    """`` (channel N)`` for a call whose first argument is a channel id, for the log."""
    first = args[1] if len(args) > 1 else None
    return f" (channel {first})" if type(first) is int else ""


def guard_public_calls(cls: C) -> C:
    """Wrap every public coroutine method of ``cls`` (its own and inherited) in
    ``typed_errors``: one boundary for every call, present and future."""
    for name in dir(cls):
        attr = getattr(cls, name)
        if not name.startswith("_") and inspect.iscoroutinefunction(attr):
            setattr(cls, name, typed_errors(attr))
    return cls
