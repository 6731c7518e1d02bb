"""Players away from a server's games: until when each one is away, and the games that tell
it. The rules (how long a game waits on an away player, what a reminder skips) are the
service's; the store keeps one row per server and player and writes it with the games'
posts at once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.store.backend import Backend
from bot.store.errors import StaleWrite
from bot.store.outbox import outbox_insert
from bot.store.rows import AwayRow, OutboxEntry
from bot.store.tx import Row, Tx, execute, insert

AWAY_COLS = "guild_id, pid, since, until"


def away_row(r: Row) -> AwayRow:
    return AwayRow(int(r[0]), str(r[1]), float(r[2]), float(r[3]))


class AwayQueries(Backend):
    """Who is away, and marking a player away or back."""

    async def away_rows(self, guild_ids: Iterable[int],
                        pids: Sequence[str] | None = None) -> list[AwayRow]:
        """The away rows of ``guild_ids`` (of ``pids`` only, when given), past ones
        included: a player back since a decision started changes its turn timer too."""
        guilds = list(dict.fromkeys(guild_ids))
        if not guilds or (pids is not None and not pids):
            return []
        where, params = self.dialect.any_of("guild_id", guilds)
        if pids is not None:
            which, more = self.dialect.any_of("pid", list(dict.fromkeys(pids)))
            where, params = f"{where} AND {which}", (*params, *more)
        return await self._fetch(away_row, f"SELECT {AWAY_COLS} FROM away WHERE {where}",
                                 params)

    async def set_away(self, row: AwayRow, games: Sequence[tuple[int, int]],
                       posts: Sequence[OutboxEntry] = (), *, recheck: bool = False) -> None:
        """Write a player's away row (replacing theirs) with the posts that tell their
        running ``games`` (``(game id, row version)`` each: a game that moved on meanwhile
        refuses the whole write, StaleWrite, nothing written; each gets a new row version
        so a stale post is never committed after a newer one). ``recheck``: their turn
        timers may run out earlier now (the player is back), so each game's ``timer_at`` is
        set back to the decision's start for the timer pass to place it anew."""
        timer = (", timer_at = CASE WHEN timer_at IS NULL THEN NULL ELSE awaited_since END"
                 if recheck else "")

        def tx() -> Tx[None]:
            yield from execute(
                f"INSERT INTO away ({AWAY_COLS}) VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, "
                "pid) DO UPDATE SET since = excluded.since, until = excluded.until",
                row.guild_id, row.pid, row.since, row.until)
            for game_id, version in games:
                touched = yield from execute(
                    f"UPDATE games SET version = version + 1{timer} WHERE id = ? AND "
                    "version = ? AND status = 'running'", game_id, version)
                if touched != 1:
                    raise StaleWrite("A game changed meanwhile; nothing was written.")
            for written in outbox_insert(posts):
                yield from insert(written)

        await self._transact(tx())
