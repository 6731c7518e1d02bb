"""Sign in with Discord: OAuth2's authorization-code flow with PKCE (S256) and ``state``,
scope ``identify``, giving the reader a signed session (``bot.links``) that names their
Discord id; with it, My games (``mygames``) lists their running games and each seat page
opens without a link (``seat`` accepts this session as well as a link's).

=====================================  ==================================================
route                                  answers
=====================================  ==================================================
``GET /signin?then=``                  sent on to Discord's authorize page; the flow's
                                       state and verifier wait in a 10-minute cookie
``GET /signin/callback?code=&state=``  Discord sends the reader back: the state checked
                                       against that cookie, the code exchanged (with the
                                       verifier) for a token, the user read; a session
``POST /signout``                      every session of the reader ended, on every
                                       device (``csrf``: this session's token)
=====================================  ==================================================

Discord's addresses follow from one option, ``WebOptions.discord_api`` (the authorize page
beside it; the bot passes discord.py's ``Route.BASE``, so a test's fake Discord serves the
whole flow). The redirect URI is ``<SANMARCO_PUBLIC_URL>/signin/callback`` (``redirect_uri``),
the one to register on the developer portal. Whatever fails (a state missing, altered or
expired, the reader saying no, Discord refusing the code or failing or too slow) is a page
saying so, one WARNING line with Discord's answer, and no session: nothing changed. Neither
the code, the verifier nor a token is ever logged or shown.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot import i18n, text
from bot.links import (
    FLOW_SECONDS,
    USER_SECONDS,
    SignedIn,
    flow_cookie,
    flow_of,
    is_csrf,
    pkce_challenge,
    signed_in,
    user_session,
)

from . import html
from .guard import language
from .keys import OPTIONS, SERVICE, WebOptions

log = logging.getLogger("bot.web")

USER_COOKIE = "sanmarco_user"
FLOW_COOKIE = "sanmarco_signin"
CALLBACK = "/signin/callback"
# The pages a sign-in may go on to (nowhere else: no open redirect): My games, a seat page.
_THEN = re.compile(r"/me|/g/[0-9a-f]{32}/seat")
_ERROR = re.compile(r"[a-z_]{1,40}")  # an OAuth2 error code as Discord spells them


def add_routes(app: web.Application) -> None:
    app.router.add_get("/signin", start, name="signin")
    app.router.add_get(CALLBACK, callback, name="signin_callback")
    app.router.add_post("/signout", sign_out, name="signout")


@dataclass(frozen=True)
class DiscordUrls:
    """Where the flow goes: the page the browser is sent to, and the two API calls."""

    authorize: str
    token: str
    me: str


def discord_urls(api: str) -> DiscordUrls:
    """Discord's OAuth2 addresses from its API base (``https://discord.com/api/v10``)."""
    api = api.rstrip("/")
    site = api.split("/api/", 1)[0]
    return DiscordUrls(f"{site}/oauth2/authorize", f"{api}/oauth2/token", f"{api}/users/@me")


def redirect_uri(request: web.Request) -> str:
    """Where Discord sends the reader back (registered on the developer portal)."""
    public = request.app[OPTIONS].public_url
    return (public.rstrip("/") if public else str(request.url.origin())) + CALLBACK


def secure(request: web.Request) -> bool:
    """Over TLS, or behind a proxy that says the reader's request came over TLS."""
    return request.secure or request.headers.get("X-Forwarded-Proto", "").lower() == "https"


async def current_user(request: web.Request) -> SignedIn | None:
    """The signed-in reader (None: no session, or a forged or expired one, one made
    before its user signed out, or sign-in is not set up). A session the cookie's MAC
    vouches for costs one read by key (its user's generation), and none is kept here: a
    sign-out in any process is seen by the next request in every process."""
    opts = request.app[OPTIONS]
    value = request.cookies.get(USER_COOKIE, "")
    if not opts.sign_in or not value or opts.secret is None:
        return None
    service = request.app[SERVICE]
    me = signed_in(opts.secret, value, service.clock())
    if me is None or me.generation != await service.session_generation(me.user):
        return None
    return me


def sign_in_link(then: str, lang: str) -> str:
    """The address of the "Sign in with Discord" button, coming back to ``then``."""
    return "/signin?" + urlencode({"then": then, "lang": lang})


def page(request: web.Request, status: int, why: str | None, then: str = "/me",
         **values: Any) -> web.Response:
    """The sign-in page: why it is shown (``text.sign_in_refused``; None: not signed in
    yet), with the button when sign-in is set up."""
    lang = language(request)
    tr = i18n.translations(lang)
    words = text.sign_in_words(tr)
    if why is not None:
        heading, sentence = text.sign_in_refused(tr, why)
    else:
        heading, sentence = words.sign_in, words.why
    button = sign_in_link(then, lang) if request.app[OPTIONS].sign_in and why != "csrf" else None
    body = html.render("signin.html", lang, heading, words=words, heading=heading,
                       sentence=sentence, button=button, here="/me",
                       languages=html.LANGUAGE_NAMES.items(), **values)
    response = web.Response(status=status, text=body, content_type="text/html",
                            headers={"Cache-Control": "no-store", "Content-Language": lang})
    if why is None and USER_COOKIE in request.cookies:  # ended, expired or forged: forget it
        response.del_cookie(USER_COOKIE, path="/")
    return response


