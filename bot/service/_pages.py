"""The web pages' calls: a game found by its page's token (never by its number), its replay
step by step, the versions its stream follows, the outbox's depth. Public facts only: the
replay is played from the seed here and only public views and events leave (the seed of a
running game is a secret, R15; a finished game's file says it, through ``game_file``)."""

from __future__ import annotations

import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass

import engine
from bot.service.errors import BadInput, NoGame
from bot.service.results import GameStatus
from bot.service.results.pages import (
    PageGame,
    PageReplay,
    PageStep,
    RunningGame,
    ServerPage,
)
from bot.store import (
    ChannelView,
    GameRow,
    LogRow,
    OutboxDepth,
    SubstituteRow,
    VersionRow,
    names_at,
    player_of,
)
from bot.work import REPLAY
from engine import GameState
from engine.views import PrivateView

from ._core import Loaded, seat_names
from ._servers import ServerCalls
from ._stats import MAX_PAST_GAMES, StatsCalls

PLAYED_KEPT = 64  # games whose last replay (and state) the pages' calls keep
TOKEN_RE = re.compile(r"[0-9a-f]{32}")  # what migration 15 writes: 128 random bits as hex


class PageCalls(ServerCalls, StatsCalls):
    """What a game's web page reads."""

    async def page_game(self, token: str) -> PageGame:
        """The game behind a page's token. Raises NoGame for a token that names none (a
        forged one, or a game's number), or a game whose channel turned pages off."""
        row = await self._by_token(token)
        state = None if row.state is None else GameState.from_json(row.state)
        settings = await self.store.settings(row.channel_id)  # read again: a small row
        return PageGame(row.id, row.guild_id, row.status, row.version,
                        None if state is None else state.public_view(), seat_names(row.players),
                        row.awaited_since if row.status == GameStatus.RUNNING else None,
                        settings.turn_timer_hours, row.created_at, row.ended_at,
                        tuple(sorted(self._computer_pids(row))))

    async def page_replay(self, token: str) -> PageReplay:
        """Every step of the game from its set-up: its public view and events after each
        (played from the seed in a worker thread; only public facts come back). Raises
        NoGame (no such page, or a lobby: nothing played yet)."""
        row = await self._by_token(token)
        if row.seed is None or row.state is None:
            raise NoGame()
        actions = await self.store.actions(row.id)
        subs = await self.store.substitutes(row.id)
        kept: OrderedDict[int, _Played] = self.__dict__.setdefault("_played", OrderedDict())
        basis = (row.seed, tuple(row.players), tuple(subs))
        played = kept.pop(row.id, None)
        done = len(played.actions) if played is not None else 0
        if played is not None and played.basis == basis and done <= len(actions) \
                and tuple(_logged(r) for r in actions[:done]) == played.actions:
            # the game only moved on since: play the new moves from where it stood
            more, state = await self.work.run(REPLAY, _replay_more, played.state, row,
                                              actions[done:], subs)
            steps = played.steps + more
        else:  # first read, or a move taken back, a seat taken over: from the seed
            steps, state = await self.work.run(REPLAY, _replay, row, actions, subs)
        kept[row.id] = _Played(basis, tuple(_logged(r) for r in actions), steps, state)
        while len(kept) > PLAYED_KEPT:
            kept.popitem(last=False)
        return PageReplay(row.id, row.version, steps)

    async def page_file(self, token: str) -> str:
        """The finished game's file (``game_file``; refused while it runs: its seed is a
        secret until the end, R15)."""
        row = await self._by_token(token)
        return await self.game_file(row.guild_id, row.channel_id, row.id)

    async def page_hand(self, token: str, user: str) -> PrivateView:
        """What ``user`` (a Discord id) alone may see in the game behind ``token``: the
        private view of the seat they play now (a signed link checked it is theirs).
        Raises NoGame, NotInGame (not seated, or their seat passed on), GameNotStarted."""
        row = await self._by_token(token)
        seat = self._seat_of(row, self._check_pid(user))
        return self._started(Loaded.of(row)).private_view(seat.pid)

    async def set_server_page(self, guild: int, shown: bool) -> str:
        """Show or hide the server's page; returns its token (made the first time)."""
        if type(shown) is not bool:
            raise BadInput()
        return (await self.store.set_server_page(guild, shown, secrets.token_hex(16))).token

    async def server_page_token(self, guild: int) -> str | None:
        """The token of the server's page while it is shown (None: hidden)."""
        row = await self.store.server_page(guild)
        return row.token if row is not None and row.shown else None

    async def see_channel(self, guild: int, channel: int, *, everyone: bool,
                          parent: int | None = None, private_thread: bool = False) -> None:
        """Remember who may view ``channel``, as Discord says now: ``everyone`` every member
        of the server may (a thread: a public one in such a channel); ``parent`` a thread's
        channel; ``private_thread`` its members only. The server's page lists a channel's
        games only while everyone may view it (or its managers chose it)."""
        for n in (guild, channel, *(() if parent is None else (parent,))):
            if type(n) is not int or not 0 < n < 2**63:
                raise BadInput()
        if type(everyone) is not bool or type(private_thread) is not bool:
            raise BadInput()
        await self.store.see_channel(ChannelView(channel, guild, parent,
                                                 everyone and not private_thread,
                                                 private_thread), self.clock())

    async def seen_channels(self, guild: int) -> list[ChannelView]:
        """What the bot last stored of who may view each of the guild's channels (the
        bot compares it with what Discord says when it connects)."""
        return await self.store.guild_channel_views(guild)

    async def list_channel(self, guild: int, channel: int, listed: bool | None) -> None:
        """A manager's choice: ``channel``'s games on the server's page (True), never
        (False), or as Discord says who may view it (None). A private thread is never
        listed, whatever is chosen for its channel."""
        if listed is not None and type(listed) is not bool:
            raise BadInput()
        await self.store.set_listed(guild, channel, listed, self.clock())

    async def server_page(self, token: str) -> ServerPage:
        """The server's page behind ``token``: its open lobbies, running games (with their
        pages' tokens where their channels have pages), leaderboard, recent games — only
        those of channels every member of the server may view (``listed_games``), and the
        names of those games' players only. Raises NoGame for a token that names no shown
        page."""
        if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
            raise NoGame()
        row = await self.store.server_page_by_token(token)
        if row is None or not row.shown:
            raise NoGame()
        guild = row.guild_id
        games = await self.store.running_games(guild, here=())  # listed ones only
        history = await self.store.past_games(guild, MAX_PAST_GAMES, here=())
        lobbies = await self.lobbies(guild, here=())
        running = []
        names: dict[str, str] = {}
        for game in games:
            seats = seat_names(game.players)
            names.update({player_of(seats, p): n for p, n in seats.items()})
            view = GameState.from_json(game.state).public_view() if game.state else None
            shown = (await self.store.settings(game.channel_id)).pages
            running.append(RunningGame(
                game.id, await self.store.page_token(game.id) if shown else None,
                tuple(s.pid for s in game.players), seats,
                tuple(view["waiting_for"]) if view else ()))
        pages: dict[int, str] = {}
        for past in history:
            names.update({player_of(past.names, p): n for p, n in past.names.items()})
            page = await self.store.page_token(past.history.game_id)
            if page is not None and (await self.store.settings(past.history.channel_id)).pages:
                pages[past.history.game_id] = page
        for lobby in lobbies:
            names.update({player_of(lobby.names, p): n for p, n in lobby.names.items()})
        return ServerPage(guild, tuple(lobbies), tuple(running),
                          tuple(await self.leaderboard(guild, listed=True)), tuple(history),
                          names,
                          pages)

    async def page_token(self, game_id: int) -> str:
        """The token of game ``game_id``'s page (for links). Raises NoGame (no such game,
        or a practice game: it has no page, so no post or answer links one)."""
        token = await self.store.page_token(game_id)
        if token is None:
            raise NoGame()
        return token

    async def page_versions(self, game_id: int, after: int, limit: int = 1000
                            ) -> list[VersionRow]:
        """The game's committed versions after ``after``, oldest first (``limit`` at most)."""
        return await self.store.versions_after(game_id, after, limit)

    async def latest_versions(self, ids: list[int]) -> dict[int, int]:
        """The current version of each game of ``ids`` (one read for all)."""
        return await self.store.latest_versions(ids)

    async def outbox_depth(self) -> OutboxDepth:
        """How many posts wait for Discord, and since when the oldest."""
        return await self.store.outbox_depth()

    async def _by_token(self, token: str) -> GameRow:
        if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
            raise NoGame()
        row = await self.store.game_by_token(token)
        if row is None or row.practice or not (await self.store.settings(row.channel_id)).pages:
            # no such page, a learner's practice game (it has no public page: answered as
            # a missing one), or its channel's managers turned pages off
            raise NoGame()
        return row


