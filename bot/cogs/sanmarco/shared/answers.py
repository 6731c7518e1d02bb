"""Where a message goes: only the interaction's user, or the channel.

Every interaction is answered (deferred) before any store work, so Discord's 3-second limit
holds whatever the database does; what it says comes afterwards:

- a *slash command* is deferred privately ("thinking…" only its user sees), so a refusal
  stays private, and its private answer says what became of the change
  (``shared.saved.finish_command``);
- a *button or select* is deferred as an update of its message: a private answer is an
  ephemeral follow-up, and a clicked private panel is edited in place.

What everyone in the channel sees is never sent from here: the service commits it with the
change (the outbox) and ``delivery.worker`` posts it, as a plain channel message in a
``ChannelTarget``.
Nothing pings anyone unless told to: ``NO_PINGS`` by default, ``pings`` for exactly the
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
class ChannelTarget:
    """A channel the bot posts in with no interaction at hand (the outbox's deliverer): its
    server's language comes from the client's cache."""

    client: discord.Client
    guild_id: int
    channel_id: int


Where = Interaction | ChannelTarget  # what a post answers: an interaction, or just a channel


def is_command(interaction: Where) -> bool:
    return (not isinstance(interaction, ChannelTarget)
            and interaction.type is discord.InteractionType.application_command)


_POINTER = "sanmarco.pointer"  # the key in ``Interaction.extras``: a line owed to the answer
MAX_ANSWER = 2000  # Discord's characters in a message


def owe_line(interaction: Interaction, line: str) -> None:
    """The interaction's first private answer ends with ``line`` (the newcomer's pointer to
    the practice game: ``reception.LearnPointer``)."""
    interaction.extras[_POINTER] = line


def with_owed(interaction: Interaction, content: str) -> str:
    """``content`` with the line owed to this interaction's first answer, once (left out
    where it would not fit Discord's 2,000 characters)."""
    line = interaction.extras.pop(_POINTER, None)
    if not isinstance(line, str) or len(content) + len(line) + 2 > MAX_ANSWER:
        return content
    return f"{content}\n\n{line}"


async def send_owed(interaction: Interaction) -> None:
    """The owed line on its own, when no answer carried it (a click answered only by
    editing its message, or not at all)."""
    line = interaction.extras.pop(_POINTER, None)
    if isinstance(line, str):
        await interaction.followup.send(line, ephemeral=True, allowed_mentions=NO_PINGS)


async def send_private(interaction: Interaction, content: str, **kwargs: Any) -> None:
    """A message only the interaction's user sees (the first one after a slash command's
    private deferral replaces its "thinking…"; a newcomer's ends with the pointer to the
    practice game)."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    await interaction.followup.send(with_owed(interaction, content), ephemeral=True, **kwargs)


def pings(pids: Iterable[str]) -> discord.AllowedMentions:
    """Mentions that ping exactly these people (computer players have no Discord id)."""
    return discord.AllowedMentions(users=[discord.Object(int(p)) for p in pids if p.isdigit()],
                                   roles=False, everyone=False)


def post_url(guild: int, channel: int, message: int) -> str:
    # a webhook message may not know its guild (message.jump_url then says @me)
    return f"https://discord.com/channels/{guild}/{channel}/{message}"


def where(interaction: Interaction) -> str:
    """What was used, for a log line: the command's path or the component's kind."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data = interaction.data
    cid = str(data.get("custom_id", "")) if data is not None else ""
    return f"component {cid.split(':')[3] if cid.count(':') >= 3 else '?'}"
