"""``/sanmarco game rules`` in English, German and French, each in its own rule book's words
(a German or French player knows those), and the catalogues in the books' words (docs/GLOSSARY.md).

The books are the project's seeds (``../shared/seeds`` beside the repository: 000 English,
001 German, 004 French); where they are present, every term these tests require is looked
up in them too, so a term that is not the book's cannot slip in here.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from bot import i18n, text
from bot.i18n import catalogues, translations
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "GLOSSARY.md"
BOOKS = {"en": "000_e8b14c2ffc32af2e.txt", "de": "001_a8d378913b2696e4.txt",
         "fr": "004_72603bffff8ad460.txt"}

# The terms each topic must use, as its language's book writes them.
TERMS: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {
        "overview": ("Adlige", "Gebiete", "Dogen", "Durchgängen", "Prestigepunkte"),
        "round": ("Runde", "Verteiler", "Entscheider", "Angebot", "Limitkarten",
                  "Limitpunkten", "Durchgang"),
        "cards": ("Gebietskarte", "Brückenkarte", "Überläuferkarte", "Verbannungskarte",
                  "Dogenkarte", "Adligen", "Brücke", "Wertung"),
        "doge": ("Doge", "Brücken", "Prestigepunkt", "Wegezoll", "Besitzer", "Gebiet"),
        "scoring": ("Wertung", "Adligen", "Gebiet", "höheren Wert", "niedrigeren Wert"),
        "passage": ("Runde", "Limitpunkte", "Durchgang", "Prestigepunkte", "Verbannung"),
        "secrets": ("Verteiler", "Angebote"),
        "seats": ("Spieler", "Karten"),
    },
    "fr": {
        "overview": ("nobles", "quartiers", "doge", "manches", "points Prestige"),
        "round": ("tour", "Donneur", "Sélectionneur", "offre", "cartes Pénalité",
                  "points de pénalité", "manche"),
        "cards": ("Carte Quartier", "Carte Pont", "Carte Traître", "Carte Exil",
                  "Carte Doge", "noble", "pont", "décompte"),
        "doge": ("doge", "ponts", "point Prestige", "droit de passage", "propriétaire",
                 "quartier"),
        "scoring": ("décompte", "nobles", "quartier", "chiffre le plus élevé",
                    "chiffre le plus petit"),
        "passage": ("tour", "points de pénalité", "manche", "points Prestige", "Exil"),
        "secrets": ("Donneur", "offres"),
        "seats": ("joueur", "cartes"),
    },
    "en": {
        "overview": ("aristocrats", "districts", "Doge", "passages", "prestige"),
        "round": ("round", "distributor", "offer", "limit cards", "passage"),
        "cards": ("district", "bridge", "Transfer", "Banishment", "Doge"),
        "doge": ("Doge", "bridges", "prestige", "canal"),
        "scoring": ("aristocrats", "district", "higher number", "lower number"),
        "passage": ("round", "limit points", "passage", "prestige", "banish"),
        "secrets": ("distributor", "offer"),
        "seats": ("players", "cards"),
    },
}


def _book(language: str) -> str | None:
    for seeds in (ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"):
        path = seeds / BOOKS[language]
        if path.exists():
            return path.read_text(encoding="utf-8")
    return None


def _glossary() -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """The terms (English, German, French) and the words to avoid (language, word)."""
    terms: list[tuple[str, str, str]] = []
    avoid: list[tuple[str, str]] = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("English", "language"):
            continue
        if cells[0] in ("German", "French"):
            avoid.append(({"German": "de", "French": "fr"}[cells[0]], cells[1]))
        else:
            terms.append((cells[0], cells[1], cells[2]))
    return terms, avoid


def _literal(sentence: str) -> str:
    """A sentence without its placeholders (``{district}`` is not the word "district")."""
    return "".join(lit for lit, _, _, _ in string.Formatter().parse(sentence))


# ---------------------------------------------------------------------------- the topics
@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("topic", text.RULE_TOPIC_NAMES)
def test_every_topic_uses_its_books_words(language: str, topic: str) -> None:
    summary = text.rule_topic(translations(language), topic)
    assert summary is not None
    missing = [t for t in TERMS[language][topic] if t.lower() not in summary.lower()]
    assert not missing, f"{language} {topic}: {missing} not in {summary!r}"
    if language != "en":
        assert summary != text.rule_topic(i18n.ENGLISH, topic)  # translated, not copied


def test_every_topic_exists_in_every_language_and_no_other() -> None:
    assert set(TERMS["de"]) == set(TERMS["fr"]) == set(TERMS["en"]) == \
        set(text.RULE_TOPIC_NAMES)
    for language in i18n.LANGUAGES:
        assert text.rule_topic(translations(language), "nonsense") is None


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_required_terms_are_the_books_own(language: str) -> None:
    book = _book(language)
    if book is None:
        pytest.skip("the rule books (../shared/seeds) are not beside this checkout")
    lower = book.lower()
    missing = sorted({t for terms in TERMS[language].values() for t in terms
                      if t.lower() not in lower})
    assert not missing, f"not in the {language} book: {missing}"


def test_a_translated_topic_says_no_more_rules_than_its_english() -> None:
    """The rule references (R11, RULES.md §6 ...) survive translation: a topic cites the
    same rules in every language."""
    import re
    for topic in text.RULE_TOPIC_NAMES:
        refs = {lang: sorted(re.findall(r"R\d+|§\d+", text.rule_topic(translations(lang),
                                                                        topic) or ""))
                for lang in i18n.LANGUAGES}
        assert refs["de"] == refs["en"] == refs["fr"], (topic, refs)


# ---------------------------------------------------------------------------- the glossary
def test_every_glossary_term_is_in_its_catalogue_and_its_book() -> None:
    terms, _ = _glossary()
    assert len(terms) >= 25
    for column, language in ((1, "de"), (2, "fr")):
        said = [_literal(s).lower() for s in catalogues.catalogue_texts(language)]
        unused = [row[column] for row in terms
                  if not any(row[column].lower() in s for s in said)]
        assert not unused, f"{language} catalogue never says {unused}"
        book = _book(language)
        if book is not None:
            absent = [row[column] for row in terms if row[column].lower() not in book.lower()]
            assert not absent, f"not in the {language} book: {absent}"


def test_the_catalogues_avoid_words_the_books_do_not_use() -> None:
    _, avoid = _glossary()
    assert {lang for lang, _ in avoid} == {"de", "fr"}
    for language, word in avoid:
        said = [s for s in catalogues.catalogue_texts(language)
                if word.lower() in _literal(s).lower()]
        assert not said, f"{language}: {word!r} in {said[:3]}"
        book = _book(language)
        if book is not None:
            assert word.lower() not in book.lower(), f"{word!r} is the {language} book's"


# ---------------------------------------------------------------------------- through Discord
async def test_rules_answers_each_user_in_their_language(fake: FakeDiscord,
                                                         harness: BotHarness) -> None:
    """The real command, for an English, a German and a French user, every topic (and the
    overview when none is given): privately, the topic in the user's language."""
    users = {"en": fake.add_user("tom", locale="en-US"),
             "de": fake.add_user("anja", locale="de"),
             "fr": fake.add_user("anne", locale="fr")}
    await harness.start(seed=1)
    for language, user in users.items():
        tr = translations(language)
        for topic in text.RULE_TOPIC_NAMES:
            rec = await fake.slash(user, "sanmarco game rules", topic=topic)
            assert rec.response.ephemeral
            assert rec.response.content == text.rule_topic(tr, topic), (language, topic)
        rec = await fake.slash(user, "sanmarco game rules")
        assert rec.response.content == text.rule_topic(tr, "overview")
        rec = await fake.slash(user, "sanmarco game rules", topic="nonsense")
        assert rec.response.content == text.refusal(tr, "input.topic")
