"""The pages as HTML: a game's page, its pieces the live stream sends again (the board's
facts, the log's lines), and the page for an address that names nothing. Every sentence
comes from ``bot.text`` in the page's language; everything a player typed (a display name)
is escaped here, once, where it becomes HTML.

The log's lines are the bot's own (``text.event_line``), written for Discord: a person is
a mention and bold is ``**``; ``from_discord`` turns that markup into HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from bot import i18n, text
from bot.i18n import Tr
from bot.service import PageGame, PageStep
from bot.store import player_of

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}  # each in itself

_MENTION = re.compile(r"&lt;@!?(\d+)&gt;")
_STAMP = re.compile(r"&lt;t:(\d+)(?::[a-zA-Z])?&gt;")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ESCAPED = re.compile(r"\\([\\*_~`|<>])")


def esc(words: object) -> str:
    return html.escape(str(words), quote=True)


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


def when(at: float) -> str:
    """A moment as a ``<time>`` the page's script shows in the reader's own time zone (UTC
    until then, or without scripts)."""
    moment = datetime.fromtimestamp(at, UTC)
    return (f'<time datetime="{moment.isoformat().replace("+00:00", "Z")}">'
            f'{moment.strftime("%Y-%m-%d %H:%M")} UTC</time>')


def from_discord(line: str, names: Mapping[str, str]) -> str:
    """A line the bot writes for Discord as HTML: mentions become names, ``<t:…>`` a time,
    ``**bold**`` bold, markup escapes plain characters."""
    people = {player_of(names, pid): name for pid, name in names.items()}
    out = esc(line)
    out = _MENTION.sub(lambda m: f"<b>{esc(people.get(m.group(1), m.group(1)))}</b>", out)
    out = _STAMP.sub(lambda m: when(float(m.group(1))), out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    return _ESCAPED.sub(r"\1", out)


def facts(board: text.BoardFacts, words: text.PageWords) -> str:
    """The board in words, one fact a line (what the picture's alt text says at once)."""
    parts = [f"<h2>{esc(words.facts)}</h2>",
             f'<p class="heading">{esc(board.heading)} {esc(board.phase)}</p>',
             f'<p class="now">{esc(board.now)}</p>' if board.now else "",
             f"<p>{esc(board.doge)}</p>",
             f"<p>{esc(board.hand)}</p>" if board.hand else "",
             f"<h3>{esc(words.players)}</h3>", "<ul>",
             *(f"<li><b>{esc(name)}</b>: {esc(what)}</li>" for name, what in board.players),
             "</ul>", f"<h3>{esc(words.districts)}</h3>", '<ul class="districts">',
             *(f"<li><b>{esc(d)}</b>: {esc(lead)}</li>" for d, lead in board.districts),
             "</ul>"]
    return "".join(p for p in parts if p)


def timing(game: PageGame, words: text.PageWords) -> str:
    """Since when the game waits and when the turn timer runs out (a running game's)."""
    if game.awaited_since is None:
        return ""
    out = f"<p>{esc(words.since)}: {when(game.awaited_since)}</p>"
    if game.turn_timer_hours > 0:
        deadline = game.awaited_since + game.turn_timer_hours * 3600
        out += f"<p>{esc(words.deadline)}: {when(deadline)}</p>"
    return out


def log_entry(tr: Tr, step: PageStep) -> str:
    """One step of the log as a list item (empty when it says nothing in public)."""
    lines = [line for ev in step.events if (line := text.event_line(tr, ev, step.names))]
    if not lines:
        return ""
    said = "<br>".join(from_discord(line, step.names) for line in lines)
    return f'<li data-seq="{step.seq}">{when(step.at)} {said}</li>'


def log(tr: Tr, steps: Sequence[PageStep], words: text.PageWords) -> str:
    """The log's entries, the newest first (a long game's latest moves at the top)."""
    entries = "".join(reversed([e for s in steps if (e := log_entry(tr, s))]))
    return entries or f'<li class="empty">{esc(words.nothing_yet)}</li>'


def document(language: str, title: str, body: str, *, data: Mapping[str, object] = {},
             script: bool = False) -> str:
    """A whole page: the head every page shares, ``body``, the page's script."""
    attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in data.items())
    tail = '<script src="/static/page.js" defer></script>' if script else ""
    return ("<!doctype html>\n"
            f'<html lang="{esc(language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="robots" content="noindex">'
            f"<title>{esc(title)}</title>"
            f'<link rel="stylesheet" href="/static/page.css">{tail}</head>'
            f"<body{attrs}>{body}</body></html>")


def switch(words: text.PageWords, language: str, base: str) -> str:
    """The language switch: a link per language, the page's own marked."""
    links = "".join(
        f'<a href="{esc(base)}?lang={code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="true"' if code == language else "") + f">{esc(name)}</a>"
        for code, name in LANGUAGE_NAMES.items())
    return f'<nav class="languages" aria-label="{esc(words.language)}">{links}</nav>'


def bad_link_page(language: str) -> str:
    return _sorry(language, text.bad_link(i18n.translations(language)))


