"""The whole suite's settings: how many pytest-xdist workers ``-n auto`` starts.

The suite mostly waits: on sockets (the fake Discord, PostgreSQL, the pages), on bot
processes starting, on discord.py's own retries. Measured with ``-n 0`` on the 2-core
development machine, a Discord-layer file used about a third of a core for its wall time
(tests/bot/test_discord_outages.py: 43 s of CPU in 156 s), so one worker per core leaves
the cores mostly idle. ``-n auto`` therefore starts two workers per core (at most 16);
``PYTEST_XDIST_AUTO_NUM_WORKERS`` still overrides it, and ``-n N`` sets it outright.
"""

from __future__ import annotations

import os

import pytest

WORKERS_PER_CORE = 2
MAX_WORKERS = 16  # each worker starts a PostgreSQL server of its own (tests/pgserver.py)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    return min(MAX_WORKERS, WORKERS_PER_CORE * cores)
