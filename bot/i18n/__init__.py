"""San Marco in English, German and French: gettext catalogues managed with Babel.

English is written in the code (the msgids); German and French are the catalogues
``bot/i18n/locale/{de,fr}/LC_MESSAGES/sanmarco.po`` (one domain, ``sanmarco``), kept under version
control beside their template ``bot/i18n/locale/sanmarco.pot``. They are compiled when first
used, in memory (Babel's ``read_po`` + ``write_mo`` → ``gettext.GNUTranslations``), so
``pip install -e ".[dev]"`` stays the only set-up. German and French use the terms of their
rule books (docs/GLOSSARY.md); district names stay as printed.

No hidden language: whatever makes words takes the translations object (``Tr``) of the
reader it writes for, and passes it on.

- ``for_locale(interaction.locale)``: an ephemeral answer, in the clicking user's language;
- ``channel_language(setting, guild_locale)``: a public post, a reminder or a picture, in
  the channel's language (its setting, else the server's preferred locale when German or
  French, else English); ``translations(code)`` gives its ``Tr``.

How to add a sentence (code and catalogues):

1. Write it in English where it is made, through the ``tr`` the function receives (in
   ``bot/text/`` every function takes ``tr`` first; render functions take ``tr=ENGLISH``)::

       def joins(tr: Tr, pid: str) -> str:
           return tr.gettext("{player} joins.").format(player=who(pid))

   Named ``{placeholders}`` only, filled by ``.format(...)`` after translating (never an
   f-string inside ``gettext``: the catalogue would hold the filled-in text). A count:
   ``tr.ngettext("{count} card", "{count} cards", n).format(count=n)``. A table of
   sentences marks its entries with ``N_("...")`` (a no-op the extractor sees) and
   translates where it is read: ``tr.gettext(TABLE[key])``. A note for translators goes
   on the line above, starting ``# TRANSLATORS:``.
2. ``python -m bot.i18n update``: extracts bot/ and render/ (and the slash commands' names,
   descriptions and choices) into the template and merges it into the German and French
   catalogues (new entries empty, changed ones marked fuzzy).
3. Translate the new entries in both ``.po`` files with the books' words (the glossary).
4. ``python -m bot.i18n check`` (also a test, tests/bot/test_i18n.py): every entry
   translated and not fuzzy, the same placeholders as the English, the template up to
   date with the sources.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
import string
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

DOMAIN = "sanmarco"
LANGUAGES: tuple[str, ...] = ("en", "de", "fr")  # English first: the msgids
TRANSLATED: tuple[str, ...] = ("de", "fr")
DEFAULT = "en"
ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = Path(__file__).with_name("locale")
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCES = ("bot", "render")  # the folders whose words are extracted
PROJECT, VERSION = "sanmarco-bot", "0.1.0"
_HEADER = {
    "de": "# The San Marco bot in German, with the words of the German rule book (Ravensburger "
          "2001;\n# docs/GLOSSARY.md). Merged by python -m bot.i18n update; translate here.",
    "fr": "# The San Marco bot in French, with the words of the French rule book (docs/"
          "GLOSSARY.md).\n# Merged by python -m bot.i18n update; translate here.",
}

Tr = gettext.NullTranslations  # what every word-making function takes
ENGLISH: Tr = gettext.NullTranslations()  # the msgids themselves

# The message contexts of the slash commands' words (bot/cogs/sanmarco/_translator.py).
COMMAND_NAME = "command name"  # a command's, a group's or an option's name
COMMAND_CHOICE = "command choice"  # the name of an option's choice

# What the extractor reads as a sentence: gettext/ngettext/pgettext calls (also as methods,
# ``tr.gettext``), ``N_`` marks in tables, and ``_(...)`` where ``_ = tr.gettext``.
KEYWORDS: dict[str, Any] = {
    "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3), "N_": None,
    "_": None,  # ``_ = tr.gettext`` in a function with many sentences
}
COMMENT_TAGS = ("TRANSLATORS:",)


def N_(message: str) -> str:
    """Marks a sentence in a table for the catalogue; translate it where it is read."""
    return message


# ---------------------------------------------------------------------------- languages
def language_of(locale: object) -> str:
    """``de`` for any German locale, ``fr`` for any French one, else ``en`` (Discord's
    ``Locale`` values, e.g. ``de``, ``fr``, ``en-US``, or None)."""
    code = str(getattr(locale, "value", locale) or "").strip().lower()
    head = code.replace("_", "-").split("-", 1)[0]
    return head if head in TRANSLATED else DEFAULT


def is_language(code: object) -> bool:
    """Whether ``code`` is one of the languages the bot speaks (``en``, ``de``, ``fr``)."""
    return isinstance(code, str) and code in LANGUAGES


def channel_language(setting: str | None, guild_locale: object) -> str:
    """The language of a channel's public posts, reminders and pictures: its setting when
    it has one, else the server's preferred locale when German or French, else English."""
    if setting is not None and is_language(setting):
        return setting
    return language_of(guild_locale)


