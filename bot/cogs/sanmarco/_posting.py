"""Public posts: the board picture (drawn off the event loop), what happened, the next prompt
and a ping for whoever's decision starts — one post per interaction, in the order of the
actions (one lock per channel).

Every interaction is answered (deferred) before any store work, so Discord's 3-second limit
holds whatever the database does; what it says comes afterwards:

- a *slash command* is deferred privately ("thinking…" only its user sees), so a refusal
  stays private. Its public message cannot be a follow-up (Discord makes the first
  follow-up of a private deferral private too), so it is a channel message, and the private
  answer then says it was posted (``finish_command``);
- a *button or select* is deferred as an update of its message: a public post is a
  follow-up, a private answer an ephemeral follow-up, and the clicked message (a lobby, a
  private panel) is edited in place.

A public post and its board speak the channel's language (``lang``, a code: the board is
drawn in a worker that loads its translations); a private answer the user's (``_language``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import logging
import multiprocessing
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot import i18n, text
from bot.locks import KeyedLocks, LockTimeout
from bot.service.errors import Code, StorageFailed
from bot.service.results import Notice, Update
from engine import Event
from engine.views import PublicView
from render import render_board
from render.story import highlight_from_events

from . import _screens as screens
from ._final import final_extras
from ._language import user_tr

if TYPE_CHECKING:
    from ._notify import Notifier

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
NO_PINGS = discord.AllowedMentions.none()
R = TypeVar("R")
MAX_CONTENT = 1990  # Discord's 2000 characters, with room to spare


@dataclass(frozen=True)
class Place:
    """A channel to post in when no interaction asked for the post (the periodic pass: a
    turn timer's default move, issue 12). Posts there are plain channel messages."""

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


def pings(pids: Iterable[str]) -> discord.AllowedMentions:
    """Mentions that ping exactly these people (computer players have no Discord id)."""
    return discord.AllowedMentions(users=[discord.Object(int(p)) for p in pids if p.isdigit()],
                                   roles=False, everyone=False)


def draw_board(view: PublicView, events: list[dict[str, Any]],
               names: dict[str, str], language: str = i18n.DEFAULT) -> bytes:
    """The board PNG for a public view and the public events that led to it, its words in
    ``language`` (runs in a worker thread or process: plain values in, bytes out; the
    worker compiles that language's catalogue once)."""
    tr = i18n.translations(language)
    names = text.local_names(tr, names)
    highlight = highlight_from_events(events, names, tr) if events else None
    return render_board(view, highlight=highlight, names=names, tr=tr)


def warm_render() -> None:
    """Render once per district highlight so the first real boards are not slow (the
    renderer caches per district)."""
    from engine import BOARD, new_game

    view = new_game(["1", "2", "3"], seed=0).public_view()
    for district in BOARD:
        render_board(view, highlight={"district": district.name, "caption": "warm-up"})


class Poster:
    """Draws boards (in worker processes when configured, else a thread) and posts updates."""

    def __init__(self, render_processes: int) -> None:
        self.render_processes = render_processes
        # How awaited players hear their decision starts (issue 12; the cog sets it).
        self.notifier: Notifier | None = None
        self._pool: concurrent.futures.Executor | None = None  # None: a thread
        self._warm: asyncio.Task[None] | None = None
        self._locks: KeyedLocks[int] = KeyedLocks()  # one per busy channel, freed when idle

    @property
    def pool(self) -> concurrent.futures.Executor | None:
        """The render worker process (None: a thread); computer players think there too
        during the periodic pass (issue 12)."""
        return self._pool

    def start(self) -> None:
        if self.render_processes > 0:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.render_processes, mp_context=multiprocessing.get_context("spawn"))
        self._warm = asyncio.create_task(self._warm_up(max(self.render_processes, 1)),
                                         name="sm-warm-up")

    def close(self) -> None:
        if self._warm is not None and not self._warm.done():
            self._warm.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    async def _warm_up(self, workers: int) -> None:
        loop = asyncio.get_running_loop()
        try:
            await asyncio.gather(*(loop.run_in_executor(self._pool, warm_render)
                                   for _ in range(workers)))
        except Exception:  # a cold cache is slower, not broken
            log.warning("render warm-up failed", exc_info=True)

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

    async def board_file(self, view: PublicView, events: Iterable[Event] = (),
                         names: Mapping[str, str] | None = None,
                         language: str = i18n.DEFAULT) -> discord.File:
        """The board picture, its words in ``language`` (the channel's)."""
        png = await asyncio.get_running_loop().run_in_executor(
            self._pool, draw_board, view, [e.to_dict() for e in events], dict(names or {}),
            language)
        return discord.File(io.BytesIO(png), filename="board.png")

    async def post(self, interaction: Where, update: Update, language: str, *,
                   header: str | None = None,
                   board: discord.File | None = None) -> Refused | None:
        """The public post after a change: what happened, the board, the next prompt, and a
        ping for whoever's decision just started (or a DM: each player's choice, issue 12);
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
        final = (await final_extras(self, interaction, update, language) if update.finished
                 else None)
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
                await final.remember(interaction, message)
            await self._told(interaction, update, message, notices, language)
            return None
        kwargs.pop("file", None)  # the text alone, so that the game goes on
        kwargs.pop("files", None)
        posted: discord.Message | None = None
        try:
            posted = await send_public(interaction, content, **kwargs)
            refused = Refused("attach_files", as_text=True)
            if final is not None:
                await final.remember(interaction, posted)
        except discord.Forbidden:
            refused = Refused(missing_permission(interaction, files=False))
        except discord.HTTPException:
            refused = Refused(None)
        log_refused(interaction, refused, first)
        await self._told(interaction, update, posted, notices, language)
        return refused

    # ------------------------------------------------------------------ notifications
    # (issue 12) Each awaited player hears it their way; the post's link is kept.
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

    # ------------------------------------------------------------------ a finished game
    # (issue 13) Pictures of a whole game are drawn where the boards are.
    async def run_render(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` in the render worker (a process when configured, else a thread):
        ``fn`` is a module-level function of plain values."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
