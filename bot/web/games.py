"""What the pages of one process know of each game, kept so that a thousand readers cost
one replay and one picture per step: the game's replay at its latest version (played again
only when the game moved), each step's board picture per language (a step's picture never
changes: it is keyed by the step itself), and the live events as each language reads them.

Everything here is made from the service's public facts (``PageGame``, ``PageReplay``):
no seed, no hand, no split ever reaches this module.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot import i18n, text
from bot.metrics import RENDER_SECONDS
from bot.service import GameService, PageGame, PageReplay, PageStep, WorkBusy
from bot.store import VersionRow
from bot.work import PICTURE, Busy
from render import highlight_from_events, render_board

from . import html

K = TypeVar("K")
V = TypeVar("V")

PICTURES = 256  # board pictures kept (about 50 KB each)
REPLAYS = 64  # games whose replay is kept


class Lru(Generic[K, V]):
    """A small least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value


async def _once(flights: dict[K, asyncio.Future[V]], key: K,
                load: Callable[[], Awaitable[V]], keep: Callable[[V], object]) -> V:
    """``load()`` for ``key``, whose future others asking meanwhile await (``flights``)
    instead of loading it again; ``keep`` caches the value before they are told."""
    future: asyncio.Future[V] = asyncio.get_running_loop().create_future()
    flights.setdefault(key, future)
    try:
        value = await load()
        keep(value)
        future.set_result(value)
        return value
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # retrieved: nobody else may be waiting
        raise
    finally:
        if flights.get(key) is future:
            del flights[key]


@dataclass(frozen=True)
class Seen:
    """A game as a page shows it: its row's facts and its replay at the same version."""

    game: PageGame
    replay: PageReplay | None  # None: a lobby, nothing played yet

    @property
    def last(self) -> PageStep | None:
        return self.replay.steps[-1] if self.replay and self.replay.steps else None


class Games:
    """The games the pages read, over the service, with their caches."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._replays: Lru[int, PageReplay] = Lru(REPLAYS)
        self._pictures: Lru[tuple[Any, ...], bytes] = Lru(PICTURES)
        self._events: Lru[tuple[int, int, str], bytes] = Lru(PICTURES * 4)
        self._drawing: dict[tuple[Any, ...], asyncio.Future[bytes]] = {}
        self._loading: dict[int, asyncio.Future[PageReplay]] = {}
        self._seen: Lru[str, Seen] = Lru(REPLAYS)
        self._reading: dict[str, asyncio.Future[Seen]] = {}

    async def seen(self, token: str, at_least: int | None = None) -> Seen:
        """The game behind ``token`` with its replay at the row's version (raises the
        service's NoGame for a token that names no game). ``at_least``: a version known to
        be committed; a game already read at it or later is not read again (a thousand
        streams of one game read it once per version)."""
        if at_least is not None:
            known = self._seen.get(token)
            if known is not None and known.game.version >= at_least:
                return known
            loading = self._reading.get(token)
            if loading is not None:
                known = await asyncio.shield(loading)
                if known.game.version >= at_least:
                    return known
        else:  # a read already under way answers everyone who asked meanwhile
            loading = self._reading.get(token)
            if loading is not None:
                return await asyncio.shield(loading)
        return await _once(self._reading, token,
                           lambda: self._read(token), lambda seen: self._seen.put(token, seen))

    async def _read(self, token: str) -> Seen:
        game = await self.service.page_game(token)
        if game.view is None:
            return Seen(game, None)
        replay = self._replays.get(game.game_id)
        if replay is None or replay.version < game.version:
            replay = await self._replay(token, game.game_id)
        return Seen(game, replay)

    async def _replay(self, token: str, game_id: int) -> PageReplay:
        """The game's replay, played once however many pages ask at the same moment."""
        loading = self._loading.get(game_id)
        if loading is not None:
            return await asyncio.shield(loading)
        return await _once(self._loading, game_id, lambda: self.service.page_replay(token),
                           lambda replay: self._replays.put(game_id, replay))

    async def picture(self, seen: Seen, seq: int, language: str) -> bytes | None:
        """The board after step ``seq`` (0: the set-up) with what that step changed
        highlighted, its words in ``language``; None: no such step."""
        if seen.replay is None or not 0 <= seq < len(seen.replay.steps):
            return None
        step = seen.replay.steps[seq]
        key = (seen.game.game_id, step.seq, step.at, step.action, language)
        cached = self._pictures.get(key)
        if cached is not None:
            return cached
        # drawn once however many ask at the same moment, in the side worker lane (busy:
        # WorkBusy, a 503 with Retry-After)
        drawing = self._drawing.get(key)
        if drawing is not None:
            return await asyncio.shield(drawing)
        return await _once(self._drawing, key, lambda: self._draw(step, language),
                           lambda png: self._pictures.put(key, png))

    async def _draw(self, step: PageStep, language: str) -> bytes:
        started = time.perf_counter()
        try:
            png = await self.service.work.run(PICTURE, draw_step, step, language)
        except Busy as exc:
            raise WorkBusy(retry_after=exc.retry_after) from None
        RENDER_SECONDS.observe(time.perf_counter() - started)
        return png

    def event(self, seen: Seen, row: VersionRow, before: int | None, language: str,
              url: Callable[[str], str]) -> bytes:
        """Version ``row`` of the game as a server-sent event in ``language``: its board's
        facts then and the log's lines since ``before`` (the previous version's last
        action; a smaller ``seq`` than that means a move was taken back: ``reset``)."""
        key = (seen.game.game_id, row.version, language)
        cached = self._events.get(key)
        if cached is not None:
            return cached
        data: dict[str, Any] = {"version": row.version, "status": row.status}
        steps = seen.replay.steps if seen.replay is not None else ()
        if row.seq is not None and 0 <= row.seq < len(steps):
            tr = i18n.translations(language)
            step = steps[row.seq]
            words = html.page_words(tr, seen.game)
            reset = before is not None and row.seq < before
            data.update(seq=row.seq, pictures=row.version,
                        board=url(f"v/{row.version}/replay/{row.seq}.png"),
                        alt=text.board_alt(tr, step.view, step.names),
                        facts=html.facts(text.board_facts(tr, step.view, step.names), words))
            if seen.game.version == row.version:  # since when it waits, at this version
                data.update(timing=html.timing(seen.game, words),
                            since=seen.game.awaited_since, deadline=html.deadline(seen.game))
            if reset or before is None:  # a move taken back: the log as it is now
                data["log"] = html.log(tr, steps[:row.seq + 1], words)
            else:
                data["lines"] = [html.log_entry(tr, s) for s in steps[before + 1:row.seq + 1]]
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return self._events.put(key, f"id: {row.version}\ndata: {body}\n\n".encode())


def draw_step(step: PageStep, language: str) -> bytes:
    """A step's board picture (a worker process: plain values in, bytes out)."""
    tr = i18n.translations(language)
    names = text.local_names(tr, step.names)
    highlight = highlight_from_events([e.to_dict() for e in step.events], names, tr)
    return render_board(step.view, highlight=highlight, names=names, tr=tr)


