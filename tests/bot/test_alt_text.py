"""What the pictures show, in words (bot/text/pictures.py), over whole random games in
English, German and French: the board's alt text stays within Discord's 1,024 characters
with the longest names Discord allows and still names the Doge's district and who is
awaited; ``/sanmarco board as_text`` stays within a message; the summary's and the
replay's alt text fit too; and a distributor's private view describes exactly as the public
one (R15: the drawn cards and the split are not read)."""

from __future__ import annotations

import random

import pytest

from bot import text
from bot.i18n import Tr, translations
from engine import Event, apply, legal_actions, new_game
from engine.state import GameState
from render.words import waiting_line

LANGUAGES = ("en", "de", "fr")
# Discord's longest display name (32 characters), with letters other scripts need too.
LONG = "Ærøskøbing-Großglockner-Éloïse-X"


def _games(seed: int, players: list[str]) -> list[GameState]:
    """Every state of a random game (random legal actions), set-up to the end."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    states = [state]
    while not state.finished:
        pid = rng.choice(list(state.waiting_for))
        state, _ = apply(state, pid, rng.choice(legal_actions(state, pid)))
        states.append(state)
    return states


def _doge(tr: Tr, district: str | None) -> str:
    return (tr.gettext("Doge in {district}").format(district=district) if district
            else tr.gettext("Doge not placed yet"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_alt_text_fits_1024_characters_with_the_longest_names(language: str) -> None:
    tr = translations(language)
    ids = [str(10**17 + k) for k in range(4)]
    names = {p: LONG[:-1] + str(k) for k, p in enumerate(ids)}
    longest = 0
    for seed in (1, 2):
        for state in _games(seed, ids):
            view = state.public_view()
            alt = text.board_alt(tr, view, names)
            longest = max(longest, len(alt))
            assert len(alt) <= text.ALT_TEXT_LIMIT, alt
            assert _doge(tr, view["doge"]) in alt, alt
            words = text.board_words(tr, view, names)
            assert len(words) <= 2000 and _doge(tr, view["doge"]) in words
    assert longest > 700  # the names were long enough to matter


@pytest.mark.parametrize("language", LANGUAGES)
def test_with_ordinary_names_nothing_is_shortened_or_left_out(language: str) -> None:
    """Everyone's prestige and who is awaited, in full, at every step of a game; as text,
    everything (the offers too) within a message."""
    tr = translations(language)
    names = {"1": "ann", "2": "bob", "3": "cid", "4": "dee"}
    for state in _games(3, list(names)):
        view = state.public_view()
        alt = text.board_alt(tr, view, names)
        assert not alt.endswith("…")
        for pid in view["players"]:
            assert names[pid] in alt
        if view["waiting_for"]:
            assert waiting_line(view, names, tr) in alt
        words = text.board_words(tr, view, names)
        assert not words.endswith("…")  # nothing left out
        for district in view["districts"]:
            assert district in words
    summary = text.summary_alt(tr, view, [], names)
    assert len(summary) <= text.ALT_TEXT_LIMIT and all(n in summary for n in names.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_summary_and_replay_alt_texts_fit(language: str) -> None:
    tr = translations(language)
    ids = [str(10**17 + k) for k in range(4)]
    names = {p: LONG for p in ids}
    rng = random.Random(4)
    state = new_game(ids, seed=4)
    events: list[Event] = []
    while not state.finished:
        pid = rng.choice(list(state.waiting_for))
        state, told = apply(state, pid, rng.choice(legal_actions(state, pid)))
        events += told
    view = state.public_view()
    summary = text.summary_alt(tr, view, events, names)
    replay = text.replay_alt(tr, 12, 170, view, names)
    assert len(summary) <= text.ALT_TEXT_LIMIT and len(replay) <= text.ALT_TEXT_LIMIT
    assert tr.gettext("Final standings") in summary and "170" in replay


def test_a_private_view_is_described_as_the_public_one() -> None:
    """R15: whatever a distributor alone may see (drawn cards, a split) is not read."""
    tr = translations("en")
    names = {"1": "ann", "2": "bob", "3": "cid"}
    seen_split = False
    for state in _games(5, list(names)):
        view = state.public_view()
        for pid in names:
            private = state.private_view(pid)
            seen_split |= bool(private["private"])
            assert text.board_alt(tr, private, names) == text.board_alt(tr, view, names)
            assert text.board_words(tr, private, names) == text.board_words(tr, view, names)
    assert seen_split


def test_a_name_in_the_board_as_text_is_not_read_as_formatting() -> None:
    """Discord formats ``*``, ``_``, ``~``, ``|`` and ``<@…>`` in a message: a name shows
    as typed."""
    state = _games(6, ["1", "2", "3"])[-1]
    words = text.board_words(translations("en"), state.public_view(),
                             {"1": "*ann*", "2": "<@42>", "3": "c_i_d"})
    assert r"\*ann\*" in words and r"\<@42>" in words and r"c\_i\_d" in words
    assert "<@42>" not in words.replace(r"\<@42>", "")
