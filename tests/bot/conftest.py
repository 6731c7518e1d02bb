"""Discord fixtures: a fake Discord server and the real bot connected to it.

``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` are pointed at the fake
(FAKE_DISCORD.md); everything else is the real discord.py client and the real cog.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness, point_discord_at


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    point_discord_at(server)  # undone by monkeypatch at teardown
    yield server
    await server.close()
    assert not server.errors, server.errors


@pytest.fixture
async def harness(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    h = BotHarness(fake, tmp_path / "sanmarco.db")
    yield h
    await h.stop()
    assert not fake.unknown, [(r.method, r.path) for r in fake.unknown]
