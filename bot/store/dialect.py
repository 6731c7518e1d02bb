"""What really differs between the two backends' SQL, and nothing else.

Every query of ``bot.store.base.Store`` is written once, in SQLite's spelling with ``?``
parameters; a ``Dialect`` compiles it for its backend (PostgreSQL numbers its parameters
``$1``, ``$2``…) and supplies the few fragments that are spelled differently: a value among
several (``IN (?, ?)`` against ``= ANY($1)``, one array parameter: one prepared statement
whatever the count), who plays a seat inside the players' JSON (``json_each`` against
``json_array_elements``), "no limit", and the lock that serialises one kind of write across
processes (SQLite's write transaction already holds the whole file). Booleans need nothing:
``TRUE``/``FALSE`` are 1 and 0 to SQLite and booleans to PostgreSQL.

The rest that differs lives with each backend: PostgreSQL's one-statement compare-and-set
(``PostgresStore._compare_and_set``) and the frozen migrations (``bot.store.migrations``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# A ``?`` outside quotes (a literal such as '$.pid' or 'what?' is left alone).
_PARAM = re.compile(r"'(?:[^']|'')*'|\?")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` parameters as PostgreSQL's ``$1``, ``$2``… (compiled once per statement)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _PARAM.sub(number, sql)


@dataclass(frozen=True)
class Dialect:
    """One backend's spelling (``SQLITE``, ``POSTGRES``)."""

    name: str
    numbered: bool  # parameters as $1, $2… instead of ?
    arrays: bool  # a list of values is one array parameter (= ANY)
    no_limit: int | None  # the LIMIT parameter that means "every row"
    # EXISTS clause: a seat of the JSON array ``{players}`` is played by the person given as
    # a parameter (its substitute's id, else its pid)
    seat_pid: str
    # EXISTS clause: as ``seat_pid``, and that seat is among those the game's ``{awaiting}``
    # column holds (``,pid,pid,``)
    seat_awaited: str
    lock: str | None  # takes a lock, named by a text parameter, until the transaction ends

    def sql(self, text: str) -> str:
        """The statement as this backend takes it."""
        return numbered(text) if self.numbered else text

    def any_of(self, expr: str, values: Sequence[object]) -> tuple[str, tuple[object, ...]]:
        """A condition that ``expr`` is one of ``values`` (at least one), and its
        parameters."""
        if self.arrays:
            return f"{expr} = ANY(?)", (list(values),)
        return f"{expr} IN ({', '.join('?' * len(values))})", tuple(values)

    def limit(self, limit: int) -> int | None:
        """The LIMIT parameter for ``limit`` rows (negative: every row)."""
        return self.no_limit if limit < 0 else limit


SQLITE = Dialect(
    name="sqlite", numbered=False, arrays=False, no_limit=-1,
    seat_pid="EXISTS (SELECT 1 FROM json_each({players}) "
             "WHERE coalesce(json_extract(value, '$.user'), json_extract(value, '$.pid')) = ?)",
    seat_awaited="EXISTS (SELECT 1 FROM json_each({players}) "
                 "WHERE coalesce(json_extract(value, '$.user'), json_extract(value, '$.pid')) "
                 "= ? AND instr({awaiting}, ',' || json_extract(value, '$.pid') || ',') > 0)",
    lock=None)

POSTGRES = Dialect(
    name="postgresql", numbered=True, arrays=True, no_limit=None,
    seat_pid="EXISTS (SELECT 1 FROM json_array_elements({players}::json) e "
             "WHERE coalesce(e->>'user', e->>'pid') = ?)",
    seat_awaited="EXISTS (SELECT 1 FROM json_array_elements({players}::json) e "
                 "WHERE coalesce(e->>'user', e->>'pid') = ? "
                 "AND strpos({awaiting}, ',' || (e->>'pid') || ',') > 0)",
    lock="SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")
