"""Reminders for players the game has waited on for long.

The times come from the store (when the decision started, when last reminded), never from
sleeps in memory, so a restart forgets nothing; the loop only asks the service what is due.

Exactly once (issue 15): a process reminds only in the guilds of its own gateway shards
(another process holds the others), and each reminder is posted with a nonce that names it
(game, version, due time) and Discord's ``enforce_nonce``: if the process dies after the
post but before it records the reminder, the post is made again after the restart (none is
lost) and Discord answers it with the message it already has (none is sent twice).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable

import discord
from discord.ext import tasks

from bot import text
from bot.service import GameService, Reminder
from bot.store import Shards

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
        lobbies nobody started within a day (in this process's guilds)."""
        shards = shards_of(self.client)
        try:
            await self.service.expire_lobbies(self.clock(), shards=shards)
        except Exception:
            log.exception("deleting old lobbies failed")
        try:
            due = await self.service.due_reminders(self.clock(), shards=shards)
        except Exception:
            log.exception("reading due reminders failed")
            return
        for item in due:
            channel = self.client.get_channel(item.channel)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            try:
                await channel.send(text.reminder(item.awaiting, item.since),
                                   allowed_mentions=pings(item.pids), nonce=nonce(item))
                await self.service.mark_reminded(item.channel, item.version)
                log.info("reminded %d player(s) in channel %s", len(item.pids), item.channel)
            except discord.HTTPException as exc:
                log.warning("could not post a reminder in channel %s: %s", item.channel, exc)
            except Exception:  # one channel's failure must not stop the others' reminders
                log.exception("reminder in channel %s failed", item.channel)


def shards_of(client: discord.Client) -> Shards | None:
    """The gateway shards this process holds (None: it holds every guild)."""
    count = client.shard_count
    ids = getattr(client, "shard_ids", None)
    if count is None or ids is None:
        return None
    return Shards(count, tuple(ids))


def nonce(item: Reminder) -> str:
    """The reminder's name for Discord (at most 25 characters): the same for a post of the
    same reminder made again, another for the next one."""
    key = f"{item.game_id}:{item.version}:{item.due!r}"
    return "r" + hashlib.sha256(key.encode()).hexdigest()[:24]
