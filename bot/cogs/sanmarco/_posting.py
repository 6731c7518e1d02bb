"""Public posts: the board picture (drawn off the event loop), what happened, the next prompt
and a ping for whoever's decision starts — one post per interaction, in the order of the
actions (one lock per channel)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import logging
import multiprocessing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import discord

from bot import text
from bot._results import Update
from engine import Event
from engine.views import PublicView
from render import render_board
from render.story import highlight_from_events

from . import _screens as screens
from ._final import final_extras

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
NO_PINGS = discord.AllowedMentions.none()
R = TypeVar("R")
MAX_CONTENT = 1990  # Discord's 2000 characters, with room to spare


def pings(pids: Iterable[str]) -> discord.AllowedMentions:
    """Mentions that ping exactly these people (computer players have no Discord id)."""
    return discord.AllowedMentions(users=[discord.Object(int(p)) for p in pids if p.isdigit()],
                                   roles=False, everyone=False)


def draw_board(view: PublicView, events: list[dict[str, Any]],
               names: dict[str, str]) -> bytes:
    """The board PNG for a public view and the public events that led to it (runs in a
    worker thread or process: plain values in, bytes out)."""
    highlight = highlight_from_events(events, names) if events else None
    return render_board(view, highlight=highlight, names=names)


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
        self._pool: concurrent.futures.Executor | None = None  # None: a thread
        self._warm: asyncio.Task[None] | None = None
        self._locks: dict[int, asyncio.Lock] = {}

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

    def lock(self, channel: int) -> asyncio.Lock:
        """Held from an action until its post is sent, so posts keep the actions' order."""
        return self._locks.setdefault(channel, asyncio.Lock())

    async def board_file(self, view: PublicView, events: Iterable[Event] = (),
                         names: Mapping[str, str] | None = None) -> discord.File:
        png = await asyncio.get_running_loop().run_in_executor(
            self._pool, draw_board, view, [e.to_dict() for e in events], dict(names or {}))
        return discord.File(io.BytesIO(png), filename="board.png")

    async def post(self, interaction: Interaction, update: Update, *, header: str | None = None,
                   board: discord.File | None = None) -> None:
        """The public post after a change: what happened, the board, the next prompt, and a
        ping for whoever's decision just started; a running game's post ends with **Now**."""
        lines = [header] if header else []
        told = text.events_text(update.events, update.names)
        if told:
            lines.append(told)
        over = next((e for e in reversed(update.events) if e.type == "game_over"), None)
        end = text.event_line(over, update.names) if over is not None else None
        if end and end not in told:  # the cut kept the first lines: never lose the result
            lines.append(end)
        if not update.finished and update.awaiting:
            lines.append(text.now_line(update.awaiting, update.names))
        final = await final_extras(self, interaction, update) if update.finished else None
        if final is not None and final.line:
            lines.append(final.line)  # the seed, revealed now the game is over (R15)
        content = "\n".join(lines)[:MAX_CONTENT] or "…"
        if board is None:
            board = await self.board_file(update.view, update.events, update.names)
        kwargs: dict[str, Any] = {"file": board, "allowed_mentions": pings(update.mention)}
        view = screens.prompt(update.channel_id, update.game_id, update.view)
        if view is not None:
            kwargs["view"] = view
        if final is not None:  # the end-of-game picture beside the board, and its buttons
            del kwargs["file"]
            kwargs["files"] = [board] + ([final.summary] if final.summary else [])
            kwargs["view"] = final.view
        message = await interaction.followup.send(content, wait=True, **kwargs)
        if final is not None:
            await final.remember(interaction, message)

    # ------------------------------------------------------------------ a finished game
    # (issue 13) Pictures of a whole game are drawn where the boards are.
    async def run_render(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` in the render worker (a process when configured, else a thread):
        ``fn`` is a module-level function of plain values."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