async def start(request: web.Request) -> web.Response:
    """Sent on to Discord's authorize page; the state and the PKCE verifier wait in a
    cookie of this flow's own, bound to the state, for ten minutes."""
    opts = request.app[OPTIONS]
    if not opts.sign_in or opts.secret is None or opts.client_id is None:
        return page(request, 404, "off")
    then = request.query.get("then", "/me")
    if not _THEN.fullmatch(then):
        then = "/me"
    then = f"{then}?lang={language(request)}"
    state, verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(48)
    query = urlencode({"client_id": opts.client_id, "response_type": "code",
                       "redirect_uri": redirect_uri(request), "scope": "identify",
                       "state": state, "code_challenge": pkce_challenge(verifier),
                       "code_challenge_method": "S256"})
    response = web.Response(status=303, headers={
        "Location": f"{discord_urls(opts.discord_api).authorize}?{query}",
        "Cache-Control": "no-store"})
    response.set_cookie(FLOW_COOKIE, flow_cookie(opts.secret, state, verifier, then,
                                                 request.app[SERVICE].clock()),
                        path="/signin", httponly=True, samesite="Lax",
                        secure=secure(request), max_age=FLOW_SECONDS)
    return response


class SignInFailed(Exception):
    """Discord refused or failed a step of the flow: ``said`` what, for the log."""

    def __init__(self, said: str) -> None:
        super().__init__(said)
        self.said = said


async def _answer(response: aiohttp.ClientResponse, step: str) -> dict[str, Any]:
    """A call's JSON answer, or SignInFailed naming the step, the status and Discord's
    error code (never its body otherwise: it could hold a token)."""
    try:
        body = await response.json(content_type=None)
    except ValueError:
        body = None
    if response.status != 200 or not isinstance(body, dict):
        error = body.get("error") if isinstance(body, dict) else None
        code = error if isinstance(error, str) and _ERROR.fullmatch(error) else "-"
        raise SignInFailed(f"{step} {response.status} {code}")
    return body


async def identify(opts: WebOptions, code: str, verifier: str, redirect: str
                   ) -> tuple[str, str]:
    """Who Discord says the reader is (their id and name): the code exchanged for a
    token (with the PKCE verifier), then ``/users/@me`` read with it. Raises
    SignInFailed."""
    urls = discord_urls(opts.discord_api)
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
            "code_verifier": verifier, "client_id": opts.client_id or "",
            "client_secret": opts.client_secret or ""}
    try:
        async with aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=opts.oauth_seconds)) as http:
            async with http.post(urls.token, data=form,
                                 headers={"Accept": "application/json"}) as response:
                token = (await _answer(response, "token")).get("access_token")
            if not isinstance(token, str) or not token.isascii() or not token:
                raise SignInFailed("token 200 no-access-token")
            async with http.get(urls.me, headers={"Authorization": f"Bearer {token}"}
                                ) as response:
                me = await _answer(response, "users/@me")
    except TimeoutError:
        raise SignInFailed("timeout") from None
    except aiohttp.ClientError as exc:
        raise SignInFailed(type(exc).__name__) from None
    user, name = me.get("id"), me.get("global_name") or me.get("username")
    if not (isinstance(user, str) and user.isascii() and user.isdigit() and len(user) < 24):
        raise SignInFailed("users/@me 200 no-id")
    return user, name if isinstance(name, str) and name.strip() else user


async def callback(request: web.Request) -> web.Response:
    """Back from Discord: the state must be this browser's flow's (else refused: a
    sign-in started elsewhere cannot land here), then the code is exchanged; a session,
    and on to the page the sign-in started from."""
    opts = request.app[OPTIONS]
    if not opts.sign_in or opts.secret is None:
        return page(request, 404, "off")
    query, now = request.query, request.app[SERVICE].clock()
    state = query.get("state", "")
    flow = flow_of(opts.secret, request.cookies.get(FLOW_COOKIE, ""), state, now) \
        if state else None
    if flow is None:
        log.info("web: a sign-in came back without its flow's state (or an expired one)")
        response = page(request, 400, "state")
    elif "error" in query or not query.get("code", "").isascii() \
            or not 0 < len(query.get("code", "")) <= 200:
        response = page(request, 400, "denied")
    else:
        verifier, then = flow
        try:
            user, name = await identify(opts, query["code"], verifier, redirect_uri(request))
        except SignInFailed as exc:
            log.warning("web: a sign-in with Discord failed: %s", exc.said)
            response = page(request, 502, "discord")
        else:
            generation = await request.app[SERVICE].session_generation(user)
            session = user_session(opts.secret, user, name, now, secrets.token_hex(16),
                                   generation=generation)
            response = web.Response(status=303, headers={"Location": then,
                                                         "Cache-Control": "no-store"})
            response.set_cookie(USER_COOKIE, session, path="/", httponly=True,
                                samesite="Lax", secure=secure(request),
                                max_age=USER_SECONDS)
            log.info("web: a player signed in with Discord")
    response.del_cookie(FLOW_COOKIE, path="/signin")  # a flow is used once
    return response


async def sign_out(request: web.Request) -> web.Response:
    """Every session of the reader ended, on every device (the store moves their
    sessions' generation on: a copied cookie is no session any more), when the request
    carries its CSRF token (a page of another site cannot sign the reader out)."""
    opts = request.app[OPTIONS]
    try:
        async with asyncio.timeout(opts.body_seconds):
            form = await request.post()
    except TimeoutError:
        raise web.HTTPRequestTimeout() from None
    me = await current_user(request)
    here = f"/me?lang={language(request)}"
    response = web.Response(status=303, headers={"Location": here, "Cache-Control": "no-store"})
    if me is None or opts.secret is None:
        if USER_COOKIE in request.cookies:  # ended already (or never good): forget it
            response.del_cookie(USER_COOKIE, path="/")
        return response
    if not is_csrf(opts.secret, me.session, str(form.get("csrf", ""))):
        return page(request, 403, "csrf")
    await request.app[SERVICE].sign_out(me.user)
    response.del_cookie(USER_COOKIE, path="/")
    log.info("web: a player signed out with Discord (every session of theirs ended)")
    return response
