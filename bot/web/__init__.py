"""The web room: a page for every game — the board with its facts as HTML a screen reader
reads, the log in the reader's language, a replay slider, the game file and its check —
live as changes are committed, plus ``/healthz``, ``/readyz`` and ``/metrics`` for the
people who run the bot. An ``aiohttp.web`` application served by the bot
(``SANMARCO_WEB_PORT``) or on its own (``python -m bot.web --db PATH --port N``).

It reads through the service (``GameService``'s page calls: public facts only; a seat's
page, opened by a link the bot signed for its player, also that seat's own secrets and
moves, through the same ``act`` as a button), never the Discord adapter, and a game is
named in an address by its page's unguessable token, never by its number. A player signed
in with Discord (``signin``) needs no link: their session opens the seats they play. Nothing here
sees a seed, nor anyone's drawn cards or split but a seat's own on its own page.

==============  ==============================================================
module          what it owns
==============  ==============================================================
``app``         the routes and what each answers, the live stream
``keys``        the options, the keys of what the application holds, who asks
``seat``        a seat played from its page: the signed link's session, CSRF, its moves
``signin``      Sign in with Discord (OAuth2 code + PKCE + state): the session, sign-out
``mygames``     My games: a signed-in player's running games, each opening its seat page
``decision``    a seat's decision as its page shows it (the engine's legal actions)
``guard``       every answer: a page for each refusal, the security headers, strict numbers
``doors``       the limits: pictures and checks per client and link, streams, Retry-After
``html``        the pages from ``templates/`` (Jinja2, escaping on; the log from events)
``server_html`` a server's page as HTML (lobbies, games, leaderboard, history)
``games``       the replay and the pictures per game, cached by version and step
``live``        one poller of the store per process for every followed game
``ops``         health, readiness, Prometheus metrics
``serve``       running the application: in the bot, or on its own
==============  ==============================================================
"""

from __future__ import annotations

from .app import make_app
from .keys import WebOptions
from .serve import page_url, serve

__all__ = ["WebOptions", "make_app", "page_url", "serve"]
