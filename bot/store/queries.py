"""The column lists that several queries of ``Store`` read, and the rows made of them.

A parser takes a row as the backend returns it (SQLite: ints for booleans; PostgreSQL:
bools) and makes the same frozen row on both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.store.rows import (
    DEFAULT_AWAY_CAP_HOURS,
    DEFAULT_REMINDER_HOURS,
    DueGame,
    GameRow,
    HistoryRow,
    NotifyPref,
    PastGame,
    RatingRow,
    Seat,
    SeatNames,
    Settings,
)
from bot.store.tx import Row

if TYPE_CHECKING:
    from bot.store.rows import RowChanges


GAME_COLUMNS = ("id", "guild_id", "channel_id", "status", "creator", "seats", "players",
                "seed", "state", "version", "created_at", "last_action_at", "awaited_since",
                "last_reminded_at", "ended_at", "undos", "parent_id", "invited", "rematch_of",
                "practice", "lessons")
GAME_COLS = ", ".join(GAME_COLUMNS)
G_GAME_COLS = ", ".join("g." + c for c in GAME_COLUMNS)  # of ``games g``, joined
N_GAME = len(GAME_COLUMNS)

SETTINGS_COLUMNS = ("reminder_hours", "quiet_start", "quiet_end", "language", "timezone",
                    "turn_timer_hours", "computer_level", "threads", "away_cap_hours", "pages",
                    "hints")
SETTINGS_COLS = ", ".join(SETTINGS_COLUMNS)

HISTORY_COLUMNS = ("game_id", "guild_id", "channel_id", "finished_at", "players", "winners",
                   "scores")
# of ``history h``, then whether a hint was given in the game (its ``games.hinted``)
H_HISTORY_COLS = (", ".join("h." + c for c in HISTORY_COLUMNS)
                  + ", EXISTS (SELECT 1 FROM games hg WHERE hg.id = h.game_id AND hg.hinted)")
N_HISTORY = len(HISTORY_COLUMNS) + 1

ACTION_COLUMNS = ("game_id", "seq", "pid", "action", "at", "computer")
RATING_COLS = "player, mu, sigma, games"
NOTIFY_COLS = "pid, mode, dm_refused_at, hint_pending"

# The columns a caller may write through ``Store.commit`` (ids, versions and the timer
# moments kept by triggers are the store's own).
WRITABLE = frozenset({"status", "players", "seed", "state", "last_action_at",
                      "awaited_since", "last_reminded_at", "ended_at", "seats", "creator",
                      "lessons", "awaiting"})


def seats_json(players: Iterable[Seat]) -> str:
    return json.dumps([s.to_dict() for s in players], separators=(",", ":"))


def game_row(row: Row) -> GameRow:
    """A ``GameRow`` from the first ``N_GAME`` values of ``row`` (``GAME_COLUMNS``)."""
    seats = tuple(Seat(str(d["pid"]), d.get("name"), bool(d.get("computer", False)),
                       tuple(str(v) for v in d.get("votes", ())), int(d.get("timeouts", 0)),
                       d.get("level"), d.get("user"), d.get("vote_for"))
                  for d in json.loads(row[6]))
    return GameRow(row[0], row[1], row[2], row[3], row[4], row[5], seats, row[7], row[8],
                   row[9], row[10], row[11], row[12], row[13], row[14], row[15], row[16],
                   tuple(str(p) for p in json.loads(row[17] or "[]")), row[18],
                   bool(row[19]), str(row[20] or ""))


def history_row(row: Row) -> HistoryRow:
    """A ``HistoryRow`` from the first ``N_HISTORY`` values of ``row``."""
    return HistoryRow(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])),
                      tuple(json.loads(row[5])), json.loads(row[6]), hinted=bool(row[7]))


def history_values(h: HistoryRow) -> tuple[object, ...]:
    """A history row as stored (``HISTORY_COLUMNS``; its lists as JSON text)."""
    return (h.game_id, h.guild_id, h.channel_id, h.finished_at, json.dumps(list(h.players)),
            json.dumps(list(h.winners)), json.dumps(dict(h.scores)))


def settings_values(s: Settings) -> tuple[object, ...]:
    """A channel's settings as stored (``channel_id``, then ``SETTINGS_COLUMNS``)."""
    return (s.channel_id, float(s.reminder_hours), s.quiet_start, s.quiet_end, s.language,
            s.timezone, float(s.turn_timer_hours), s.computer_level, s.threads,
            float(s.away_cap_hours), bool(s.pages), bool(s.hints))


def settings_row(channel_id: int, row: Row) -> Settings:
    """A channel's settings from ``SETTINGS_COLUMNS`` (SQLite's flag is 0/1, PostgreSQL's
    a boolean; NULL: the bot's default)."""
    hours, qs, qe, lang, tz, timer, level, threads, cap, pages, hints = row
    return Settings(channel_id, hours, qs, qe, lang, tz, timer, level,
                    None if threads is None else bool(threads), cap, bool(pages),
                    bool(hints))


def due_game(row: Row) -> DueGame:
    """A game's columns, its channel's settings (NULL: never set) and the due moment."""
    game = game_row(row)
    hours, qs, qe, lang, tz, timer, level, threads, cap, pages, hints, at = row[N_GAME:]
    return DueGame(game, Settings(
        game.channel_id, DEFAULT_REMINDER_HOURS if hours is None else hours, qs, qe, lang,
        tz or "UTC", timer or 0.0, level or "normal",
        None if threads is None else bool(threads),
        DEFAULT_AWAY_CAP_HOURS if cap is None else cap, pages is None or bool(pages),
        hints is None or bool(hints)), at)


def past_game(row: Row) -> PastGame:
    """A history row (``N_HISTORY`` values), then the game's seats and its final post."""
    seats = json.loads(row[N_HISTORY])
    names = SeatNames({str(d["pid"]): str(d["name"]) for d in seats if d.get("name")},
                      {str(d["pid"]): str(d["user"]) for d in seats if d.get("user")})
    return PastGame(history_row(row), names, row[N_HISTORY + 1], row[N_HISTORY + 2])


def rating_row(row: Row) -> RatingRow:
    return RatingRow(row[0], row[1], row[2], row[3])


def notify_pref(row: Row) -> NotifyPref:
    return NotifyPref(row[0], row[1], row[2], bool(row[3]))


def row_values(fields: RowChanges | None) -> dict[str, object]:
    """The columns a write of ``fields`` sets, as the database stores them (seats as JSON);
    raises ValueError for a column no caller may write (ids, versions, timer moments)."""
    values: dict[str, object] = dict(fields or {})
    bad = set(values) - WRITABLE
    if bad:
        raise ValueError(f"not writable: {sorted(bad)}")
    if fields is not None and "players" in fields:
        values["players"] = seats_json(fields["players"])
    return values
