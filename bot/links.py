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
