"""The digest's words within Discord's limits, whatever happened: a long summary (every
district scored again and again, tolls between everyone) is cut after whole items, never
inside a mention; the newest moves are kept and the earlier ones counted; in every
language."""

from __future__ import annotations

import re

import pytest

from bot import i18n, text
from bot.service.results import Digest, LogEntry
from engine import Event, new_game
from engine.board import DISTRICT_NAMES

PIDS = ["1" * 19, "2" * 19, "3" * 19, "4" * 19]
LANGUAGES = [i18n.translations(code) for code in i18n.LANGUAGES]


def _digest(moves: int) -> Digest:
    view = new_game(PIDS, seed=1).public_view()
    entries = []
    for n in range(moves):
        pid = PIDS[1 + n % 3]
        district = DISTRICT_NAMES[n % len(DISTRICT_NAMES)]
        entries.append(LogEntry(10 + n, pid, "doge:x", 0.0, (
            Event("doge_moved", {"player": pid, "from": None, "to": district, "route": []}),
            Event("toll_paid", {"payer": pid, "owner": PIDS[n % 4], "amount": 1 + n % 3}),
            Event("district_scored", {"district": district,
                                      "points": {p: 2 + k for k, p in enumerate(PIDS)}}))))
    return Digest(1, 1, PIDS[0], 9, tuple(entries), view, view, {p: "N" * 32 for p in PIDS},
                  doge=tuple(DISTRICT_NAMES))


@pytest.mark.parametrize("tr", LANGUAGES, ids=list(i18n.LANGUAGES))
@pytest.mark.parametrize("limit", [300, text.EMBEDDED_LIMIT, 1990])
def test_the_digest_fits_and_never_breaks_a_mention(tr: i18n.Tr, limit: int) -> None:
    digest = _digest(40)
    said = text.digest_text(tr, digest, limit)
    assert 0 < len(said) <= limit
    for line in said.splitlines():
        assert line.count("<@") == line.count(">"), line
    assert said.splitlines()[0] == tr.ngettext(
        "**Since your last move** — {count} move by others:",
        "**Since your last move** — {count} moves by others:", 40).format(count=40)
    # the newest move is there when anything of the moves fits, the earlier ones counted
    newest = text.move_line(tr, digest.moves[-1], digest.names)
    assert newest in said or limit == 300
    assert re.search(r"`/sanmarco \w+ \w+`", said)


def test_nothing_since_is_empty_and_one_move_needs_no_note() -> None:
    en = i18n.ENGLISH
    assert text.digest_text(en, _digest(0)) == ""
    said = text.digest_text(en, _digest(1))
    assert "earlier" not in said and said.count("\n- ") == 1
    alt = text.digest_alt(en, _digest(3))
    assert alt.startswith("Highlighted, what changed since your last move: the Doge moved to "
                          + " → ".join(DISTRICT_NAMES))
    assert len(alt) <= text.ALT_TEXT_LIMIT


@pytest.mark.parametrize("tr", LANGUAGES, ids=list(i18n.LANGUAGES))
def test_the_highlighted_boards_alt_text_keeps_the_whole_board_within_the_limit(
        tr: i18n.Tr) -> None:
    """What is highlighted comes first and the board's words fill the room left, with
    shorter names if need be: nothing is cut off the end (who is awaited, said last)."""
    digest = _digest(40)
    many = Digest(**{**digest.__dict__, "districts": tuple(DISTRICT_NAMES)})
    alt = text.digest_alt(tr, many)
    assert len(alt) <= text.ALT_TEXT_LIMIT
    head = text.changes_words(tr, many)
    board = alt[len(head) + 1:]
    assert alt.startswith(head + " ")
    room = text.ALT_TEXT_LIMIT - len(head) - 1
    assert board == text.board_alt(tr, many.view, many.names, room)
    assert board != text.board_alt(tr, many.view, many.names)  # names shortened to fit
