"""The periodic pass: lobbies nobody started closed, the queues' old entries dropped and the
tables computers fill opened, turn timers' default moves, then reminders for players the
game has waited on for long, then the outbox's stalled channels.

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

from bot.cogs.sanmarco.delivery.worker import Deliverer
from bot.cogs.sanmarco.shared.opening import Opener
from bot.service import GameService
from bot.service.errors import ServiceError, StalePrompt
from bot.store import Shards

log = logging.getLogger(__name__)


class Reminders:
    """A periodic pass over due turn timers and reminders (``run_once`` is what tests
    call)."""

    def __init__(self, client: discord.Client, service: GameService, *,
                 deliverer: Deliverer | None = None,
                 opener: Opener | None = None) -> None:
        self.client = client
        self.service = service
        self.deliverer = deliverer
        self.opener = opener  # opens the threads of the tables the queue fills

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
        """Close the lobbies nobody started within a day; keep the queues (old entries
        out, tables computers fill opened); make the decisions whose turn timer ran out;
        remind every player awaited for longer than their channel's interval; deliver what
        waits in the outbox (in this process's guilds)."""
        shards = shards_of(self.client)
        try:
            await self.service.expire_lobbies(self.service.clock(), shards=shards)
        except Exception:
            log.exception("closing old lobbies failed")
        await self.run_queues(shards)
        await self.run_timers(shards)
        await self.run_reminders(shards)
        if self.deliverer is not None:
            await self.deliverer.resume()
            await self.deliverer.idle()

    async def run_queues(self, shards: Shards | None = None) -> None:
        """Drop the queue entries older than a day; open the tables computers fill (a
        player who lets them has waited long enough): each its thread and its game."""
        now = self.service.clock()
        try:
            await self.service.expire_queues(now, shards=shards)
            found = await self.service.fill_queues(now, shards=shards)
        except Exception:
            log.exception("the queues' pass failed")
            return
        for table in found:
            if self.opener is None:
                await self.service.release(table.number)
                continue
            try:
                thread = await self.opener.open_found(table)
            except ServiceError as exc:  # the thread was refused: they wait again
                log.warning("guild %s: a table the queue found could not open (%s)",
                            table.guild_id, exc)
                continue
            except Exception:
                log.exception("guild %s: opening a table the queue found failed",
                              table.guild_id)
                continue
            self._wake(thread, table.guild_id)
            self._wake(table.channel_id, table.guild_id)

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
