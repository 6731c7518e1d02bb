"""Copies of the SQLite file an admin does not have to remember, and their restore.

``python -m bot.backup`` makes one copy now; ``python -m bot.backup --restore FILE`` puts a
copy back with the bot stopped. The bot itself makes one every hour (the shortest rule of
SANMARCO_BACKUP_KEEP) while it runs (``Schedule``, started by ``bot.client``), in a
process of its own: replaying every game is CPU work that, in a thread, would hold the
event loop up through the GIL.

A copy is taken with SQLite's online backup API from a connection of its own, in one step:
one read transaction, so it is the database as one commit left it while the bot writes on
(WAL lets writers go on meanwhile). It is written under a temporary name (``….db.tmp``),
then checked — ``PRAGMA integrity_check``, and every started game replayed from its seed
and log (the audit ``python -m bot.migrate`` does too, ``replay_audit``) — and only then
renamed to its name, which says when it was taken (UTC) and sorts by time:
``sanmarco-2026-11-27T150003Z.db``. A copy that fails its check is renamed ``….db.bad``,
logged as an ERROR and never counted as a copy (the 3 newest are kept: a damaged file
fails every hour and would fill the disk); a process killed mid-copy leaves a ``.tmp``,
never a file that looks good.

Rotation (restic's ``--keep-hourly 24 --keep-daily 7``): "24h,7d" keeps the newest copy of
each of the 24 latest hours that have one, and the newest of each of the 7 latest days that
have one (UTC; "w": ISO weeks). Latest *that have one*: a bot stopped for a month keeps its
old copies when it starts again. Copies are removed only after a new copy passed its check.

The rooms: ``copies`` (one copy: taken, checked, named, rotated), ``schedule`` (the bot's),
``restore``, ``__main__`` (the command).
"""

from __future__ import annotations

from bot.backup.copies import (
    Check,
    Copy,
    Replayed,
    Result,
    Stopped,
    check_file,
    copies,
    copy_name,
    replay_audit,
    rotate,
    take,
    to_keep,
)
from bot.backup.restore import RestoreRefused, restore
from bot.backup.schedule import Schedule, schedule_for

__all__ = ["Check", "Copy", "RestoreRefused", "Replayed", "Result", "Schedule", "Stopped",
           "check_file", "copies", "copy_name", "replay_audit", "restore", "rotate",
           "schedule_for", "take", "to_keep"]
