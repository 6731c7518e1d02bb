"""How players hear it is their turn, and a player's games in a server.

Per player and server: a mention in the channel (the default), a direct message with a link
to the game's latest post, both, or nothing. A DM that Discord refuses makes the bot mention
that player instead until they choose again, and they are told so once (``take_hint``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.service.errors import BadInput, Code
from bot.service.results import GameStatus, MyGame, Notice
from bot.store import GameRow
from engine import GameState

from ._core import Core, seat_names

MODES = ("mention", "dm", "both", "none")
DEFAULT_MODE = "mention"
MAX_MY_GAMES = 25


class NoticeCalls(Core):
    """Notification choices, the hint after a refused DM, posts' links, a player's games."""

    async def notify_mode(self, guild: int, user: str) -> str:
        """How ``user`` hears it is their turn in the server (mention unless chosen)."""
        prefs = await self.store.notify_prefs(guild, [user])
        return prefs[user].mode if user in prefs else DEFAULT_MODE

    async def set_notify_mode(self, guild: int, user: str, mode: str) -> str:
        """Choose mention, dm, both or none (a DM refused before is tried again)."""
        if mode not in MODES:
            raise BadInput(Code.NOTIFY_MODE)
        await self.store.set_notify_mode(guild, user, mode)
        return mode

    async def notices(self, guild: int, pids: Sequence[str]) -> dict[str, Notice]:
        """How to tell each of ``pids`` (Discord users; computer players are left out) that
        their decision starts: one read for all of them."""
        people = [p for p in dict.fromkeys(pids) if p.isdigit()]
        prefs = await self.store.notify_prefs(guild, people)
        out: dict[str, Notice] = {}
        for pid in people:
            pref = prefs.get(pid)
            mode = pref.mode if pref is not None else DEFAULT_MODE
            refused = pref is not None and pref.dm_refused_at is not None
            dm = mode in ("dm", "both") and not refused
            mention = mode in ("mention", "both") or (mode == "dm" and refused)
            out[pid] = Notice(pid, mode, mention, dm)
        return out

    async def dm_refused(self, guild: int, user: str) -> bool:
        """Discord refused a DM to ``user``: mention them from now on until they choose
        again, and keep a hint for them. False when that was known already (so the caller
        falls back to a mention once, not again and again)."""
        return await self.store.dm_refused(guild, user, self.clock())

    async def take_hint(self, guild: int, user: str) -> bool:
        """True once after a refused DM (the hint is then told): a read, and a write only
        when there is a hint."""
        if not await self.store.hint_pending(guild, user):
            return False
        return await self.store.take_hint(guild, user)

    async def remember_post(self, game_id: int, message_id: int, url: str) -> None:
        """Keep the link to a game's latest public post (for DMs and ``my_games``)."""
        if not isinstance(url, str) or not url.startswith("https://") or len(url) > 200:
            raise BadInput()
        await self.store.set_latest_post(game_id, message_id, url, self.clock())

    async def latest_post(self, game_id: int) -> str | None:
        """The link to a game's latest public post, if any."""
        return await self.store.latest_post(game_id)

    async def my_games(self, guild: int, user: str) -> list[MyGame]:
        """``user``'s lobbies and running games in the server, newest first: channel, what
        each waits for and since when, and the link to its latest post."""
        rows = await self.store.player_games(guild, user, MAX_MY_GAMES)
        # a quick read of at most MAX_MY_GAMES states (no replay, no search): shipping the
        # rows to a worker process would cost what reading them does, so a thread will do
        return await asyncio.to_thread(lambda: [my_game_of(r, url, gone)
                                                for r, url, gone in rows])


def my_game_of(row: GameRow, url: str | None, gone: bool = False) -> MyGame:
    names = seat_names(row.players)
    players = tuple(s.pid for s in row.players)
    awaiting: dict[str, str] = {}
    since = None
    if row.status == GameStatus.RUNNING and row.state is not None:
        view = GameState.from_json(row.state).public_view()
        awaiting = dict(view["awaiting"])
        players = tuple(view["players"])
        since = row.awaited_since
    return MyGame(row.id, row.channel_id, GameStatus(row.status), row.seats, players, names,
                  awaiting, since, url, row.created_at, gone)
