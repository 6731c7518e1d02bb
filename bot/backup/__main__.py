"""``python -m bot.backup``: a checked copy of SANMARCO_DB now, into its backup folder; with
``--restore FILE``, that copy put back (stop the bot first).

Exit codes: 0 done; 1 the copy failed its check (kept aside as ``.bad``; a restore refused,
nothing changed); 2 refused (usage, PostgreSQL, the bot still running); 3 the database
cannot be read or the folder written.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from collections.abc import Sequence

from bot.backup.copies import take
from bot.backup.restore import RestoreRefused, restore
from bot.config import ConfigError, read_backups, read_values
from bot.store import is_postgres

EXIT_OK, EXIT_BAD, EXIT_REFUSED, EXIT_DATABASE = 0, 1, 2, 3


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.backup", description="Copy the bot's SQLite file (SANMARCO_DB) "
        "now into its backup folder (SANMARCO_BACKUP_DIR), checked; or put a copy back.")
    parser.add_argument("--restore", metavar="FILE",
                        help="put this copy back in place of SANMARCO_DB (stop the bot first)")
    args = parser.parse_args(argv)
    try:
        values = read_values()
        backups = read_backups(values)
    except ConfigError as exc:
        print(f"sanmarco-backup: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    db_path = values.get("SANMARCO_DB", "").strip() or "sanmarco.db"
    url = values.get("DATABASE_URL", "").strip()
    if url and is_postgres(url):
        print("sanmarco-backup: the games are in PostgreSQL (DATABASE_URL): back them up "
              "with pg_dump (README).", file=sys.stderr)
        return EXIT_REFUSED
    if args.restore:
        return _restore_main(args.restore, db_path)
    try:
        result = take(db_path, backups, time.time())
    except (OSError, sqlite3.Error) as exc:
        print(f"sanmarco-backup: could not copy {os.path.abspath(db_path)}: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    if not result.check.ok:
        print(f"sanmarco-backup: the copy FAILED its check, kept aside: {result}",
              file=sys.stderr)
        return EXIT_BAD
    print(f"backed up {os.path.abspath(db_path)} -> {result}")
    return EXIT_OK


def _restore_main(file: str, db_path: str) -> int:
    try:
        check, aside = restore(file, db_path, time.time())
    except RestoreRefused as exc:
        print(f"sanmarco-backup: refused: {exc}. Nothing was changed.", file=sys.stderr)
        return EXIT_REFUSED
    except (OSError, sqlite3.Error) as exc:
        print(f"sanmarco-backup: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    if not check.ok:
        print(f"sanmarco-backup: refused: {os.path.abspath(file)} failed its check ({check})."
              f" {os.path.abspath(db_path)} was left as it is.", file=sys.stderr)
        return EXIT_BAD
    print(f"restored {os.path.abspath(file)} -> {os.path.abspath(db_path)}: {check}")
    if aside is not None:
        print(f"the database it replaced is kept as {os.path.abspath(aside)}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())

