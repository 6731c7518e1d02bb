"""Which process delivers a channel's posts: one at a time, across processes (a rolling
deploy, overlapping shards, two processes on one PostgreSQL would otherwise group catch-ups
differently, under nonces Discord cannot match, and DM twice).

A worker takes the channel's lease (``bot.store.leases``: one compare-and-set) under a
token of its own, ``<owner>:<n>``, the owner naming this process; all of this process's
leases are renewed together, in one statement, while any worker runs; a worker lets its
lease go when it ends, and ``close`` lets them all go at once (bounded: a lease another
process waits for runs out anyway). The deliverer (``delivery.worker``) decides what to do when a
lease is held elsewhere.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence

from bot.service import LEASE_SECONDS, GameService

log = logging.getLogger(__name__)

RELEASE_WAIT = 1.0  # seconds a stopping process waits to let its leases go
# A channel another worker holds is tried again after ¼ s, doubling, 5 times (a holder that
# is just done lets it go), then left to the holder and the periodic pass.
LEASE_RETRY, LEASE_TRIES = 0.25, 5


class Taking(enum.Enum):
    """What became of a worker's try to take its channel's lease."""

    HELD = "held"  # the worker holds it now
    DELIVERED = "delivered"  # another worker holds it, and delivered the posts meanwhile
    ELSEWHERE = "elsewhere"  # another worker holds it still: the posts are its to deliver
    FAILED = "failed"  # the store failed: the posts wait for the next pass


class ChannelLeases:
    """This process's leases on channels (see the module docstring). ``busy`` tells whether
    any worker still runs (the renewal stops when none does)."""

    def __init__(self, service: GameService, busy: Callable[[], bool]) -> None:
        self.service = service
        self.busy = busy
        self.owner = uuid.uuid4().hex[:12]  # this process, in its workers' lease tokens
        self._made = 0  # tokens made
        self._renewing: asyncio.Task[None] | None = None
        self._letting_go: dict[int, asyncio.Event] = {}  # a worker here lets its lease go
        self._closed = False

    def token(self) -> str:
        """A new worker's token."""
        self._made += 1
        return f"{self.owner}:{self._made}"

    async def after_last(self, channel: int) -> None:
        """Wait until this process's last worker in the channel has let its lease go (a new
        one starts as soon as the last one left the channel idle)."""
        before = self._letting_go.get(channel)
        if before is not None:
            await before.wait()

    async def take(self, channel: int, token: str) -> bool:
        """Take the channel's lease; True if this worker holds it now. Raises the store's
        errors."""
        if not await self.service.take_lease(channel, token):
            return False
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.create_task(self._renew(), name="outbox-leases")
        return True

    async def take_or_wait(self, channel: int, token: str,
                           waiting: Callable[[], Awaitable[Sequence[object]]],
                           pause: Callable[[float], Awaitable[None]]) -> Taking:
        """Take the channel's lease under ``token``, trying again a few times (``pause``
        between tries) while another worker holds it and posts are ``waiting``."""
        wait = LEASE_RETRY
        for _ in range(LEASE_TRIES):
            try:
                if await self.take(channel, token):
                    return Taking.HELD
                if not await waiting():
                    return Taking.DELIVERED
            except Exception as exc:  # the store: the posts stay for the next pass
                log.warning("channel %s: could not take its lease: %s", channel, exc)
                return Taking.FAILED
            await pause(wait)
            wait *= 2
        return Taking.ELSEWHERE

    async def let_go(self, channel: int, token: str) -> None:
        """A worker is done: the channel is free for whichever worker comes next, here or
        in another process (a failure is only logged: the lease runs out)."""
        if self._closed:  # (close lets every lease go at once)
            return
        done = self._letting_go[channel] = asyncio.Event()
        try:
            await self.service.release_lease(channel, token)
        except Exception as exc:
            log.warning("channel %s: could not let its lease go (it runs out): %s",
                        channel, exc)
        finally:
            done.set()
            if self._letting_go.get(channel) is done:
                del self._letting_go[channel]

    def stop(self) -> None:
        """The deliverer stops: workers ending now leave their leases to ``close``."""
        self._closed = True

    async def close(self) -> None:
        """Stop renewing and let every lease of this process go (bounded: a store closed
        first may never answer; the leases run out)."""
        self.stop()
        if self._renewing is not None:
            self._renewing.cancel()
            await asyncio.gather(self._renewing, return_exceptions=True)
        if self._made:  # another process may take the channels over at once
            try:
                await asyncio.wait_for(self.service.release_leases(self.owner + ":"),
                                       RELEASE_WAIT)
            except Exception as exc:
                log.warning("could not let the outbox's leases go (they run out): %r", exc)

    async def _renew(self) -> None:
        """Renew this process's leases while any worker runs (one statement for all)."""
        while not self._closed:
            await asyncio.sleep(LEASE_SECONDS / 3)
            if not self.busy():
                return
            try:
                await self.service.renew_leases(self.owner + ":")
            except Exception as exc:
                log.warning("could not renew the outbox's leases: %s", exc)
