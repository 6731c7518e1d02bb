"""Which process delivers a channel's posts: one at a time, across processes (a rolling
deploy, overlapping shards, two processes on one PostgreSQL would otherwise group catch-ups
differently, under nonces Discord cannot match, and DM twice).

A worker takes the channel's lease (``bot.store.leases``: one compare-and-set, timed by the
database's clock) under a token of its own, ``<owner>:<n>``, the owner naming this process
and the token never reused: the token is the worker's **fence**. Every step it sends is
marked sent only under it (``posts_sent(lease=...)``: checked in the transaction that lets
the posts go, nothing written if the lease is no longer the worker's), and before each step
the worker asks ``Lease.held``:

- the running workers' leases are renewed together, in one statement, every third of a
  lease; a lease the renewal finds taken over or run out, or every lease when the renewal
  fails, is **lost**: its worker stops before its next send;
- a lease is held, as far as this process knows, for its length (``LEASE_SECONDS``
  unless the deliverer is given another) from the start of
  the last statement that took or renewed it (measured on the event loop's monotonic
  clock: a duration, never a time compared with another host's), so a renewal that hangs
  stops the worker too, before the database lets another process take the channel.

A worker lets its lease go when it ends; a release that fails is only logged and tried
again (at the channel's next take and at each renewal), and is never renewed meanwhile: it
runs out by itself. ``close`` lets them all go at once (bounded). The deliverer
(``delivery.worker``) decides what to do when a lease is held elsewhere or lost.
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
# A channel another worker holds is tried again after a 40th of a lease (¼ s), doubling,
# 5 times (a holder that is just done lets it go), then left to the holder and the
# periodic pass.
LEASE_RETRY_SHARE, LEASE_TRIES = 1 / 40, 5
# A lease counts as held here for this share of its length from the start of the statement
# that took or renewed it (the database's own clock starts it a little later).
HELD_SHARE = 0.9


class Lease:
    """One worker's hold on its channel: ``token`` is its fence (see the module
    docstring)."""

    def __init__(self, channel: int, token: str, since: float,
                 seconds: float = LEASE_SECONDS) -> None:
        self.channel = channel
        self.token = token
        self.lost = False
        self.seconds = seconds
        self._until = since + seconds * HELD_SHARE  # on the event loop's clock

    @property
    def held(self) -> bool:
        """Whether the worker may send its next step."""
        return not self.lost and asyncio.get_running_loop().time() < self._until

    def renewed(self, since: float) -> None:
        self._until = since + self.seconds * HELD_SHARE


class Taking(enum.Enum):
    """Why a worker did not take its channel's lease."""

    DELIVERED = "delivered"  # another worker holds it, and delivered the posts meanwhile
    ELSEWHERE = "elsewhere"  # another worker holds it still: the posts are its to deliver
    FAILED = "failed"  # the store failed: the posts wait for the next pass


class ChannelLeases:
    """This process's leases on channels (see the module docstring), each ``seconds``
    long (the tests shorten them)."""

    def __init__(self, service: GameService, seconds: float = LEASE_SECONDS) -> None:
        self.service = service
        self.seconds = seconds
        self.owner = uuid.uuid4().hex[:12]  # this process, in its workers' lease tokens
        self._made = 0  # tokens made
        self._held: dict[str, Lease] = {}  # the running workers' leases, by token
        self._stale: dict[int, str] = {}  # a lease whose release failed, by channel
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

    async def take(self, channel: int, token: str) -> Lease | None:
        """Take the channel's lease; the worker's lease if it holds it now. Raises the
        store's errors."""
        await self._release_stale(channel)
        since = asyncio.get_running_loop().time()
        if not await self.service.take_lease(channel, token, self.seconds):
            return None
        lease = self._held[token] = Lease(channel, token, since, self.seconds)
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.create_task(self._renew(), name="outbox-leases")
        return lease

    async def take_or_wait(self, channel: int, token: str,
                           waiting: Callable[[], Awaitable[Sequence[object]]],
                           pause: Callable[[float], Awaitable[None]]) -> Lease | Taking:
        """Take the channel's lease under ``token``, trying again a few times (``pause``
        between tries) while another worker holds it and posts are ``waiting``."""
        wait = self.seconds * LEASE_RETRY_SHARE
        for _ in range(LEASE_TRIES):
            try:
                lease = await self.take(channel, token)
                if lease is not None:
                    return lease
                if not await waiting():
                    return Taking.DELIVERED
            except Exception as exc:  # the store: the posts stay for the next pass
                log.warning("channel %s: could not take its lease: %s", channel, exc)
                return Taking.FAILED
            await pause(wait)
            wait *= 2
        return Taking.ELSEWHERE

    async def left(self, channel: int) -> float:
        """Seconds until another worker's lease on the channel runs out, by the database's
        clock (when to look again: a dead holder's channel is taken over then)."""
        try:
            left = await self.service.lease_left(channel)
        except Exception as exc:  # the store: look again after a lease's length
            log.warning("channel %s: could not read its lease: %s", channel, exc)
            return self.seconds
        return self.seconds if left is None else min(self.seconds, max(0.0, left))

    async def let_go(self, lease: Lease) -> None:
        """A worker is done: the channel is free for whichever worker comes next, here or
        in another process. A failure is logged and tried again later; the lease is not
        renewed meanwhile (it runs out)."""
        lease.lost = True
        self._held.pop(lease.token, None)
        if self._closed:  # (close lets every lease go at once)
            return
        channel = lease.channel
        done = self._letting_go[channel] = asyncio.Event()
        try:
            await self._release(channel, lease.token)
        finally:
            done.set()
            if self._letting_go.get(channel) is done:
                del self._letting_go[channel]

    async def _release(self, channel: int, token: str) -> None:
        try:
            await self.service.release_lease(channel, token)
        except Exception as exc:
            self._stale[channel] = token
            log.warning("channel %s: could not let its lease go (it runs out within %g s, "
                        "and is let go again then): %s", channel, self.seconds, exc)
        else:
            if self._stale.get(channel) == token:
                del self._stale[channel]

    async def _release_stale(self, channel: int | None = None) -> None:
        """Let go again the leases whose release failed (one channel's, or all)."""
        for stale, token in list(self._stale.items()):
            if channel is None or stale == channel:
                await self._release(stale, token)

    def stop(self) -> None:
        """The deliverer stops: workers ending now leave their leases to ``close``."""
        self._closed = True

    async def close(self) -> None:
        """Stop renewing and let every lease of this process go (bounded: a store closed
        first may never answer; the leases run out)."""
        self.stop()
        for lease in self._held.values():
            lease.lost = True
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
        """Renew the running workers' leases (one statement for all) while any runs; a
        lease not renewed is lost (module docstring)."""
        loop = asyncio.get_running_loop()
        while not self._closed:
            await asyncio.sleep(self.seconds / 3)
            if self._stale:
                await self._release_stale()
            held = list(self._held.values())
            if not held:
                return
            since = loop.time()
            try:
                renewed = set(await self.service.renew_leases([h.token for h in held],
                                                              self.seconds))
            except Exception as exc:
                renewed = set()
                log.warning("could not renew the outbox's leases (their workers stop; "
                            "the channels are taken again): %s", exc)
            for lease in held:
                if lease.token in renewed:
                    lease.renewed(since)
                elif not lease.lost:
                    lease.lost = True
                    log.info("channel %s: its lease is no longer this worker's; it stops",
                             lease.channel)
