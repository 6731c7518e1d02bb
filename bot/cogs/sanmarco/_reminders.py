"""The periodic pass: turn timers' default moves, then reminders for players the game has
waited on for long (each player hears them their way: a mention, a DM, both or nothing).

The times come from the store (when the decision started, when last reminded, the channel's
timer and quiet hours), never from sleeps in memory, so a restart forgets nothing; the loop
only asks the service what is due. A reminder and a default move's post speak the channel's
language (its setting, else its server's), and so do the DMs they send.

Exactly once, with several bot processes: a process makes default moves and reminds only
in the guilds of its own gateway shards (another process holds the others), and each
reminder is posted with a nonce that names it (game, version, due time) and Discord's
``enforce_nonce``: if the process dies after the post but before it records the reminder,
the post is made again after the restart (none is lost) and Discord answers it with the
message it already has (none is sent twice).
"""

from __future__ import annotations

import hashlib
import logging

import discord
from discord.ext import tasks

from bot import i18n, text
from bot.service import GameService
from bot.service.errors import StalePrompt
from bot.service.results import Reminder
from bot.store import Shards

from ._language import channel_language
from ._notify import Notifier
from ._posting import Poster
from ._where import Place, pings

log = logging.getLogger(__name__)


class Reminders:
    """A periodic pass over due turn timers and reminders (``run_once`` is what tests
    call). It asks the time of the service's one clock (``GameService.clock``), as every
    call of the service does, so what is due and when it was done are told by one clock."""

    def __init__(self, client: discord.Client, service: GameService, *,
                 poster: Poster | None = None, notifier: Notifier | None = None) -> None:
        self.client = client
        self.service = service
        self.poster = poster  # posts a default move like any move
        self.notifier = notifier

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
        day (in this process's guilds)."""
        shards = shards_of(self.client)
        try:
            await self.service.expire_lobbies(self.service.clock(), shards=shards)
        except Exception:
            log.exception("deleting old lobbies failed")
        await self.run_timers(shards)
        try:
            due = await self.service.due_reminders(self.service.clock(), shards=shards)
        except Exception:
            log.exception("reading due reminders failed")
            return
        for item in due:
            channel = self.client.get_channel(item.channel)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            guild = getattr(channel, "guild", None)
            locale = getattr(guild, "preferred_locale", None)
            tr = i18n.translations(i18n.channel_language(item.language, locale))
            try:
                await self._remind(channel, item, tr)
                await self.service.mark_reminded(item.channel, item.version)
                log.info("reminded %d player(s) in channel %s", len(item.pids), item.channel)
            except discord.HTTPException as exc:
                log.warning("could not post a reminder in channel %s: %s", item.channel, exc)
            except Exception:  # one channel's failure must not stop the others' reminders
                log.exception("reminder in channel %s failed", item.channel)

    async def _remind(self, channel: discord.abc.Messageable, item: Reminder,
                      tr: i18n.Tr) -> None:
        """The reminder, each player their way: a mention in one channel post for those who
        chose mentions, a DM with the link to the game's latest post for those who chose
        DMs (a mention if Discord refuses it), nothing for those who chose nothing; all in
        the channel's language (``tr``)."""
        notices = (await self.notifier.notices(item.guild_id, item.pids)
                   if self.notifier is not None else {})
        mention = [p for p in item.pids if p not in notices or notices[p].mention]
        dms = [p for p in item.pids if p in notices and notices[p].dm]
        if dms and self.notifier is not None:
            url = await self.service.latest_post(item.game_id)
            for pid in dms:
                sent = await self.notifier.dm(self.client, item.guild_id, pid, text.dm_turn(
                    tr, item.awaiting.get(pid, ""), url, reminder_since=item.since))
                if not sent and pid not in mention:
                    mention.append(pid)  # the mention instead, once
        if mention:
            await channel.send(text.reminder(tr, item.awaiting, item.since),
                               allowed_mentions=pings(mention), nonce=nonce(item))

    async def run_timers(self, shards: Shards | None = None) -> None:
        """The computer makes every decision whose turn timer ran out, and each is posted
        like any move; one game's failure does not stop the others'."""
        if self.poster is None:
            return
        # The computer thinks in the render worker process when there is one, so its
        # thinking never holds the event loop up (the GIL); else in a thread.
        self.service.thinking = self.poster.pool
        try:
            due = await self.service.due_timers(self.service.clock(), shards=shards)
        except Exception:
            log.exception("reading due turn timers failed")
            return
        for item in due:
            try:
                async with self.poster.lock(item.channel, self.service.busy_timeout):
                    out = await self.service.time_out(item.channel, game_id=item.game_id,
                                                      version=item.version)
                    place = Place(self.client, item.guild_id, item.channel)
                    language = await channel_language(self.service, place)
                    tr = i18n.translations(language)
                    names = out.update.names
                    lines = [text.timed_out(tr, p, a, names) for p, a in out.defaults]
                    lines += [text.handed_over(tr, p, names) for p in out.handed_over]
                    await self.poster.post(place, out.update, language,
                                           header="\n".join(lines))
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


def nonce(item: Reminder) -> str:
    """The reminder's name for Discord (at most 25 characters): the same for a post of the
    same reminder made again, another for the next one."""
    key = f"{item.game_id}:{item.version}:{item.due!r}"
    return "r" + hashlib.sha256(key.encode()).hexdigest()[:24]
