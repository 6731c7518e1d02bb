"""SQLite's migrations, frozen: a released migration never changes (old files are upgraded
through every one of them in turn, under ``PRAGMA user_version``). To change the schema,
append a migration; PostgreSQL's twin of the same number goes into
``bot.store.migrations.postgres`` (the same number means the same tables and columns).

Each runs in one write transaction on the writer's ``sqlite3`` connection, with the
version it makes recorded in the same transaction.

The functions live in one module per era (``_sqlite_first``: 1-3, ``_sqlite_days``: 4-8,
``_sqlite_later``: 9 on); this tuple is the public surface.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from bot.store.migrations._sqlite_days import _m4, _m5, _m6, _m7, _m8
from bot.store.migrations._sqlite_first import _m1, _m2, _m3
from bot.store.migrations._sqlite_later import (
    _m9_away,
    _m10_substitutes,
    _m11_substitute_before,
    _m12_outbox_owed,
    _m13_computer_moves,
    _m14_leases,
    _m15_page_token,
    _m16_hints,
    _m17_practice,
    _m18_learn_told,
    _m19_channel_views,
    _m20_post_ids,
    _m21_split_drafts,
    _m22_sign_outs_awaiting,
)

MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_m1, _m2, _m3, _m4, _m5, _m6,
                                                                _m7, _m8, _m9_away,
                                                                _m10_substitutes,
                                                                _m11_substitute_before,
                                                                _m12_outbox_owed,
                                                                _m13_computer_moves,
                                                                _m14_leases,
                                                                _m15_page_token,
                                                                _m16_hints,
                                                                _m17_practice,
                                                                _m18_learn_told,
                                                                _m19_channel_views,
                                                                _m20_post_ids,
                                                                _m21_split_drafts,
                                                                _m22_sign_outs_awaiting)
