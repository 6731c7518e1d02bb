"""The catalogues: every sentence the bot shows exists in English, German and
French, checked by an instrument that itself is tested.

- every message of the template is translated in de and fr, not fuzzy, with exactly the
  English placeholders in every form (a translation that drops ``{player}`` would leave a
  post without its player; one that adds ``{x}`` would raise KeyError at run time);
- the template is up to date with the sources (what ``python -m bot.i18n check`` says);
- plurals by each language's rule ("1 aristocrat"/"2 aristocrats", "1 Adliger"/"2 Adlige",
  "1 noble"/"2 nobles", and French's 0 is singular);
- no sentence reaches gettext already filled in (an f-string or a ``.format`` inside the
  call would put the filled text, not the sentence, in front of the catalogue).
"""

from __future__ import annotations

import ast
import concurrent.futures
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot import i18n, text
from bot.cogs import command_limits
from bot.i18n import ENGLISH, TRANSLATED, catalogues, translations

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogues.extract()


# ---------------------------------------------------------------------------- the catalogues
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_not_fuzzy_and_keeps_its_placeholders(
        template: Catalog, language: str) -> None:
    catalog = catalogues._read(i18n.po_path(language), language)
    problems = catalogues.check_catalogue(language, template, catalog)
    assert not problems, "\n".join(str(p) for p in problems)


def test_the_template_is_up_to_date_with_the_sources_and_well_formed(
        template: Catalog) -> None:
    """``python -m bot.i18n update`` was run after the last change of a sentence, and every
    English sentence uses named placeholders only, the same in singular and plural."""
    assert not catalogues.check_template(template)
    stored = catalogues._read(catalogues.TEMPLATE)
    assert catalogues._signature(stored) == catalogues._signature(template), \
        "bot/i18n/locale/sanmarco.pot is stale: run python -m bot.i18n update"


def test_python_m_bot_i18n_check_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert catalogues.main(["check"]) == 0
    assert "all catalogues complete" in capsys.readouterr().out


def test_the_catalogues_hold_no_entry_the_sources_lost(template: Catalog) -> None:
    """An entry whose sentence left the code is dropped by ``update`` (obsolete entries are
    not written), so a catalogue is exactly the template's messages."""
    want = {catalogues._key(m) for m in template if m.id}
    for language in TRANSLATED:
        catalog = catalogues._read(i18n.po_path(language), language)
        got = {catalogues._key(m) for m in catalog if m.id}
        assert got == want, (language, sorted(map(str, got ^ want))[:5])


# ---------------------------------------------------------------------------- the checker
def _template(*messages: str | tuple[str, str]) -> Catalog:
    t = Catalog(locale=None, domain=i18n.DOMAIN)
    for m in messages:
        t.add(m)
    return t


def _catalog(language: str, *entries: tuple[str | tuple[str, str], str | tuple[str, ...]],
             fuzzy: str | None = None) -> Catalog:
    c = Catalog(locale=language, domain=i18n.DOMAIN)
    for msgid, msgstr in entries:
        c.add(msgid, msgstr, flags=("fuzzy",) if msgid == fuzzy else ())
    return c


def _whats(problems: list[catalogues.Problem]) -> list[str]:
    return [p.what for p in problems]


def test_the_checker_finds_a_missing_an_empty_and_a_fuzzy_translation() -> None:
    t = _template("{player} joins.", "{player} leaves.", "Start", "Join")
    c = _catalog("de", ("{player} joins.", "{player} tritt bei."), ("{player} leaves.", ""),
                 ("Start", "Starten"), fuzzy="Start")
    problems = catalogues.check_catalogue("de", t, c)
    assert {p.msgid: p.what for p in problems} == {
        "{player} leaves.": "not translated", "Start": "fuzzy (not checked by a translator)",
        "Join": "missing"}


def test_the_checker_finds_a_dropped_an_added_and_a_positional_placeholder() -> None:
    t = _template("{player} joins.", "{player} leaves.", "{count} left")
    c = _catalog("fr", ("{player} joins.", "Quelqu'un arrive."),
                 ("{player} leaves.", "{player} part {now}."), ("{count} left", "{0} restent"))
    whats = _whats(catalogues.check_catalogue("fr", t, c))
    assert len(whats) == 3
    assert "placeholders [] instead of ['player']" in whats[0]
    assert "placeholders ['now', 'player'] instead of ['player']" in whats[1]
    assert "positional placeholder" in whats[2]


def test_the_checker_finds_a_plural_form_missing_or_without_its_count() -> None:
    t = _template(("{count} aristocrat", "{count} aristocrats"))
    one_form = _catalog("de", (("{count} aristocrat", "{count} aristocrats"), ("{count} Adlige",)))
    assert any("plural forms" in w for w in _whats(catalogues.check_catalogue("de", t, one_form)))
    no_count = _catalog("de", (("{count} aristocrat", "{count} aristocrats"),
                               ("ein Adliger", "{count} Adlige")))
    assert any("instead of ['count']" in w
               for w in _whats(catalogues.check_catalogue("de", t, no_count)))


