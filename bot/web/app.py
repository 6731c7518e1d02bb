"""The web application: its routes and what each answers, with the limits of its doors
(``doors``) and the guard every request passes (``guard``: a clear page for every
refusal, the security headers on every answer, numbers read strictly).

=====================================  ==================================================
route                                  answers
=====================================  ==================================================
``GET /g/<token>``                     the game's page (``?lang=en|de|fr``)
``GET /g/<token>/v/<v>/replay/<n>.png`` the board after step n (0: the set-up) at version v
``GET /g/<token>/replay/<n>.png``      sent on to the current version's address
``GET /g/<token>/board.png``           the board now
``GET /g/<token>/events``              server-sent events, one per committed version
``GET /g/<token>/game.json``           the finished game's file
``GET /g/<token>/hand?u=&e=&s=``       a signed link: the seat's session, then its page
``GET|POST /g/<token>/seat...``        the seat's page, decision and moves (``seat``)
``GET /signin`` ``/signin/callback``   Sign in with Discord; ``POST /signout`` (``signin``)
``GET /me``                            the signed-in player's running games (``mygames``)
``POST /check``                        what ``python -m engine.replay`` finds in a file
``GET /s/<token>``                     a server's page, when its managers show it
``GET /favicon.ico``                   the pages' icon
``GET /healthz /readyz /metrics``      for the people who run it (``ops``)
=====================================  ==================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from importlib import resources

from aiohttp import web

from bot import i18n, text
from bot.metrics import WATCHERS
from bot.service import GameService, NoGame, ServiceError, WorkBusy
from bot.work import CHECK, Busy
from engine.replay import verify

from . import guard, html, mygames, ops, seat, server_html, signin
from .doors import Doors
from .games import Games, Seen
from .guard import SECURITY, language, number
from .keys import DOORS, GAMES, HUB, OPTIONS, SERVICE, WebOptions, client
from .live import Hub

log = logging.getLogger("bot.web")

MAX_REQUEST = 1024 * 1024  # bytes a request may send (a game file is a few hundred KB)
KEEP_ALIVE = 15.0  # a comment line this often keeps proxies from closing a quiet stream
STATIC = {"page.css": "text/css", "page.js": "text/javascript", "seat.js": "text/javascript"}


def make_app(service: GameService, options: WebOptions | None = None,
             clock: Callable[[], float] = time.monotonic) -> web.Application:
    """The pages over ``service`` (the bot's own, or one ``python -m bot.web`` opens);
    ``clock`` the doors' (the tests' own)."""
    app = web.Application(client_max_size=MAX_REQUEST, middlewares=[guard.guard])
    app[SERVICE] = service
    opts = app[OPTIONS] = options or WebOptions()
    app[GAMES] = Games(service)
    app[HUB] = Hub(service, poll=opts.poll)
    app[DOORS] = Doors(pictures=opts.pictures_per_minute,
                       pictures_link=opts.link_pictures_per_minute,
                       checks=opts.checks_per_minute,
                       streams_per_client=opts.streams_per_client, streams=opts.streams,
                       acts=opts.acts_per_minute, acts_link=opts.link_acts_per_minute,
                       clock=clock)
    app.router.add_get("/g/{token}", game_page, name="page")
    app.router.add_get("/g/{token}/v/{v}/replay/{n}.png", picture, name="picture")
    app.router.add_get("/g/{token}/replay/{n}.png", replay_png, name="replay")
    app.router.add_get("/g/{token}/board.png", board_png, name="board")
    app.router.add_get("/g/{token}/events", events, name="events")
    app.router.add_get("/g/{token}/game.json", game_json, name="file")
    seat.add_routes(app)  # /hand, /seat, /seat/decision, /seat/act
    signin.add_routes(app)  # /signin, /signin/callback, /signout
    mygames.add_routes(app)  # /me
    app.router.add_post("/check", check, name="check")
    app.router.add_get("/s/{token}", server, name="server")
    app.router.add_get("/static/{name}", static, name="static")
    app.router.add_get("/favicon.ico", favicon, name="favicon")
    ops.add_routes(app, SERVICE, OPTIONS)
    app.on_response_prepare.append(guard.secure)  # every answer, streams too
    app.on_shutdown.append(_close)  # before the server waits for open streams
    return app


async def _close(app: web.Application) -> None:
    await app[HUB].close()


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
    pictures = seen.replay.version if seen.replay is not None else seen.game.version
    page = html.game_page(i18n.translations(lang), lang, seen.game, steps, _base(request),
                          pictures)
    return web.Response(text=page, content_type="text/html",
                        headers={"Cache-Control": "no-cache", "Content-Language": lang})


async def picture(request: web.Request) -> web.Response:
    """Step n's board at the game's version v: the same address is the same picture for
    good (cached ``immutable``); an older version's address is sent on to the current
    one (a step taken back and played again is a new address, never the old board)."""
    version, step = number(request.match_info["v"]), number(request.match_info["n"], 6)
    request.app[DOORS].picture(client(request), request.match_info["token"])
    games, seen = await _seen(request)
    if seen.replay is None or version > seen.replay.version:
        raise web.HTTPNotFound()
    if version < seen.replay.version:
        return _moved(request, seen.replay.version, step)
    png = await games.picture(seen, step, language(request))
    if png is None:
        raise web.HTTPNotFound()
    return web.Response(body=png, content_type="image/png", headers={
        "Cache-Control": "public, max-age=31536000, immutable",
        # without ?lang= the words drawn follow the browser's languages
        **({} if "lang" in request.query else {"Vary": "Accept-Language"})})


def _moved(request: web.Request, version: int, step: int) -> web.Response:
    """Sent on to the picture's address at ``version``, in the language it was asked in."""
    return web.Response(status=302, headers={
        "Location": f"{_base(request)}/v/{version}/replay/{step}.png?lang={language(request)}",
        "Cache-Control": "no-cache", "Vary": "Accept-Language"})