@functools.cache
def translations(language: str) -> Tr:
    """The translations for a language code (English: the msgids; an unknown code is
    English too). Compiled from its ``.po`` on first use and kept for the process."""
    if language not in TRANSLATED:
        return ENGLISH
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po_path(language), "rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def for_locale(locale: object) -> Tr:
    """The translations for a Discord locale (a user's ``interaction.locale``)."""
    return translations(language_of(locale))


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


# ---------------------------------------------------------------------------- extraction
def placeholders(text: str) -> set[str]:
    """The named ``{fields}`` of a sentence; raises ValueError for a malformed one or a
    positional field (``{}``, ``{0}``)."""
    fields = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is None:
            continue
        if not name or name.isdigit():
            raise ValueError(f"positional placeholder in {text!r}")
        fields.add(name.split(".")[0].split("[")[0])
    return fields


def _source_messages() -> Iterator[tuple[str, int, str | tuple[str, ...], list[str],
                                         str | None]]:
    from babel.messages.extract import extract_from_dir

    for folder in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                str(ROOT / folder), method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=COMMENT_TAGS, strip_comment_tags=True):
            yield f"{folder}/{filename}", lineno, message, comments, context


def extract() -> Catalog:
    """The template from the sources: every sentence of bot/ and render/, and the slash
    commands' names, descriptions and choices as Discord's client shows them."""
    from babel.messages.catalog import Catalog

    from bot.cogs.sanmarco._translator import command_strings

    catalog = Catalog(project=PROJECT, version=VERSION, domain=DOMAIN, charset="utf-8",
                      fuzzy=False, header_comment="# The San Marco bot's words (English: the "
                      "msgids). Made by python -m bot.i18n update; do not edit.")
    for path, lineno, message, comments, context in _source_messages():
        catalog.add(message, locations=[(path, lineno)], auto_comments=comments,
                    context=context)
    for context, message, where in command_strings():
        catalog.add(message, locations=[(where, 0)], context=context)
    return catalog


def _write(catalog: Catalog, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False,
             ignore_obsolete=True)
    path.write_bytes(out.getvalue())


def _read(path: Path, language: str | None = None) -> Catalog:
    from babel.messages.pofile import read_po

    with open(path, "rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def _key(message: Any) -> tuple[Any, str | None]:
    return message.id, message.context


def _signature(catalog: Catalog) -> dict[tuple[Any, str | None], tuple[Any, ...]]:
    """What the template says about each message (line numbers left out: moving code does
    not make the template stale)."""
    return {_key(m): (tuple(sorted({p for p, _ in m.locations})), tuple(m.auto_comments))
            for m in catalog if m.id}


def update() -> list[str]:
    """Rewrite the template from the sources (only if it changed) and merge it into every
    catalogue. Returns what it did."""
    from babel.messages.catalog import Catalog

    done = []
    template = extract()
    if not TEMPLATE.exists() or _signature(_read(TEMPLATE)) != _signature(template):
        _write(template, TEMPLATE)
        done.append(f"wrote {TEMPLATE.relative_to(ROOT)}")
    for language in TRANSLATED:
        path = po_path(language)
        catalog = _read(path, language) if path.exists() else Catalog(
            locale=language, domain=DOMAIN, project=PROJECT, version=VERSION,
            charset="utf-8", fuzzy=False, header_comment=_HEADER[language])
        catalog.update(template, no_fuzzy_matching=False)
        _write(catalog, path)
        done.append(f"merged into {path.relative_to(ROOT)}")
    return done


# ---------------------------------------------------------------------------- checking
@dataclass(frozen=True)
class Problem:
    language: str
    msgid: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.msgid!r}: {self.what}"


def _forms(message: Any) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