def test_the_checker_finds_an_english_plural_whose_forms_differ() -> None:
    t = _template(("one card", "{count} cards"))
    assert _whats(catalogues.check_template(t)) == ["the singular and the plural have different "
                                              "placeholders"]


def test_the_checker_finds_a_command_word_discord_would_refuse() -> None:
    """A German name with a space or a capital, or a description over 100 characters,
    would make Discord refuse the whole command sync (it happened: /sanmarco gamefile's
    description was 101 characters in German)."""
    t = Catalog(locale=None, domain=i18n.DOMAIN)
    t.add("hand", context=i18n.COMMAND_NAME, locations=[("slash-commands/sanmarco/hand", 0)])
    t.add("settings", context=i18n.COMMAND_NAME,
          locations=[("slash-commands/sanmarco/settings", 0)])
    t.add("Show your hand", locations=[("slash-commands/sanmarco/hand", 0)])
    t.add("Your hand", locations=[("bot/text.py", 0)])  # not a command: no limit
    c = Catalog(locale="de", domain=i18n.DOMAIN)
    c.add("hand", "meine Karten", context=i18n.COMMAND_NAME)
    c.add("settings", "Einstellungen", context=i18n.COMMAND_NAME)
    c.add("Show your hand", "x" * 101)
    c.add("Your hand", "y" * 300)
    whats = _whats(catalogues.check_catalogue("de", t, c))
    assert len(whats) == 3, whats
    assert whats[0] == "name 'meine Karten' has ' '; Discord takes letters, digits, - _ and ' only"
    assert whats[1] == "name 'Einstellungen' is not in lower case"
    assert whats[2] == "description of 101 characters; Discord takes 1-100"


@pytest.mark.parametrize(("context", "word"), [
    (i18n.COMMAND_NAME, "meine_karten"), (i18n.COMMAND_NAME, "Karten"),
    (i18n.COMMAND_NAME, "x" * 33), (i18n.COMMAND_NAME, "règles"),
    (i18n.COMMAND_CHOICE, "Überblick"), (i18n.COMMAND_CHOICE, "x" * 101),
    (None, "Zeigt deine Hand"), (None, ""),
])
def test_the_catalogue_and_the_synced_tree_apply_one_rule(context: str | None,
                                                          word: str) -> None:
    """python -m bot.i18n check judges a translated command word exactly as the check of
    the synced commands does (bot.cogs.command_limits: one place for Discord's rules)."""
    node = {"name": "x", "description": "x", "choices": [{"name": "x", "value": "x"}]}
    if context == i18n.COMMAND_NAME:
        node["name_localizations"] = {"de": word}
    elif context == i18n.COMMAND_CHOICE:
        node["choices"] = [{"name": "x", "value": "x", "name_localizations": {"de": word}}]
    else:
        node["description_localizations"] = {"de": word}
    tree = [{"type": 1, "name": "sanmarco", "description": "x",
             "options": [{"type": 3, **node}]}]
    said = catalogues.command_text_problem(context, word)
    found = [b.what for b in command_limits.check(tree) if b.locale == "de"]
    assert found == ([] if said is None else [said])


# ---------------------------------------------------------------------------- plurals
@pytest.mark.parametrize(("language", "forms"), [
    ("en", {0: "0 aristocrats", 1: "1 aristocrat", 2: "2 aristocrats", 5: "5 aristocrats"}),
    ("de", {0: "0 Adlige", 1: "1 Adliger", 2: "2 Adlige", 5: "5 Adlige"}),
    ("fr", {0: "0 noble", 1: "1 noble", 2: "2 nobles", 5: "5 nobles"}),  # French: 0 is one
])
def test_plurals_follow_each_languages_rule(language: str, forms: dict[int, str]) -> None:
    tr = translations(language)
    assert {n: text.aristocrats(tr, n) for n in forms} == forms


def test_the_plural_rules_are_the_languages_own() -> None:
    for language, rule in (("de", "(n != 1)"), ("fr", "(n > 1)")):
        catalog = catalogues._read(i18n.po_path(language), language)
        assert catalog.num_plurals == 2 and catalog.plural_expr == rule, language


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Take offer 1: 1 card, limit 0", "Take offer 2: 2 cards, limit 3"),
    ("de", "Angebot 1 wählen: 1 Karte, Limit 0", "Angebot 2 wählen: 2 Karten, Limit 3"),
    ("fr", "Prendre l'offre 1 : 1 carte, pénalité 0", "Prendre l'offre 2 : 2 cartes, pénalité 3"),
])
def test_a_count_in_a_longer_sentence_takes_the_right_form(language: str, one: str,
                                                           two: str) -> None:
    tr = translations(language)
    assert text.take_label(tr, 0, ["bridge"]) == one
    assert text.take_label(tr, 1, ["doge", "limit:3"]) == two


