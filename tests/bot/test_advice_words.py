"""Hints and reviews in words (``bot.text.advice``): every kind of reason the engine gives
has its words in every language (translated, every placeholder filled), and no hint or
review exceeds Discord's 2,000 characters, even with long names, in any language."""

from __future__ import annotations

import pytest

from bot import i18n, text
from bot.text.advice import _REASONS, _REVIEW_REASONS, HINT_LIMIT, move_words
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
    drawn = ("district:Santa Croce", "district:Santa Croce", "district:Cannaregio", "bridge",
             "transfer", "banishment", "limit:3", "limit:3", "limit:2", "limit:1")
    mistakes = tuple(Mistake(100 + k, "split", Split((0, 0, 0, 1, 1, 1, 2, 2, 2, 2)),
                             Split((0, 1, 2, 0, 1, 2, 0, 1, 2, 0)), 9.5, worst, drawn)
                     for k in range(3))
    said = text.review_text(tr, 12345, Review("111", mistakes, 80), LONG)
    assert len(said) <= HINT_LIMIT and "{" not in said
    assert "{" not in text.review_text(tr, 1, Review("111", (), 3))
    assert text.hints_used(tr).strip() and text.hinted_tag(tr).strip()


def test_every_reason_kind_has_review_words_without_a_figure() -> None:
    assert set(_REVIEW_REASONS) == set(REASON_KINDS)
    for language in i18n.LANGUAGES:
        tr = i18n.translations(language)
        for kind in REASON_KINDS:
            reason = Reason(kind, "San Polo", "Castello", "222", "district:San Polo", 6.0)
            said = text.review_reason_text(tr, reason, {"222": "Bo"})
            assert said.strip() and "{" not in said and "6" not in said, (language, said)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_review_line_tells_both_moves_apart_with_one_figure(language: str) -> None:
    """Issue 38: "you played: split into offers with 4, 3, 3 cards; the hard computer would
    have played: split into offers with 4, 3, 3 cards" — a split is named by its offers'
    cards, a take by its offer's cards; one figure (the prestige) a line; a take's reason
    speaks of the offer taken, not of a runner-up."""
    tr = i18n.translations(language)
    drawn = ("district:Cannaregio", "district:San Polo", "transfer", "doge", "doge",
             "banishment", "limit:1", "limit:2", "limit:2", "limit:3")
    split = Mistake(7, "split", Split((0, 0, 0, 0, 1, 1, 1, 2, 2, 2)),
                    Split((0, 0, 0, 1, 1, 1, 2, 2, 2, 2)), 3.4,
                    Reason("split_offers", points=38.0), drawn)
    offers = (("doge", "limit:3"), ("bridge", "banishment", "limit:3"))
    take = Mistake(12, "choose", TakeOffer(0), TakeOffer(1), 2.6,
                   Reason("limit_points", points=2.0), (), offers)
    said = text.review_text(tr, 5, Review("111", (split, take), 30), {"111": "Ann"})
    lines = said.splitlines()[1:]
    assert len(lines) == 2
    first, second = lines
    assert move_words(tr, split.played, None, drawn) in first
    assert move_words(tr, split.better, None, drawn) in first
    assert move_words(tr, split.played, None, drawn) != move_words(tr, split.better, None, drawn)
    assert "38" not in first  # the search's value is never shown
    for line, points in ((first, 3), (second, 3)):
        figures = [w for w in line.replace(".", " ").replace(",", " ").split() if w.isdigit()]
        # the line's number and step, and one figure: the prestige (a card's "1"-"3" aside)
        assert str(points) in figures
        assert text.advice._prestige(tr, points) in line
    assert text.card_label(tr, "banishment") in second and text.card_label(tr, "doge") in second
    assert "runner-up" not in second.lower()


def test_french_elides_before_a_computers_name() -> None:
    """Issue 38: "de Ordinateur 1" is "d'Ordinateur 1" in French (a review's line)."""
    fr = i18n.translations("fr")
    names = {"ai.normal.1": text.computer_label(fr, "ai.normal.1")}
    m = Mistake(3, "play", decode("transfer:SM@ai.normal.1"), decode("transfer:SP@ai.normal.1"),
                2.0, Reason("takes_from_rival", "San Polo", rival="ai.normal.1"))
    said = text.review_text(fr, 1, Review("111", (m,), 9), names)
    assert "de Ordinateur" not in said and "d'Ordinateur 1" in said, said
    assert text.elide(ENGLISH, "de Ordinateur") == "de Ordinateur"
