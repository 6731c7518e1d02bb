"""Reminders for players the game has waited on for long.

The times come from the store (when the decision started, when last reminded), never from
sleeps in memory, so a restart forgets nothing; the loop only asks the service what is due.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import discord
from discord.ext import tasks

from bot import text
from bot.service import GameService

from ._posting import pings

log = logging.getLogger(__name__)


class Reminders:
    """A periodic pass over due reminders (``run_once`` is what tests call)."""

    def __init__(self, client: discord.Client, service: GameService,
                 clock: Callable[[], float] = time.time) -> None:
        self.client = client
        self.service = service
        self.clock = clock  # the notion of now (tests move it)

    def start(self, poll_seconds: float) -> None:
        if poll_seconds > 0:  # 0 turns the periodic task off (tests run it by hand)
            self.loop.change_interval(seconds=poll_seconds)
            self.loop.start()

    def stop(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=300)
    async def loop(self) -> None:
        await self.run_once()

    @loop.before_loop
    async def _before(self) -> None:
        await self.client.wait_until_ready()

    async def run_once(self) -> None:
        """Ping every player awaited for longer than their channel's interval; delete the
        lobbies nobody started within a day."""
        try:
            await self.service.expire_lobbies(self.clock())
        except Exception:
            log.exception("deleting old lobbies failed")
        try:
            due = await self.service.due_reminders(self.clock())
        except Exception:
            log.exception("reading due reminders failed")
            return
        for item in due:
            channel = self.client.get_channel(item.channel)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            try:
                await channel.send(text.reminder(item.awaiting, item.since),
                                   allowed_mentions=pings(item.pids))
                await self.service.mark_reminded(item.channel, item.version)
                log.info("reminded %d player(s) in channel %s", len(item.pids), item.channel)
            except discord.HTTPException as exc:
                log.warning("could not post a reminder in channel %s: %s", item.channel, exc)
            except Exception:  # one channel's failure must not stop the others' reminders
                log.exception("reminder in channel %s failed", item.channel)
