"""The schema's history, one frozen module per backend: ``MIGRATIONS[n - 1]`` makes schema n
from schema n - 1, and both backends have the same numbers (the same schema version means
the same tables and columns). ``SCHEMA_VERSION`` is the schema this bot writes."""

from __future__ import annotations

from bot.store.migrations import postgres, sqlite

SCHEMA_VERSION = len(sqlite.MIGRATIONS)

__all__ = ["SCHEMA_VERSION", "postgres", "sqlite"]
