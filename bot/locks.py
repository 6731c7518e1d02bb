"""One asyncio lock per key (a channel), kept only while someone holds or waits for it.

A dict of locks that only grows holds one lock per channel ever used (100,000 channels:
16.5 MiB); here a key's lock is dropped when its last user leaves, so memory follows the
channels busy right now. No Discord types: the service and the adapter share it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class LockTimeout(TimeoutError):
    """A key's lock was not free within the timeout (raised only while waiting for it,
    never for what happens while it is held)."""


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holding or waiting


class KeyedLocks(Generic[K]):
    """``async with locks(key):`` — one holder per key at a time, in arrival order."""

    def __init__(self) -> None:
        self._entries: dict[K, _Entry] = {}

    def __len__(self) -> int:
        """How many keys have a lock now (held or waited for)."""
        return len(self._entries)

    @asynccontextmanager
    async def __call__(self, key: K, timeout: float | None = None) -> AsyncIterator[None]:
        """Hold ``key``'s lock; with ``timeout``, raise LockTimeout if it is not free
        within that many seconds (the holder keeps it)."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            try:
                await asyncio.wait_for(entry.lock.acquire(), timeout)
            except TimeoutError:
                raise LockTimeout(key) from None
            try:
                yield
            finally:
                entry.lock.release()
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]
