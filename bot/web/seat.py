"""A seat played from its page: the signed link a player gets opens a session for that
seat and game alone, and the page makes every decision the engine offers the seat through
the same service call a Discord button makes.

=====================================  ==================================================
route                                  answers
=====================================  ==================================================
``GET /g/<token>/hand?u=&e=&s=``       a signed link: a session cookie, then the seat page
``GET /g/<token>/seat``                the seat's page (by its session)
``GET /g/<token>/seat/decision``       the seat's decision now, as JSON with its HTML
``POST /g/<token>/seat/act``           one action (``action``: its text, ``version``: the
                                       version the page shows; header ``X-CSRF-Token``)
``POST /g/<token>/seat/undo``          the seat's last move taken back (``version``: the
                                       version it made), as the Undo button does
``GET /g/<token>/seat/post?version=``  whether that version's post reached the channel
                                       (``bot.web.posted``; the decision's JSON has it too)
``POST /g/<token>/seat/draft``         the distributor's half-made split (``draft``: the
                                       offer of each drawn card, a digit or ``-``;
                                       ``version``), shared with Discord's offer builder
=====================================  ==================================================

A reader signed in with Discord (``signin``) needs no link: their session is accepted
here too, for the seat they play in this game (the service says whether they have one).

The session is a cookie (HttpOnly, SameSite=Lax, Secure over TLS or behind a proxy saying
so, path the game's address) holding the player, its expiry and a nonce under an HMAC with
SANMARCO_WEB_SECRET (``bot.links``); a POST must carry the CSRF token derived from it,
which only the page itself can read. Whatever is refused (no session, another game's or
seat's, a wrong token, an old version, a rule) is answered with its sentence and changes
nothing; a move sent twice is refused the second time by the version check.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from aiohttp import web
from aiohttp.web_request import FileField
from multidict import MultiDictProxy

from bot import i18n, text
from bot.links import csrf_token, is_csrf, is_hand_link, seat_session, session_user
from bot.service import GameService, RuleError, ServiceError
from bot.service.errors import BadInput, Code, StorageFailed
from engine import ActionError, decode

from . import html, signin
from .decision import decision
from .guard import language, number
from .keys import DOORS, GAMES, OPTIONS, SERVICE, client
from .posted import post_json

log = logging.getLogger("bot.web")

COOKIE = "sanmarco_seat"
KEEP_SECONDS = 3600  # a session with less left is made anew by its link opened again


def add_routes(app: web.Application) -> None:
    app.router.add_get("/g/{token}/hand", open_seat, name="hand")
    app.router.add_get("/g/{token}/seat", seat_page, name="seat")
    app.router.add_get("/g/{token}/seat/decision", seat_decision, name="decision")
    app.router.add_post("/g/{token}/seat/act", seat_act, name="act")
    app.router.add_post("/g/{token}/seat/undo", seat_act, name="undo")
    app.router.add_get("/g/{token}/seat/post", seat_post, name="post")
    app.router.add_post("/g/{token}/seat/draft", seat_draft, name="draft")


def _app(request: web.Request) -> tuple[GameService, str | None]:
    return request.app[SERVICE], request.app[OPTIONS].secret


def _base(request: web.Request) -> str:
    return f"/g/{request.match_info['token']}"


def _bad_link(request: web.Request) -> web.Response:
    return web.Response(status=403, text=html.bad_link_page(language(request)),
                        content_type="text/html", headers={"Cache-Control": "no-store"})


async def open_seat(request: web.Request) -> web.StreamResponse:
    """A signed link (``bot.links``): a session for its seat, then the seat's page at an
    address without the signature; anything else is refused with a clear page that never
    says whether the game or the player exists."""
    service, secret = _app(request)
    token, query = request.match_info["token"], request.query
    user, expires, signature = (query.get(k, "") for k in ("u", "e", "s"))
    for given, digits in ((user, 24), (expires, 11)):
        if given:
            number(given, digits)  # ASCII digits, or a 400
    now = service.clock()
    if secret is None or not signature.isascii() or not is_hand_link(
            secret, token, user, expires, signature, now):
        return _bad_link(request)
    try:
        await service.page_seat(token, user)
    except StorageFailed:
        raise
    except ServiceError:
        return _bad_link(request)
    response = web.Response(status=303, headers={
        "Location": f"{_base(request)}/seat?lang={language(request)}",
        "Cache-Control": "no-store"})
    if _keeps(secret, token, user, request.cookies.get(COOKIE, ""), now):
        return response  # an open tab's CSRF token stays good
    session = seat_session(secret, token, user, now, secrets.token_hex(16))
    response.set_cookie(COOKIE, session, path=_base(request), httponly=True,
                        samesite="Lax", secure=signin.secure(request),
                        max_age=int(session.split(".")[1]) - int(now))
    return response


def _keeps(secret: str, token: str, user: str, session: str, now: float) -> bool:
    """Whether the browser's session for this seat is still good for a while: the link
    opened again (a second tab) keeps it rather than making a new one, which would leave
    the open tabs with a CSRF token of the old session."""
    if not session or session_user(secret, token, session, now) != user:
        return False
    return int(session.split(".")[1]) - now >= KEEP_SECONDS


async def _session(request: web.Request) -> tuple[GameService, str, str, str] | None:
    """The service, secret, session and player of the request's session: the seat's
    own cookie for this game (a signed link's), else the reader's signed-in session
    (``signin``: whether they sit in this game, the service tells). None: neither, or a
    forged, expired, another game's, or a signed-in one its user ended by signing out."""
    service, secret = _app(request)
    session = request.cookies.get(COOKIE, "")
    if secret is None:
        return None
    user = session_user(secret, request.match_info["token"], session, service.clock()) \
        if session else None
    if user is not None:
        return service, secret, session, user
    me = await signin.current_user(request)
    return None if me is None else (service, secret, me.session, me.user)


async def seat_page(request: web.Request) -> web.Response:
    found = await _session(request)
    if found is None:  # signing in with Discord opens it, where the bot offers that
        if request.app[OPTIONS].sign_in:
            return signin.page(request, 200, None, then=f"{_base(request)}/seat")
        return _bad_link(request)
    service, secret, session, user = found
    token, lang = request.match_info["token"], language(request)
    try:
        snap = await service.page_seat(token, user)
    except StorageFailed:
        raise
    except ServiceError:
        if session != request.cookies.get(COOKIE):  # signed in, with no seat in this game
            tr = i18n.translations(lang)
            return web.Response(status=403, text=html.sorry_page(lang, (
                text.bad_link(tr)[0], text.seat_refused(tr, "seat"))),
                content_type="text/html", headers={"Cache-Control": "no-store"})
        return _bad_link(request)
    seen = await request.app[GAMES].seen(token)
    steps = seen.replay.steps if seen.replay is not None else ()
    pictures = seen.replay.version if seen.replay is not None else seen.game.version
    tr = i18n.translations(lang)
    post = await post_json(tr, service, token, snap.version)
    d = decision(tr, snap, await service.split_draft(snap))
    signed = session != request.cookies.get(COOKIE) or \
        await signin.current_user(request) is not None  # (a link's session: a read more)
    page = html.seat_page(tr, lang, seen.game, steps, _base(request), d,
                          csrf_token(secret, session), pictures, post, my_games=signed)
    return web.Response(text=page, content_type="text/html", headers={
        "Cache-Control": "no-store, private", "Content-Language": lang})


def _refused(request: web.Request, status: int, said: str, **more: Any) -> web.Response:
    return web.json_response({"ok": False, "said": said, **more}, status=status,
                             headers={"Cache-Control": "no-store"})


async def _decision_json(request: web.Request, service: GameService, user: str,
                         **more: Any) -> web.Response:
    lang = language(request)
    tr = i18n.translations(lang)
    token = request.match_info["token"]
    snap = await service.page_seat(token, user)
    d = decision(tr, snap, await service.split_draft(snap))
    if d.drawn:  # the half-made split (this seat's own secret): picked up by its other tabs
        more = {"draft": d.draft_text, **more}
    return web.json_response({"ok": True, "version": d.version, "mine": d.mine,
                              "html": html.decision_html(tr, d, text.seat_words(
                                  tr, snap.game_id)),
                              "post": await post_json(tr, service, token, d.version), **more},
                             headers={"Cache-Control": "no-store"})


async def seat_decision(request: web.Request) -> web.Response:
    found = await _session(request)
    tr = i18n.translations(language(request))
    if found is None:
        return _refused(request, 403, text.seat_refused(tr, "session"))
    service, _, _, user = found
    try:
        return await _decision_json(request, service, user)
    except StorageFailed:
        raise
    except ServiceError as exc:
        return _refused(request, 409, text.refusal(tr, exc.code, exc.params))


async def seat_post(request: web.Request) -> web.Response:
    """Whether the post of ``version`` reached the channel (a page asks while it waits)."""
    found = await _session(request)
    tr = i18n.translations(language(request))
    if found is None:
        return _refused(request, 403, text.seat_refused(tr, "session"))
    service, _, _, _ = found
    version = number(request.query.get("version", ""), 18)
    try:
        said = await post_json(tr, service, request.match_info["token"], version)
    except StorageFailed:
        raise
    except ServiceError as exc:
        return _refused(request, 409, text.refusal(tr, exc.code, exc.params))
    return web.json_response({"ok": True, "post": said}, headers={"Cache-Control": "no-store"})


Form = MultiDictProxy[str | bytes | bytearray | FileField]  # a POST's fields, as aiohttp reads them


async def _form(request: web.Request, tr: i18n.Tr
                ) -> tuple[GameService, str, Form] | web.Response:
    """A POST of the seat's page, counted at the doors as a move: its service, player and
    form, once its session and CSRF token are good (else the refusal to answer)."""
    request.app[DOORS].act(client(request), request.match_info["token"])
    found = await _session(request)
    if found is None:
        return _refused(request, 403, text.seat_refused(tr, "session"))
    service, secret, session, user = found
    try:
        async with asyncio.timeout(request.app[OPTIONS].body_seconds):
            form = await request.post()
    except TimeoutError:
        raise web.HTTPRequestTimeout() from None
    if not is_csrf(secret, session, request.headers.get("X-CSRF-Token", "")):
        return _refused(request, 403, text.seat_refused(tr, "csrf"))
    return service, user, form


async def seat_act(request: web.Request) -> web.Response:
    """One action of the session's seat at the version its page shows, through the
    service's ``act`` (the same checks, post and pings as a button's); or, at ``/undo``,
    its last move taken back through the service's ``undo``."""
    token = request.match_info["token"]
    tr = i18n.translations(language(request))
    checked = await _form(request, tr)
    if isinstance(checked, web.Response):
        return checked
    service, user, form = checked
    seat, raw, version = (str(form.get(k, "")) for k in ("seat", "action", "version"))
    if seat and seat != user:
        return _refused(request, 403, text.seat_refused(tr, "seat"))
    undo = request.match_info.route.name == "undo"
    try:
        action = None if undo else decode(raw[:2000])
        shown = number(version, 18)
    except (ActionError, web.HTTPBadRequest):
        return _refused(request, 400, text.seat_refused(tr, "action"))
    try:
        if action is None:
            update = (await service.page_undo(token, user, shown)).update
        else:
            update = await service.page_act(token, user, action, shown)
    except StorageFailed:
        raise
    except ServiceError as exc:
        if isinstance(exc.params.get("retry_after"), int):
            raise  # the workers are busy: the guard's 503 with Retry-After
        refused = exc.action if isinstance(exc, RuleError) else None
        return _refused(request, 409, text.refusal(tr, exc.code, exc.params, action=refused))
    wake = request.app[OPTIONS].wake
    if wake is not None:  # the channel's post, now (the outbox keeps it until it is sent)
        game = await service.page_game(token)
        wake(update.channel_id, game.guild_id)
    log.info("web: game %s: %s from its seat page -> v%d", update.game_id,
             "a move taken back" if undo else "a move", update.version)
    return await _decision_json(request, service, user, undoable=update.undoable)


def _draft_offers(given: str) -> list[list[int]]:
    """``"01-1"`` (each drawn card's offer, ``-``: loose) as the cards' indices per offer;
    raises BadInput (split.draft) for anything else."""
    if len(given) > 12 or any(ch not in "0123456789-" for ch in given):
        raise BadInput(Code.SPLIT_DRAFT)
    per_card = [None if ch == "-" else int(ch) for ch in given]
    n = max((k + 1 for k in per_card if k is not None), default=0)
    return [[i for i, k in enumerate(per_card) if k == o] for o in range(n)]


async def seat_draft(request: web.Request) -> web.Response:
    """The session's seat's half-made split, stored for its other tabs and devices and for
    Discord's offer builder (through the service, which checks it fits the drawn cards);
    the answer is the split as stored (the page shows it already). Counted at the doors as
    a move is."""
    token = request.match_info["token"]
    tr = i18n.translations(language(request))
    checked = await _form(request, tr)
    if isinstance(checked, web.Response):
        return checked
    service, user, form = checked
    try:
        shown = number(str(form.get("version", "")), 18)
    except web.HTTPBadRequest:
        return _refused(request, 400, text.seat_refused(tr, "action"))
    try:
        kept = await service.page_draft(token, user,
                                        _draft_offers(str(form.get("draft", ""))), shown)
    except StorageFailed:
        raise
    except ServiceError as exc:
        return _refused(request, 409 if exc.code != Code.SPLIT_DRAFT else 400,
                        text.refusal(tr, exc.code, exc.params))
    stored = "".join("-" if a is None else str(a) for a in kept.assignment)
    return web.json_response({"ok": True, "version": kept.version, "draft": stored},
                             headers={"Cache-Control": "no-store"})
