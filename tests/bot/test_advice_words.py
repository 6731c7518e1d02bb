"""Hints and reviews in words (``bot.text.advice``): every kind of reason the engine gives
has its words in every language (translated, every placeholder filled), and no hint or
review exceeds Discord's 2,000 characters, even with long names, in any language."""

from __future__ import annotations

import pytest

from bot import i18n, text
from bot.text.advice import _REASONS, HINT_LIMIT, move_words
from engine import Split, TakeOffer, apply, decode, legal_actions, new_game
from engine.ai import Budget, choose_action
from engine.ai.advice import REASON_KINDS, Mistake, Reason, Review, advise

TINY = Budget(playouts=3, max_seconds=None, candidates=3)
LONG = {p: "W" * 32 for p in ("111", "222", "333", "444")}  # Discord's longest names
ENGLISH = i18n.translations("en")


def test_every_reason_kind_the_engine_gives_has_words() -> None:
    assert set(_REASONS) == set(REASON_KINDS)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("kind", REASON_KINDS)
def test_every_reason_kind_is_worded_in_every_language(kind: str, language: str) -> None:
    tr = i18n.translations(language)
    reason = Reason(kind, "San Polo", "Castello", "222", "district:San Polo", 6.0)
    said = text.reason_text(tr, reason, {"222": "Bo"})
    assert said.strip() and "{" not in said and "}" not in said
    if language != "en":
        assert said != text.reason_text(ENGLISH, reason, {"222": "Bo"})
    if kind in ("leads_district", "gains_district", "doge_scores", "banishes_rival"):
        assert "6" in said and "San Polo" in said


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_hints_and_reviews_fit_a_message_in_every_language(language: str) -> None:
    """Every hint of a whole 4-player game (split offers named card by card, 32-character
    names) and a review of three mistakes stay within 2,000 characters."""
    tr = i18n.translations(language)
    s = new_game(list(LONG), 3)
    longest = 0
    splits = 0
    while not s.finished:
        pid = s.waiting_for[0]
        legal = legal_actions(s, pid)
        if len(legal) > 1:
            view = s.private_view(pid)
            drawn = list(view.get("private", {}).get("drawn", []))
            advice = advise(view, legal, pid, seed=0, budget=TINY)
            said = text.hint_text(tr, advice, LONG, drawn)
            assert "{" not in said
            longest = max(longest, len(said))
            if isinstance(advice.best.action, Split):
                assert move_words(tr, advice.best.action, LONG, drawn) in said
                splits += 1
        s, _ = apply(s, pid, choose_action(s, pid, level="normal", seed=3))
    assert 0 < longest <= HINT_LIMIT and splits > 0
    worst = Reason("banishes_rival", "Santa Croce", rival="222", points=12.0)
    mistakes = tuple(Mistake(100 + k, "play", decode("doge:SM"), TakeOffer(1), 9.5, worst)
                     for k in range(3))
    said = text.review_text(tr, 12345, Review("111", mistakes, 80), LONG)
    assert len(said) <= HINT_LIMIT and "{" not in said
    assert "{" not in text.review_text(tr, 1, Review("111", (), 3))
    assert text.hints_used(tr).strip() and text.hinted_tag(tr).strip()
