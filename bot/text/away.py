"""Players away from a server's games: what the channel reads when someone goes away or
comes back, the away lines above a post's **Now** line and in ``/sanmarco status``, and the
private answers of ``/sanmarco seat away`` and ``back``.

Public words give the time in the channel's time zone (its setting), as the channel's
players agreed to read times ("Mon 3 Mar, 18:00"), followed by Discord's relative time,
which every reader sees in their own terms ("in 5 days"); private answers use Discord's
timestamps, which each reader sees in their own time zone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime

from bot.i18n import Tr
from bot.service.results import AwayGame

from .markup import channel, timestamp
from .names import who
from .settings import duration, language_code


def local_time(tr: Tr, when: float, zone: str) -> str:
    """A moment in the time zone ``zone`` and the reader's words: "Mon 3 Mar, 18:00"."""
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    # TRANSLATORS: a date pattern of Unicode CLDR (Babel fills it in): EEE the weekday,
    # d the day, MMM the month, HH:mm the time; e.g. German "EEE d. MMM, HH:mm".
    pattern = tr.gettext("EEE d MMM, HH:mm")
    return str(format_datetime(datetime.fromtimestamp(when, tz), pattern, tzinfo=tz,
                               locale=language_code(tr)))


def _until(tr: Tr, until: float, zone: str) -> str:
    """Until when, for the channel: its local time, then Discord's relative time (the
    same punctuation in every language)."""
    return f"{local_time(tr, until, zone)} ({timestamp(until)})"


def went_away(tr: Tr, pid: str, until: float, zone: str, waits: float,
              names: Mapping[str, str] | None = None) -> str:
    """The channel's post when a player goes away (``waits``: hours the game waits on each
    of their decisions before its turn timer runs again; 0: no turn timer here)."""
    player, time = who(tr, pid, names), _until(tr, until, zone)
    if waits > 0:
        return tr.gettext("{player} is away until {time}: no reminders for them meanwhile, "
                          "and the game waits up to {duration} on each of their decisions "
                          "before the turn timer runs again.").format(
            player=player, time=time, duration=duration(tr, waits))
    return tr.gettext("{player} is away until {time}: no reminders for them "
                      "meanwhile.").format(player=player, time=time)


def came_back(tr: Tr, pid: str, names: Mapping[str, str] | None = None) -> str:
    """The channel's post when a player ends their away time early."""
    return tr.gettext("{player} is back.").format(player=who(tr, pid, names))


def away_lines(tr: Tr, away: Mapping[str, float], zone: str,
               names: Mapping[str, str] | None = None, *,
               order: Iterable[str] = ()) -> list[str]:
    """One line per player away (pid → until when), in seat ``order``: "@ann is away until
    Mon 3 Mar, 18:00 (in 5 days)." (just above a post's Now line, and in ``status``)."""
    seats = [p for p in order if p in away] + sorted(p for p in away if p not in set(order))
    return [tr.gettext("{player} is away until {time}.").format(
        player=who(tr, p, names), time=_until(tr, away[p], zone)) for p in dict.fromkeys(seats)]


def _told_in(tr: Tr, games: Sequence[AwayGame]) -> str:
    return tr.gettext("Told in: {games}.").format(games=", ".join(
        f"#{g.game_id} {channel(g.channel_id)}" for g in games))


def away_set(tr: Tr, until: float, games: Sequence[AwayGame]) -> str:
    """The private answer to ``/sanmarco seat away``."""
    head = tr.gettext("You are away from your San Marco games on this server until {time} "
                      "({relative}): no reminders, and each game waits on your decisions up "
                      "to its channel's limit. `/sanmarco seat back` ends it "
                      "early.").format(time=timestamp(until, "f"), relative=timestamp(until))
    if games:
        return head + "\n" + _told_in(tr, games)
    return head + "\n" + tr.gettext("You have no running game here now; a game you start "
                                    "meanwhile waits for you too.")


def away_head(tr: Tr, until: float) -> str:
    """The first line of ``/sanmarco-server games`` for a player away from the server's
    games: until when (in the reader's own time, a Discord timestamp), and how to end it."""
    return tr.gettext("You are away until {time} ({relative}); `/sanmarco seat back` ends "
                      "it.").format(time=timestamp(until, "f"), relative=timestamp(until))


def back_answer(tr: Tr, games: Sequence[AwayGame]) -> str:
    """The private answer to ``/sanmarco seat back``."""
    head = tr.gettext("Welcome back: your turns are timed and reminded as usual again, each "
                      "with its whole turn timer from now.")
    return head + ("\n" + _told_in(tr, games) if games else "")