async def replay_png(request: web.Request) -> web.Response:
    """Step n's board by the address without a version: sent on to the current one."""
    step = number(request.match_info["n"], 6)
    request.app[DOORS].picture(client(request), request.match_info["token"])
    _, seen = await _seen(request)
    if seen.replay is None:
        raise web.HTTPNotFound()
    return _moved(request, seen.replay.version, step)


async def board_png(request: web.Request) -> web.Response:
    """The board now (never cached: it changes with the game)."""
    request.app[DOORS].picture(client(request), request.match_info["token"])
    games, seen = await _seen(request)
    if seen.replay is None:
        raise web.HTTPNotFound()
    png = await games.picture(seen, len(seen.replay.steps) - 1, language(request))
    if png is None:
        raise web.HTTPNotFound()
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-cache"})


async def game_json(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    try:
        data = await service.page_file(request.match_info["token"])
    except ServiceError:  # no such game, or not over: its seed is still a secret
        raise web.HTTPNotFound() from None
    return web.Response(text=data, content_type="application/json", headers={
        "Content-Disposition": 'attachment; filename="sanmarco-game.json"'})


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
    request.app[DOORS].check(client(request))
    try:
        async with asyncio.timeout(request.app[OPTIONS].body_seconds):
            body = await request.read()
    except TimeoutError:
        raise web.HTTPRequestTimeout() from None
    try:
        data = json.loads(body)
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


async def favicon(request: web.Request) -> web.Response:
    body = resources.files("bot.web").joinpath("static", "favicon.png").read_bytes()
    return web.Response(body=body, content_type="image/png",
                        headers={"Cache-Control": "public, max-age=86400"})


def _last_id(request: web.Request) -> int | None:
    """The last version the reader has (``Last-Event-ID``, else ``?after=``; None:
    neither), read strictly: anything but ASCII digits is a 400."""
    raw = request.headers.get("Last-Event-ID") or request.query.get("after")
    return None if raw is None else number(raw, 18)


async def events(request: web.Request) -> web.StreamResponse:
    """The game's committed versions as server-sent events (``id:`` the version), from
    the one after ``Last-Event-ID`` (or ``?after=``) on; without either, from now. A
    client holds a few streams at most, and all together a bounded number."""
    last = _last_id(request)
    streams, who = request.app[DOORS].streams, client(request)
    streams.enter(who)  # or refused, before any work: 429 (this client's), 503 (everyone's)
    try:
        _, seen = await _seen(request)
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no", **SECURITY})
        await _follow(request, response, seen, last)
    finally:
        streams.leave(who)
    return response


async def _follow(request: web.Request, response: web.StreamResponse, seen: Seen,
                  last: int | None) -> None:
    """Write the game's versions after ``last`` (None: from now) until the reader leaves."""
    games, service, hub = request.app[GAMES], request.app[SERVICE], request.app[HUB]
    patience = request.app[OPTIONS].write_seconds
    lang = language(request)
    base = _base(request) + "/"
    game_id = seen.game.game_id
    last = seen.game.version if last is None else min(last, seen.game.version)
    before = await _seq_at(service, game_id, last)
    # followed before the answer starts: a version committed meanwhile is in the feed
    async with hub.follow(game_id, seen.game.version) as feed:
        WATCHERS.inc()
        try:
            await response.prepare(request)
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
        except Exception:
            if not response.prepared:
                raise  # the guard answers it with a page
            # begun, it cannot become an error page: logged once, the stream ends
            log.exception("web: a game's stream failed")
        finally:
            WATCHERS.dec()


async def _seq_at(service: GameService, game_id: int, version: int) -> int | None:
    """The game's last logged action at ``version`` (None: not started then)."""
    rows = await service.page_versions(game_id, version - 1, 1)
    return rows[0].seq if rows and rows[0].version == version else None


async def _write(response: web.StreamResponse, data: bytes, seconds: float) -> None:
    await asyncio.wait_for(response.write(data), seconds)
