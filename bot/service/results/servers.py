"""What the server-wide calls return: the queue of players looking for others, a server's
open lobbies, rematches (small frozen values, as in ``bot.service.results``, which
re-exports them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


# The queue of players looking for others, a server's open lobbies, rematches.
@dataclass(frozen=True)
class Seeker:
    """A player in a server's queue: the table they want (``players``), whether computers may
    fill the seats nobody takes after a wait, the language the game must speak (None: any),
    the channel they asked in, since when; ``seating``: a game is being opened for them."""

    pid: str
    name: str | None
    players: int
    computers: bool
    language: str | None
    channel_id: int
    since: float
    seating: bool = False


@dataclass(frozen=True)
class Found:
    """A table the queue found: game ``number`` (reserved: its thread is named after it),
    the ``seekers`` who play it (oldest first), the seats computers fill, the language it
    speaks (None: the channel's), and the text channel its thread opens in."""

    number: int
    guild_id: int
    channel_id: int
    seekers: tuple[Seeker, ...]
    players: int
    computers: int
    language: str | None

    @property
    def pids(self) -> tuple[str, ...]:
        return tuple(s.pid for s in self.seekers)

    @property
    def names(self) -> dict[str, str]:
        return {s.pid: s.name for s in self.seekers if s.name}


@dataclass(frozen=True)
class Sought:
    """A player put in the queue: their entry, the table it completed (if any), and how many
    wait for a table of the same size (them included) when none did."""

    seeker: Seeker
    found: Found | None
    waiting: int


@dataclass(frozen=True)
class OpenLobby:
    """One of a server's lobbies as ``/sanmarco-server lobbies`` lists it."""

    game_id: int
    channel_id: int
    seats: int
    players: tuple[str, ...]
    names: Mapping[str, str]
    invited: tuple[str, ...]
    url: str | None

    @property
    def free(self) -> int:
        return self.seats - len(self.players)


@dataclass(frozen=True)
class Rematch:
    """A finished game to be played again: where it was played (``channel_id``; the text
    channel whose thread it had, ``parent_id``), its seats, the players asked back
    (``invited``), the computer players that sit again (``computers``) and their names."""

    game_id: int
    guild_id: int
    channel_id: int
    parent_id: int | None
    seats: int
    invited: tuple[str, ...]
    computers: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
