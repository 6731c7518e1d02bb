"""Who may view a channel, as Discord says (issue 36): the server's page lists a channel's
games only while every member of the server may view it. Discord tells it through the
channel's permission overwrites — the @everyone role's View Channel there, over the role's
own permissions (discord.py's ``permissions_for(guild.default_role)``) — and, for a thread,
through its type (a private thread is its members' only) and its channel's.

``Sightings`` tells the service what it sees of a channel: at every interaction in it (a
game opened, a setting changed, a click), when Discord says a channel or thread changed or
a thread was made, and when a server becomes available (the channels it stored before,
compared with what Discord says now: a channel closed while the bot was away is unlisted).
It writes only what changed since it last wrote in this process, and a failure to write is
logged, never a reason to fail the interaction: a channel it never managed to note stays
unlisted (unknown is private).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord

from bot.service import GameService

log = logging.getLogger(__name__)

_KEEP = 10_000  # channels remembered as noted (a bound on this process's memory)


@dataclass(frozen=True)
class Sighting:
    """What Discord says of who may view a channel (``GameService.see_channel``'s
    arguments)."""

    guild: int
    channel: int
    everyone: bool
    parent: int | None = None
    private_thread: bool = False


def _everyone_views(channel: discord.abc.GuildChannel) -> bool:
    return channel.permissions_for(channel.guild.default_role).view_channel


def sighting(channel: object) -> Sighting | None:
    """Who may view ``channel`` (None: not a server's channel, or one discord.py only
    knows by its id — nothing is known then)."""
    if isinstance(channel, discord.Thread):
        private = channel.type is discord.ChannelType.private_thread
        parent = channel.parent
        everyone = (not private and isinstance(parent, discord.abc.GuildChannel)
                    and _everyone_views(parent))
        return Sighting(channel.guild.id, channel.id, everyone, channel.parent_id, private)
    if isinstance(channel, discord.abc.GuildChannel):
        return Sighting(channel.guild.id, channel.id, _everyone_views(channel))
    return None


class Sightings:
    """Notes channels' visibility with the service, once per change."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._noted: dict[int, Sighting] = {}

    async def note(self, channel: object) -> None:
        """Tell the service who may view ``channel``, if that changed since last time."""
        seen = sighting(channel)
        if seen is None or self._noted.get(seen.channel) == seen:
            return
        try:
            await self.service.see_channel(seen.guild, seen.channel, everyone=seen.everyone,
                                           parent=seen.parent,
                                           private_thread=seen.private_thread)
        except Exception:  # a courtesy to the server's page: never fails an interaction
            log.warning("channel %s: who may view it could not be stored", seen.channel,
                        exc_info=True)
            return
        self._noted.pop(seen.channel, None)
        self._noted[seen.channel] = seen
        while len(self._noted) > _KEEP:
            self._noted.pop(next(iter(self._noted)))

    async def refresh(self, guild: discord.Guild) -> int:
        """Compare what the service stored of ``guild``'s channels with what Discord says
        now (the guild just became available), and store what changed. Returns how many
        changed."""
        try:
            stored = await self.service.seen_channels(guild.id)
        except Exception:
            log.warning("guild %s: the channels' visibility could not be read", guild.id,
                        exc_info=True)
            return 0
        changed = 0
        for view in stored:
            seen = sighting(guild.get_channel_or_thread(view.channel_id))
            if seen is None:
                continue  # gone, or an archived thread discord.py does not hold: as stored
            if (seen.everyone, seen.parent, seen.private_thread) == (
                    view.everyone, view.parent_id, view.private_thread):
                self._noted[seen.channel] = seen
                continue
            changed += 1
            await self.note(guild.get_channel_or_thread(view.channel_id))
        return changed
