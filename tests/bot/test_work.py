"""The worker lanes (``bot.work``, issue 36): CPU work runs in another process while the
event loop keeps turning; a side job that cannot start within its budget, or finds its
kind's queue full, is refused ``Busy`` (and not run); the waiting jobs start by priority;
Discord's own lane never waits behind the side lane."""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from bot.computers import EngineComputers
from bot.service import GameService
from bot.store import SQLiteStore
from bot.work import DISCORD, HINT, PICTURE, Busy, Kind, Workers
from engine import Action, GameState

pytestmark = pytest.mark.asyncio

GATE = threading.Event()  # the blocking jobs wait for it (threads only)
SLOW = Kind("slow", queue=10, budget=60.0)


def burn(rounds: int) -> int:
    """Seconds of a core's work (a process of the side lane): returns who did it."""
    total = 0
    for i in range(rounds):
        total += i * i % 7
    return os.getpid()


def blocked(tag: str) -> str:
    """Holds a worker thread until ``GATE`` opens."""
    GATE.wait(30)
    return tag


async def _fill(work: Workers, slots: int = 2) -> list[asyncio.Task[str]]:
    """Both side threads held by blocking jobs (started, not waiting)."""
    GATE.clear()
    tasks = [asyncio.create_task(work.run(SLOW, blocked, f"b{i}")) for i in range(slots)]
    for _ in range(100):
        await asyncio.sleep(0)
    return tasks


async def test_a_job_burns_cpu_in_another_process_while_the_loop_turns() -> None:
    work = Workers(side_processes=1)
    try:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.005)
                ticks += 1

        ticker = asyncio.create_task(tick())
        before = ticks
        pid = await work.run(HINT, burn, 3_000_000)
        ticker.cancel()
        assert pid != os.getpid()  # the work ran in a worker process, not the bot's
        assert ticks > before  # and the loop went on turning meanwhile
        assert work.done["hint"] == 1
    finally:
        work.close()


async def test_a_full_queue_is_refused_busy_at_once_and_nothing_runs() -> None:
    work = Workers()
    one = Kind("one", queue=1, budget=60.0)
    held = await _fill(work)
    first = asyncio.create_task(work.run(one, blocked, "waits"))
    await asyncio.sleep(0)
    with pytest.raises(Busy) as refused:
        await work.run(one, blocked, "refused")
    assert refused.value.kind == "one" and refused.value.retry_after >= 1
    assert work.refused["one"] == 1
    GATE.set()
    assert await first == "waits"
    assert sorted(await asyncio.gather(*held)) == ["b0", "b1"]
    assert await work.run(one, blocked, "later") == "later"  # room again
    work.close()


async def test_a_job_that_cannot_start_within_its_budget_is_busy() -> None:
    work = Workers()
    quick = Kind("quick", queue=5, budget=0.05)
    held = await _fill(work)
    with pytest.raises(Busy) as refused:
        await work.run(quick, blocked, "never")
    assert 1 <= refused.value.retry_after <= 30
    GATE.set()
    await asyncio.gather(*held)
    assert await work.run(quick, blocked, "now") == "now"
    work.close()


STARTED: list[str] = []  # the jobs that began (in the lane's threads), in order
LATER = threading.Event()  # what ``recorded`` jobs wait for once begun


def recorded(tag: str) -> str:
    """Says it began, then holds its thread until ``LATER`` opens."""
    STARTED.append(tag)
    LATER.wait(30)
    return tag


async def test_waiting_hints_start_before_waiting_page_pictures() -> None:
    """Two pictures wait, then a hint; two threads free up: the hint and the first picture
    begin, the second picture (asked before the hint) still waits. Which began is read
    while the begun jobs are held, so the threads' timing cannot reorder it."""
    work = Workers()
    held = await _fill(work)
    STARTED.clear()
    LATER.clear()
    # their priorities, with budgets no loaded machine runs out of
    picture, hint_ = replace(PICTURE, budget=120.0), replace(HINT, budget=120.0)
    first = asyncio.create_task(work.run(picture, recorded, "picture 1"))
    second = asyncio.create_task(work.run(picture, recorded, "picture 2"))
    for _ in range(100):
        await asyncio.sleep(0)
    hint = asyncio.create_task(work.run(hint_, recorded, "hint"))  # asked last
    for _ in range(100):
        await asyncio.sleep(0)
    GATE.set()
    await asyncio.gather(*held)
    for _ in range(3000):  # both freed threads begin a waiting job
        if len(STARTED) == 2:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)  # (a third would have begun by now, were it let)
    assert sorted(STARTED) == ["hint", "picture 1"]
    LATER.set()
    assert await asyncio.gather(first, second, hint) == ["picture 1", "picture 2", "hint"]
    assert STARTED[-1] == "picture 2"
    work.close()


async def test_discords_own_lane_never_waits_behind_the_side_lane() -> None:
    work = Workers()
    held = await _fill(work)
    waiting = asyncio.create_task(work.run(PICTURE, blocked, "waits"))
    await asyncio.sleep(0.01)
    assert await work.run(DISCORD, burn, 10) == os.getpid()  # a thread here: no process
    assert not waiting.done()
    GATE.set()
    await asyncio.gather(waiting, *held)
    work.close()


def die() -> None:
    """A worker process that dies mid-job (killed, out of memory)."""
    os._exit(3)


async def test_a_dead_worker_process_fails_its_job_and_the_next_gets_a_fresh_one() -> None:
    from concurrent.futures.process import BrokenProcessPool

    work = Workers(side_processes=1)
    try:
        with pytest.raises(BrokenProcessPool):
            await work.run(PICTURE, die)
        assert await work.run(PICTURE, burn, 10) != os.getpid()
    finally:
        work.close()


class WhereComputers(EngineComputers):
    """The real computer players, noting in a file the process each move was thought in
    (a file: the move is thought in another process, which shares no memory)."""

    def __init__(self, notes: Path) -> None:
        super().__init__()
        self.notes = notes

    def choose(self, state: GameState, pid: str, level: str | None = None) -> Action:
        with self.notes.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return super().choose(state, pid, level)


async def test_a_computers_move_is_thought_in_a_worker_process(tmp_path: Path) -> None:
    """DESIGN "CPU work and limits": the bot's loop only waits. With a process in Discord's
    lane (the bot's configured render workers), the computer players' moves — at a game's
    start, after a human's move, and its undo's replay — are computed there, not on the
    bot's process, and the loop keeps turning meanwhile."""
    notes = tmp_path / "thought-in.txt"
    store = await SQLiteStore.open(tmp_path / "g.db", synchronous="NORMAL")
    service = GameService(store, computers=WhereComputers(notes))
    service.work = Workers(discord_processes=1)
    ticks = 0

    async def turn() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    ticker = asyncio.create_task(turn())
    try:
        await service.create_lobby(1, 10, "111", seats=3, name="Ann")
        await service.start(10, "111", fill_with_computers=True)
        for _ in range(40):  # the human moves until the computers have moved after them
            if notes.exists():
                break
            legal = await service.legal_actions(10, "111")
            await service.act(10, "111", legal[0])
        thought = {int(line) for line in notes.read_text().split()}
        assert thought and os.getpid() not in thought  # every move thought elsewhere
        assert service.work.done["discord"] >= 1
        assert ticks > 0  # the loop turned while the worker thought
    finally:
        ticker.cancel()
        service.work.close()
        await service.close()
