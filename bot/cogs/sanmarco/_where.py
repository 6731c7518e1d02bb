"""Where a message goes: the channel, or only the interaction's user.

Every interaction is answered (deferred) before any store work, so Discord's 3-second limit
holds whatever the database does; what it says comes afterwards:

- a *slash command* is deferred privately ("thinking…" only its user sees), so a refusal
  stays private. Its public message cannot be a follow-up (Discord makes the first
  follow-up of a private deferral private too), so it is a channel message, and the private
  answer then says it was posted (``_posting.finish_command``);
- a *button or select* is deferred as an update of its message: a public post is a
  follow-up, a private answer an ephemeral follow-up, and the clicked message (a lobby, a
  private panel) is edited in place;
- a post nobody asked for (the periodic pass: a turn timer's default move, a reminder) goes
  to a ``Place``, a plain channel message.

Nothing here pings anyone unless told to: ``NO_PINGS`` by default, ``pings`` for exactly the
players whose decision starts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord

Interaction = discord.Interaction[Any]
NO_PINGS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class Place:
    """A channel to post in when no interaction asked for the post (the periodic pass: a
    turn timer's default move). Posts there are plain channel messages."""

    client: discord.Client
    guild_id: int
    channel_id: int


Where = Interaction | Place  # what a post answers: an interaction, or just a channel


def is_command(interaction: Where) -> bool:
    return (not isinstance(interaction, Place)
            and interaction.type is discord.InteractionType.application_command)


async def send_public(interaction: Where, content: str,
                      **kwargs: Any) -> discord.Message:
    """The interaction's message everyone in the channel sees (see the module docstring:
    a follow-up for a component, a channel message for a slash command or a ``Place``)."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if isinstance(interaction, Place):
        return await interaction.client.get_partial_messageable(
            interaction.channel_id).send(content, **kwargs)
    if not is_command(interaction):
        return await interaction.followup.send(content, wait=True, **kwargs)
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        assert interaction.channel_id is not None
        channel = interaction.client.get_partial_messageable(interaction.channel_id)
    return await channel.send(content, **kwargs)


async def send_private(interaction: Interaction, content: str, **kwargs: Any) -> None:
    """A message only the interaction's user sees (the first one after a slash command's
    private deferral replaces its "thinking…")."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    await interaction.followup.send(content, ephemeral=True, **kwargs)


def pings(pids: Iterable[str]) -> discord.AllowedMentions:
    """Mentions that ping exactly these people (computer players have no Discord id)."""
    return discord.AllowedMentions(users=[discord.Object(int(p)) for p in pids if p.isdigit()],
                                   roles=False, everyone=False)
