"""The pictures' worker: board pictures, and whatever else is drawn from a whole game (the
summary, the replay), off the event loop — in Discord's lane of ``bot.work`` (worker
processes when configured, ``SANMARCO_RENDER_PROCESSES``, else a thread). Functions sent
there are module-level functions of plain values, so a spawned process can import and run
them; each worker compiles a language's catalogue once.

The computer players think in the same lane (the service's ``work``, bot.service._core):
their thinking must not hold the event loop up either (the GIL).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import discord

from bot import i18n, text
from bot.work import DISCORD, Workers
from engine import BOARD, Event, new_game
from engine.views import PublicView
from render import render_board
from render.story import highlight_from_events

log = logging.getLogger(__name__)

R = TypeVar("R")


def draw_board(view: PublicView, events: list[dict[str, Any]],
               names: Mapping[str, str], language: str = i18n.DEFAULT) -> bytes:
    """The board PNG for a public view and the public events that led to it, its words in
    ``language`` (runs in a worker thread or process: plain values in, bytes out; the
    worker compiles that language's catalogue once)."""
    tr = i18n.translations(language)
    names = text.local_names(tr, names)
    highlight = highlight_from_events(events, names, tr) if events else None
    return render_board(view, highlight=highlight, names=names, tr=tr)


def draw_highlighted(view: PublicView, highlight: dict[str, Any], names: dict[str, str],
                     language: str = i18n.DEFAULT) -> bytes:
    """The board PNG with ``highlight`` as given (what changed since a player's previous
    decision: districts, bridges, the Doge), its words in ``language`` (plain values in,
    bytes out, as ``draw_board``)."""
    tr = i18n.translations(language)
    return render_board(view, highlight=highlight, names=text.local_names(tr, names), tr=tr)


def warm_render() -> None:
    """Render once per district highlight so the first real boards are not slow (the
    renderer caches per district)."""
    view = new_game(["1", "2", "3"], seed=0).public_view()
    for district in BOARD:
        render_board(view, highlight={"district": district.name, "caption": "warm-up"})


class Drawer:
    """Draws in Discord's lane of the bot's workers (``bot.work``): the board pictures, and
    any module-level function of plain values (``run_render``). That lane is Discord's
    own: a page's picture or a hint never waits ahead of it."""

    def __init__(self, workers: Workers, render_processes: int = 0) -> None:
        self.workers = workers
        self.render_processes = render_processes
        self._warm: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._warm = asyncio.create_task(self._warm_up(max(self.render_processes, 1)),
                                         name="sm-warm-up")

    def close(self) -> None:
        if self._warm is not None and not self._warm.done():
            self._warm.cancel()

    async def _warm_up(self, workers: int) -> None:
        try:
            await asyncio.gather(*(self.run_render(warm_render) for _ in range(workers)))
        except Exception:  # a cold cache is slower, not broken
            log.warning("render warm-up failed", exc_info=True)

    async def board_png(self, view: PublicView, events: Iterable[Event] = (),
                        names: Mapping[str, str] | None = None,
                        language: str = i18n.DEFAULT) -> bytes:
        """The board picture, its words in ``language`` (the channel's)."""
        return await self.run_render(draw_board, view, [e.to_dict() for e in events],
                                     names or {}, language)  # SeatNames: who plays a seat

    async def board_file(self, view: PublicView, events: Iterable[Event] = (),
                         names: Mapping[str, str] | None = None,
                         language: str = i18n.DEFAULT, *, description: str) -> discord.File:
        """The board picture as a file to attach (a private answer's), with its alt text
        (``description``: the reader's words for it)."""
        return discord.File(io.BytesIO(await self.board_png(view, events, names, language)),
                            filename="board.png", description=description)

    async def run_render(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` in the render worker (a process when configured, else a thread):
        ``fn`` is a module-level function of plain values."""
        return await self.workers.run(DISCORD, fn, *args)
