"""Where a new game opens, and its thread.

``/sanmarco game new`` in a text channel opens the game in a new public thread of that
channel (unless the channel's settings say games live in the channel itself, one at a time);
run inside a thread, the game lives there. A game is stored per channel, so a thread's id is
its game's channel: the thread is made on the interaction path, before the game is stored,
and named once after the game's number (reserved first) and its seats (Discord allows two
renames of a channel per ten minutes; later renames go through the outbox, coalesced).

Discord's limits: a thread's name is at most 100 characters; a server has at most 1,000
active threads (160006 when it is full: finished games' threads are archived so they do not
count); a thread is made with the longest auto-archive duration (a week) and unarchived by
the outbox before each post. The bot needs Create Public Threads in the channel and Send
Messages in Threads to post in them: a missing one is named to the player.

A practice game (``/sanmarco game learn``) opens in a *private* thread (Create Private
Threads; ``invitable`` off, so only the bot adds members), its learner added as its one
member: only they and the server's moderators see it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import discord

from bot import i18n, text
from bot.cogs.sanmarco.shared.answers import ChannelTarget, Interaction
from bot.cogs.sanmarco.shared.faults import (
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    TOO_MANY_THREADS,
    classify,
    log_fault,
)
from bot.cogs.sanmarco.shared.language import channel_language
from bot.service import GameService
from bot.service.errors import Code, ServiceError
from bot.service.results import Found

log = logging.getLogger(__name__)

WEEK_MINUTES: Literal[10080] = 10080  # the longest auto-archive Discord offers a thread
# What the bot needs in a text channel to open a game's thread and post in it.
THREAD_PERMISSIONS = ("view_channel", "create_public_threads", "send_messages_in_threads")
# ... and a practice game's private thread.
PRIVATE_PERMISSIONS = ("view_channel", "create_private_threads", "send_messages_in_threads")


@dataclass(frozen=True)
class Home:
    """Where a new game lives: ``channel`` itself, or (``parent`` set) a new thread of the
    text channel ``parent`` (``channel`` is then that same text channel)."""

    channel: int
    parent: int | None = None

    @property
    def in_thread(self) -> bool:
        return self.parent is not None


def missing_permission(have: discord.Permissions, *, private: bool = False) -> str | None:
    """The first permission a game's thread (``private``: a practice game's) needs that
    ``have`` lacks (discord.py's name)."""
    needed = PRIVATE_PERMISSIONS if private else THREAD_PERMISSIONS
    return next((p for p in needed if not getattr(have, p)), None)


class Opener:
    """Opens games' threads (on the interaction path, and for the tables the queue finds in
    the periodic pass)."""

    def __init__(self, client: discord.Client, service: GameService, *,
                 threads_default: bool = True) -> None:
        self.client = client
        self.service = service
        self.threads_default = threads_default

    async def threads_on(self, channel: int) -> bool:
        """Whether a game opened in the text channel gets a thread of its own."""
        setting = (await self.service.settings(channel)).threads
        return self.threads_default if setting is None else setting

    async def home(self, interaction: Interaction, channel: int | None = None) -> Home:
        """Where a game opened from ``interaction`` (or for ``channel``, a finished game's
        channel) lives: a thread it runs in, a new thread of a text channel whose games get
        threads, else the channel itself."""
        where = interaction.channel if channel is None else await self._channel(channel)
        cid = channel if channel is not None else interaction.channel_id
        assert cid is not None
        if isinstance(where, discord.TextChannel) and await self.threads_on(cid):
            return Home(cid, cid)
        return Home(cid)

    async def _channel(self, channel: int) -> object:
        cached = self.client.get_channel(channel)
        if cached is not None:
            return cached
        try:
            return await self.client.fetch_channel(channel)
        except discord.HTTPException as exc:
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, "looking up a channel", channel)
            return None

    @staticmethod
    def parent_of(interaction: Interaction) -> int:
        """The text channel a game found from ``interaction`` opens its thread in: the
        channel, or the channel of the thread it was used in."""
        where = interaction.channel
        if isinstance(where, discord.Thread) and where.parent_id is not None:
            return where.parent_id
        assert interaction.channel_id is not None
        return interaction.channel_id

    async def open_found(self, found: Found) -> int:
        """Open the game the queue found: its thread in the found channel, then the game
        there (seated and started); its thread's id. If Discord refuses the thread, the
        players wait in the queue again (and the ServiceError says why)."""
        try:
            name = await self.thread_name(found.guild_id, found.channel_id, found.number,
                                          found.pids, found.names, found.language)
            thread = await self.make_thread(found.channel_id, name)
        except BaseException:
            await self.service.release(found.number)
            raise
        await self.service.open_found(found, thread)
        return thread

    @staticmethod
    def check(interaction: Interaction, *, private: bool = False) -> None:
        """Refuse, naming it, when the bot lacks a permission the game's thread
        (``private``: a practice game's) needs."""
        missing = missing_permission(interaction.app_permissions, private=private)
        if missing is not None:
            raise ServiceError(Code.PRACTICE_PERMISSION if private
                               else Code.THREAD_PERMISSION, permission=missing)

    async def thread_name(self, guild: int, parent: int, number: int, players: Sequence[str],
                          names: Mapping[str, str], language: str | None = None) -> str:
        """The thread's name in its channel's language (or ``language``)."""
        lang = language or await channel_language(self.service,
                                                  ChannelTarget(self.client, guild, parent))
        return text.thread_name(i18n.translations(lang), number, players, names)

    async def make_thread(self, parent: int, name: str) -> int:
        """A new public thread of the text channel ``parent``, named ``name``, archived
        only after a week without a post; its id. Raises ServiceError: the server has too
        many active threads (thread.limit), the bot lacks a permission (thread.permission),
        or Discord refused otherwise (thread.failed)."""
        return (await self._create(parent, name, private=False)).id

    async def make_private_thread(self, parent: int, name: str, member: int) -> int:
        """A new private thread of ``parent`` (a practice game's) with ``member`` added,
        the only one besides the bot (nobody else may add people: ``invitable`` off); its
        id. Raises as ``make_thread`` (practice.permission for a missing permission)."""
        thread = await self._create(parent, name, private=True)
        try:
            await thread.add_user(discord.Object(member))
        except discord.HTTPException as exc:
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, "adding the learner to a practice thread", thread.id)
            raise ServiceError(Code.THREAD_FAILED) from None
        return thread.id

    async def _create(self, parent: int, name: str, *, private: bool) -> discord.Thread:
        channel = await self._channel(parent)
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError(Code.THREAD_FAILED)
        try:
            if private:
                thread = await channel.create_thread(
                    name=name[:text.MAX_THREAD_NAME], type=discord.ChannelType.private_thread,
                    invitable=False, auto_archive_duration=WEEK_MINUTES,
                    reason="A San Marco practice game")
            else:
                thread = await channel.create_thread(
                    name=name[:text.MAX_THREAD_NAME], type=discord.ChannelType.public_thread,
                    auto_archive_duration=WEEK_MINUTES, reason="A San Marco game")
        except discord.HTTPException as exc:
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, "opening a game's thread", parent)
            if exc.code == TOO_MANY_THREADS:
                raise ServiceError(Code.THREAD_LIMIT) from None
            if exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS) and private:
                raise ServiceError(Code.PRACTICE_PERMISSION,
                                   permission="create_private_threads") from None
            if exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
                raise ServiceError(Code.THREAD_PERMISSION,
                                   permission="create_public_threads") from None
            raise ServiceError(Code.THREAD_FAILED) from None
        log.info("channel %s: opened %s thread %s for a game", parent,
                 "private" if private else "public", thread.id)
        return thread
