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

This module is the run-time lookup only, what every layer of the bot may import; the
catalogue tooling (extracting, merging, checking: ``python -m bot.i18n``) is
``bot.i18n.catalogues``, which reads the slash commands from the cog and so sits above
everything.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "sanmarco"
LANGUAGES: tuple[str, ...] = ("en", "de", "fr")  # English first: the msgids
TRANSLATED: tuple[str, ...] = ("de", "fr")
DEFAULT = "en"
LOCALE_DIR = Path(__file__).with_name("locale")

Tr = gettext.NullTranslations  # what every word-making function takes
ENGLISH: Tr = gettext.NullTranslations()  # the msgids themselves

# The message contexts of the slash commands' words (bot/cogs/sanmarco/_translator.py).
COMMAND_NAME = "command name"  # a command's, a group's or an option's name
COMMAND_CHOICE = "command choice"  # the name of an option's choice


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
    """Where a language's catalogue is kept."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
