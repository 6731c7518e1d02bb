"""``python -m bot.backup --restore FILE``: a copy put back, checked first, with the bot
stopped; the current file kept aside.

It cannot race a bot that starts meanwhile: the whole restore holds the database's
``OpenLock`` (``<db>-lock``), which the store's open takes too — a bot starting then waits
until the copy is in place (and then opens it), and a restore that finds the lock taken (a
bot opening the file) refuses and changes nothing. A bot that has the file open already is
seen by SQLite's exclusive lock, and refused as before."""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime

from bot.backup.copies import (
    STAMP,
    Check,
    check_file,
    connect_existing,
    copy_db,
    remove_tmp,
    sync_folder,
)
from bot.store.sqlite import OpenLock

LOCK_WAIT = 5.0  # seconds a restore waits for a bot's open to end (then it refuses)


class RestoreRefused(Exception):
    """A restore that was not done; the message says why. Nothing was changed."""


def restore(file: str, db_path: str, now: float) -> tuple[Check, str | None]:
    """Put the copy ``file`` in place of ``db_path`` with the bot stopped: the copy is
    copied beside the database and checked there first (``file`` is left as it is); the
    current database is kept aside as ``<db>.before-restore-<when>``. Returns the check,
    and where the current database was put (None when there was none). Raises RestoreRefused."""
    if not os.path.isfile(file):
        raise RestoreRefused(f"there is no file {os.path.abspath(file)}")
    if os.path.exists(db_path) and os.path.samefile(file, db_path):
        raise RestoreRefused("that file is the database itself")
    os.makedirs(os.path.dirname(os.path.abspath(db_path)), exist_ok=True)
    lock = OpenLock(db_path)
    if not lock.acquire(LOCK_WAIT):
        raise RestoreRefused(f"{os.path.abspath(db_path)} is being opened (a bot starting: "
                             f"{lock.path} is held): stop the bot first")
    try:
        _refuse_if_open(db_path)
        return _put_back(file, db_path, now)
    finally:
        lock.release()


def _put_back(file: str, db_path: str, now: float) -> tuple[Check, str | None]:
    """The restore itself, the lock held and the file not in use."""
    stamp = datetime.fromtimestamp(now, UTC).strftime(STAMP)
    staged = f"{db_path}.restoring-{stamp}"
    try:
        copy_db(file, staged)
        check = check_file(staged)
    except sqlite3.Error as exc:
        check = Check(f"{type(exc).__name__}: {exc}")
    except BaseException:
        remove_tmp(staged)
        raise
    if not check.ok:
        remove_tmp(staged)
        return check, None
    remove_tmp(staged, only_beside=True)  # its check's lock file
    aside = None
    if os.path.exists(db_path):
        aside = f"{db_path}.before-restore-{stamp}"
        for suffix in ("", "-wal", "-shm"):  # a -wal holds commits: it goes with its file
            if os.path.exists(db_path + suffix):
                os.replace(db_path + suffix, aside + suffix)
    os.replace(staged, db_path)
    sync_folder(os.path.dirname(os.path.abspath(db_path)))
    return check, aside


def _refuse_if_open(db_path: str) -> None:
    """Refused while another process (the bot) has the database open: an exclusive lock
    is then not to be had, even with that process idle (WAL)."""
    if not os.path.exists(db_path):
        return
    try:
        with connect_existing(db_path) as conn:
            conn.execute("PRAGMA busy_timeout = 0")
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        raise RestoreRefused(f"{os.path.abspath(db_path)} is in use ({exc}): stop the bot "
                      "first") from None
    except sqlite3.DatabaseError:
        return  # not a database (damaged): nothing to wait for, it is kept aside


