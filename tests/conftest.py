"""The whole suite's settings: how many pytest-xdist workers ``-n auto`` starts.

The suite mostly waits: on sockets (the fake Discord, PostgreSQL, the pages), on bot
processes starting, on discord.py's own retries. Measured with ``-n 0`` on the 2-core
development machine, a Discord-layer file used about a third of a core for its wall time
(tests/bot/test_discord_outages.py: 43 s of CPU in 156 s), so one worker per core leaves
the cores mostly idle. ``-n auto`` therefore starts two workers per core (at most 16);
``PYTEST_XDIST_AUTO_NUM_WORKERS`` still overrides it, and ``-n N`` sets it outright.

And where a run keeps its temporary files: a folder of its own (``RUNS``), not pytest's
numbered ``/tmp/pytest-of-<user>/pytest-<n>``, whose clean-up at the start of every run
removed the folders of a run still going beside it (two worktrees tested at once: its
PostgreSQL servers' data went, and every test after failed). A run's folder is removed
by a later run once its process is gone, the newest few kept to look at.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

WORKERS_PER_CORE = 2
MAX_WORKERS = 16  # each worker starts a PostgreSQL server of its own (tests/pgserver.py)
RUNS = Path(tempfile.gettempdir()) / f"sanmarco-tests-{os.getuid()}"
KEEP_RUNS = 3  # finished runs' folders kept (failures' screenshots and logs)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Give a run (its controller: xdist's workers inherit it) a folder of its own unless
    ``--basetemp`` names one."""
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    RUNS.mkdir(exist_ok=True)
    _forget_finished_runs()
    config.option.basetemp = str(RUNS / f"run-{int(time.time())}-{os.getpid()}")


def _forget_finished_runs() -> None:
    """Remove the folders of runs whose process is gone, but the newest ``KEEP_RUNS``."""
    finished = []
    for run in RUNS.glob("run-*-*"):
        try:
            pid = int(run.name.rsplit("-", 1)[1])
            os.kill(pid, 0)
        except ProcessLookupError:
            finished.append(run)
        except (ValueError, PermissionError):
            continue
    for run in sorted(finished, key=lambda r: r.stat().st_mtime)[:-KEEP_RUNS]:
        shutil.rmtree(run, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    return min(MAX_WORKERS, WORKERS_PER_CORE * cores)
