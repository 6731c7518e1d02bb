"""Signed links to a player's own view of a game in the browser (``/sanmarco hand`` offers
one): an HMAC-SHA256, with the secret SANMARCO_WEB_SECRET, over the game's page token, the
player's Discord id and the moment the link expires. Whoever holds the link sees that
player's view of that game until then, nobody's else: a changed id, game or moment no longer
matches, and the secret never leaves the bot.
"""

from __future__ import annotations

import hashlib
import hmac
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
