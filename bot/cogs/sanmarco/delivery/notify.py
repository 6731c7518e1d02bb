"""How awaited players hear it is their turn: a mention in the channel (the
default), a direct message with a link to the game's latest post, both, or nothing — each
player's choice per server (``/sanmarco-server notify``), for moves, default moves and reminders.

A DM Discord refuses (the player's DMs are closed: error 50007) falls back to a mention in
the channel, once: the bot mentions that player from then on, until they choose again, and
tells them so privately the next time they use it (``hint``).

A DM speaks the game channel's language, as the post it stands for: the bot knows
a user's Discord language only while they use it; the hint, an answer to them, theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import discord

from bot import text
from bot.cogs.sanmarco.shared.answers import ChannelTarget, send_private
from bot.cogs.sanmarco.shared.language import user_tr
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.results import Notice

log = logging.getLogger(__name__)

CANNOT_DM = 50007  # Discord: "Cannot send messages to this user"
DM_SCAN = 10  # a player's latest DMs read for a DM a try may have sent
CLOCKS = 60.0  # seconds Discord's clock and the bot's may differ (a DM's time, a try's)


class Notifier:
    """Tells awaited players their decision starts, their way."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def notices(self, guild: int, pids: Sequence[str]) -> dict[str, Notice]:
        """Each player's way (a mention if it cannot be read: the default)."""
        try:
            return await self.service.notices(guild, list(pids))
        except ServiceError:
            log.warning("could not read how players are notified in guild %s", guild)
            return {}

    async def dm(self, client: discord.Client, guild: int, pid: str, content: str, *,
                 nonce: str | None = None, recheck: bool = False,
                 tried: float | None = None) -> bool:
        """Send ``pid`` a direct message (``nonce``: a repeat of the same one within
        minutes is not a second message; ``recheck``: a try may have sent it longer ago
        than Discord keeps nonces, so it is looked for among their latest DMs first, those
        made since ``tried``, the step's first try, less a minute for clocks that differ);
        False when it did not arrive (the caller mentions them instead). A refusal for
        closed DMs is remembered, so they are mentioned from now on and get the hint once."""
        try:
            channel = await client.create_dm(discord.Object(int(pid)))
            if recheck and client.user is not None:
                me = client.user.id
                since = None if tried is None else discord.Object(discord.utils.time_snowflake(
                    datetime.fromtimestamp(tried - CLOCKS, UTC)))
                async for message in channel.history(limit=DM_SCAN, after=since):
                    if message.author.id == me and message.content == content:
                        return True
            if nonce is None:
                await channel.send(content, allowed_mentions=discord.AllowedMentions.none())
            else:
                await channel.send(content, allowed_mentions=discord.AllowedMentions.none(),
                                   nonce=nonce)
            return True
        except discord.Forbidden as exc:
            if exc.code == CANNOT_DM:
                log.info("guild %s: DMs of user %s are closed; mentioning them instead",
                         guild, pid)
                try:
                    await self.service.dm_refused(guild, pid)
                except ServiceError:
                    log.warning("could not remember a refused DM in guild %s", guild)
            else:
                log.warning("guild %s: a DM to user %s was refused: %s", guild, pid, exc)
        except (discord.HTTPException, ValueError) as exc:
            log.warning("guild %s: a DM to user %s failed: %s", guild, pid, exc)
        return False

    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """The private hint after a refused DM, once, to the player who now uses the bot."""
        if interaction.guild_id is None or isinstance(interaction, ChannelTarget):
            return
        try:
            if await self.service.take_hint(interaction.guild_id, str(interaction.user.id)):
                await send_private(interaction, text.dm_refused_hint(user_tr(interaction)))
        except (ServiceError, discord.HTTPException) as exc:
            log.warning("could not tell user %s about a refused DM: %s", interaction.user.id,
                        exc)
