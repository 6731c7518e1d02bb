"""A channel's settings and reminders, and a server's history."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import i18n
from bot.service.errors import (
    BadInput,
    Code,
)
from bot.service.results import (
    Reminder,
    Standing,
)
from bot.store import (
    DueGame,
    GameRow,
    HistoryRow,
    Settings,
    Shards,
)
from bot.work import DISCORD
from engine import GameState
from engine.ai import LEVELS

from ._core import Core, log
from .posts import Post, PostKind, SettingsChanged, outbox_entry

REMINDER_PAGE = 200  # due games read at a time (fewer objects alive at once: short GC pauses)


class ChannelCalls(Core):
    """The calls about a channel and a server rather than one game."""

    async def settings(self, channel: int) -> Settings:
        """The channel's settings (defaults if never set)."""
        return await self.store.settings(channel)

    async def set_settings(self, channel: int, *, reminder_hours: float | None = None,
                           quiet_hours: tuple[int, int] | None | str = "keep",
                           language: str | None = "keep", timezone: str | None = None,
                           turn_timer_hours: float | None = None,
                           computer_level: str | None = None, threads: bool | None = None,
                           away_cap_hours: float | None = None, pages: bool | None = None,
                           hints: bool | None = None, guild: int | None = None,
                           by: str | None = None) -> Settings:
        """Change some settings (None: keep it); ``quiet_hours=None`` turns quiet hours off;
        ``reminder_hours`` and ``turn_timer_hours`` are 0 (off) or from 15 minutes to 14
        days; ``computer_level`` one of ``engine.ai.LEVELS``; ``language`` is ``en``,
        ``de`` or ``fr``, or None: the channel follows its server's language (``"keep"``:
        unchanged); ``threads``: whether a game opened in the channel gets a thread of its
        own; ``away_cap_hours``: how long one game waits on an away player's decision, 0
        (not at all) to 14 days; ``pages``: whether its games have web pages; ``hints``:
        whether its players may ask for hints (a hinted game is not rated). ``by`` (a
        member of ``guild``): the change is posted in the channel in the same transaction,
        with who acts next in its running game."""
        old = await self.store.settings(channel)
        hours = old.reminder_hours if reminder_hours is None else reminder_hours
        if not _hours_or_off(hours):
            raise BadInput(Code.REMINDER_HOURS)
        timer = old.turn_timer_hours if turn_timer_hours is None else turn_timer_hours
        if not _hours_or_off(timer):
            raise BadInput(Code.TURN_TIMER)
        cap = old.away_cap_hours if away_cap_hours is None else away_cap_hours
        if not (isinstance(cap, int | float) and not isinstance(cap, bool)
                and 0 <= cap <= 24 * 14):
            raise BadInput(Code.AWAY_CAP)
        level = old.computer_level if computer_level is None else computer_level
        if not isinstance(level, str) or level not in LEVELS:
            raise BadInput(Code.SETTINGS_LEVEL)
        qs, qe = old.quiet_start, old.quiet_end
        if quiet_hours is None:
            qs = qe = None
        elif quiet_hours != "keep":
            if (not isinstance(quiet_hours, tuple) or len(quiet_hours) != 2
                    or not all(type(h) is int and 0 <= h <= 23 for h in quiet_hours)):
                raise BadInput(Code.QUIET_HOURS)
            qs, qe = quiet_hours
        lang = old.language if language == "keep" else language
        if lang is not None and not i18n.is_language(lang):
            raise BadInput(Code.LANGUAGE)
        tz = old.timezone if timezone is None else timezone
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError, TypeError):
            raise BadInput(Code.TIMEZONE) from None
        if threads is not None and not isinstance(threads, bool):
            raise BadInput(Code.MALFORMED)
        if pages is not None and not isinstance(pages, bool):
            raise BadInput(Code.MALFORMED)
        if hints is not None and not isinstance(hints, bool):
            raise BadInput(Code.MALFORMED)
        new = Settings(channel, float(hours), qs, qe, lang, tz, float(timer), level,
                       old.threads if threads is None else threads, float(cap),
                       old.pages if pages is None else pages,
                       old.hints if hints is None else hints)
        posts = []
        if by is not None and guild is not None:
            row = await self.store.active_game(channel)
            line = SettingsChanged(self._check_pid(by), new)
            if row is not None and row.state is not None:
                posts.append(self._note(row, GameState.from_json(row.state), [line]))
            else:
                posts.append(Post(PostKind.NOTE, guild, channel, lines=(line,)))
        await self.store.set_settings(new, [outbox_entry(p, self.clock()) for p in posts])
        return new

    async def channel_language(self, channel: int, guild_locale: str | None = None) -> str:
        """The language of the channel's public posts, reminders and pictures: its setting,
        else the server's preferred locale (``guild_locale``, Discord's locale code) when
        German or French, else English (``en``, ``de`` or ``fr``)."""
        if guild_locale is not None and not isinstance(guild_locale, str):
            raise BadInput()
        return i18n.channel_language((await self.store.settings(channel)).language,
                                     guild_locale)

    # ------------------------------------------------------------------ reminders
    async def due_reminders(self, now: float, *, shards: Shards | None = None
                            ) -> list[Reminder]:
        """Running games whose awaited humans have waited a channel's interval since the
        decision started or since the last reminder, outside the channel's quiet hours;
        with ``shards``, only in the guilds of those Discord shards (this process's: a
        guild's reminders are sent by the one process that holds its shard).
        Only the due games are read (an indexed query, a page at a time), and their states
        are read in Discord's worker lane (``bot.work``): the event loop is never held up by the
        games.
        Players away from the server's games are not reminded; a game that waits on away
        players only is marked reminded without a post (it is not read again before the
        next interval)."""
        due: list[Reminder] = []
        after: tuple[float, int] | None = None
        while True:
            page = await self.store.due_games(now, after=after, limit=REMINDER_PAGE,
                                              shards=shards)
            if not page:
                return due
            away = {(r.guild_id, r.pid) for r in await self.store.away_rows(
                {item.game.guild_id for item in page}) if r.until > now}
            found, silent = await self.work.run(DISCORD, ChannelCalls._reminders, page,
                                                now, away)
            due += found
            for game_id, version in silent:
                await self.store.mark_reminded(game_id, version, now)
            after = page[-1].after

    @staticmethod
    def _reminders(page: list[DueGame], now: float,
                   away: Collection[tuple[int, str]] = frozenset()
                   ) -> tuple[list[Reminder], list[tuple[int, int]]]:
        due = []
        silent = []
        for item in page:
            row = item.game
            try:
                held = dict.fromkeys((p for g, p in away if g == row.guild_id), 0.0)
                reminder = ChannelCalls._reminder(row, item.settings, now, item.at,
                                                  away=Core._seats_away(row, held))
            except Exception:  # one unreadable game must not stop the others' reminders
                log.exception("reminders: game %s in channel %s cannot be read",
                              row.id, row.channel_id)
                continue
            if reminder is not None and reminder.pids:
                due.append(reminder)
            elif reminder is not None:
                silent.append((row.id, row.version))
        return due, silent

    @staticmethod
    def _reminder(row: GameRow, settings: Settings, now: float,
                  due: float = 0.0, *, away: Collection[str] = ()) -> Reminder | None:
        """The game's reminder if one is due now (``pids``: whom it reminds, the awaited
        humans not ``away``: none when all of them are away); None if none is due."""
        assert row.awaited_since is not None and row.state is not None
        ref = max(row.awaited_since, row.last_reminded_at or 0.0)
        if now - ref < settings.reminder_hours * 3600 or _is_quiet(now, settings):
            return None
        state = GameState.from_json(row.state)
        view = state.public_view()
        computers = Core._computer_pids(row)
        humans = tuple(p for p in view["waiting_for"] if p not in computers)
        if not humans:
            return None
        return Reminder(row.id, row.guild_id, row.channel_id,
                        tuple(p for p in humans if p not in away),
                        {p: view["awaiting"][p] for p in humans}, row.awaited_since,
                        row.version, due, settings.language, view, Core._turn(state, row),
                        Core._names(row))

    async def remind(self, item: Reminder) -> bool:
        """Record the reminder with its post (the awaited players, each reminded their way),
        at once; False if the game has moved on meanwhile (nothing is posted)."""
        post = Post(PostKind.REMINDER, item.guild_id, item.channel, item.game_id,
                    item.turn, view=item.view, names=item.names,
                    awaiting=dict(item.awaiting), mention=item.pids, since=item.since)
        return await self.store.mark_reminded(item.game_id, item.version, self.clock(),
                                              [outbox_entry(post, self.clock())])

    async def mark_reminded(self, channel: int, version: int) -> bool:
        """Record that the reminder for ``Reminder.version`` was posted (False if the game
        has moved on meanwhile)."""
        row = await self.store.active_game(channel)
        if row is None:
            return False
        return await self.store.mark_reminded(row.id, version, self.clock())

    # ------------------------------------------------------------------ stats
    async def history(self, guild: int, limit: int = 100) -> list[HistoryRow]:
        """The guild's finished games, newest first."""
        return await self.store.history(guild, limit)

    async def standings(self, guild: int) -> list[Standing]:
        """Games finished and won per player in the guild, best first."""
        played: dict[str, int] = {}
        won: dict[str, int] = {}
        for h in await self.store.history(guild, limit=1_000_000):
            for p in h.players:
                played[p] = played.get(p, 0) + 1
            for p in h.winners:
                won[p] = won.get(p, 0) + 1
        out = [Standing(p, n, won.get(p, 0)) for p, n in played.items()]
        return sorted(out, key=lambda s: (-s.won, -s.played, s.pid))



def _hours_or_off(hours: object) -> bool:
    """0 (off), or from 15 minutes to 14 days (a number, not a flag)."""
    return (isinstance(hours, int | float) and not isinstance(hours, bool)
            and (hours == 0 or 0.25 <= hours <= 24 * 14))


def _is_quiet(now: float, settings: Settings) -> bool:
    """Whether ``now`` falls in the channel's quiet hours [start, end) in its time zone."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return False
    try:
        hour = datetime.fromtimestamp(now, ZoneInfo(settings.timezone)).hour
    except (ZoneInfoNotFoundError, ValueError):
        hour = datetime.fromtimestamp(now, ZoneInfo("UTC")).hour
    return start <= hour < end if start < end else (hour >= start or hour < end)


