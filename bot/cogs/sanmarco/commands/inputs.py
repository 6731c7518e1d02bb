"""What a slash command reads from its interaction: the channel and server it was used in,
and autocomplete that offers nothing rather than failing."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

from bot.cogs.sanmarco.shared.answers import Interaction, where
from bot.service.errors import Code, ServiceError

log = logging.getLogger(__name__)

T = TypeVar("T")


def channel_of(interaction: Interaction) -> int:
    """The channel of a command used in a server (a game lives in a server channel)."""
    if interaction.channel_id is None or interaction.guild_id is None:
        raise ServiceError(Code.NOT_IN_SERVER)
    return interaction.channel_id


def guild_of(interaction: Interaction) -> int:
    """The server of a command used in a server channel."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ServiceError(Code.NOT_IN_SERVER)
    return interaction.guild_id


async def or_nothing(interaction: Interaction, choices: Awaitable[list[T]]) -> list[T]:
    """Autocomplete offers nothing rather than failing: no game here, not a player, not
    awaited (discord.py does not route autocomplete errors to the tree's on_error)."""
    try:
        return await choices
    except ServiceError:
        return []
    except Exception as exc:
        log.error("autocomplete failed in %s (channel %s): %s", where(interaction),
                  interaction.channel_id, type(exc).__name__, exc_info=exc)
        return []
