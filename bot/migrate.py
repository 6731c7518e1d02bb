"""``python -m bot.migrate SOURCE TARGET``: move a bot's data from one database to another —
an SQLite file to PostgreSQL or back (each a file path or a ``postgresql://`` URL).

Stop the bot first. Both databases are opened as the bot opens them (created or upgraded
to this bot's schema), then every table of the source — games, action logs, history,
settings, final posts, ratings, and any table a later schema adds — is copied row for row,
ids included, into the target in ONE transaction: the target has everything or nothing.
A target that already holds any row is refused (nothing is merged or overwritten). Then
every table's rows are counted on both sides and every copied game is audited by replaying
its seed and log through the engine (``--no-audit`` skips that).

Exit codes: 0 copied (and audited); 1 a copied game does not replay; 2 refused (usage, a
non-empty target, tables that do not match); 3 a database cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

import asyncpg

from bot.backup import replay_audit
from bot.store import SchemaTooNew, StoreError, describe_target, open_store
from bot.store.copy import CopyRefused, copy_tables

EXIT_OK, EXIT_AUDIT, EXIT_REFUSED, EXIT_DATABASE = 0, 1, 2, 3

__all__ = ["CopyRefused", "Report", "copy", "main"]


@dataclass
class Report:
    """What was copied: rows per table, and the audit of every copied game."""

    rows: dict[str, int] = field(default_factory=dict)
    audited: int = 0
    not_replaying: list[str] = field(default_factory=list)


async def copy(source: str, target: str, *, audit: bool = True) -> Report:
    """Copy every table of ``source`` into ``target`` (both upgraded to this bot's schema
    first); see the module docstring. Raises CopyRefused, StoreError."""
    if describe_target(source) == describe_target(target):
        raise CopyRefused("the source and the target are the same database")
    for where in (source, target):  # create or upgrade, check, as the bot would
        store = await open_store(where)
        version = await store.schema_version()
        await store.close()
    report = Report(rows=await copy_tables(source, target, version))
    if audit:
        await _audit(target, report)
    return report


async def _audit(target: str, report: Report) -> None:
    """Replay every copied game that has started (the audit a backup's check does too)."""
    replayed = await replay_audit(target)
    report.audited = replayed.audited
    report.not_replaying.extend(replayed.not_replaying)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.migrate", description="Copy a San Marco bot's data between an "
        "SQLite file and PostgreSQL (stop the bot first; the target must be empty).")
    parser.add_argument("source", help="SQLite file or postgresql:// URL to copy from")
    parser.add_argument("target", help="SQLite file or postgresql:// URL to copy into")
    parser.add_argument("--no-audit", action="store_true",
                        help="do not replay the copied games to check them")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(copy(args.source, args.target, audit=not args.no_audit))
    except CopyRefused as exc:
        print(f"sanmarco-migrate: refused: {exc}. Nothing was written.", file=sys.stderr)
        return EXIT_REFUSED
    except SchemaTooNew as exc:
        print(f"sanmarco-migrate: a database was written by a newer bot (schema {exc.schema})"
              "; upgrade this bot first. Nothing was written.", file=sys.stderr)
        return EXIT_DATABASE
    except StoreError as exc:
        print(f"sanmarco-migrate: {exc.code}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    except (OSError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        print(f"sanmarco-migrate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    rows = ", ".join(f"{t} {n}" for t, n in report.rows.items())
    print(f"copied {describe_target(args.source)} -> {describe_target(args.target)}: {rows}")
    if not args.no_audit:
        print(f"audited {report.audited} game(s) by replay: "
              + ("all replay" if not report.not_replaying
                 else f"{len(report.not_replaying)} do NOT replay"))
        for line in report.not_replaying:
            print(f"  {line}")
    return EXIT_AUDIT if report.not_replaying else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
