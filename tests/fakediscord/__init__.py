"""A fake Discord (gateway + REST) for driving the real discord.py bot in tests."""

from .faults import CHANNEL_POST, FOLLOWUP, POSTS
from .server import EPHEMERAL, FakeDiscord, FakeMessage, FakeUser, InteractionRecord, Recorded

__all__ = ["CHANNEL_POST", "EPHEMERAL", "FOLLOWUP", "POSTS", "FakeDiscord", "FakeMessage",
           "FakeUser", "InteractionRecord", "Recorded"]
