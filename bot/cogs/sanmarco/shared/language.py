"""Who reads which language (bot/i18n/): an ephemeral answer speaks the clicking user's
Discord language (``interaction.locale``); a public post, a reminder and the pictures speak
the channel's (its ``language`` setting, else the server's preferred locale when German or
French, else English)."""

from __future__ import annotations

import logging

import discord

from bot import i18n
from bot.cogs.sanmarco.shared.answers import ChannelTarget, Interaction
from bot.i18n import Tr
from bot.service import GameService
from bot.service.errors import ServiceError

log = logging.getLogger(__name__)


def user_tr(interaction: Interaction) -> Tr:
    """The translations for an answer only the interaction's user sees."""
    return i18n.for_locale(interaction.locale)


def guild_locale(interaction: Interaction | ChannelTarget) -> str | None:
    """The server's preferred locale as Discord sends it with the interaction (for a post
    no interaction asked for, a ``ChannelTarget``: as the client's cache of the server has it)."""
    if isinstance(interaction, discord.Interaction):
        locale = interaction.guild_locale
    else:
        guild = interaction.client.get_guild(interaction.guild_id)
        locale = guild.preferred_locale if guild is not None else None
    return None if locale is None else str(locale)


async def channel_language(service: GameService, interaction: Interaction | ChannelTarget) -> str:
    """The language code of the interaction's channel (for its public posts and pictures;
    a ``ChannelTarget``: a channel the periodic pass posts in). If the setting cannot be read, the
    server's language: a post is never lost for it."""
    channel = interaction.channel_id
    if channel is None:
        return i18n.language_of(guild_locale(interaction))
    try:
        return await service.channel_language(channel, guild_locale(interaction))
    except ServiceError as exc:
        log.warning("channel %s: language setting not read (%s); using the server's",
                    channel, exc)
        return i18n.channel_language(None, guild_locale(interaction))


async def channel_tr(service: GameService, interaction: Interaction) -> Tr:
    """The translations for what everyone in the interaction's channel sees."""
    return i18n.translations(await channel_language(service, interaction))
