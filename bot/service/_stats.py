"""A server's memory: players' stats, the skill leaderboard, recent games, and
finished games re-played for the summary picture, the replay and the game file.

Only finished games count and only finished games are re-played: an abandoned game has no
result, and a running game's seed stays secret until the game is over (R15).
"""

from __future__ import annotations

import json
from collections import OrderedDict

import engine
from bot import ratings
from bot.service.errors import Code, GameAbandoned, NoGame, ServiceError
from bot.service.results import FinishedGame, GameStatus, PlayerStats, SizeRecord
from bot.store import GameRow, PastGame, names_at, player_of
from bot.work import DISCORD
from engine import Event
from engine.replay import game_file
from engine.views import PublicView

from ._core import Core, log

MAX_PAST_GAMES = 25
FINISHED_KEPT = 32  # finished games' replays kept per process (a few hundred KB each)
ALL_GAMES = 1_000_000  # "every finished game" for the store's history query


class StatsCalls(Core):
    """Stats, ratings and finished games of a server (guild)."""

    # ------------------------------------------------------------------ stats
    async def player_stats(self, guild: int, user: str) -> PlayerStats:
        """``user``'s finished games in ``guild``: games, wins (shared wins count), win
        rate, average and best prestige, for 3- and 4-player games and overall. A game
        counts for each person who played a seat of it, substitutes included (the seat's
        result); the ratings count only seats one person played throughout."""
        user = self._check_pid(user)
        sizes: dict[int, SizeRecord] = {3: SizeRecord(3), 4: SizeRecord(4), 0: SizeRecord(0)}
        for h in await self.store.history(guild, ALL_GAMES):
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

    # ------------------------------------------------------------------ ratings
    async def leaderboard(self, guild: int) -> list[ratings.Ranked]:
        """The guild's players (computer players per level) ranked by skill rating; games
        finished since the last look are folded in first."""
        rated = await self.store.update_ratings(guild, ratings.rate)
        if rated:
            log.info("guild %s: %d finished game(s) rated", guild, rated)
        return ratings.leaderboard(await self.store.ratings(guild))

    async def rebuild_ratings(self, guild: int) -> list[ratings.Ranked]:
        """Recompute the guild's ratings from its stored history alone (the same table as
        the one kept up game by game)."""
        await self.store.update_ratings(guild, ratings.rate, rebuild=True)
        return ratings.leaderboard(await self.store.ratings(guild))

    # ------------------------------------------------------------------ past games
    async def past_games(self, guild: int, limit: int = 10) -> list[PastGame]:
        """The guild's most recent finished games, newest first, with their final posts."""
        return await self.store.past_games(guild, max(1, min(limit, MAX_PAST_GAMES)))

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
                            asker: str | None = None) -> FinishedGame:
        """A finished game of this server, re-played from its seed and log: the channel's
        latest game, or game ``game_id``. Refused while it runs (its seed is secret, R15).
        ``asker``: the person who asks (None: the bot itself, e.g. for the final post); a
        practice game is its learner's alone — anyone else hears ``history.no_game``, as
        for a number that names no game, whatever state it is in."""
        row = await self._past_row(guild, channel, game_id, asker)
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
                        asker: str | None = None) -> str:
        """The finished game's file as JSON text: seed, players, actions and the public
        events as posted, for ``python -m engine.replay`` (refused while it runs, R15). An
        action of a seat that changed hands also names who made it (``played_by``: their
        id, ``played_by_name``), the file's ``names`` being the seats' at the end.
        ``asker`` as for ``finished_game`` (a practice game's file is its learner's)."""
        game = await self.finished_game(guild, channel, game_id, asker=asker)
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
