"""The catalogues' tooling: ``python -m bot.i18n extract|update|check`` (bot/i18n/ says how a
sentence is written; this module is what keeps the catalogues in step with the code).

``extract`` reads every sentence of the sources (the extractor's keywords below) and the
slash commands' names, descriptions and choices as the cog class declares them (no bot is
built: ``bot.cogs.sanmarco.command_strings``); ``update`` merges the template into the German
and French catalogues; ``check`` says what a translator still owes. It reads the cog, so it
sits above the whole bot (the layers in pyproject.toml); the bot itself never imports it.
"""

from __future__ import annotations

import io
import string
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.cogs import command_limits
from bot.cogs.sanmarco import command_strings
from bot.i18n.lookup import (
    COMMAND_CHOICE,
    COMMAND_NAME,
    DEFAULT,
    DOMAIN,
    LOCALE_DIR,
    TRANSLATED,
    po_path,
)

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
# The folders whose words are extracted (engine/: how an action reads, engine/describe.py).
SOURCES = ("bot", "render", "engine")
PROJECT, VERSION = "sanmarco-bot", "0.1.0"
_HEADER = {
    "de": "# The San Marco bot in German, with the words of the German rule book (Ravensburger "
          "2001;\n# docs/GLOSSARY.md). Merged by python -m bot.i18n update; translate here.",
    "fr": "# The San Marco bot in French, with the words of the French rule book (docs/"
          "GLOSSARY.md).\n# Merged by python -m bot.i18n update; translate here.",
}

# What the extractor reads as a sentence: gettext/ngettext/pgettext calls (also as methods,
# ``tr.gettext``), ``N_`` marks in tables, and ``_(...)`` where ``_ = tr.gettext``.
KEYWORDS: dict[str, Any] = {
    "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3), "N_": None,
    "_": None,  # ``_ = tr.gettext`` in a function with many sentences
}
COMMENT_TAGS = ("TRANSLATORS:",)


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
    for folder in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                str(ROOT / folder), method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=COMMENT_TAGS, strip_comment_tags=True):
            yield f"{folder}/{filename}", lineno, message, comments, context


def extract() -> Catalog:
    """The template from the sources: every sentence of bot/, render/ and engine/ (how an action
    reads, engine/describe.py), and the slash commands' names, descriptions and choices as
    Discord's client shows them."""
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
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False,
             ignore_obsolete=True)
    path.write_bytes(out.getvalue())


def _read(path: Path, language: str | None = None) -> Catalog:
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


def _is_command_text(message: Any) -> bool:
    return bool(message.locations) and all(
        path.startswith("slash-commands/") for path, _ in message.locations)


def command_text_problem(context: str | None, translated: str) -> str | None:
    """What Discord would refuse in a slash command's translated name, choice or
    description (None: nothing): the rules for one word of ``bot.cogs.command_limits``,
    which checks the whole synced tree with them (Discord refuses every command of the bot
    when one word breaks them)."""
    if context == COMMAND_NAME:
        return command_limits.name_problem(translated)
    if context == COMMAND_CHOICE:
        return command_limits.text_problem(translated, "choice name")
    return command_limits.text_problem(translated)


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
