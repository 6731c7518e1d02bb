"""The pages' live stream: one event per committed version of a game, in order, none twice,
whichever process committed it (SQLite file or PostgreSQL).

One ``Hub`` per process polls the store for every game some page follows, all at once (one
read of their versions a tick, then the new versions of the games that moved), however many
pages follow them; each page waits on its game's ``Feed`` and writes the events it has not
sent. A page that comes back with ``Last-Event-ID`` first reads the versions it missed from
the store (``game_versions``, written with every change), then follows the feed: nothing
missed, nothing twice (it sends only versions above the last one it sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from bot.service import GameService, ServiceError
from bot.store import VersionRow

log = logging.getLogger("bot.web")

POLL_SECONDS = 1.0  # how often the store is asked whether the followed games moved
KEPT = 256  # versions a feed keeps for pages that fall a little behind


class Feed:
    """A followed game: its latest versions as the hub found them, and a way to wait for
    the next."""

    def __init__(self, game_id: int, version: int) -> None:
        self.game_id = game_id
        self.version = version  # the latest version the hub has seen
        self.rows: list[VersionRow] = []
        self.watchers = 0
        self._changed = asyncio.Event()

    def add(self, rows: list[VersionRow]) -> None:
        fresh = [r for r in rows if r.version > self.version]
        if not fresh:
            return
        self.rows = (self.rows + fresh)[-KEPT:]
        self.version = fresh[-1].version
        self.wake()

    def wake(self) -> None:
        """Let every page that waits on this game look again."""
        self._changed.set()
        self._changed = asyncio.Event()

    def after(self, version: int) -> list[VersionRow] | None:
        """The kept versions after ``version``; None when some of them are no longer kept
        (the page reads them from the store)."""
        if version >= self.version:
            return []
        if not self.rows or self.rows[0].version > version + 1:
            return None
        return [r for r in self.rows if r.version > version]

    async def wait(self, timeout: float) -> None:
        """Until the hub finds a new version, or ``timeout`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)


class Hub:
    """The one poller of a process's followed games."""

    def __init__(self, service: GameService, *, poll: float = POLL_SECONDS) -> None:
        self.service = service
        self.poll = poll
        self.feeds: dict[int, Feed] = {}
        self.closed = False  # the application stops: every stream ends
        self._task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def follow(self, game_id: int, version: int) -> AsyncIterator[Feed]:
        """Follow a game while the block runs (its feed starts at ``version`` if new)."""
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = Feed(game_id, version)
        feed.watchers += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="web-hub")
        try:
            yield feed
        finally:
            feed.watchers -= 1
            if feed.watchers == 0 and self.feeds.get(game_id) is feed:
                del self.feeds[game_id]

    async def close(self) -> None:
        """End every stream (their browsers come back to the next process) and the poller."""
        self.closed = True
        for feed in list(self.feeds.values()):
            feed.wake()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while self.feeds:
            try:
                await self.tick()
            except ServiceError as exc:  # the store is away a moment: the next tick
                log.warning("web: the followed games could not be read (%s)", exc.code)
            await asyncio.sleep(self.poll)

    async def tick(self) -> None:
        """One look at the store for every followed game."""
        feeds = dict(self.feeds)
        if not feeds:
            return
        latest = await self.service.latest_versions(sorted(feeds))
        for game_id, version in latest.items():
            feed = feeds[game_id]
            if version > feed.version:
                feed.add(await self.service.page_versions(game_id, feed.version))
