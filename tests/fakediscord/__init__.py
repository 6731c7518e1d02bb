"""A fake Discord (gateway + REST) for driving the real discord.py bot in tests."""

from .server import EPHEMERAL, FakeDiscord, FakeMessage, FakeUser, InteractionRecord, Recorded

__all__ = ["EPHEMERAL", "FakeDiscord", "FakeMessage", "FakeUser", "InteractionRecord",
           "Recorded"]