def _strings(message: Any) -> tuple[str, ...]:
    s = message.string
    return tuple(s) if isinstance(s, tuple | list) else (s,)


def check_template(template: Catalog) -> list[Problem]:
    """The English side: named placeholders only, the same in a singular and its plural."""
    problems = []
    for m in template:
        if not m.id:
            continue
        try:
            sets = [placeholders(f) for f in _forms(m)]
        except ValueError as exc:
            problems.append(Problem("en", _forms(m)[0], str(exc)))
            continue
        if any(s != sets[-1] for s in sets):
            problems.append(Problem("en", _forms(m)[0], "the singular and the plural have "
                                    "different placeholders"))
    return problems


# Discord refuses a whole command sync if one localised name or description breaks its
# rules: names are 1-32 lowercase letters, digits, "-" or "_"; descriptions and choice
# names 1-100 characters.
_COMMAND_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
COMMAND_TEXT_MAX = 100


def _is_command_text(message: Any) -> bool:
    return bool(message.locations) and all(
        path.startswith("slash-commands/") for path, _ in message.locations)


def command_text_problem(context: str | None, translated: str) -> str | None:
    """What Discord would refuse in a slash command's translated name, choice or
    description (None: nothing)."""
    if context == COMMAND_NAME:
        if not _COMMAND_NAME_RE.match(translated) or translated != translated.lower():
            return (f"{translated!r} is not a Discord command name (1-32 lowercase letters, "
                    "digits, - or _)")
    elif not 1 <= len(translated) <= COMMAND_TEXT_MAX:
        return f"{len(translated)} characters; Discord takes at most {COMMAND_TEXT_MAX}"
    return None


def check_catalogue(language: str, template: Catalog, catalog: Catalog) -> list[Problem]:
    """Every message of the template translated in ``catalog``, not fuzzy, every form
    with exactly the English placeholders; a slash command's words within Discord's
    rules."""
    problems = []
    for t in template:
        if not t.id:
            continue
        first = _forms(t)[0]
        m = catalog.get(t.id, t.context)
        if m is None:
            problems.append(Problem(language, first, "missing"))
            continue
        if m.fuzzy:
            problems.append(Problem(language, first, "fuzzy (not checked by a translator)"))
        strings = _strings(m)
        if not all(s and s.strip() for s in strings):
            problems.append(Problem(language, first, "not translated"))
            continue
        if isinstance(t.id, tuple | list) and len(strings) != catalog.num_plurals:
            problems.append(Problem(language, first, f"{len(strings)} plural forms, the "
                                    f"language has {catalog.num_plurals}"))
        try:
            want = placeholders(_forms(t)[-1])
            for s in strings:
                got = placeholders(s)
                if got != want:
                    problems.append(Problem(language, first, f"placeholders {sorted(got)} "
                                            f"instead of {sorted(want)} in {s!r}"))
        except ValueError as exc:
            problems.append(Problem(language, first, str(exc)))
        if _is_command_text(t):
            for s in strings:
                what = command_text_problem(t.context, s)
                if what is not None:
                    problems.append(Problem(language, first, what))
    return problems


def check() -> list[Problem]:
    """Everything ``python -m bot.i18n check`` reports (empty: all is well)."""
    template = extract()
    problems = check_template(template)
    if not TEMPLATE.exists() or _signature(_read(TEMPLATE)) != _signature(template):
        problems.append(Problem("en", str(TEMPLATE.relative_to(ROOT)),
                                "out of date with the sources: run python -m bot.i18n update"))
    for language in TRANSLATED:
        problems += check_catalogue(language, template, _read(po_path(language), language))
    return problems


def catalogue_texts(language: str) -> list[str]:
    """Every sentence of a language (English: the msgids; else the translations), for
    tests that look for one language's words in another's messages."""
    if language == DEFAULT:
        return [f for m in _read(TEMPLATE) if m.id for f in _forms(m)]
    return [s for m in _read(po_path(language), language) if m.id for s in _strings(m) if s]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["extract"]:
        _write(extract(), TEMPLATE)
        print(f"wrote {TEMPLATE.relative_to(ROOT)}")
        return 0
    if args[:1] == ["update"]:
        print("\n".join(update()))
        return 0
    if args[:1] == ["check"]:
        problems = check()
        print("\n".join(str(p) for p in problems) or "all catalogues complete")
        return 1 if problems else 0
    print("usage: python -m bot.i18n extract|update|check", file=sys.stderr)
    return 2
