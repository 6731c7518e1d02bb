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
2. ``python -m bot.i18n update``: extracts bot/, render/ and engine/ (how an action reads,
   engine/describe.py) and the slash commands' names, descriptions and choices into the
   template, and merges it into the German and French catalogues (new entries empty,
   changed ones marked fuzzy).
3. Translate the new entries in both ``.po`` files with the books' words (the glossary).
4. ``python -m bot.i18n check`` (also a test, tests/bot/test_i18n.py): every entry
   translated and not fuzzy, the same placeholders as the English, the template up to
   date with the sources.

Two rooms: ``bot.i18n.lookup`` is the run-time lookup (re-exported here), what every layer
of the bot may import, at the bottom of the layers; ``bot.i18n.catalogues`` is the catalogue
tooling (extracting, merging, checking: ``python -m bot.i18n``), which reads the slash
commands from the cog and so sits at the top, beside ``python -m bot`` (the contracts in
pyproject.toml). Nothing in the bot imports the tooling.
"""

from bot.i18n.lookup import (
    COMMAND_CHOICE,
    COMMAND_NAME,
    DEFAULT,
    DOMAIN,
    ENGLISH,
    LANGUAGES,
    LOCALE_DIR,
    N_,
    TRANSLATED,
    Tr,
    channel_language,
    for_locale,
    is_language,
    language_of,
    po_path,
    translations,
)

__all__ = [
    "COMMAND_CHOICE", "COMMAND_NAME", "DEFAULT", "DOMAIN", "ENGLISH", "LANGUAGES", "LOCALE_DIR",
    "N_", "TRANSLATED", "Tr", "channel_language", "for_locale", "is_language", "language_of",
    "po_path", "translations",
]
