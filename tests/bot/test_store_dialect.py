"""The queries are written once, in SQLite's spelling: PostgreSQL's dialect numbers their
parameters and spells the few fragments that differ; a write transaction is the same
generator on both backends (the stores themselves: tests/bot/test_store*.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.store.dialect import POSTGRES, SQLITE, numbered
from bot.store.errors import DuplicateKey
from bot.store.tx import Execute, Query, Statement, Tx, drive, execute, fetch


def test_parameters_are_numbered_in_order_and_quoted_text_is_left_alone() -> None:
    sql = ("SELECT '?', json_extract(value, '$.pid') FROM t WHERE a = ? AND b IN (?, ?) "
           "AND c = 'it''s ?'")
    assert numbered(sql) == ("SELECT '?', json_extract(value, '$.pid') FROM t WHERE a = $1 "
                             "AND b IN ($2, $3) AND c = 'it''s ?'")
    assert SQLITE.sql(sql) == sql and POSTGRES.sql(sql) == numbered(sql)


def test_one_of_several_values_is_one_array_on_postgresql() -> None:
    assert SQLITE.any_of("pid", ["1", "2"]) == ("pid IN (?, ?)", ("1", "2"))
    assert POSTGRES.any_of("pid", ["1", "2"]) == ("pid = ANY(?)", (["1", "2"],))
    assert (SQLITE.limit(-1), POSTGRES.limit(-1), POSTGRES.limit(3)) == (-1, None, 3)


def _lobby() -> Tx[str]:
    rows = yield from fetch("SELECT count(*) FROM games")
    try:
        yield from execute("INSERT INTO games DEFAULT VALUES")
    except DuplicateKey:
        return f"refused after {rows[0][0]}"
    return "made"


class _Failed(Exception):
    """What a backend's driver raises for a statement, before ``drive`` turns it into a
    StorageError."""


async def test_a_transaction_reads_results_and_may_turn_a_database_error_into_a_refusal() -> None:
    """What the backends do with it, without a database: each statement's result is sent
    back in; an error is thrown in at the statement that failed."""
    def run(answers: list[object]) -> Callable[[Statement], Awaitable[object]]:
        async def step(s: Statement) -> object:
            seen.append(s)
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer
        return step

    def duplicate(exc: BaseException) -> DuplicateKey:
        return DuplicateKey(str(exc))

    seen: list[Statement] = []
    failed = _Failed("UNIQUE constraint failed: games.channel_id")
    assert await drive(_lobby(), run([[(2,)], failed]), (_Failed,), duplicate) == \
        "refused after 2"
    assert seen == [Query("SELECT count(*) FROM games", ()),
                    Execute("INSERT INTO games DEFAULT VALUES", ())]
    with pytest.raises(DuplicateKey):  # the read failed: not a refusal
        await drive(_lobby(), run([_Failed("not caught here")]), (_Failed,), duplicate)
