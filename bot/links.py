"""Signed links to a player's own view of a game in the browser (``/sanmarco hand`` offers
one): an HMAC-SHA256, with the secret SANMARCO_WEB_SECRET, over the game's page token, the
player's Discord id and the moment the link expires. Whoever holds the link sees that
player's view of that game until then, nobody's else: a changed id, game or moment no longer
matches, and the secret never leaves the bot.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from urllib.parse import urlencode

HAND_SECONDS = 3600  # a hand link works for an hour


def hand_signature(secret: str, token: str, user: str, expires: int) -> str:
    """The link's signature over what it grants."""
    message = f"hand\n{token}\n{user}\n{expires}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def hand_query(secret: str, token: str, user: str, now: float,
               seconds: int = HAND_SECONDS) -> str:
    """The query of ``user``'s hand link for the game of ``token``, valid ``seconds``."""
    expires = int(now) + seconds
    return urlencode({"u": user, "e": expires,
                      "s": hand_signature(secret, token, user, expires)})


def is_hand_link(secret: str, token: str, user: str, expires: str, signature: str,
                 now: float) -> bool:
    """Whether a hand link's query is one the bot signed and has not expired."""
    if not (expires.isdigit() and len(expires) < 12 and user.isdigit() and len(user) < 24):
        return False
    wanted = hand_signature(secret, token, user, int(expires))
    return hmac.compare_digest(wanted, signature) and now < int(expires)


# ---------------------------------------------------------------------------- seat sessions
# A valid hand link opens a session for its seat: a cookie bound to that game and player
# alone, expiring; every state-changing request also carries a CSRF token derived from the
# session (a page of another site can send the cookie, never read the token).
SEAT_SECONDS = 8 * 3600  # a seat's session lasts a working day's evening


def _mac(secret: str, *parts: str) -> str:
    return hmac.new(secret.encode(), "\n".join(parts).encode(), hashlib.sha256).hexdigest()


def seat_session(secret: str, token: str, user: str, now: float, nonce: str,
                 seconds: int = SEAT_SECONDS) -> str:
    """A session cookie's value for ``user``'s seat in the game of ``token``: who, until
    when, a random ``nonce`` (two sessions never share a CSRF token), and their MAC."""
    expires = int(now) + seconds
    return f"{user}.{expires}.{nonce}.{_mac(secret, 'seat', token, user, str(expires), nonce)}"


def session_user(secret: str, token: str, value: str, now: float) -> str | None:
    """The player a session cookie's ``value`` was made for in the game of ``token``, while
    it has not expired (None: forged, another game's, expired or malformed)."""
    parts = value.split(".")
    if len(parts) != 4:
        return None
    user, expires, nonce, mac = parts
    if not (user.isascii() and user.isdigit() and len(user) < 24 and expires.isascii()
            and expires.isdigit() and len(expires) < 12 and nonce.isascii()
            and nonce.isalnum() and len(nonce) <= 32 and mac.isascii()):
        return None
    if not hmac.compare_digest(_mac(secret, "seat", token, user, expires, nonce), mac):
        return None
    return user if now < int(expires) else None


def csrf_token(secret: str, session: str) -> str:
    """The CSRF token of a session (a request's ``X-CSRF-Token`` must be it)."""
    return _mac(secret, "csrf", session)


def is_csrf(secret: str, session: str, given: str) -> bool:
    return given.isascii() and hmac.compare_digest(csrf_token(secret, session), given)


# ---------------------------------------------------------------------------- signed in
# "Sign in with Discord" (``bot.web.signin``): while the OAuth2 flow runs, its ``state``
# and PKCE verifier wait in a short-lived cookie bound to that state; once Discord said who
# the reader is, a session cookie holds their Discord id and the name to show, for a week,
# and the user's session generation when it was made: signing out moves the user's
# generation on in the store, which ends every session made before (a copied cookie on
# another device too). Both are MACed with SANMARCO_WEB_SECRET under labels of their own,
# so neither can pass for the other, nor for a seat's session.
USER_SECONDS = 7 * 86400  # a signed-in session lasts a week
FLOW_SECONDS = 600  # the time to come back from Discord's page with the code


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None


def pkce_challenge(verifier: str) -> str:
    """The S256 code challenge of a PKCE verifier (RFC 7636 §4.2)."""
    return _b64(hashlib.sha256(verifier.encode()).digest())


@dataclass(frozen=True)
class SignedIn:
    """Who a session cookie names: their Discord id and the name to show them, and the
    generation of the user's sessions it was made in (good while the store's is the same:
    ``bot.web.signin.current_user``)."""

    user: str
    name: str
    session: str  # the cookie's value (its CSRF token is derived from it)
    generation: int = 0


def user_session(secret: str, user: str, name: str, now: float, nonce: str,
                 seconds: int = USER_SECONDS, generation: int = 0) -> str:
    """A signed-in session's cookie value: who, the name shown (cut to 64 characters),
    until when, a random ``nonce``, the user's session ``generation`` now, and their MAC."""
    expires = int(now) + seconds
    shown = _b64(name[:64].encode())
    return (f"{user}.{expires}.{nonce}.{shown}.{generation}."
            f"{_mac(secret, 'user', user, str(expires), nonce, shown, str(generation))}")


def signed_in(secret: str, value: str, now: float) -> SignedIn | None:
    """The person a session cookie's ``value`` names while it has not expired (None:
    forged, expired, malformed). Whether its generation is still the user's is the
    store's to say."""
    parts = value.split(".")
    if len(parts) != 6 or not value.isascii() or len(value) > 400:
        return None
    user, expires, nonce, shown, generation, mac = parts
    if not (user.isdigit() and len(user) < 24 and expires.isdigit() and len(expires) < 12
            and nonce.isalnum() and len(nonce) <= 32 and generation.isdigit()
            and len(generation) < 12):
        return None
    if not hmac.compare_digest(_mac(secret, "user", user, expires, nonce, shown, generation),
                               mac):
        return None
    name = _unb64(shown)
    if name is None or now >= int(expires):
        return None
    return SignedIn(user, name.decode(errors="replace"), value, int(generation))


def flow_cookie(secret: str, state: str, verifier: str, then: str, now: float,
                seconds: int = FLOW_SECONDS) -> str:
    """The cookie of a sign-in under way: its state, its PKCE verifier, the page to go on
    to (``then``), until when, and their MAC."""
    expires = int(now) + seconds
    goto = _b64(then.encode())
    mac = _mac(secret, "flow", state, verifier, goto, str(expires))
    return f"{state}.{verifier}.{goto}.{expires}.{mac}"


def flow_of(secret: str, value: str, state: str, now: float) -> tuple[str, str] | None:
    """The verifier and the page to go on to of the sign-in whose cookie is ``value``,
    when it was made for ``state`` and has not expired (None otherwise)."""
    parts = value.split(".")
    if len(parts) != 5 or not value.isascii() or not state.isascii() or len(value) > 600:
        return None
    mine, verifier, goto, expires, mac = parts
    if not (expires.isdigit() and len(expires) < 12):
        return None
    if not hmac.compare_digest(_mac(secret, "flow", mine, verifier, goto, expires), mac):
        return None
    then = _unb64(goto)
    if then is None or not hmac.compare_digest(mine, state) or now >= int(expires):
        return None
    return verifier, then.decode(errors="replace")
