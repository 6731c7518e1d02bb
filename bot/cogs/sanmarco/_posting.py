"""Drawing the board pictures (off the event loop) and answering the interaction's user.

Every interaction is answered (deferred) before any store work, so Discord's 3-second limit
holds whatever the database does:

- a *slash command* is deferred privately ("thinking…" only its user sees), so a refusal
  stays private, and its private answer says what happened (``finish_command``);
- a *button or select* is deferred as an update of its message: a private answer is an
  ephemeral follow-up, and the clicked private panel is edited in place.

Whatever everyone in the channel must see goes through the outbox (``_delivery``): the
service commits it with the change, and the channel's posts are delivered in order.
A public post and its board speak the channel's language; a private answer the user's
(``_language``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import logging
import multiprocessing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot import i18n, text
from engine import Event
from engine.views import PublicView
from render import render_board
from render.story import highlight_from_events

from ._language import user_tr

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
NO_PINGS = discord.AllowedMentions.none()
R = TypeVar("R")
MAX_CONTENT = 1990  # Discord's 2000 characters, with room to spare


@dataclass(frozen=True)
class Place:
    """A channel the bot posts in with no interaction at hand (the outbox's deliverer, the
    periodic pass): its server's language comes from the client's cache."""

    client: discord.Client
    guild_id: int
    channel_id: int


Where = Interaction | Place  # what a post answers: an interaction, or just a channel


def is_command(interaction: Where) -> bool:
    return (not isinstance(interaction, Place)
            and interaction.type is discord.InteractionType.application_command)


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
    """Draws boards and other pictures (in worker processes when configured, else a
    thread)."""

    def __init__(self, render_processes: int) -> None:
        self.render_processes = render_processes
        self._pool: concurrent.futures.Executor | None = None  # None: a thread
        self._warm: asyncio.Task[None] | None = None

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

    async def board_png(self, view: PublicView, events: Iterable[Event] = (),
                        names: Mapping[str, str] | None = None,
                        language: str = i18n.DEFAULT) -> bytes:
        """The board picture, its words in ``language`` (the channel's)."""
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, draw_board, view, [e.to_dict() for e in events], dict(names or {}),
            language)

    async def board_file(self, view: PublicView, events: Iterable[Event] = (),
                         names: Mapping[str, str] | None = None,
                         language: str = i18n.DEFAULT) -> discord.File:
        """The board picture as a file to attach (a private answer's)."""
        return discord.File(io.BytesIO(await self.board_png(view, events, names, language)),
                            filename="board.png")

    # ------------------------------------------------------------------ a finished game
    # (issue 13) Pictures of a whole game are drawn where the boards are.
    async def run_render(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` in the render worker (a process when configured, else a thread):
        ``fn`` is a module-level function of plain values."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
