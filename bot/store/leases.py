"""Leases: at most one deliverer per channel across processes (a rolling deploy, shards
that overlap, two processes on one PostgreSQL). A process delivers a channel's posts only
while it holds the channel's row here: taken with one compare-and-set statement (free, its
own, or expired), renewed while its worker runs, let go when it ends. A process that died
holding one loses it at ``until``: another takes the channel over then.

The times are the processes' clocks (they agree within seconds; a lease lasts a minute).
"""

from __future__ import annotations

from bot.store.backend import Backend


class LeaseQueries(Backend):
    """The channels' leases, over the backend's primitives (both stores)."""

    async def take_lease(self, channel_id: int, owner: str, now: float, until: float) -> bool:
        """Hold the channel until ``until`` if nobody else does (no row, ``owner``'s own,
        or one expired at ``now``); True if ``owner`` holds it now."""
        return await self._execute(
            "INSERT INTO leases (channel_id, owner, until) VALUES (?, ?, ?) "
            "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, "
            "until = excluded.until WHERE leases.owner = excluded.owner "
            "OR leases.until <= ?", (channel_id, owner, until, now)) == 1

    async def renew_leases(self, prefix: str, until: float) -> int:
        """Every lease whose owner starts with ``prefix`` (one process's) lasts until
        ``until`` now; how many there are."""
        return await self._execute("UPDATE leases SET until = ? WHERE owner LIKE ?",
                                   (until, prefix + "%"))

    async def release_lease(self, channel_id: int, owner: str) -> None:
        """``owner`` is done with the channel (nothing if it no longer held it)."""
        await self._execute("DELETE FROM leases WHERE channel_id = ? AND owner = ?",
                            (channel_id, owner))

    async def release_leases(self, prefix: str) -> None:
        """A process stops: every lease it holds is let go at once."""
        await self._execute("DELETE FROM leases WHERE owner LIKE ?", (prefix + "%",))

    async def lease_owner(self, channel_id: int) -> str | None:
        """Who holds the channel (tests)."""
        rows = await self._fetch(lambda r: str(r[0]), "SELECT owner FROM leases "
                                 "WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else None
