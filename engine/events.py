"""Events: what ``apply`` reports happened, for log lines, pings and the board's highlight.

DESIGN.md fixes ``district_scored``, ``toll_paid``, ``canal_crossed``, ``passage_scored``,
``banished`` and ``game_over``; every prestige change is told by one of them. ``visible_to``
is None for public events, or the players who alone may see it (``cards_drawn``, R15).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened; ``data`` holds JSON-able facts (pids, district names)."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", MappingProxyType(dict(self.data)))

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: ``{"type": ..., **data}``."""
        return {"type": self.type, **self.data}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its plain fields (a read-only mapping is not picklable): events
        cross to the bot's worker processes and back (``bot.work``)."""
        return (Event, (self.type, dict(self.data), self.visible_to))


def public_events(events: Iterable[Event]) -> tuple[Event, ...]:
    """The events anyone may see (R15)."""
    return tuple(e for e in events if e.visible_to is None)


def events_for(events: Iterable[Event], pid: str) -> tuple[Event, ...]:
    """The events pid may see: the public ones and pid's own."""
    return tuple(e for e in events if e.visible_to is None or pid in e.visible_to)
