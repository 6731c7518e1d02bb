"""The periodic pass: turn timers' default moves, then reminders for players the game has
waited on for long, then the outbox's stalled channels.

The times come from the store (when the decision started, when last reminded, the channel's
timer and quiet hours), never from sleeps in memory, so a restart forgets nothing; the loop
only asks the service what is due, on the service's one clock (``GameService.clock``). A
default move and a reminder are committed with their posts (the outbox), and the deliverer
posts them like any move: in the channel's language, each awaited player told their way (a
mention, a DM, both or nothing).

Exactly once, with several bot processes: a process makes default moves and reminds only in
the guilds of its own gateway shards (another process holds the others); a reminder is
recorded with its post in one transaction, and the post goes out with a nonce, so a process
dying between the two neither loses it nor sends it twice.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import tasks

from bot.service import GameService
from bot.service.errors import StalePrompt
from bot.store import Shards

from ._delivery import Deliverer
from ._drawing import Drawer

log = logging.getLogger(__name__)


class Reminders:
    """A periodic pass over due turn timers and reminders (``run_once`` is what tests
    call)."""

    def __init__(self, client: discord.Client, service: GameService, *,
                 drawer: Drawer | None = None, deliverer: Deliverer | None = None) -> None:
        self.client = client
        self.service = service
        self.drawer = drawer  # its render workers think for the computer
        self.deliverer = deliverer

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
        """Make the decisions whose turn timer ran out; remind every player awaited for
        longer than their channel's interval; delete the lobbies nobody started within a
        day; deliver what waits in the outbox (in this process's guilds)."""
        shards = shards_of(self.client)
        try:
            await self.service.expire_lobbies(self.service.clock(), shards=shards)
        except Exception:
            log.exception("deleting old lobbies failed")
        await self.run_timers(shards)
        await self.run_reminders(shards)
        if self.deliverer is not None:
            await self.deliverer.resume()
            await self.deliverer.idle()

    async def run_reminders(self, shards: Shards | None = None) -> None:
        """Record every due reminder with its post; the deliverer posts them."""
        try:
            due = await self.service.due_reminders(self.service.clock(), shards=shards)
        except Exception:
            log.exception("reading due reminders failed")
            return
        for item in due:
            try:
                if await self.service.remind(item):
                    log.info("reminding %d player(s) in channel %s", len(item.pids),
                             item.channel)
                    self._wake(item.channel, item.guild_id)
            except Exception:  # one channel's failure must not stop the others' reminders
                log.exception("reminder in channel %s failed", item.channel)

    def _wake(self, channel: int, guild: int) -> None:
        if self.deliverer is not None:
            self.deliverer.wake(channel, guild)

    async def run_timers(self, shards: Shards | None = None) -> None:
        """The computer makes every decision whose turn timer ran out; each is committed
        with its post like any move. One game's failure does not stop the others'."""
        # The computer thinks in the render worker process when there is one, so its
        # thinking never holds the event loop up (the GIL); else in a thread.
        if self.drawer is not None:
            self.service.thinking = self.drawer.pool
        try:
            due = await self.service.due_timers(self.service.clock(), shards=shards)
        except Exception:
            log.exception("reading due turn timers failed")
            return
        for item in due:
            try:
                await self.service.time_out(item.channel, game_id=item.game_id,
                                            version=item.version)
                self._wake(item.channel, item.guild_id)
            except StalePrompt:
                continue  # the game moved on meanwhile: nothing was due after all
            except Exception:
                log.exception("turn timer in channel %s failed", item.channel)


def shards_of(client: discord.Client) -> Shards | None:
    """The gateway shards this process holds (None: it holds every guild)."""
    count = client.shard_count
    ids = getattr(client, "shard_ids", None)
    if count is None or ids is None:
        return None
    return Shards(count, tuple(ids))
