"""The web application: its routes, what each answers, and the guards every request passes
(a clear page for an address that names nothing, a bound on what a request may send, a
bound on how long a page waits for a slow reader, headers that keep a page's address to
itself).

=====================================  ==================================================
route                                  answers
=====================================  ==================================================
``GET /g/<token>``                     the game's page (``?lang=en|de|fr``)
``GET /g/<token>/replay/<n>.png``      the board after step n (0: the set-up)
``GET /g/<token>/board.png``           the board now
``GET /g/<token>/events``              server-sent events, one per committed version
``GET /g/<token>/game.json``           the finished game's file
``GET /g/<token>/hand?u=&e=&s=``       a player's own view, by a signed link (an hour)
``POST /check``                        what ``python -m engine.replay`` finds in a file
``GET /s/<token>``                     a server's page, when its managers show it
``GET /healthz /readyz /metrics``      for the people who run it (``ops``)
=====================================  ==================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources

from aiohttp import web

from bot import i18n, text
from bot.links import is_hand_link
from bot.metrics import PAGE_SECONDS, WATCHERS
from bot.service import GameService, NoGame, ServiceError, WorkBusy
from bot.work import CHECK, Busy
from engine.replay import verify

from . import html, ops, server_html
from .games import Games, Seen
from .live import POLL_SECONDS, Hub

log = logging.getLogger("bot.web")

MAX_REQUEST = 1024 * 1024  # bytes a request may send (a game file is a few hundred KB)
WRITE_SECONDS = 10.0  # how long a stream waits for a reader that does not read
KEEP_ALIVE = 15.0  # a comment line this often keeps proxies from closing a quiet stream
STATIC = {"page.css": "text/css", "page.js": "text/javascript"}
SECURITY = {
    # no other site, no inline script: a display name can never run as code
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a page's address (its token) stays with its reader
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class WebOptions:
    """How the application runs: ``public_url`` the address links use (None: the
    request's own); ``gateway`` whether the bot's gateway is connected (None: no bot in
    this process); ``secret`` signs the players' links to their own hand (None: no such
    links); ``outbox_bound`` seconds the oldest waiting post may wait before the
    bot is not ready; ``poll`` seconds between looks at the store for live pages;
    ``write_seconds`` how long a stream waits for a reader that does not read."""

    public_url: str | None = None
    secret: str | None = field(default=None, repr=False)  # signs hand links
    gateway: Callable[[], bool] | None = None
    outbox_bound: float = 600.0
    poll: float = POLL_SECONDS
    write_seconds: float = WRITE_SECONDS


GAMES = web.AppKey("games", Games)
HUB = web.AppKey("hub", Hub)
SERVICE = web.AppKey("service", GameService)
OPTIONS = web.AppKey("options", WebOptions)


def make_app(service: GameService, options: WebOptions | None = None) -> web.Application:
    """The pages over ``service`` (the bot's own, or one ``python -m bot.web`` opens)."""
    app = web.Application(client_max_size=MAX_REQUEST, middlewares=[_guard])
    app[SERVICE] = service
    app[OPTIONS] = options or WebOptions()
    app[GAMES] = Games(service)
    app[HUB] = Hub(service, poll=app[OPTIONS].poll)
    app.router.add_get("/g/{token}", game_page, name="page")
    app.router.add_get("/g/{token}/replay/{n:[0-9]{1,5}}.png", replay_png, name="replay")
    app.router.add_get("/g/{token}/board.png", board_png, name="board")
    app.router.add_get("/g/{token}/events", events, name="events")
    app.router.add_get("/g/{token}/game.json", game_json, name="file")
    app.router.add_get("/g/{token}/hand", hand, name="hand")
    app.router.add_post("/check", check, name="check")
    app.router.add_get("/s/{token}", server, name="server")
    app.router.add_get("/static/{name}", static, name="static")
    ops.add_routes(app, SERVICE, OPTIONS)
    app.on_shutdown.append(_close)  # before the server waits for open streams
    return app


async def _close(app: web.Application) -> None:
    await app[HUB].close()


def language(request: web.Request) -> str:
    return html.choose_language(request.query.get("lang"),
                                request.headers.get("Accept-Language"))


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer: a page for a missing one, the security headers, its time measured."""
    started = time.perf_counter()
    try:
        response = await handler(request)
    except web.HTTPNotFound:
        response = web.Response(status=404, text=html.not_found_page(language(request)),
                                content_type="text/html")
    except WorkBusy as exc:  # the worker lanes are full: nothing done, ask again soon
        said = text.refusal(i18n.translations(language(request)), exc.code)
        response = web.Response(status=503, text=said,
                                headers={"Retry-After": str(exc.params["retry_after"])})
    except ServiceError as exc:  # the store did not answer (the service logged it)
        log.warning("web: a %s request answered 503: the store said %s",
                    request.match_info.route.name or "web", exc.code)
        response = web.Response(status=503, text=html.store_away_page(language(request)),
                                content_type="text/html", headers={"Retry-After": "5"})
    route = request.match_info.route.name or "unknown"
    if not response.prepared:
        response.headers.update(SECURITY)
    if route != "events":
        PAGE_SECONDS.labels(route).observe(time.perf_counter() - started)
    return response


def _base(request: web.Request) -> str:
    return f"/g/{request.match_info['token']}"


async def _seen(request: web.Request) -> tuple[Games, Seen]:
    games = request.app[GAMES]
    try:
        return games, await games.seen(request.match_info["token"])
    except NoGame:
        raise web.HTTPNotFound() from None


async def game_page(request: web.Request) -> web.Response:
    games, seen = await _seen(request)
    lang = language(request)
    steps = seen.replay.steps if seen.replay is not None else ()
    page = html.game_page(i18n.translations(lang), lang, seen.game, steps, _base(request))
    return web.Response(text=page, content_type="text/html",
                        headers={"Cache-Control": "no-cache", "Content-Language": lang})


async def _png(request: web.Request, n: int | None) -> web.Response:
    games, seen = await _seen(request)
    if seen.replay is None:
        raise web.HTTPNotFound()
    step = len(seen.replay.steps) - 1 if n is None else n
    png = await games.picture(seen, step, language(request))
    if png is None:
        raise web.HTTPNotFound()
    # a step's picture never changes (a taken-back step's number gets a new version)
    cache = "no-cache" if n is None else "public, max-age=60"
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cache})


async def replay_png(request: web.Request) -> web.Response:
    return await _png(request, int(request.match_info["n"]))


async def board_png(request: web.Request) -> web.Response:
    return await _png(request, None)


async def game_json(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    try:
        data = await service.page_file(request.match_info["token"])
    except ServiceError:  # no such game, or not over: its seed is still a secret
        raise web.HTTPNotFound() from None
    return web.Response(text=data, content_type="application/json", headers={
        "Content-Disposition": 'attachment; filename="sanmarco-game.json"'})


async def hand(request: web.Request) -> web.Response:
    """A player's own view of the game, for the holder of a link the bot signed for that
    player and game, until it expires; anything else is refused with a clear page (and
    never says whether the game or the player exists)."""
    service, secret = request.app[SERVICE], request.app[OPTIONS].secret
    token, query = request.match_info["token"], request.query
    user = query.get("u", "")
    lang = language(request)
    private: dict[str, object] | None = None
    if secret is not None and is_hand_link(secret, token, user, query.get("e", ""),
                                           query.get("s", ""), service.clock()):
        try:
            view = await service.page_hand(token, user)
            game = await service.page_game(token)
            private = dict(view["private"])
        except ServiceError:
            private = None
    headers = {"Cache-Control": "no-store, private"}
    if private is None:
        return web.Response(status=403, text=html.bad_link_page(lang),
                            content_type="text/html", headers=headers)
    return web.Response(text=html.hand_page(i18n.translations(lang), lang, game.game_id,
                                            private, _base(request)),
                        content_type="text/html", headers=headers)


async def server(request: web.Request) -> web.Response:
    try:
        page = await request.app[SERVICE].server_page(request.match_info["token"])
    except NoGame:
        raise web.HTTPNotFound() from None
    lang = language(request)
    return web.Response(text=server_html.server_page(i18n.translations(lang), lang, page),
                        content_type="text/html", headers={"Cache-Control": "no-cache"})


async def check(request: web.Request) -> web.Response:
    """A game file checked as ``python -m engine.replay`` checks it (off the event loop)."""
    try:
        data = json.loads(await request.text())
    except (ValueError, UnicodeDecodeError):
        data = None
    try:  # in the side worker lane: a big file is seconds of a core's work
        verdict = await request.app[SERVICE].work.run(CHECK, verify, data)
    except Busy as exc:
        raise WorkBusy(retry_after=exc.retry_after) from None
    tr = i18n.translations(language(request))
    return web.json_response({"ok": verdict.ok, "report": text.verdict_text(tr, verdict)})


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    kind = STATIC.get(name)
    if kind is None:
        raise web.HTTPNotFound()
    body = resources.files("bot.web").joinpath("static", name).read_bytes()
    return web.Response(body=body, content_type=kind,
                        headers={"Cache-Control": "public, max-age=300"})


def _last_id(request: web.Request) -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.query.get("after")
    if raw is None or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


async def events(request: web.Request) -> web.StreamResponse:
    """The game's committed versions as server-sent events (``id:`` the version), from
    the one after ``Last-Event-ID`` (or ``?after=``) on; without either, from now."""
    games, seen = await _seen(request)
    service, hub = request.app[SERVICE], request.app[HUB]
    patience = request.app[OPTIONS].write_seconds
    lang = language(request)
    base = _base(request) + "/"
    game_id = seen.game.game_id
    last = _last_id(request)
    last = seen.game.version if last is None else min(last, seen.game.version)
    before = await _seq_at(service, game_id, last)
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no", **SECURITY})
    # followed before the answer starts: a version committed meanwhile is in the feed
    async with hub.follow(game_id, seen.game.version) as feed:
        await response.prepare(request)
        WATCHERS.inc()
        try:
            await _write(response, b"retry: 2000\n\n", patience)
            while not hub.closed:
                rows = feed.after(last)
                if rows is None:  # fallen behind what the feed keeps: from the store
                    rows = await service.page_versions(game_id, last)
                if not rows:
                    if feed.version <= last:
                        await feed.wait(KEEP_ALIVE)
                        if feed.version <= last:
                            await _write(response, b": still here\n\n", patience)
                    continue
                seen = await games.seen(request.match_info["token"], rows[-1].version)
                for row in rows:
                    await _write(response, games.event(seen, row, before, lang,
                                                       lambda p: base + p), patience)
                    last = row.version
                    before = row.seq if row.seq is not None else before
        except (ConnectionResetError, TimeoutError, NoGame):
            pass  # the reader left, or reads too slowly: its browser comes back by itself
        except ServiceError as exc:  # the store is away: the browser comes back later
            log.warning("web: a game's stream ended: the store answered %s", exc.code)
        finally:
            WATCHERS.dec()
    return response


async def _seq_at(service: GameService, game_id: int, version: int) -> int | None:
    """The game's last logged action at ``version`` (None: not started then)."""
    rows = await service.page_versions(game_id, version - 1, 1)
    return rows[0].seq if rows and rows[0].version == version else None


async def _write(response: web.StreamResponse, data: bytes, seconds: float) -> None:
    await asyncio.wait_for(response.write(data), seconds)
