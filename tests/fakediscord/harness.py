"""Start and stop the real bot against the fake server (tests and the benchmark share it)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import discord
import yarl

from .server import FakeDiscord


def point_discord_at(fake: FakeDiscord) -> None:
    """Send all of discord.py's REST and gateway traffic to the fake (FAKE_DISCORD.md)."""
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)


# Tasks discord.py and the bot create per interaction; ``settle`` waits for them to finish.
_WORK_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: interaction",
                       "discord.py: on_app_command_completion", "sm-")


class BotHarness:
    """Starts and stops real bots against one fake server (several, for restart tests)."""

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.bot: discord.Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._service: object = None

    async def start(self, *, seed: int | None = None, service: object = None,
                    clock: Callable[[], float] | None = None,
                    heartbeat_timeout: float | None = None,
                    **config_overrides: object) -> discord.Client:
        """A new bot process-object on the same database file. ``seed`` fixes the seed of
        every game it starts (the test opens the service; otherwise the bot does).
        ``heartbeat_timeout``: discord.py's client option, the seconds without a word from
        the gateway after which it gives a connection up (60 by default)."""
        from bot.client import SanMarcoBot
        from bot.computers import EngineComputers
        from bot.config import Config
        from bot.service import open_service

        if seed is not None and service is None:
            extra = {"clock": clock} if clock is not None else {}
            service = await open_service(str(self.db_path), seeds=lambda: seed,
                                         computers=EngineComputers(), **extra)
            self._service = service

        config_overrides.setdefault("reminder_poll_seconds", 0)  # tests call it by hand
        # A game in the channel it is opened in, as every test before games had threads
        # expects; a test of threads passes game_threads=True (the bot's own default).
        config_overrides.setdefault("game_threads", False)
        # No newcomer's line naming the practice game under a first answer: a test of it
        # passes learn_pointer=True (the bot's own default).
        config_overrides.setdefault("learn_pointer", False)
        # A click waits for its post while it is being made (a loaded machine draws boards
        # slowly); it is told "it will follow" at once when Discord fails all the same.
        config_overrides.setdefault("outbox_wait_seconds", 10.0)
        config = Config(token="fake-token", db_path=str(self.db_path),
                        **config_overrides)  # type: ignore[arg-type]
        options: dict[str, object] = {} if heartbeat_timeout is None else {
            "heartbeat_timeout": heartbeat_timeout}
        bot = SanMarcoBot(config, service=service, guild_ready_timeout=0.01,
                          max_messages=None, **options)
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
        self._hook(bot)
        if clock is not None:
            cog = bot.get_cog("SanMarco")  # type: ignore[attr-defined]
            cog.reminders.clock = clock
        return bot

    def _hook(self, bot: discord.Client) -> None:
        """Tell the fake when the bot has finished with a component interaction, so a fake
        player waits for exactly its own click (no global settling, no sleeps): every click
        is taken in by the reception (``Reception.click``, docs/CLICK.md)."""
        context = getattr(bot, "click_context", None)
        if context is None:
            return
        reception = context.reception
        original = reception.click
        fake = self.fake
        fake.hooked = True

        async def click(interaction: discord.Interaction, *args: object) -> None:
            try:
                await original(interaction, *args)
            finally:
                fake.mark_handled(interaction.id)

        reception.click = click

    async def stop(self) -> None:
        if self.bot is not None:
            await self.settle()
            await self.bot.close()
        if self._task is not None:
            await asyncio.wait_for(self._task, 20)
        self.bot, self._task = None, None
        if self._service is not None:
            await self._service.close()  # type: ignore[attr-defined]
            self._service = None

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


async def until(condition: Callable[[], bool | Awaitable[bool]], timeout: float = 10.0, *,
                what: str = "") -> None:
    """Wait until ``condition()`` (a plain or an async callable) holds, polling; fail
    after ``timeout`` seconds. For what the bot does in the background after an
    interaction is answered (a post delivered once Discord takes it again)."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"still not after {timeout:g} s: "
                                 f"{what or getattr(condition, '__name__', 'condition')}")
        await asyncio.sleep(0.02)
