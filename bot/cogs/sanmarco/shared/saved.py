"""What the user who made a change is told privately once it is saved: done (its post is in
the channel), or what became of the post (it will follow; the bot lacks a permission there;
the channel is gone) — the outbox's ``Delivery`` says which."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord

from bot import i18n, text
from bot.cogs.sanmarco.shared.answers import Interaction, is_command, send_private
from bot.cogs.sanmarco.shared.language import user_tr

_SAVED = "sanmarco.saved"  # the key in ``Interaction.extras`` (discord.py's own dict for it)


def mark_saved(interaction: Interaction) -> None:
    """The interaction's change is saved (with its post): from now on nothing that goes
    wrong answering it is an apology — the channel's post will tell the truth."""
    interaction.extras[_SAVED] = True


def is_saved(interaction: Interaction) -> bool:
    return bool(interaction.extras.get(_SAVED))


async def finish_command(interaction: Interaction, note: str | None = None,
                         view: discord.ui.View | None = None) -> None:
    """After a change, a slash command's private "thinking…" says it is done (or ``note``:
    what became of its post), with ``view`` (an Undo button) if given. A component gets
    ``note`` only."""
    if is_command(interaction):
        kwargs: dict[str, Any] = {} if view is None else {"view": view}
        await send_private(interaction, note or text.posted(user_tr(interaction)), **kwargs)
    elif note:
        await send_private(interaction, note)


class Outcome(StrEnum):
    """Where the posts of a channel stand, for the player who just acted there."""

    POSTED = "posted"  # Discord took every post
    PENDING = "pending"  # Discord has not taken it yet: it will follow
    BLOCKED = "blocked"  # the bot lacks a permission there (``permission``)
    GONE = "gone"  # the channel is deleted


@dataclass(frozen=True)
class Delivery:
    """What became of a channel's posts: ``url`` of the newest one Discord took;
    ``permission`` the bot lacks (BLOCKED, or POSTED without the board: ``as_text``)."""

    outcome: Outcome
    url: str | None = None
    permission: str | None = None
    as_text: bool = False

    def note(self, tr: i18n.Tr) -> str | None:
        """The acting player's private note when their post is not simply there."""
        if self.outcome is Outcome.PENDING:
            return text.post_pending(tr)
        if self.outcome is Outcome.BLOCKED:
            return text.not_posted(tr, self.permission or "send_messages")
        if self.outcome is Outcome.GONE:
            return text.channel_gone(tr)
        if self.as_text and self.permission:
            return text.board_posted_as_text(tr, self.permission)
        return None