def hand_page(tr: Tr, language: str, number: int, private: Mapping[str, object],
              base: str) -> str:
    """A player's own page: what they alone see (their drawn cards while they split)."""
    words = text.hand_words(tr, number)
    drawn = [str(c) for c in private.get("drawn") or []]  # type: ignore[attr-defined]
    said = (f"<p>{esc(words.drawn)}</p><ul>"
            + "".join(f"<li>{esc(text.card_label(tr, c))}</li>" for c in drawn) + "</ul>"
            if drawn else f"<p>{esc(words.nothing)}</p>")
    return document(language, words.title,
                    f"<header><h1>{esc(words.title)}</h1></header><main><section>"
                    f"<p><strong>{esc(words.only_you)}</strong></p>{said}"
                    f'<p><a href="{esc(base)}?lang={language}">{esc(words.back)}</a></p>'
                    "</section></main>")


def store_away_page(language: str) -> str:
    return _sorry(language, text.store_away(i18n.translations(language)))


def not_found_page(language: str) -> str:
    return _sorry(language, text.not_found(i18n.translations(language)))


def _sorry(language: str, said: tuple[str, str]) -> str:
    heading, sentence = said
    return document(language, heading, f'<main class="missing"><h1>{esc(heading)}</h1>'
                                       f"<p>{esc(sentence)}</p></main>")


def game_page(tr: Tr, language: str, game: PageGame, steps: Sequence[PageStep],
              base: str) -> str:
    """A game's page: the board with its facts, the log, the replay, the game file, a
    finished game's summary; the script follows the game live from its version on."""
    words = page_words(tr, game)
    head = (f'<header><h1>{esc(words.title)}</h1>{switch(words, language, base)}</header>'
            f'<p id="live" class="live" role="status" data-offline="{esc(words.offline)}">'
            f"{esc(words.live)}</p>")
    if not steps:
        said = words.abandoned if game.status == "abandoned" else words.lobby
        # a lobby's page follows it too: it becomes the game's page when the game starts
        return document(language, words.title, head + f"<main><p>{esc(said)}</p></main>",
                        data={"version": game.version, "base": base, "lang": language,
                              "status": game.status}, script=True)
    last = steps[-1]
    board = text.board_facts(tr, last.view, last.names)
    alt = text.board_alt(tr, last.view, last.names)
    n = len(steps) - 1
    figure = (f'<section class="board" aria-labelledby="board-h"><h2 id="board-h">'
              f"{esc(words.board)}</h2><figure>"  # a tap opens it full size (a phone)
              f'<a id="board-link" href="{base}/replay/{last.seq}.png?lang={language}">'
              f'<img id="board" src="{base}/replay/{last.seq}.png?lang={language}" '
              f'alt="{esc(alt)}" '
              'width="1200" height="900"></a></figure></section>')
    summary = ""
    if game.status == "finished":
        summary = (f'<section class="summary"><h2>{esc(words.summary)}</h2>'
                   f"<p>{esc(board.standings)}</p></section>")
    facts_html = (f'<section id="facts" class="facts" aria-live="polite">'
                  f"{facts(board, words)}</section>")
    if game.awaited_since is not None:  # since when, and the turn timer's deadline
        facts_html += f'<section id="timing" class="timing">{timing(game, words)}</section>'
    replay = (f'<section class="replay" aria-labelledby="replay-h"><h2 id="replay-h">'
              f"{esc(words.replay)}</h2>"
              f'<input id="slider" type="range" min="0" max="{n}" value="{n}" '
              f'aria-label="{esc(words.replay)}">'
              f'<output id="step" for="slider" data-words="{esc(words.step)}">'
              f"{esc(words.step.format(step=n, count=n))}</output>"
              f'<figure><img id="frame" src="{base}/replay/{n}.png?lang={language}" alt="" '
              'loading="lazy" '
              'width="1200" height="900"></figure></section>')
    the_log = (f'<section class="log" aria-labelledby="log-h"><h2 id="log-h">'
               f'{esc(words.log)}</h2><ul id="log">'
               f"{log(tr, steps, words)}</ul></section>")
    return document(language, words.title,
                    # two columns on a wide screen: the pictures, and the words beside them
                    head + '<main class="game"><div class="pictures">' + figure + replay
                    + '</div><div class="words">' + facts_html + summary + the_log
                    + file_section(words, game, base) + "</div></main>",
                    data={"version": game.version, "seq": last.seq, "base": base,
                          "lang": language, "status": game.status},
                    script=True)


def file_section(words: text.PageWords, game: PageGame, base: str) -> str:
    if game.status != "finished":
        return (f'<section class="file"><h2>{esc(words.game_file)}</h2>'
                f"<p>{esc(words.file_later)}</p></section>")
    return (f'<section class="file"><h2>{esc(words.game_file)}</h2>'
            f'<p><a href="{base}/game.json" download>{esc(words.download)}</a></p>'
            f'<p><button id="check" type="button">{esc(words.check)}</button></p>'
            f'<p><label>{esc(words.check_other)} <input id="own" type="file" '
            'accept="application/json,.json"></label></p>'
            '<p id="verdict" role="status"></p></section>')
