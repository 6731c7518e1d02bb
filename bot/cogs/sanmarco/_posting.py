"""Public posts: the board picture (drawn off the event loop), what happened, the next prompt
and a ping for whoever's decision starts — one post per interaction, in the order of the
actions (one lock per channel).

Where each message goes (the channel, or only the interaction's user) is ``_where``'s.

A public post and its board speak the channel's language (``lang``, a code: the board is
drawn in a worker that loads its translations); a private answer the user's (``_language``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import discord

from bot import i18n, text
from bot.locks import KeyedLocks, LockTimeout
from bot.service import GameService
from bot.service.errors import Code, StorageFailed
from bot.service.results import Notice, Update
from bot.text.markup import MAX_CONTENT

from . import _screens as screens
from ._drawing import Drawer
from ._final import final_extras
from ._language import user_tr
from ._notify import Notifier
from ._where import Interaction, Place, Where, is_command, pings, send_private, send_public

log = logging.getLogger(__name__)


async def finish_command(interaction: Interaction, note: str | None = None,
                         view: discord.ui.View | None = None) -> None:
    """After a slash command's public post, its private "thinking…" says it is done (or
    ``note``: what went wrong with the post), with ``view`` (an Undo button) if given. A
    component gets ``note`` only."""
    if is_command(interaction):
        kwargs: dict[str, Any] = {} if view is None else {"view": view}
        await send_private(interaction, note or text.posted(user_tr(interaction)), **kwargs)
    elif note:
        await send_private(interaction, note)


@dataclass(frozen=True)
class Refused:
    """Discord refused a public post after the change was saved: ``permission`` (discord.py's
    name, e.g. ``attach_files``) is what the bot lacks in the channel, None when the
    refusal was not about a permission; ``as_text``: the post went out without its board
    picture instead."""

    permission: str | None
    as_text: bool = False

    def note(self, tr: i18n.Tr) -> str:
        """What the player who acted reads (privately, in their language)."""
        if self.permission is None:
            return text.post_failed(tr)
        if self.as_text:
            return text.board_posted_as_text(tr, self.permission)
        return text.not_posted(tr, self.permission)


def missing_permission(interaction: Where, *, files: bool) -> str:
    """Which of the bot's permissions in the channel a refused post lacked, from what
    Discord says the bot may do there (the first missing; Send Messages if none is)."""
    if isinstance(interaction, Place):  # no interaction: the cached channel, if any
        channel = interaction.client.get_channel(interaction.channel_id)
        if not isinstance(channel, discord.abc.GuildChannel):
            return "attach_files" if files else "send_messages"
        have = channel.permissions_for(channel.guild.me)
        needed = ["view_channel", "send_messages"] + (["attach_files"] if files else [])
        return next((n for n in needed if not getattr(have, n)), "send_messages")
    have = interaction.app_permissions
    needed = ["view_channel", "send_messages"] if is_command(interaction) else []
    needed += ["attach_files"] if files else []
    return next((n for n in needed if not getattr(have, n)), "send_messages")


def log_refused(interaction: Where, refused: Refused, exc: Exception) -> None:
    """The admin's line: which channel, what Discord said, what the bot lacks."""
    lacks = (text.permission_name(i18n.ENGLISH, refused.permission) if refused.permission
             else None)
    log.warning("channel %s: Discord refused a post (%s)%s%s", interaction.channel_id, exc,
                f"; the bot lacks {lacks} there" if lacks else "",
                "; posted as text without the board picture" if refused.as_text else "")


