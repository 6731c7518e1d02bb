"""The worker lanes: executors, the side lane's bounded queues and budgets, ``Busy``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import heapq
import itertools
import math
import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TypeVar

from bot.metrics import WORK_REFUSED, WORK_SECONDS

R = TypeVar("R")

SIDE_THREADS = 2  # side jobs at once when the lane has no processes (threads of the bot)
NICE = 10  # the side lane's processes yield the cores to the bot and its Discord lane


@dataclass(frozen=True)
class Kind:
    """A kind of job: ``side`` its lane (False: Discord's own, never refused); at most
    ``queue`` jobs of the kind waiting or running; ``budget`` seconds a job may wait to
    start before it is refused (``Busy``); ``priority`` orders the side lane's waiting
    jobs (smaller first: a player waiting in Discord before a page's picture)."""

    name: str
    side: bool = True
    queue: int = 8
    budget: float = 2.0
    priority: int = 1


DISCORD = Kind("discord", side=False)  # the outbox's pictures, the computers' thinking
HINT = Kind("hint", queue=4, budget=3.0, priority=0)
REVIEW = Kind("review", queue=2, budget=3.0, priority=0)
REPLAY = Kind("replay", queue=6, budget=3.0, priority=1)
CHECK = Kind("check", queue=2, budget=2.0, priority=2)
PICTURE = Kind("picture", queue=8, budget=2.0, priority=2)
RATING = Kind("rating", queue=4, budget=3.0, priority=1)  # a leaderboard of listed games


class Busy(Exception):
    """A job of ``kind`` could not start within its budget (or its queue was full): nothing
    was done; ask again in ``retry_after`` seconds."""

    def __init__(self, kind: str, retry_after: int) -> None:
        super().__init__(f"{kind} work is busy: retry after {retry_after} s")
        self.kind = kind
        self.retry_after = retry_after


def default_processes() -> int:
    """Side-lane processes by default: one on a machine with two or more cores, else none
    (threads of the bot's process)."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


def _lower_priority() -> None:
    """A side process's initializer: below the bot and its Discord lane."""
    try:
        os.nice(NICE)
    except OSError:  # not allowed here: same priority, still off the loop
        pass


class _Gate:
    """``slots`` jobs at once; the waiting ones start by priority, then in order."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def waiting(self) -> int:
        return sum(1 for _, _, f in self._waiting if not f.done())

    async def acquire(self, priority: int) -> None:
        if self.free > 0 and not self.waiting():
            self.free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release()  # given a slot as it gave up: pass it on
            raise

    def release(self) -> None:
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(None)
                return
        self.free += 1


class _Lane:
    """One lane's executor (processes, else threads), made when first used."""

    def __init__(self, processes: int, threads: int, *, low: bool) -> None:
        self.processes = processes
        self.threads = threads
        self.low = low
        self.gate = _Gate(processes or threads or 1)
        self._executor: concurrent.futures.Executor | None = None

    @property
    def executor(self) -> concurrent.futures.Executor | None:
        """The lane's executor (None: a Discord lane without processes uses the loop's
        default thread pool, as before)."""
        if self._executor is None:
            if self.processes > 0:
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority if self.low else None)
            elif self.threads > 0:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    self.threads, thread_name_prefix="sm-work")
        return self._executor

    def broken(self) -> None:
        """A worker process died: a fresh pool next time."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class Workers:
    """The bot's worker lanes. ``discord_processes``: processes drawing the outbox's board
    pictures (0: the loop's thread pool); ``side_processes``: processes for pages, hints,
    reviews and ``/check`` (0: ``SIDE_THREADS`` threads). Pools start when first used."""

    def __init__(self, discord_processes: int = 0, side_processes: int = 0) -> None:
        self._discord = _Lane(discord_processes, 0, low=False)
        self._side = _Lane(side_processes, SIDE_THREADS, low=True)
        self._queued: Counter[str] = Counter()
        self._mean: dict[str, float] = {}
        self.done: Counter[str] = Counter()  # jobs finished, by kind
        self.refused: Counter[str] = Counter()  # Busy raised, by kind

    @property
    def side_processes(self) -> int:
        return self._side.processes

    def close(self) -> None:
        self._discord.close()
        self._side.close()

    async def run(self, kind: Kind, fn: Callable[..., R], *args: object) -> R:
        """``fn(*args)`` in ``kind``'s lane; a side job that cannot start within its budget
        (or finds its kind's queue full) raises ``Busy`` and is not run."""
        loop = asyncio.get_running_loop()
        lane = self._side if kind.side else self._discord
        if not kind.side:
            return await self._call(kind, lane, loop.run_in_executor(lane.executor, fn, *args))
        if self._queued[kind.name] >= kind.queue:
            raise self._busy(kind, lane)
        self._queued[kind.name] += 1
        try:
            try:
                async with asyncio.timeout(kind.budget):
                    await lane.gate.acquire(kind.priority)
            except TimeoutError:
                raise self._busy(kind, lane) from None
            try:
                executor = lane.executor
                assert executor is not None  # a side lane always has processes or threads
                job = executor.submit(fn, *args)
            except BaseException as exc:
                lane.gate.release()
                if isinstance(exc, BrokenProcessPool):
                    lane.broken()  # a worker died: a fresh pool for the next job
                raise
            job.add_done_callback(lambda _: _soon(loop, lane.gate.release))
            return await self._call(kind, lane, asyncio.wrap_future(job))
        finally:
            self._queued[kind.name] -= 1

    async def _call(self, kind: Kind, lane: _Lane, job: asyncio.Future[R]) -> R:
        started = time.perf_counter()
        try:
            result = await job
        except BrokenProcessPool:
            lane.broken()
            raise
        took = time.perf_counter() - started
        WORK_SECONDS.labels(kind.name).observe(took)
        self._mean[kind.name] = 0.8 * self._mean.get(kind.name, took) + 0.2 * took
        self.done[kind.name] += 1
        return result

    def _busy(self, kind: Kind, lane: _Lane) -> Busy:
        """Refused: in about the time the jobs ahead take, there is room again."""
        self.refused[kind.name] += 1
        WORK_REFUSED.labels(kind.name).inc()
        ahead = lane.gate.waiting() + 1
        slots = max(lane.processes or lane.threads, 1)
        guess = self._mean.get(kind.name, kind.budget) * ahead / slots
        return Busy(kind.name, min(max(math.ceil(guess), 1), 30))


def _soon(loop: asyncio.AbstractEventLoop, fn: Callable[[], None]) -> None:
    """``fn`` on ``loop`` from a worker's thread (nothing if the loop is gone)."""
    try:
        loop.call_soon_threadsafe(fn)
    except RuntimeError:  # the loop closed: nobody waits for the slot any more
        pass
