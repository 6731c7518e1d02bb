"""Discord fixtures: a fake Discord server and the real bot connected to it.

``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` are pointed at the fake
(FAKE_DISCORD.md); everything else is the real discord.py client and the real cog.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import yarl

from tests.fakediscord import FakeDiscord

# Tasks discord.py and the bot create per interaction; ``settle`` waits for them to finish.
_WORK_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: interaction",
                       "sm-")


class BotHarness:
    """Starts and stops real bots against one fake server (several, for restart tests)."""

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.bot: discord.Client | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, *, service: object = None,
                    **config_overrides: object) -> discord.Client:
        from bot.client import SanMarcoBot
        from bot.config import Config

        config = Config(token="fake-token", db_path=str(self.db_path),
                        **config_overrides)  # type: ignore[arg-type]
        bot = SanMarcoBot(config, service=service, guild_ready_timeout=0.01)
        self.fake.ready.clear()
        self._task = asyncio.create_task(bot.start("fake-token"), name="test-bot")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._task}, timeout=20,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if self._task.done():
                self._task.result()  # raise what went wrong at login
            raise TimeoutError("bot did not become ready")
        self.bot = bot
        return bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.settle()
            await self.bot.close()
        if self._task is not None:
            await asyncio.wait_for(self._task, 20)
        self.bot, self._task = None, None

    async def settle(self) -> None:
        """Wait until the bot has finished every interaction it has started handling."""
        me = asyncio.current_task()
        for _ in range(200):
            await asyncio.sleep(0)
            busy = [t for t in asyncio.all_tasks()
                    if t is not me and not t.done()
                    and t.get_name().startswith(_WORK_TASK_PREFIXES)]
            if not busy:
                return
            await asyncio.wait(busy, timeout=20)
        raise TimeoutError("the bot never settled")


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(server.gateway_url))
    yield server
    await server.close()
    assert not server.errors, server.errors


@pytest.fixture
async def harness(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    h = BotHarness(fake, tmp_path / "sanmarco.db")
    yield h
    await h.stop()
    assert not fake.unknown, [(r.method, r.path) for r in fake.unknown]