class Poster(Drawer):
    """Posts a change in its channel: what happened, the board (drawn by the ``Drawer``), the
    next prompt, and the pings or DMs of whoever's decision starts."""

    def __init__(self, service: GameService, render_processes: int, *,
                 notifier: Notifier | None = None) -> None:
        super().__init__(render_processes)
        self.service = service
        self.notifier = notifier  # how awaited players hear their decision starts
        self._locks: KeyedLocks[int] = KeyedLocks()  # one per busy channel, freed when idle

    @asynccontextmanager
    async def lock(self, channel: int, timeout: float) -> AsyncIterator[None]:
        """Held from an action until its post is sent, so posts keep the actions' order.
        An action that cannot have its turn within ``timeout`` seconds (one ahead of it is
        stuck on a locked file) gives up: the game is busy, nothing changed."""
        try:
            async with self._locks(channel, timeout):
                yield
        except LockTimeout:
            raise StorageFailed(Code.STORE_BUSY) from None

    async def post(self, interaction: Where, update: Update, language: str, *,
                   header: str | None = None,
                   board: discord.File | None = None) -> Refused | None:
        """The public post after a change: what happened, the board, the next prompt, and a
        ping for whoever's decision just started (or a DM: each player's choice);
        a running game's post ends with **Now**. All in the channel's ``language``
        (``header`` is the caller's, in it too).

        The change is saved already, so a post Discord refuses does not undo it: without the
        right to attach files the post goes out as text (the next player is still pinged and
        has the buttons); the returned ``Refused`` says what happened, for the player, and
        the log says it for the admin."""
        tr = i18n.translations(language)
        lines = [header] if header else []
        told = text.events_text(tr, update.events, update.names)
        if told:
            lines.append(told)
        over = next((e for e in reversed(update.events) if e.type == "game_over"), None)
        end = text.event_line(tr, over, update.names) if over is not None else None
        if end and end not in told:  # the cut kept the first lines: never lose the result
            lines.append(end)
        if not update.finished and update.awaiting:
            lines.append(text.now_line(tr, update.awaiting, update.names))
        final = (await final_extras(self, self.service, interaction, update, language)
                 if update.finished else None)
        if final is not None and final.line:
            lines.append(final.line)  # the seed, revealed now the game is over (R15)
        content = "\n".join(lines)[:MAX_CONTENT] or "…"
        if board is None:
            board = await self.board_file(update.view, update.events, update.names, language)
        notices = await self._notices(interaction, update)
        ping = [p for p in update.mention if p not in notices or notices[p].mention]
        kwargs: dict[str, Any] = {"file": board, "allowed_mentions": pings(ping)}
        view = screens.prompt(tr, update.channel_id, update.game_id, update.view,
                              update.version)
        if view is not None:
            kwargs["view"] = view
        if final is not None:  # the end-of-game picture beside the board, and its buttons
            del kwargs["file"]
            kwargs["files"] = [board] + ([final.summary] if final.summary else [])
            kwargs["view"] = final.view
        try:
            message = await send_public(interaction, content, **kwargs)
        except discord.Forbidden as exc:
            first: Exception = exc
        except discord.HTTPException as exc:
            refused = Refused(None)
            log_refused(interaction, refused, exc)
            return refused
        else:
            if final is not None:
                await final.remember(self.service, interaction, message)
            await self._told(interaction, update, message, notices, language)
            return None
        kwargs.pop("file", None)  # the text alone, so that the game goes on
        kwargs.pop("files", None)
        posted: discord.Message | None = None
        try:
            posted = await send_public(interaction, content, **kwargs)
            refused = Refused("attach_files", as_text=True)
            if final is not None:
                await final.remember(self.service, interaction, posted)
        except discord.Forbidden:
            refused = Refused(missing_permission(interaction, files=False))
        except discord.HTTPException:
            refused = Refused(None)
        log_refused(interaction, refused, first)
        await self._told(interaction, update, posted, notices, language)
        return refused

    # ------------------------------------------------------------------ notifications
    # Each awaited player hears it their way (a mention, a DM, both or nothing); the post's
    # link is kept for the DMs and for /sanmarco-server games.
    async def _notices(self, where: Where, update: Update) -> dict[str, Notice]:
        if self.notifier is None or not update.mention or where.guild_id is None:
            return {}
        return await self.notifier.notices(where.guild_id, update.mention)

    async def _told(self, where: Where, update: Update, message: discord.Message | None,
                    notices: Mapping[str, Notice], language: str) -> None:
        """After the post: keep its link, and send the DMs the players chose."""
        if self.notifier is None or where.guild_id is None:
            return
        await self.notifier.after_post(where, where.guild_id, update, message, notices,
                                       language)
