"""What the application's modules share: its options, the keys of what it holds, and who
asks (the client a door's limits count)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.service import GameService

from .doors import Doors
from .games import Games
from .live import POLL_SECONDS, Hub

WRITE_SECONDS = 10.0  # how long a stream waits for a reader that does not read
DISCORD_API = "https://discord.com/api/v10"  # its OAuth2 pages are beside it (``signin``)

# A place's names as the bot knows them (server, channel; None: not known), asked with
# its channel and server ids: the My games page names where each game is played.
PlaceNames = Callable[[int, int], tuple[str | None, str | None]]


@dataclass(frozen=True)
class WebOptions:
    """How the application runs: ``public_url`` the address links use (None: the
    request's own); ``gateway`` whether the bot's gateway is connected (None: no bot in
    this process); ``secret`` signs the players' links to their own hand (None: no such
    links); ``outbox_bound`` seconds the oldest waiting post may wait before the
    bot is not ready; ``poll`` seconds between looks at the store for live pages;
    ``write_seconds`` how long a stream waits for a reader that does not read.

    The doors' limits (``doors``): a client's address is the connection's, or the last
    entry of ``client_header`` (e.g. ``X-Forwarded-For``) when a trusted proxy in front
    sets it (only then: a client could write it itself); pictures a minute per client and
    per game link, file checks a minute per client (0: no limit), open event streams per
    client and in all; ``header_seconds`` for a request's headers to arrive (a slow
    client is cut off), ``body_seconds`` for its body; moves from seat pages a minute per
    client and per game link; ``wake(channel, guild)`` tells the bot's outbox a move from a
    seat page has a post to send (None: the outbox finds it on its next pass).

    "Sign in with Discord" (``signin``): ``client_id`` and ``client_secret`` the
    application's OAuth2 credentials (None: no sign-in), with ``secret`` signing the
    sessions; ``discord_api`` Discord's API base (its authorize page, token and user
    addresses follow from it: a test names the fake's); ``oauth_seconds`` the most a
    call to Discord may take; ``place_names`` names a game's server and channel."""

    public_url: str | None = None
    secret: str | None = field(default=None, repr=False)  # signs hand links
    gateway: Callable[[], bool] | None = None
    outbox_bound: float = 600.0
    poll: float = POLL_SECONDS
    write_seconds: float = WRITE_SECONDS
    client_header: str | None = None
    pictures_per_minute: float = 240.0
    link_pictures_per_minute: float = 1200.0
    checks_per_minute: float = 6.0
    streams_per_client: int = 8
    streams: int = 1000
    header_seconds: float = 10.0
    body_seconds: float = 10.0
    acts_per_minute: float = 60.0
    link_acts_per_minute: float = 240.0
    wake: Callable[[int, int], None] | None = field(default=None, repr=False)
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    discord_api: str = DISCORD_API
    oauth_seconds: float = 10.0
    place_names: PlaceNames | None = field(default=None, repr=False)

    @property
    def sign_in(self) -> bool:
        """Whether "Sign in with Discord" is set up."""
        return bool(self.client_id and self.client_secret and self.secret)


GAMES = web.AppKey("games", Games)
HUB = web.AppKey("hub", Hub)
SERVICE = web.AppKey("service", GameService)
OPTIONS = web.AppKey("options", WebOptions)
DOORS = web.AppKey("doors", Doors)



def client(request: web.Request) -> str:
    """Who asks, for the doors' limits: the trusted proxy's header's last entry when the
    options name one, else the connection's address."""
    header = request.app[OPTIONS].client_header
    if header:
        said = request.headers.get(header, "").rsplit(",", 1)[-1].strip()[:64]
        if said:
            return said
    return request.remote or "?"