@dataclass(frozen=True)
class _Played:
    """A page's replay as last played (kept in this process, never shown): what it was
    played from (``basis``: the seed, the seats, who took one over; ``actions`` the log's
    rows as ``_logged``), its steps, and the state after the last (the next moves go on from
    there)."""

    basis: tuple[object, ...]
    actions: tuple[tuple[int, str, str, float], ...]
    steps: tuple[PageStep, ...]
    state: GameState


def _logged(r: LogRow) -> tuple[int, str, str, float]:
    """A log row as a kept replay compares it: a move taken back and made again (even the
    same) is a different row."""
    return (r.seq, r.pid, r.action, r.at)


def _replay(row: GameRow, actions: list[LogRow], subs: list[SubstituteRow]
            ) -> tuple[tuple[PageStep, ...], GameState]:
    """The game played again from its seed: each step's public facts, and the state after
    the last (a worker process: plain values in and out; only the steps leave the
    service)."""
    assert row.seed is not None
    names = seat_names(row.players)
    state, setup = engine.start_game([s.pid for s in row.players], row.seed)
    first = PageStep(0, "", "setup", row.created_at, engine.public_events(setup),
                     state.public_view(), names_at(names, subs, 0) if subs else names)
    more, state = _replay_more(state, row, actions, subs)
    return (first, *more), state


def _replay_more(state: GameState, row: GameRow, actions: list[LogRow],
                 subs: list[SubstituteRow]) -> tuple[tuple[PageStep, ...], GameState]:
    """The steps of ``actions`` played on from ``state``, and the state after them."""
    names = seat_names(row.players)
    steps = []
    for r in actions:
        action = engine.decode(r.action)
        state, events = engine.apply(state, r.pid, action)
        steps.append(PageStep(r.seq, r.pid, action.public_encode(), r.at,
                              engine.public_events(events), state.public_view(),
                              names_at(names, subs, r.seq) if subs else names))
    return tuple(steps), state
