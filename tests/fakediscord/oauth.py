"""The fake Discord's OAuth2 (authorization-code grant with PKCE), for "Sign in with
Discord": what Discord serves and what it refuses.

- ``GET /oauth2/authorize`` checks ``client_id`` (the fake's application), ``response_type=
  code``, ``scope`` (``identify`` among them), ``redirect_uri`` (one registered for the
  application: ``oauth.redirects``), ``code_challenge_method=S256`` with a challenge; then
  "approves" as the fake's browser user (``oauth.user``, a test sets it; None: the reader
  says no, ``error=access_denied``) and redirects to ``redirect_uri?code=&state=``. A bad
  request is a 400 page, like Discord's, never a redirect.
- ``POST /api/v10/oauth2/token`` (form-encoded; client credentials in the body or HTTP
  Basic) answers ``{"access_token", "token_type": "Bearer", "expires_in", "scope"}``, or
  400 ``{"error": "invalid_grant"}`` for a wrong redirect URI, a reused code, an expired
  code (10 minutes on the fake's clock), a wrong verifier, 401 ``{"error":
  "invalid_client"}`` for wrong client credentials, 400 ``unsupported_grant_type``.
- ``GET /api/v10/users/@me`` with ``Authorization: Bearer <token>`` answers that user; any
  other bearer token is a 401 (a bot token still reaches the fake's REST routes).
- ``oauth.fail``: the next calls to the token endpoint answer this status (e.g. 503), and
  ``oauth.delay`` seconds before each answer (a slow Discord).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from aiohttp import web

if TYPE_CHECKING:
    from .faults import Clock
    from .messages import FakeUser

CODE_SECONDS = 600  # an authorization code lives ten minutes
JSON = "application/json"


@dataclass
class Grant:
    """A code Discord handed out: for whom, to which redirect, with which challenge."""

    user: FakeUser
    redirect: str
    challenge: str
    at: float
    used: bool = False


@dataclass
class FakeOAuth:
    """The fake Discord's OAuth2 side: its application's credentials and redirects, the
    browser's user, the codes and tokens it gave."""

    client_id: str
    clock: Clock
    client_secret: str = "fake-client-secret"
    redirects: set[str] = field(default_factory=set)
    user: FakeUser | None = None
    fail: list[int] = field(default_factory=list)
    delay: float = 0.0
    grants: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, FakeUser] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)  # each refusal's error, in order

    def add_routes(self, app: web.Application) -> None:
        """Before the fake's catch-all routes (``FakeDiscord.start``)."""
        app.router.add_get("/oauth2/authorize", self.authorize)
        app.router.add_post("/api/v10/oauth2/token", self.token)

    async def authorize(self, request: web.Request) -> web.Response:
        q = request.query
        bad = None
        if q.get("client_id") != self.client_id:
            bad = "Unknown application"
        elif q.get("response_type") != "code":
            bad = "Invalid response_type"
        elif "identify" not in q.get("scope", "").split():
            bad = "Invalid scope"
        elif q.get("redirect_uri") not in self.redirects:
            bad = "Invalid OAuth2 redirect_uri"
        elif q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            bad = "Invalid code_challenge"
        if bad is not None:
            self.refused.append(bad)
            return web.Response(status=400, text=bad)
        redirect = q["redirect_uri"]
        state = {"state": q["state"]} if "state" in q else {}
        if self.user is None:
            where = f"{redirect}?{urlencode({'error': 'access_denied', **state})}"
        else:
            code = secrets.token_urlsafe(20)
            self.grants[code] = Grant(self.user, redirect, q["code_challenge"], self.clock.now())
            where = f"{redirect}?{urlencode({'code': code, **state})}"
        raise web.HTTPFound(where)

    def _error(self, status: int, error: str) -> web.Response:
        self.refused.append(error)
        return web.json_response({"error": error}, status=status, content_type=JSON)

    def _client(self, request: web.Request, form: dict[str, str]) -> tuple[str, str]:
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            try:
                pair = base64.b64decode(auth[6:]).decode()
            except (binascii.Error, UnicodeDecodeError):
                return "", ""
            client, _, secret = pair.partition(":")
            return client, secret
        return form.get("client_id", ""), form.get("client_secret", "")

    async def token(self, request: web.Request) -> web.Response:
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.fail:
            status = self.fail.pop(0)
            return web.json_response({"message": "fake outage", "code": 0}, status=status,
                                     content_type=JSON)
        if request.content_type != "application/x-www-form-urlencoded":
            return self._error(400, "invalid_request")
        form = {k: str(v) for k, v in (await request.post()).items()}
        client, secret = self._client(request, form)
        if client != self.client_id or secret != self.client_secret:
            return self._error(401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            return self._error(400, "unsupported_grant_type")
        grant = self.grants.get(form.get("code", ""))
        if grant is None or grant.used:
            if grant is not None:  # a reused code: Discord revokes what it gave
                self.tokens = {t: u for t, u in self.tokens.items() if u is not grant.user}
            return self._error(400, "invalid_grant")
        grant.used = True  # tried once, spent: right or wrong
        if self.clock.now() - grant.at > CODE_SECONDS:
            return self._error(400, "invalid_grant")
        if form.get("redirect_uri") != grant.redirect:
            return self._error(400, "invalid_grant")
        verifier = form.get("code_verifier", "")
        made = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
        if not verifier or made.decode().rstrip("=") != grant.challenge:
            return self._error(400, "invalid_grant")
        token = secrets.token_urlsafe(24)
        self.tokens[token] = grant.user
        return web.json_response({"access_token": token, "token_type": "Bearer",
                                  "expires_in": 604800, "refresh_token": secrets.token_urlsafe(24),
                                  "scope": "identify"}, content_type=JSON)

    def me(self, request: web.Request) -> web.Response:
        """``GET /users/@me`` with a bearer token (a bot's token is not asked here)."""
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user = self.tokens.get(token)
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401,
                                     content_type=JSON)
        return web.json_response({**user.payload(), "public_flags": 0, "flags": 0,
                                  "locale": user.locale, "mfa_enabled": False},
                                 content_type=JSON)
