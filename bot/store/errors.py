"""What the store refuses, the same on both backends: each error has a stable ``code`` that
the service maps to a sentence."""

from __future__ import annotations

from collections.abc import Sequence


class StoreError(Exception):
    """Something the store refuses; ``code`` is stable (the service maps it)."""

    code = "store.error"


class StaleWrite(StoreError):
    """The row changed since it was read: the write was not made."""

    code = "state.stale"


class ActiveGameExists(StoreError):
    """The channel already has a lobby or a running game."""

    code = "game.exists"


class PracticeExists(StoreError):
    """The learner already has an unfinished practice game in the guild (in ``channel``)."""

    code = "practice.open"

    def __init__(self, channel: int) -> None:
        super().__init__(f"practice game open in {channel}")
        self.channel = channel


class AlreadySeeking(StoreError):
    """The player already waits in the server's queue."""

    code = "queue.already"


class SchemaTooNew(StoreError):
    """The database was written by a newer bot (``schema`` > ``supported``, this bot's
    schema version); it was not changed."""

    code = "store.schema_newer"

    def __init__(self, schema: int, supported: int) -> None:
        self.schema = schema
        super().__init__(f"schema {schema}, newer than this bot's {supported}")


class LobbyLimitReached(StoreError):
    """The creator already has the most open lobbies allowed in the guild: ``channels``."""

    code = "lobby.too_many"

    def __init__(self, channels: Sequence[int]) -> None:
        self.channels = tuple(channels)
        super().__init__(f"{len(self.channels)} open lobbies")


class LeaseLost(StoreError):
    """A deliverer marked a channel's posts sent under a lease it no longer holds (run out,
    or another process took it): nothing was written (``bot.store.leases``)."""

    code = "outbox.lease_lost"

    def __init__(self, channel_id: int, owner: str) -> None:
        super().__init__(f"channel {channel_id}: the lease {owner} is no longer held")


class StorageError(StoreError):
    """The database could not be read or written; nothing was written. ``code`` names the
    cause (``store.full``, ``store.read_only``, ``store.io``, ``store.busy``,
    ``store.corrupt``, ``store.cantopen``, else ``store.failed``), the same for SQLite and
    PostgreSQL (each backend's ``storage_error``); the text is the database's own words,
    for the log."""

    code = "store.failed"

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        super().__init__(detail)


class DuplicateKey(StorageError):
    """A row with the same unique key is there already (``store.failed`` to the service;
    the store turns it into a refusal where a duplicate means something, e.g. a second
    active game in a channel)."""

    def __init__(self, detail: str) -> None:
        super().__init__("store.failed", detail)


def store_closed(where: str) -> StorageError:
    """What a call on a closed store raises, on both backends: ``store.busy``, the refusal
    that says nothing changed and to try again in a moment, which is true while the bot
    stops and starts again (store.io or store.cantopen would send the admin to a disk or
    a server that is fine)."""
    return StorageError("store.busy", f"the game database {where} is closed (the bot is "
                        "stopping)")
