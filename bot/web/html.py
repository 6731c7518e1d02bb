"""The pages as HTML, from the Jinja2 templates in ``templates/`` (escaping on: whatever a
player typed, a display name, is text wherever it lands): a game's page, its pieces the live
stream sends again (the board's facts, the timing, the log's entries), a player's own page,
and the pages that say no (an address that names nothing, a bad request, too many, busy).

The log is made from the structured events and the seats' names, never from Discord's
markup: each line is the bot's own (``text.event_line``) written with a placeholder for
each person, then cut into pieces of plain text and names, which the template shows
(a name in bold, exactly as typed: ``<t:1>``, ``**x**`` or ``</script>`` are just
characters).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jinja2
import markupsafe

from bot import i18n, text
from bot.i18n import Tr
from bot.service import PageGame, PageStep
from bot.store import SeatNames, player_of
from engine.ai import is_computer

from .decision import Decision

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}  # each in itself

ENV = jinja2.Environment(loader=jinja2.PackageLoader("bot.web", "templates"),
                         autoescape=True, undefined=jinja2.StrictUndefined,
                         trim_blocks=True, lstrip_blocks=True)

# A person in a line while it is written: private-use characters no sentence holds.
_MARK = "\ue000{}\ue001"
_MARKED = re.compile("\ue000([0-9]+)\ue001")


@dataclass(frozen=True)
class Moment:
    """A moment as a ``<time>`` shows it: ISO for the script (the reader's own time
    zone), UTC until then."""

    iso: str
    shown: str


@dataclass(frozen=True)
class Piece:
    """A piece of a log line: plain words, or a person's name as typed (``name``)."""

    text: str
    name: bool = False


@dataclass(frozen=True)
class Entry:
    """One step of the log: when, and its lines (each a run of pieces)."""

    seq: int
    at: Moment | None
    lines: tuple[tuple[Piece, ...], ...]


def choose_language(asked: str | None, accept: str | None) -> str:
    """The page's language: ``?lang=`` when it is one of ours, else the browser's first
    preference we have (``Accept-Language``), else English."""
    if asked in i18n.LANGUAGES:
        return str(asked)
    weighted = []
    for n, part in enumerate((accept or "").split(",")[:20]):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        weighted.append((-weight, n, tag.strip().lower()[:2]))
    for _, _, tag in sorted(weighted):
        if tag in i18n.LANGUAGES:
            return tag
    return i18n.DEFAULT


def page_words(tr: Tr, game: PageGame) -> text.PageWords:
    return text.page_words(tr, game.game_id)


