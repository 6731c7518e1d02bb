"""A fake Discord (gateway + REST) for driving the real discord.py bot in tests, and the
OAuth2 pages and calls of "Sign in with Discord" (``FakeDiscord.oauth``, ``oauth``:
``/oauth2/authorize``, ``POST /api/v10/oauth2/token``, ``GET /api/v10/users/@me`` with a
bearer token, refusing what Discord refuses)."""

from .faults import CHANNEL_POST, FOLLOWUP, POSTS
from .server import EPHEMERAL, FakeDiscord, FakeMessage, FakeUser, InteractionRecord, Recorded

__all__ = ["CHANNEL_POST", "EPHEMERAL", "FOLLOWUP", "POSTS", "FakeDiscord", "FakeMessage",
           "FakeUser", "InteractionRecord", "Recorded"]
