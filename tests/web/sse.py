"""Reading a page's server-sent events in tests, as a browser's EventSource does."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from aiohttp import ClientResponse


@dataclass(frozen=True)
class Sent:
    """One event: its ``id:`` and its data."""

    id: int
    data: dict[str, Any]


async def next_event(response: ClientResponse, timeout: float = 10.0) -> Sent:
    """The next event of the stream (comments and ``retry:`` lines skipped)."""
    async def read() -> Sent:
        ident: int | None = None
        data = ""
        while True:
            line = (await response.content.readline()).decode()
            if line == "":
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith("id: "):
                ident = int(line[4:])
            elif line.startswith("data: "):
                data += line[6:]
            elif line == "" and ident is not None:
                return Sent(ident, json.loads(data))
    return await asyncio.wait_for(read(), timeout)


async def events_until(response: ClientResponse, version: int,
                       timeout: float = 20.0) -> list[Sent]:
    """Every event up to and including ``version``."""
    got: list[Sent] = []
    while not got or got[-1].id < version:
        got.append(await next_event(response, timeout))
    return got
