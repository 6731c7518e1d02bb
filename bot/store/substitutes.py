"""Substitutes: every person who took a seat over during a game, written with the hand-over
(``substitute_insert``, added to ``Store.commit``), and read back with a game's history, so
the ratings know which seats one person played from start to end and a server's memory
lists a game for everyone who played in it.

A seat's first player is its pid (a person's Discord id, or a computer player's id); a row
here names each later one, in the order they came (the game row's ``version`` the hand-over
wrote).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.store.backend import Backend
from bot.store.rows import HistoryRow, SubstituteRow
from bot.store.tx import Insert, Row, Tx, fetch

SUBSTITUTE_COLUMNS = ("game_id", "version", "pid", "player", "name", "by_pid", "seq", "at",
                      "before_name")
SUBSTITUTE_COLS = ", ".join(SUBSTITUTE_COLUMNS)


def substitute_insert(rows: Sequence[SubstituteRow]) -> list[Insert]:
    """The rows a hand-over writes with its change (none: no insert)."""
    if not rows:
        return []
    return [Insert("substitutes", SUBSTITUTE_COLUMNS, [
        (r.game_id, r.version, r.pid, r.player, r.name, r.by, r.seq, r.at, r.before_name)
        for r in rows])]


def substitute_row(r: Row) -> SubstituteRow:
    return SubstituteRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), r[4], str(r[5]),
                         int(r[6]), float(r[7]), r[8])


# The substitutes of a guild's finished games: few rows (a hand-over is rare), read by the
# guild's history index whatever page of it a call reads.
_OF_GUILD = (f"SELECT {', '.join('s.' + c for c in SUBSTITUTE_COLUMNS)} FROM substitutes s "
             "JOIN history h ON h.game_id = s.game_id WHERE h.guild_id = ?")


def with_substitutes(games: Sequence[HistoryRow],
                     rows: Sequence[SubstituteRow]) -> list[HistoryRow]:
    """``games`` with each one's substitutes (pid → the people who took it over, in order)."""
    by_game: dict[int, dict[str, tuple[str, ...]]] = {}
    for r in sorted(rows, key=lambda r: (r.game_id, r.version)):
        seats = by_game.setdefault(r.game_id, {})
        seats[r.pid] = (*seats.get(r.pid, ()), r.player)
    return [replace(g, substitutes=by_game[g.game_id]) if g.game_id in by_game else g
            for g in games]


def substitutes_of(guild_id: int, games: list[HistoryRow]) -> Tx[list[HistoryRow]]:
    """Inside a transaction: ``games`` (of guild ``guild_id``) with their substitutes."""
    if not games:
        return games
    rows = yield from fetch(_OF_GUILD, guild_id)
    return with_substitutes(games, [substitute_row(r) for r in rows])


class SubstituteQueries(Backend):
    """The record of substitutes, over the backend's primitives."""

    async def substitutes(self, game_id: int) -> list[SubstituteRow]:
        """Every hand-over of a seat to a person in game ``game_id``, in order."""
        return await self._fetch(substitute_row, f"SELECT {SUBSTITUTE_COLS} FROM substitutes "
                                 "WHERE game_id = ? ORDER BY version", (game_id,))

    async def _with_substitutes(self, guild_id: int,
                                games: list[HistoryRow]) -> list[HistoryRow]:
        """``games`` (of guild ``guild_id``) with their substitutes (one read)."""
        if not games:
            return games
        return with_substitutes(games, await self._fetch(substitute_row, _OF_GUILD,
                                                         (guild_id,)))