# ---------------------------------------------------------------------------- languages
def test_who_reads_which_language() -> None:
    """A user's Discord locale: German and French (any region), else English; a channel:
    its setting, else the server's preferred locale when German or French."""
    assert [i18n.language_of(x) for x in ("de", "fr", "en-US", "en-GB", "pt-BR", None, "",
                                          "DE", "fr_CA")] == \
        ["de", "fr", "en", "en", "en", "en", "en", "de", "fr"]
    assert i18n.channel_language(None, "de") == "de"
    assert i18n.channel_language(None, "es-ES") == "en"
    assert i18n.channel_language("fr", "de") == "fr"
    assert i18n.channel_language("en", "de") == "en"
    assert i18n.channel_language("xx", "fr") == "fr"  # a value no bot wrote: the server's
    assert translations("xx") is ENGLISH and translations("en") is ENGLISH


def test_the_compiled_catalogues_say_what_the_po_files_say() -> None:
    """Compiled in memory from the .po: every singular translation comes back by its msgid
    (nothing lost to the compiler, e.g. an entry marked fuzzy by mistake)."""
    for language in TRANSLATED:
        tr = translations(language)
        catalog = catalogues._read(i18n.po_path(language), language)
        for m in catalog:
            if m.id and isinstance(m.id, str) and not m.context:
                assert tr.gettext(m.id) == m.string, (language, m.id)


def test_every_translation_differs_from_the_english_unless_a_name() -> None:
    """An entry copied untranslated would pass the checker; only names, numbers and words
    the languages share may stay as they are."""
    same_ok = {"Doge", "Limit", "Limit {value}", "Start", "San Marco {count}", "Transfer",
               "P{passage}", "Prestige: {scores}.", "Computer {number} ({level})",
               "Computer ({level})", "normal", "Date", "Mode", "Total", "{label}: no games yet.",
               "**{player}** in this server", "District: {district}", "Bridge {a} – {b}",
               "Secrets", "Doge: score {district}", "Doge to {district}", "Passage {passage}",
               "Distributor", "Replay", "Game file", "Confirm", "Reset", "Back", "Choose",
               "Leaderboard", "Stats", "History", "Rules", "Status", "Log", "Board", "Hand",
               "Overview", "Cards", "Scoring", "Round", "Passage",
               # German as English: the same words
               "Doge in {district}", "{count} in San Marco", "{phase} in {district}",
               "canal {cost}",  # French as English
               "{name}: {what}",  # punctuation alone (French spaces its colon)
               "San Marco #{number}"}  # a game's name (German numbers it as English)
    for language in TRANSLATED:
        same = []
        for m in catalogues._read(i18n.po_path(language), language):
            if not m.id or isinstance(m.id, tuple | list) or m.context:
                continue
            if m.string == m.id and m.id not in same_ok and len(m.id.split()) > 1:
                same.append(m.id)
        assert not same, (language, same)


# ---------------------------------------------------------------------------- the sources
def _gettext_calls(tree: ast.AST) -> list[ast.Call]:
    names = {"gettext", "ngettext", "pgettext", "npgettext", "_", "N_"}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name in names:
                out.append(node)
    return out


def _parse(path: Path) -> ast.Module:
    """``ast.parse`` in a thread of its own: CPython 3.11 before 3.11.8 may raise
    "SystemError: AST constructor recursion depth mismatch" when it parses deep in a long
    test session's stack (gh-106905); a new thread starts at depth 0."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(ast.parse, path.read_text(encoding="utf-8")).result()


def test_no_sentence_reaches_gettext_filled_in() -> None:
    """The first argument of every gettext call in bot/, render/ and engine/ is a literal
    sentence or a table lookup (``TABLE[key]``, ``template``: entries marked N_), never an
    f-string, a concatenation or an already formatted string, which the extractor could not
    see."""
    bad = []
    for folder in catalogues.SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = _parse(path)
            for call in _gettext_calls(tree):
                name = (call.func.attr if isinstance(call.func, ast.Attribute)
                        else getattr(call.func, "id", ""))
                args = call.args[1:] if name in ("pgettext", "npgettext") else call.args
                for arg in args[:2 if "ngettext" in name else 1]:
                    if isinstance(arg, ast.JoinedStr | ast.BinOp) or (
                            isinstance(arg, ast.Call)
                            and isinstance(arg.func, ast.Attribute)
                            and arg.func.attr == "format"):
                        bad.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert not bad, bad


def test_the_english_is_the_msgid_itself() -> None:
    """English needs no catalogue: the sentence in the code is what an English reader sees."""
    assert text.aristocrats(ENGLISH, 3) == "3 aristocrats"
    assert text.label(ENGLISH, "join") == "Join"
