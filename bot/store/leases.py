"""Leases: at most one deliverer per channel across processes (a rolling deploy, shards
that overlap, two processes on one PostgreSQL). A process delivers a channel's posts only
while it holds the channel's row here: taken with one compare-and-set statement (free, its
own, or expired), renewed while its worker runs, let go when it ends. A process that died
holding one loses it at ``until``: another takes the channel over then.

Every time here is the database's clock (``now``, epoch seconds: ``julianday('now')`` in
SQLite, ``clock_timestamp()`` in PostgreSQL), never a process's: two hosts whose clocks
differ by seconds or minutes still agree on whether a lease ran out.

Each worker's ``owner`` is a token of its own (``<process>:<n>``, never reused): it is the
**fence**. Marking posts sent (``bot.store.outbox``'s ``posts_sent``) first runs ``fence``
in its own transaction: the row must still be the worker's and unexpired, and stays locked
(PostgreSQL's row lock; SQLite's one writer) until the posts are let go, so a worker whose
lease ran out or was taken over never marks posts sent (``LeaseLost``: nothing written).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.backend import Backend
from bot.store.errors import LeaseLost
from bot.store.tx import Tx, execute, fetch

# The database's clock, in epoch seconds, per backend (``Dialect.name``).
_NOW = {"sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
        "postgresql": "extract(epoch from clock_timestamp())::double precision"}


def now_sql(dialect: str) -> str:
    """The database's clock (epoch seconds) in ``dialect``'s spelling."""
    return _NOW[dialect]


def fence(dialect: str, channel_id: int, owner: str) -> Tx[None]:
    """In a transaction that marks the channel's posts sent: ``owner`` must still hold the
    channel's lease (unexpired by the database's clock), and holds its row until the
    transaction ends; else ``LeaseLost`` rolls it back."""
    held = yield from execute(
        f"UPDATE leases SET owner = owner WHERE channel_id = ? AND owner = ? "
        f"AND until > {now_sql(dialect)}", channel_id, owner)
    if held != 1:
        raise LeaseLost(channel_id, owner)


class LeaseQueries(Backend):
    """The channels' leases, over the backend's primitives (both stores)."""

    @property
    def _now(self) -> str:
        return now_sql(self.dialect.name)

    async def take_lease(self, channel_id: int, owner: str, seconds: float) -> bool:
        """Hold the channel for ``seconds`` from now (the database's clock) if nobody else
        does (no row, ``owner``'s own, or one expired); True if ``owner`` holds it now."""
        return await self._execute(
            f"INSERT INTO leases (channel_id, owner, until) VALUES (?, ?, {self._now} + ?) "
            "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, "
            "until = excluded.until WHERE leases.owner = excluded.owner "
            f"OR leases.until <= {self._now}", (channel_id, owner, seconds)) == 1

    async def renew_leases(self, owners: Sequence[str], seconds: float) -> list[str]:
        """The leases of ``owners`` (one process's running workers) still theirs and
        unexpired last ``seconds`` from now; which they are (a lease another process took,
        or one that ran out, is not renewed: its worker stops)."""
        if not owners:
            return []
        which, params = self.dialect.any_of("owner", list(owners))

        def tx() -> Tx[list[str]]:  # (a write: on the writer, never a reader)
            rows = yield from fetch(f"UPDATE leases SET until = {self._now} + ? "
                                    f"WHERE {which} AND until > {self._now} RETURNING owner",
                                    seconds, *params)
            return [str(r[0]) for r in rows]

        return await self._transact(tx())

    async def release_lease(self, channel_id: int, owner: str) -> None:
        """``owner`` is done with the channel (nothing if it no longer held it)."""
        await self._execute("DELETE FROM leases WHERE channel_id = ? AND owner = ?",
                            (channel_id, owner))

    async def release_leases(self, prefix: str) -> None:
        """A process stops: every lease it holds is let go at once."""
        await self._execute("DELETE FROM leases WHERE owner LIKE ?", (prefix + "%",))

    async def lease_left(self, channel_id: int) -> float | None:
        """Seconds until the channel's lease runs out by the database's clock (negative:
        it ran out; None: nobody holds it)."""
        rows = await self._fetch(lambda r: float(r[0]), f"SELECT until - {self._now} "
                                 "FROM leases WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else None

    async def lease_owner(self, channel_id: int) -> str | None:
        """Who holds the channel (tests)."""
        rows = await self._fetch(lambda r: str(r[0]), "SELECT owner FROM leases "
                                 "WHERE channel_id = ?", (channel_id,))
        return rows[0] if rows else None
