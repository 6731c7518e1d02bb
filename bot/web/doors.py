"""The limits at the pages' doors: how often one client (an address) and one game's link
may ask for pictures or a file's check or send moves from a seat page (token buckets), and
how many event streams one client and all together may hold open. A refusal says how many
seconds to wait (``Retry-After``).

Written here rather than taken from a library: ``limits``' memory store starts a timer
thread on every hit and reads the wall clock, ``aiolimiter`` waits instead of refusing and
keeps no keys; these buckets are O(1) a request on the event loop, forget the least recently
seen keys past a bound, and read an injected clock (so the tests never sleep).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

KEYS = 10_000  # clients (or links) remembered per bucket kind; the least recent are forgotten


@dataclass
class _Bucket:
    tokens: float
    at: float


class Buckets:
    """A token bucket per key: ``burst`` requests at once, then ``per_minute`` a minute."""

    def __init__(self, per_minute: float, burst: int, *,
                 clock: Callable[[], float] = time.monotonic, keys: int = KEYS) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self.keys = keys
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def take(self, key: str) -> float:
        """Take one token for ``key``: 0.0 when granted, else the seconds until one is
        there (the request is refused)."""
        if self.rate <= 0:
            return 0.0  # no limit
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.burst, now)
            while len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


class Refused(Exception):
    """A request over a limit: 429 (this client or link) or 503 (everyone's), and when to
    come back."""

    def __init__(self, status: int, seconds: float) -> None:
        super().__init__(status, seconds)
        self.status = status
        self.retry_after = max(1, math.ceil(seconds))


class Streams:
    """The open event streams: at most ``per_client`` for one client, ``total`` in all."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self.open: dict[str, int] = {}
        self.count = 0

    def enter(self, client: str) -> None:
        """Count one more stream of ``client``; raises Refused when over a cap."""
        if self.count >= self.total:
            raise Refused(503, 10)
        if self.open.get(client, 0) >= self.per_client:
            raise Refused(429, 10)
        self.open[client] = self.open.get(client, 0) + 1
        self.count += 1

    def leave(self, client: str) -> None:
        left = self.open.get(client, 0) - 1
        if left > 0:
            self.open[client] = left
        else:
            self.open.pop(client, None)
        self.count -= 1


class Doors:
    """Every limit of one application, as its options set them."""

    def __init__(self, *, pictures: float, pictures_link: float, checks: float,
                 streams_per_client: int, streams: int, acts: float = 60.0,
                 acts_link: float = 240.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pictures = Buckets(pictures, max(1, int(pictures // 2)), clock=clock)
        self.pictures_link = Buckets(pictures_link, max(1, int(pictures_link // 2)),
                                     clock=clock)
        self.checks = Buckets(checks, max(1, int(checks // 2)), clock=clock)
        self.streams = Streams(streams_per_client, streams)
        self.acts = Buckets(acts, max(1, int(acts // 2)), clock=clock)
        self.acts_link = Buckets(acts_link, max(1, int(acts_link // 2)), clock=clock)

    def picture(self, client: str, link: str) -> None:
        """A picture for ``client`` of the game behind ``link``; raises Refused (429)."""
        wait = self.pictures.take(client) or self.pictures_link.take(link)
        if wait:
            raise Refused(429, wait)

    def check(self, client: str) -> None:
        wait = self.checks.take(client)
        if wait:
            raise Refused(429, wait)

    def act(self, client: str, link: str) -> None:
        """A move from a seat page of ``client`` in the game behind ``link``; raises
        Refused (429) before any work."""
        wait = self.acts.take(client) or self.acts_link.take(link)
        if wait:
            raise Refused(429, wait)
