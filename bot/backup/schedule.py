"""The bot's backups: a copy when the current period has none, taken in a process of its
own (replaying every game is CPU work: in a thread it would slow the event loop down
through the GIL — acts took 3× as long meanwhile on the development machine)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from bot.backup.copies import (
    Result,
    Stopped,
    copies,
    period,
    remove_tmp,
    report,
    sweep,
    take,
    tmp_path,
)
from bot.config import Backups
from bot.store import describe_target

log = logging.getLogger("bot.backup")

POLL_SECONDS = 60.0


@dataclass(frozen=True)
class Failed:
    """Why no copy was made: the error, and its traceback when it is a bug of ours (not a
    disk that is full or a folder the bot may not write)."""

    error: str
    trace: str | None = None


def _in_child(send: Connection, db_path: str, backups: Backups, now: float) -> None:
    """What the backup process runs: one copy; its Result (or Failed) sent back."""
    answer: Result | Failed
    try:
        answer = take(db_path, backups, now)
    except (OSError, sqlite3.Error) as exc:
        answer = Failed(f"{type(exc).__name__}: {exc}")
    except BaseException as exc:  # handed to the bot, which logs it with its traceback
        answer = Failed(f"{type(exc).__name__}: {exc}", traceback.format_exc())
    send.send(answer)
    send.close()


def _receive(conn: Connection) -> Result | Failed | None:
    """The child's answer; None when it died without one (killed as the bot closed)."""
    try:
        answer: Result | Failed = conn.recv()
        return answer
    except EOFError:
        return None
    finally:
        conn.close()


class Schedule:
    """The bot's backups: a copy when the current period (an hour for "24h,7d") has no
    good one, looked for at start and every minute, on ``clock`` (tests drive it and call
    ``run_once``). Each copy is taken in a spawned process (``in_thread``: a thread of
    this one, for tests that take many); the event loop only waits for its answer."""

    def __init__(self, db_path: str, backups: Backups, clock: Callable[[], float] = time.time,
                 *, poll: float = POLL_SECONDS, in_thread: bool = False) -> None:
        self.db_path = db_path
        self.backups = backups
        self.clock = clock
        self.poll = poll
        self.in_thread = in_thread
        self._tried: int | None = None  # the period of the last attempt, good or not
        self._stop = threading.Event()
        self._child: BaseProcess | None = None
        self._task: asyncio.Task[None] | None = None

    def due(self, now: float) -> bool:
        """Whether the period ``now`` falls in has no good copy yet, nor an attempt."""
        every = self.backups.every
        current = period(now, every)
        if self._tried == current:
            return False
        found = copies(self.backups.folder_for(self.db_path), self.db_path)
        return not any(period(c.taken, every) == current for c in found)

    async def run_once(self) -> Result | None:
        """Take a copy if one is due; a failure is logged (one ERROR line) and tried again
        in the next period."""
        now = self.clock()
        if not self.due(now) or self._stop.is_set():
            return None
        self._tried = period(now, self.backups.every)
        answer = await (self._in_thread(now) if self.in_thread else self._in_process(now))
        if isinstance(answer, Failed):
            log.error("backup: could not copy %s into %s (%s); trying again in the next "
                      "period%s", os.path.abspath(self.db_path),
                      self.backups.folder_for(self.db_path), answer.error,
                      f"\n{answer.trace}" if answer.trace else "")
            return None
        if answer is not None:
            report(answer)
        return answer

    async def _in_thread(self, now: float) -> Result | Failed | None:
        try:
            return await asyncio.to_thread(take, self.db_path, self.backups, now,
                                           self._stop.is_set)
        except Stopped:
            return None
        except (OSError, sqlite3.Error) as exc:
            return Failed(f"{type(exc).__name__}: {exc}")

    async def _in_process(self, now: float) -> Result | Failed | None:
        context = multiprocessing.get_context("spawn")
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_in_child, args=(send, self.db_path, self.backups, now),
                                name="sanmarco-backup", daemon=True)
        child.start()
        send.close()
        self._child = child
        answer: Result | Failed | None = None
        try:
            answer = await asyncio.to_thread(_receive, receive)
        finally:
            self._child = None
            if answer is None:
                # killed mid-copy, or the bot stopping (this task cancelled while it waited):
                # the copy ends here, and what it wrote was never a copy
                if child.is_alive():
                    child.kill()
                child.join()  # at once: a killed process
                remove_tmp(tmp_path(self.db_path, self.backups, now))
            else:
                await asyncio.to_thread(child.join)
        return answer

    def sweep(self) -> list[str]:
        """Remove the ``.tmp`` files (and their -wal, -shm) a copy cut short left behind —
        a bot killed mid-copy, or a host that went down (``copies.sweep``)."""
        gone = sweep(self.backups.folder_for(self.db_path), self.db_path)
        if gone:
            log.info("backups: removed %d file(s) of a copy cut short: %s", len(gone),
                     ", ".join(os.path.basename(p) for p in gone))
        return gone

    def start(self) -> None:
        log.info("backups: a copy every %s into %s, keeping %s (SANMARCO_BACKUP_KEEP)",
                 _every_words(self.backups.every), self.backups.folder_for(self.db_path),
                 ",".join(map(str, self.backups.keep)))
        try:
            self.sweep()
        except OSError as exc:  # the first copy says more if the folder is unusable
            log.warning("backups: could not look for copies cut short: %s", exc)
        self._task = asyncio.create_task(self._loop(), name="backups")

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("backup: the scheduled backup failed")
            await asyncio.sleep(self.poll)

    async def close(self) -> None:
        """Stop at once: a copy under way is dropped (its process killed, its ``.tmp``
        removed); the copies made stay."""
        self._stop.set()
        if self._child is not None and self._child.is_alive():
            self._child.kill()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None


def _every_words(seconds: int) -> str:
    return {3600: "hour", 86400: "day", 7 * 86400: "week"}.get(seconds, f"{seconds} s")


def schedule_for(db_path: str, database_url: str | None, backups: Backups,
                 clock: Callable[[], float] = time.time) -> Schedule | None:
    """The bot's schedule, started; None when backups are off, or the games are in
    PostgreSQL (``pg_dump`` backs that up) or in memory."""
    if not backups.on:
        log.info("backups: off (SANMARCO_BACKUP_KEEP=off)")
        return None
    if database_url is not None or db_path == ":memory:":
        log.info("backups: none made by the bot for %s (PostgreSQL: pg_dump, see README)",
                 describe_target(database_url or db_path))
        return None
    schedule = Schedule(db_path, backups, clock)
    schedule.start()
    return schedule


