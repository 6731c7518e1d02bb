"""Running the pages: inside the bot (``start``: on the bot's own event loop, next to the
gateway) or on their own (``python -m bot.web``), and the address of a game's page."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.service import GameService

from .app import make_app
from .keys import WebOptions

log = logging.getLogger("bot.web")

SHUTDOWN_SECONDS = 5.0  # open streams are closed after this at a stop


def page_url(public_url: str, token: str) -> str:
    """The address of a game's page under ``public_url`` (SANMARCO_PUBLIC_URL)."""
    return f"{public_url.rstrip('/')}/g/{token}"


async def serve(service: GameService, port: int, *, host: str = "127.0.0.1",
                options: WebOptions | None = None) -> web.AppRunner:
    """Serve the pages on ``host:port`` until the returned runner's ``cleanup()``."""
    options = options or WebOptions()
    # a connection that has not sent a whole request's headers within header_seconds
    # (from its start, or since its last answer) is closed: a slow client holds nothing
    runner = web.AppRunner(make_app(service, options), access_log=None,
                           shutdown_timeout=SHUTDOWN_SECONDS,
                           keepalive_timeout=options.header_seconds)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("serving the game pages on http://%s:%s", host, runner.addresses[0][1])
    return runner
