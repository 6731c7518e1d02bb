"""What service calls return: small frozen values holding what the adapter needs to tell
people. Public parts (``events``, ``view``) hold no secret; ``private_events`` go only to
their pid, ephemerally."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Lobby:
    """A lobby (or the game it became). ``version`` is the row revision: it changes with
    every join/leave, so lobby buttons can carry it."""

    game_id: int
    guild_id: int
    channel_id: int
    status: str
    creator: str
    seats: int
    players: tuple[str, ...]
    names: Mapping[str, str]
    version: int


@dataclass(frozen=True)
class Update:
    """The outcome of ``start`` or ``act``.

    ``version`` is the game's version, the same as ``view["version"]`` (prompts carry it as
    ``expected_version``). ``events`` are public event dicts (``{"type": ..., **data}``) of
    every action applied by this call (computer moves included), in order.
    ``private_events[pid]`` are the events only pid may see (e.g. ``cards_drawn``).
    ``mention`` are the human players whose decision starts now: each awaited player once,
    when their decision starts (both distributors at once); never computer players.
    """

    game_id: int
    channel_id: int
    version: int
    view: Mapping[str, Any]
    names: Mapping[str, str]
    events: tuple[dict[str, Any], ...]
    private_events: Mapping[str, tuple[dict[str, Any], ...]]
    mention: tuple[str, ...]
    awaiting: Mapping[str, str]
    board_changed: bool
    finished: bool
    winners: tuple[str, ...]
    applied: int = 1


@dataclass(frozen=True)
class Ended:
    """A game ended by ``abandon``."""

    game_id: int
    channel_id: int
    status: str
    by: str


@dataclass(frozen=True)
class Status:
    """Who is awaited, for what (``awaiting``: pid → kind, as in the public view), since
    when (``since``, epoch seconds). In a lobby ``awaiting`` is empty and ``since`` is the
    lobby's creation; for an ended game both are empty/None."""

    game_id: int
    channel_id: int
    status: str
    phase: str | None
    version: int
    players: tuple[str, ...]
    names: Mapping[str, str]
    seats: int
    creator: str
    awaiting: Mapping[str, str]
    since: float | None
    created_at: float
    last_action_at: float
    finished: bool
    winners: tuple[str, ...]
    prestige: Mapping[str, int] = field(default_factory=dict)
    computers: tuple[str, ...] = ()  # seats a computer plays (its own, or taken over)

    def __str__(self) -> str:
        if self.status == "lobby":
            return f"Lobby: {len(self.players)}/{self.seats} seats taken."
        if self.status == "abandoned":
            return "The game was abandoned."
        if self.finished:
            return "The game is over; won by " + ", ".join(self.winners) + "."
        who = ", ".join(f"{p} ({k})" for p, k in self.awaiting.items())
        return f"Waiting for {who} (phase {self.phase})."


@dataclass(frozen=True)
class LogEntry:
    """One action of the log. ``action`` is its text, except that a split shows only
    ``split`` (how a distributor split is a secret until the offers are revealed)."""

    seq: int
    pid: str
    action: str
    at: float
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class GameLog:
    """A game's log, replayed from its seed, with the public events of every action."""

    game_id: int
    status: str
    entries: tuple[LogEntry, ...]

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every public event in order (what ``/sanmarco log`` prints)."""
        return [e for entry in self.entries for e in entry.events]


@dataclass(frozen=True)
class Audit:
    """Replay of a stored game from seed + log compared with its stored state. ``problem``
    names the first mismatch in words that hold no secret."""

    game_id: int
    ok: bool
    actions: int
    version: int
    problem: str | None = None


@dataclass(frozen=True)
class Reminder:
    """A running game whose awaited players should be reminded now. Pass ``version`` back
    to ``mark_reminded`` (the row revision: a reminder for a game that moved on is void)."""

    game_id: int
    guild_id: int
    channel: int
    pids: tuple[str, ...]
    awaiting: Mapping[str, str]
    since: float
    version: int


@dataclass(frozen=True)
class Standing:
    """A guild's record for one player: games finished and games won (shared wins count)."""

    pid: str
    played: int
    won: int


@dataclass(frozen=True)
class Replacement:
    """The outcome of a vote to hand an absent player's seat to a computer player.
    ``update`` (moves the computer made at once) is set only when the seat was handed over."""

    target: str
    replaced: bool
    votes: int
    needed: int
    update: Update | None = None
