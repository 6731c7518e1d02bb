"""The run-time lookup of the bot's words: which language a reader reads (``for_locale``,
``channel_language``), and that language's translations (``translations``, compiled in
memory from its ``.po`` on first use). See ``bot.i18n`` for how a sentence is written."""

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

# The message contexts of the slash commands' words (bot/cogs/sanmarco/translator.py).
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
