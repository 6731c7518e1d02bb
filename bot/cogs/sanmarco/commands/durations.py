"""When a player is away until, as they type it for ``/sanmarco seat away``: a duration
(``for:`` 5d, 36h, 2d 6h, 90m; English, German and French units) or a date and time
(``until:`` 2026-12-03 18:00, 03.12.2026 18:00, a date alone: its midnight, a time alone:
its next occurrence), read in the channel's time zone. Plain functions, no Discord: what a
person typed is read here and nowhere else; the service checks the range (future, at most
14 days)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.service.errors import BadInput, Code

MAX_TYPED = 40  # longer is not a duration or a date

_DAY, _HOUR, _MINUTE = 86400, 3600, 60
UNITS: dict[str, int] = {
    **dict.fromkeys(("d", "day", "days", "t", "tag", "tage", "j", "jour", "jours"), _DAY),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "std", "stunde", "stunden", "heure",
                     "heures"), _HOUR),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes", "minuten"), _MINUTE),
}
_PART = re.compile(r"(\d{1,4}(?:[.,]\d{1,2})?)\s*([^\W\d_]+)")
_JOINERS = re.compile(r"^(?:\s|,|and|und|et)*$")
_DATES = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d, %H:%M", "%Y-%m-%d",
          "%d.%m.%Y %H:%M", "%d.%m.%Y, %H:%M", "%d.%m.%Y")
_TIMES = ("%H:%M", "%Hh%M", "%Hh")


def zone_of(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def duration_seconds(typed: str) -> float | None:
    """``5d``, ``36h``, ``2d 6h``, ``1,5 Tage``, ``3 jours``: seconds; None if that is not a
    duration."""
    text = typed.strip().lower()
    total = 0.0
    end = 0
    found = False
    for match in _PART.finditer(text):
        unit = UNITS.get(match[2])
        if unit is None or not _JOINERS.match(text[end:match.start()]):
            return None
        total += float(match[1].replace(",", ".")) * unit
        end = match.end()
        found = True
    if not found or not _JOINERS.match(text[end:]):
        return None
    return total


def moment(typed: str, now: float, zone: str) -> float | None:
    """A date and time (or a date: its midnight; a time: its next occurrence) in the time
    zone ``zone``: epoch seconds; None if that is not a date."""
    text = " ".join(typed.strip().split())
    tz = zone_of(zone)
    for fmt in _DATES:
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=tz).timestamp()
        except ValueError:
            continue
    for fmt in _TIMES:
        try:
            clock = datetime.strptime(text.lower(), fmt)
        except ValueError:
            continue
        today = datetime.fromtimestamp(now, tz)
        at = today.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
        if at.timestamp() <= now:
            at = (at.replace(tzinfo=None) + timedelta(days=1)).replace(tzinfo=tz)
        return at.timestamp()
    return None


def away_until(for_: str | None, until: str | None, now: float, zone: str) -> float:
    """The moment a player is away until, from exactly one of ``for_`` (a duration from
    ``now``) and ``until`` (a date in the time zone ``zone``). Raises BadInput
    (``away.when``) for neither, both, or something else."""
    given = [x for x in (for_, until) if x is not None]
    if len(given) != 1 or not isinstance(given[0], str) or len(given[0]) > MAX_TYPED:
        raise BadInput(Code.AWAY_WHEN)
    if for_ is not None:
        seconds = duration_seconds(for_)
        if seconds is None or seconds <= 0:
            raise BadInput(Code.AWAY_WHEN)
        return now + seconds
    assert until is not None
    at = moment(until, now, zone)
    if at is None:
        raise BadInput(Code.AWAY_WHEN)
    return at
