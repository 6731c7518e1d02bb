"""The queries are written once, in SQLite's spelling: PostgreSQL's dialect numbers their
parameters and spells the few fragments that differ; a write transaction is the same
generator on both backends (the stores themselves: tests/bot/test_store*.py)."""

from __future__ import annotations

import pytest

from bot.store.dialect import POSTGRES, SQLITE, numbered
from bot.store.errors import DuplicateKey
from bot.store.tx import Driver, Execute, Query, Tx, execute, fetch


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


def test_a_transaction_reads_results_and_may_turn_a_database_error_into_a_refusal() -> None:
    """What the backends do with it, without a database: each statement's result is sent
    back in; an error is thrown in at the statement that failed."""
    driver = Driver(_lobby())
    step = driver.next()
    assert step == Query("SELECT count(*) FROM games", ())
    driver.answer([(2,)])
    assert driver.next() == Execute("INSERT INTO games DEFAULT VALUES", ())
    driver.fail(DuplicateKey("UNIQUE constraint failed: games.channel_id"))
    assert driver.next() is None and driver.value == "refused after 2"

    driver = Driver(_lobby())
    driver.next()
    driver.fail(DuplicateKey("not caught here"))  # the read failed: not a refusal
    with pytest.raises(DuplicateKey):
        driver.next()
