"""What the web pages' calls return (``bot.service._pages``): a game as its page shows it
and its replay, public facts only (small frozen values)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from bot.ratings import Ranked
from bot.service.results.servers import OpenLobby
from bot.store import PastGame
from engine import Event
from engine.views import PublicView


@dataclass(frozen=True)
class PageGame:
    """A game behind a page's token: ``version`` the row's (what the page's stream counts),
    ``view`` the public view (None for a lobby), ``names`` the seats' names now,
    ``awaited_since`` since when the game waits (a running game's), ``language`` the
    channel's posts' (None: the server's; the page follows its reader)."""

    game_id: int
    guild_id: int
    status: str
    version: int
    view: PublicView | None
    names: Mapping[str, str]
    awaited_since: float | None
    turn_timer_hours: float
    created_at: float
    ended_at: float | None
    computers: tuple[str, ...] = ()


@dataclass(frozen=True)
class PageStep:
    """One step of a game's replay: the logged action (``seq`` 0: the set-up, pid ""),
    its public text and events, the public view after it, the seats' names when it was
    made (a seat that changed hands names whoever made the move)."""

    seq: int
    pid: str
    action: str
    at: float
    events: tuple[Event, ...]
    view: PublicView
    names: Mapping[str, str]


@dataclass(frozen=True)
class RunningGame:
    """A running game as its server's page lists it: ``token`` its page's (None: its
    channel has pages off), who is awaited."""

    game_id: int
    token: str | None
    players: tuple[str, ...]
    names: Mapping[str, str]
    awaiting: tuple[str, ...]


@dataclass(frozen=True)
class ServerPage:
    """A server's page: its open lobbies, running games, leaderboard and recent games,
    with the names the server's games show (``names``: every person named, by id) and the
    recent games' page tokens where their channels have pages (``pages``: game id →
    token)."""

    guild_id: int
    lobbies: tuple[OpenLobby, ...]
    running: tuple[RunningGame, ...]
    leaderboard: tuple[Ranked, ...]
    history: tuple[PastGame, ...]
    names: Mapping[str, str]
    pages: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PageReplay:
    """Every step of a game from its set-up, public facts only, at row ``version``."""

    game_id: int
    version: int
    steps: tuple[PageStep, ...]


# how far a version's post got (``PostDelivery``)
PostState = Literal["none", "saved", "waiting", "sent", "blocked", "gone"]


@dataclass(frozen=True)
class PostDelivery:
    """Whether the channel shows a game's version yet (its move's post, sent by the outbox):
    ``state`` is ``sent`` (no post of it or of an older version waits), ``saved`` (it waits,
    being sent now), ``waiting`` (Discord has not taken it: a send failed or takes long; it
    will be sent), ``blocked`` (the bot lacks ``permission`` there: it waits for it), ``gone``
    (Discord says the channel is gone: nothing will be posted) or ``none`` (a lobby:
    no move yet)."""

    version: int
    state: PostState
    permission: str | None = None