def moment(at: float | None) -> Moment | None:
    """``at`` (seconds since 1970) as a Moment; None when it is none or out of range."""
    if at is None:
        return None
    try:
        when = datetime.fromtimestamp(at, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return Moment(when.isoformat().replace("+00:00", "Z"), when.strftime("%Y-%m-%d %H:%M UTC"))


def lines(tr: Tr, step: PageStep) -> tuple[tuple[Piece, ...], ...]:
    """A step's public lines as pieces: each person a placeholder while the bot's line is
    written, then their name as typed."""
    names = step.names
    people = [pid for pid in names if not is_computer(player_of(names, pid))]
    marks = {pid: _MARK.format(i) for i, pid in enumerate(people)}
    marked = SeatNames({**names, **marks}, playing=marks)
    out = []
    for ev in step.events:
        line = text.event_line(tr, ev, marked)
        if not line:
            continue
        parts = _MARKED.split(line)  # words, a person's index, words, …
        out.append(tuple(Piece(names[people[int(p)]], True) if k % 2 else Piece(p)
                         for k, p in enumerate(parts) if p))
    return tuple(out)


def entry(tr: Tr, step: PageStep) -> Entry | None:
    said = lines(tr, step)
    return Entry(step.seq, moment(step.at), said) if said else None


def _macro(name: str) -> Callable[..., str]:
    macro: Callable[..., str] = getattr(ENV.get_template("parts.html").module, name)
    return macro


def facts(board: text.BoardFacts, words: text.PageWords) -> str:
    """The board in words, one fact a line (what the picture's alt text says at once)."""
    return str(_macro("facts")(board, words))


def deadline(game: PageGame) -> float | None:
    if game.awaited_since is None or game.turn_timer_hours <= 0:
        return None
    return game.awaited_since + game.turn_timer_hours * 3600


def timing(game: PageGame, words: text.PageWords) -> str:
    """Since when the game waits and when the turn timer runs out (a running game's)."""
    return str(_macro("timing")(moment(game.awaited_since), moment(deadline(game)), words))


def log_entry(tr: Tr, step: PageStep) -> str:
    """One step of the log as a list item (empty when it says nothing in public)."""
    e = entry(tr, step)
    return str(_macro("entry")(e)) if e is not None else ""


def log(tr: Tr, steps: Sequence[PageStep], words: text.PageWords) -> str:
    """The log's entries, the newest first (a long game's latest moves at the top)."""
    return str(_macro("log")(_entries(tr, steps), words))


def _entries(tr: Tr, steps: Sequence[PageStep]) -> list[Entry]:
    return list(reversed([e for s in steps if (e := entry(tr, s)) is not None]))


def render(template: str, language: str, title: str, **values: Any) -> str:
    values.setdefault("data", {})
    values.setdefault("script", False)
    return ENV.get_template(template).render(language=language, title=title, **values)


def sorry_page(language: str, said: tuple[str, str]) -> str:
    """A page that says no: its heading and its sentence."""
    heading, sentence = said
    return render("sorry.html", language, heading, heading=heading, sentence=sentence)


def bad_link_page(language: str) -> str:
    return sorry_page(language, text.bad_link(i18n.translations(language)))


def store_away_page(language: str) -> str:
    return sorry_page(language, text.store_away(i18n.translations(language)))


def not_found_page(language: str) -> str:
    return sorry_page(language, text.not_found(i18n.translations(language)))


def game_page(tr: Tr, language: str, game: PageGame, steps: Sequence[PageStep],
              base: str, pictures: int | None = None) -> str:
    """A game's page: the board with its facts, the log, the replay, the game file, a
    finished game's summary; the script follows a running game live from its version on.
    ``pictures``: the version the pictures' addresses name (the replay's)."""
    words = page_words(tr, game)
    at = game.version if pictures is None else pictures
    values: dict[str, Any] = {
        "words": words, "base": base, "languages": LANGUAGE_NAMES.items(), "steps": bool(steps),
        "over": _over(tr, game)}
    data: dict[str, object] = {"version": game.version, "base": base, "lang": language,
                               "status": game.status, "pictures": at}
    if not steps:
        values["said"] = words.abandoned if game.status == "abandoned" else words.lobby
    else:
        last = steps[-1]
        board = text.board_facts(tr, last.view, last.names)
        values.update(
            board=board, alt=text.board_alt(tr, last.view, last.names), last=last.seq,
            board_src=f"{base}/v/{at}/replay/{last.seq}.png?lang={language}",
            since=moment(game.awaited_since), deadline=moment(deadline(game)),
            standings=board.standings if game.status == "finished" else None,
            entries=_entries(tr, steps), finished=game.status == "finished")
        data["seq"] = last.seq
    return render("game.html", language, words.title, data=data, script=True, **values)


def _over(tr: Tr, game: PageGame) -> str | None:
    """What the page says instead of "live" once the game can no longer change."""
    if game.status == "finished":
        return text.game_over_page(tr)
    if game.status == "abandoned":
        return page_words(tr, game).abandoned
    return None


def decision_html(tr: Tr, d: Decision, words: text.SeatWords) -> str:
    """A seat's decision (its secret drawn cards included: its own page alone shows it)."""
    return str(_seat_macro("decision")(d, words))


def _seat_macro(name: str) -> Callable[..., str]:
    macro: Callable[..., str] = getattr(ENV.get_template("seat_parts.html").module, name)
    return macro


def seat_page(tr: Tr, language: str, game: PageGame, steps: Sequence[PageStep], base: str,
              d: Decision, csrf: str, pictures: int,
              post: Mapping[str, int | str] | None = None, my_games: bool = False) -> str:
    """A seat's own page: its decision beside the board, its facts and the log, live; the
    script sends a choice with the version shown and the session's CSRF token. ``post``:
    whether the shown version's post reached the channel (``bot.web.posted``); said only
    while it has not. ``my_games``: the reader is signed in with Discord (a link back to
    their My games page)."""
    words = text.seat_words(tr, game.game_id)
    page = page_words(tr, game)
    data: dict[str, object] = {"version": game.version, "base": base, "lang": language,
                               "status": game.status, "pictures": pictures, "csrf": csrf,
                               "offer": words.offer, "limit": words.limit,
                               "sending": words.sending, "yours": words.yours,
                               "title": words.title, "mine-title": words.mine_title}
    values: dict[str, Any] = {"words": words, "page": page, "base": base,
                              "languages": LANGUAGE_NAMES.items(), "over": _over(tr, game),
                              "decision": markupsafe.Markup(decision_html(tr, d, words)),
                              "undo": text.label(tr, "undo"),
                              "steps": bool(steps), "post": post or {},
                              "my_games": text.sign_in_words(tr).title if my_games else None}
    if steps:
        last = steps[-1]
        values.update(
            board=text.board_facts(tr, last.view, last.names),
            alt=text.board_alt(tr, last.view, last.names),
            board_src=f"{base}/v/{pictures}/replay/{last.seq}.png?lang={language}",
            entries=_entries(tr, steps))
        data["seq"] = last.seq
    # the tab says when the game awaits the seat (the script keeps it so as the game goes)
    title = words.mine_title if d.mine else words.title
    return render("seat.html", language, title, data=data, script=True, seat=True, **values)
