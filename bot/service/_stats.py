"""A server's memory: players' stats, the skill leaderboard, recent games, and
finished games re-played for the summary picture, the replay and the game file.

Only finished games count and only finished games are re-played: an abandoned game has no
result, and a running game's seed stays secret until the game is over (R15).

Who may hear of a game (``listed_games``): the server's page, its leaderboard and
``/sanmarco-server leaderboard`` count only the games of channels every member may view (as
Discord last said, or as the channel's managers chose: ``listed``); a member's
``/sanmarco-server history`` and ``lobbies`` name those and, besides, the games of the place
they ask in (``here``: that channel, its channel when it is a thread, and their public
threads) — a place they can view, so nothing they could not see anyway; so does ``stats``
of another player (counts only, yet a staff channel's games are still its own). A private
thread's games are named only inside it; a practice game nowhere. The rule is the store's
``listing``, applied in the query that lists, so a list of ten shows ten whenever ten such
games exist, however many private games are newer.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import engine
from bot import ratings
from bot.service.errors import Code, GameAbandoned, NoGame, ServiceError
from bot.service.results import FinishedGame, GameStatus, PlayerStats, SizeRecord
from bot.store import (
    GameRow,
    HistoryRow,
    PastGame,
    RatingRow,
    names_at,
    player_of,
)
from bot.work import DISCORD, RATING
from engine import Event
from engine.replay import game_file
from engine.views import PublicView

from ._core import Core, log

MAX_PAST_GAMES = 25
FINISHED_KEPT = 32  # finished games' replays kept per process (a few hundred KB each)
ALL_GAMES = 1_000_000  # "every finished game" for the store's history query
BOARDS_KEPT = 64  # servers whose listed games' ratings are kept (newer games fold onto them)


class StatsCalls(Core):
    """Stats, ratings and finished games of a server (guild)."""

    # ------------------------------------------------------------------ stats
    async def player_stats(self, guild: int, user: str, *, asker: str | None = None,
                           here: Collection[int] | None = None) -> PlayerStats:
        """``user``'s finished games in ``guild``: games, wins (shared wins count), win
        rate, average and best prestige, for 3- and 4-player games and overall. A game
        counts for each person who played a seat of it, substitutes included (the seat's
        result); the ratings count only seats one person played throughout.

        ``asker`` and ``here``: who asks, and where (``places_here``). Someone else's record
        counts only the games the asker may hear of (``listed_games``: a staff channel's
        games of a player are no member's business elsewhere, not even as a count); one's
        own record counts every game one played, wherever: one sat at each of them and saw
        every post, the answer is theirs alone, and a record that shrank with the place
        one asks in would read as games lost. ``here`` None: every game (the bot itself)."""
        user = self._check_pid(user)
        shown = None if here is None or asker == user else tuple(here)
        sizes: dict[int, SizeRecord] = {3: SizeRecord(3), 4: SizeRecord(4), 0: SizeRecord(0)}
        for h in await self.store.history(guild, ALL_GAMES, here=shown):
            # the seat the user played, alone or in turn with others (a substitute's game
            # counts for everyone who played its seat, with the seat's result)
            seat = next((p for p in h.players if user in h.people(p)), None)
            if seat is None:
                continue
            score = int(h.scores.get(seat, 0))
            for key in (len(h.players), 0):
                old = sizes.get(key)
                if old is None:
                    continue
                sizes[key] = SizeRecord(
                    old.players, old.games + 1, old.wins + (seat in h.winners),
                    old.prestige + score, score if old.best is None else max(old.best, score))
        return PlayerStats(user, sizes[3], sizes[4], sizes[0])

    # ------------------------------------------------------------------ who hears of a game
    async def listed_games(self, game_ids: Collection[int], *,
                           here: Collection[int] = ()) -> set[int]:
        """Which of ``game_ids`` anyone of the server may hear of: not a practice game, and
        played where every member of the server may look (or a manager chose); with
        ``here`` (the place a member asks in, ``places_here``), also the games played there
        (the store's ``heard_of``; the rule, ``listing``, is written once, in the
        queries that list)."""
        return await self.store.heard_of(list(game_ids), tuple(here))

    # ------------------------------------------------------------------ ratings
    async def leaderboard(self, guild: int, *, listed: bool = False) -> list[ratings.Ranked]:
        """The guild's players (computer players per level) ranked by skill rating; games
        finished since the last look are folded in first. ``listed``: what members hear
        (the page, the command) — the ratings of the listed channels' games only, folded
        from their history in a worker (kept: newer games fold onto it; a channel listed
        or unlisted folds them all again), so a player of private channels only is not
        ranked, nor do private games move anyone's rank."""
        rated = await self.store.update_ratings(guild, ratings.rate)
        if rated:
            log.info("guild %s: %d finished game(s) rated", guild, rated)
        if not listed:
            return ratings.leaderboard(await self.store.ratings(guild))
        counted = sorted(await self.store.history(guild, ALL_GAMES, here=()),
                         key=_played_order)
        shown = {h.game_id for h in counted}
        kept: OrderedDict[int, _ListedTable] = self.__dict__.setdefault("_listed",
                                                                        OrderedDict())
        old = kept.get(guild)
        if old is not None and old.games <= shown and all(
                h.game_id in old.games or _played_order(h) > old.last for h in counted):
            # only newer games listed since: folded onto the table kept (the same result)
            new = [h for h in counted if h.game_id not in old.games]
            table = old.table if not new else await self.work.run(
                RATING, ratings.rate, old.table, new)
        else:
            table = await self.work.run(RATING, ratings.fold, counted)
        kept[guild] = _ListedTable(frozenset(shown), table,
                                   _played_order(counted[-1]) if counted else (0.0, 0))
        kept.move_to_end(guild)
        while len(kept) > BOARDS_KEPT:
            kept.popitem(last=False)
        return ratings.leaderboard(table.values())

    async def rebuild_ratings(self, guild: int) -> list[ratings.Ranked]:
        """Recompute the guild's ratings from its stored history alone (the same table as
        the one kept up game by game)."""
        await self.store.update_ratings(guild, ratings.rate, rebuild=True)
        return ratings.leaderboard(await self.store.ratings(guild))

    # ------------------------------------------------------------------ past games
    async def past_games(self, guild: int, limit: int = 10, *,
                         here: Collection[int] | None = None) -> list[PastGame]:
        """The guild's most recent finished games, newest first, with their final posts;
        ``here``: only those a member asking there may hear of (``listed_games``; None:
        every game, for the bot itself)."""
        limit = max(1, min(limit, MAX_PAST_GAMES))
        return await self.store.past_games(guild, limit,
                                           here=None if here is None else tuple(here))

    async def remember_final_post(self, game_id: int, message_id: int, url: str) -> None:
        """Keep the link to a finished game's final post (``/sanmarco-server history`` shows it),
        and fold the game into its guild's ratings."""
        row = await self.store.game(game_id)
        if row is None or row.status != GameStatus.FINISHED:
            raise ServiceError(Code.NOT_OVER)
        await self.store.set_final_post(game_id, message_id, url, self.clock())
        await self.store.update_ratings(row.guild_id, ratings.rate)

    # ------------------------------------------------------------------ finished games
    async def finished_game(self, guild: int, channel: int, game_id: int | None = None, *,
                            asker: str | None = None, here: Collection[int] | None = None
                            ) -> FinishedGame:
        """A finished game of this server, re-played from its seed and log: the channel's
        latest game, or game ``game_id``. Refused while it runs (its seed is secret, R15).
        ``asker``: the person who asks (None: the bot itself, e.g. for the final post); a
        practice game is its learner's alone — anyone else hears ``history.no_game``, as
        for a number that names no game, whatever state it is in. ``here``: where a member
        asks by number — a game they may not hear of (``listed_games``: a private channel's,
        asked elsewhere) is answered as a number that names no game; the learner's own
        practice game is theirs wherever they ask."""
        row = await self._past_row(guild, channel, game_id, asker)
        if (game_id is not None and here is not None and not row.practice
                and not await self.listed_games([row.id], here=here)):
            # (a practice game got here only for its learner: theirs from any channel)
            raise ServiceError(Code.NO_PAST_GAME)  # never says that it exists
        if row.status == GameStatus.ABANDONED:
            raise GameAbandoned()
        if row.status != GameStatus.FINISHED or row.seed is None:
            raise ServiceError(Code.NOT_OVER)
        actions = tuple((r.pid, r.action) for r in await self.store.actions(row.id))
        past = await self.store.past_games(guild, 1, game_id=row.id)
        steps = await self._finished_steps(row, actions)
        names = self._names(row)
        # a seat that changed hands: each step names the person who made it
        subs = await self.store.substitutes(row.id)
        step_names = tuple(names_at(names, subs, k) for k in range(len(steps))) if subs else ()
        return FinishedGame(row.id, row.guild_id, row.channel_id, row.seed,
                            tuple(s.pid for s in row.players), names, actions,
                            steps, past[0].url if past else None, step_names)

    async def _finished_steps(self, row: GameRow, actions: tuple[tuple[str, str], ...]
                              ) -> tuple[tuple[PublicView, tuple[Event, ...]], ...]:
        """A finished game played again once per process (it never changes): its file, its
        replay and its summary then cost no replay however often they are asked for."""
        kept: OrderedDict[int, tuple[tuple[PublicView, tuple[Event, ...]], ...]] = \
            self.__dict__.setdefault("_finished", OrderedDict())
        steps = kept.get(row.id)
        if steps is None:
            steps = kept[row.id] = await self.work.run(DISCORD, _replay, row, actions)
            while len(kept) > FINISHED_KEPT:
                kept.popitem(last=False)
        kept.move_to_end(row.id)
        return steps

    async def game_file(self, guild: int, channel: int, game_id: int | None = None, *,
                        asker: str | None = None, here: Collection[int] | None = None) -> str:
        """The finished game's file as JSON text: seed, players, actions and the public
        events as posted, for ``python -m engine.replay`` (refused while it runs, R15). An
        action of a seat that changed hands also names who made it (``played_by``: their
        id, ``played_by_name``), the file's ``names`` being the seats' at the end.
        ``asker`` and ``here`` as for ``finished_game`` (a practice game's file is its
        learner's; a private channel's is told there)."""
        game = await self.finished_game(guild, channel, game_id, asker=asker, here=here)
        data = game_file(game.players, game.seed, game.actions, names=dict(game.names))
        data["game"] = game.game_id
        if game.step_names:  # a seat changed hands: who made each of its moves
            changed = {r.pid for r in await self.store.substitutes(game.game_id)}
            for k, entry in enumerate(data["actions"], start=1):
                pid = entry["player"]
                if pid in changed:
                    entry["played_by"] = player_of(game.step_names[k], pid)
                    name = game.step_names[k].get(pid)
                    if name:
                        entry["played_by_name"] = name
        return json.dumps(data, indent=1, ensure_ascii=False)

    async def _past_row(self, guild: int, channel: int, game_id: int | None,
                        asker: str | None = None) -> GameRow:
        if game_id is None:
            row = (await self._load(channel)).row
        else:
            found = await self.store.game(game_id) if isinstance(game_id, int) else None
            if found is None:
                raise ServiceError(Code.NO_PAST_GAME)
            row = found
        if row.guild_id != guild:
            raise NoGame() if game_id is None else ServiceError(Code.NO_PAST_GAME)
        if not learners_own(row, asker):
            raise ServiceError(Code.NO_PAST_GAME)  # never says that it exists
        return row


def places_here(channel: int, parent: int | None = None) -> tuple[int, ...]:
    """The places a member asking in ``channel`` can view (``parent``: its channel when it
    is a thread: a thread's members can view its channel)."""
    return (channel,) if parent is None else (channel, parent)


@dataclass(frozen=True)
class _ListedTable:
    """A server's ratings of its listed games (kept per process): which games, the table,
    and the last game's place in the order they were folded in."""

    games: frozenset[int]
    table: Mapping[str, RatingRow]
    last: tuple[float, int]


def _played_order(game: HistoryRow) -> tuple[float, int]:
    """The order games are rated in (the store's ``update_ratings``'s)."""
    return (game.finished_at, game.game_id)


def learners_own(row: GameRow, asker: str | None) -> bool:
    """Whether ``asker`` may know of game ``row``: anyone may of a server's game; only its
    learner of a practice game (a private thread's). ``asker`` None: the bot itself."""
    return not row.practice or asker is None or asker == row.creator


def _replay(row: GameRow, actions: tuple[tuple[str, str], ...]
            ) -> tuple[tuple[PublicView, tuple[Event, ...]], ...]:
    assert row.seed is not None
    state, setup = engine.start_game([s.pid for s in row.players], row.seed)
    steps = [(state.public_view(), engine.public_events(setup))]
    for pid, text in actions:
        state, events = engine.apply(state, pid, engine.decode(text))
        steps.append((state.public_view(), engine.public_events(events)))
    return tuple(steps)
