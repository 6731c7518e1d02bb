"""Discord's limits on slash commands, checked on the payload a bot syncs.

Discord refuses a whole ``PUT /applications/{app}/commands`` when one command breaks one
rule, and then every command of the bot is gone from every server. The rules (Discord's API
reference, "Application Commands", and its OpenAPI description):

- a name is 1-32 characters of letters, digits, ``-``, ``_`` or ``'`` (plus the Devanagari
  and Thai scripts), in lower case wherever a letter has a lower case; names are unique
  among their siblings;
- a description is 1-100 characters, a choice's name 1-100, a string choice's value at
  most 100;
- a command, a subcommand group and a subcommand hold at most 25 options, an option at most
  25 choices; a group holds only subcommands (one level of groups under a command);
- an application has at most 100 slash commands;
- a command counts the characters of every ``name``, ``description`` and choice ``value``
  in it (its options, subcommands, groups and choices included); where localisations are
  present only the longest text of each field counts, the default included. Discord raised
  the ceiling from 4,000 to 8,000 characters in 2024; the bot keeps to the old 4,000, so it
  also syncs wherever the lower one still applies.

Every localised name and description obeys the same rules as the default one.
``check(commands)`` lists every breach with the command, the level and the locale;
``check(commands, ROOM)`` the same against the room the bot keeps for new commands.
``python -m bot.i18n check`` applies the rules for one word (``name_problem``,
``text_problem``) to the catalogues' translations.

Plain data in, plain data out: no discord.py here, so the catalogue tooling and the tests
read it without starting a bot.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Node = Mapping[str, Any]  # a command, or an option of one, as JSON

DEFAULT_LOCALE = "en"  # the text without localisation (what ``name`` and ``description`` say)
DISCORD_COUNT = "longest"  # the locale column of Discord's own count (longest text per field)

SUBCOMMAND, GROUP = 1, 2  # option types that are levels, not parameters
MAX_NAME = 32
MAX_TEXT = 100  # a description, a choice's name, a string choice's value
MAX_COMMANDS = 100  # slash commands per application (global, or per server)
_SCRIPTS = ((0x0900, 0x097F), (0x0E00, 0x0E7F))  # Devanagari, Thai: marks allowed in names


@dataclass(frozen=True)
class Limits:
    """How many entries one level may hold and how many characters one command may count."""

    entries: int
    characters: int
    label: str


DISCORD = Limits(entries=25, characters=4000, label="Discord's limit")
# The room the bot keeps: eight more entries fit on every level, and a quarter of the
# characters is left for the next commands and their translations.
ROOM = Limits(entries=17, characters=2999, label="the room kept for new commands")


@dataclass(frozen=True)
class Breach:
    """One rule broken: where (``/sanmarco game new seats``), in which locale, and how."""

    where: str
    locale: str
    what: str

    def __str__(self) -> str:
        return f"{self.where} [{self.locale}]: {self.what}"


# ---------------------------------------------------------------------------- one word
def _name_character(c: str) -> bool:
    if c in "-_'" or unicodedata.category(c)[0] in "LN":
        return True
    return any(lo <= ord(c) <= hi for lo, hi in _SCRIPTS)


def name_problem(name: str) -> str | None:
    """What Discord would refuse in a command's, group's or option's name (None: nothing)."""
    if not 1 <= len(name) <= MAX_NAME:
        return f"name {name!r} has {len(name)} characters; Discord takes 1-{MAX_NAME}"
    odd = sorted({c for c in name if not _name_character(c)})
    if odd:
        return (f"name {name!r} has {''.join(odd)!r}; Discord takes letters, digits, "
                "- _ and ' only")
    if any(c.lower() != c for c in name):
        return f"name {name!r} is not in lower case"
    return None


def text_problem(text: str, what: str = "description") -> str | None:
    """What Discord would refuse in a description or a choice's name (None: nothing)."""
    if not 1 <= len(text) <= MAX_TEXT:
        return f"{what} of {len(text)} characters; Discord takes 1-{MAX_TEXT}"
    return None


# ---------------------------------------------------------------------------- counting
def _said(node: Node, key: str, locale: str) -> str:
    """A field as a client of ``locale`` shows it (its localisation, else the default)."""
    default = str(node.get(key) or "")
    said = (node.get(f"{key}_localizations") or {}).get(locale)
    return default if locale == DEFAULT_LOCALE or said is None else str(said)


def _longest(node: Node, key: str) -> str:
    texts = [str(node.get(key) or ""),
             *(str(t) for t in (node.get(f"{key}_localizations") or {}).values()
               if t is not None)]
    return max(texts, key=len)


def _fields(command: Node) -> Iterator[tuple[Node, str]]:
    """(node, key) of every field Discord counts: names, descriptions, choices' values."""
    yield command, "name"
    yield command, "description"
    for option in command.get("options") or ():
        yield from _fields(option)
    for choice in command.get("choices") or ():
        yield choice, "name"
        yield choice, "value"


def characters(command: Node, locale: str) -> int:
    """The characters of a command as a client of ``locale`` reads it;
    ``DISCORD_COUNT``: as Discord counts it (the longest text of each field)."""
    if locale == DISCORD_COUNT:
        return sum(len(_longest(node, key)) for node, key in _fields(command))
    return sum(len(_said(node, key, locale)) for node, key in _fields(command))


def locales(commands: Sequence[Node]) -> list[str]:
    """The default locale and every locale a command, option or choice is localised in."""
    found: set[str] = set()

    def visit(node: Node) -> None:
        for key in ("name_localizations", "description_localizations"):
            found.update(node.get(key) or {})
        for child in (*(node.get("options") or ()), *(node.get("choices") or ())):
            visit(child)

    for command in commands:
        visit(command)
    return [DEFAULT_LOCALE, *sorted(found - {DEFAULT_LOCALE})]


def levels(command: Node) -> Iterator[tuple[str, int]]:
    """(path, entries) of every level: the command, each group and each subcommand (its
    options), and each option with choices (its choices)."""
    def walk(node: Node, path: str) -> Iterator[tuple[str, int]]:
        options = node.get("options") or ()
        yield path, len(options)
        for o in options:
            if o.get("type") in (SUBCOMMAND, GROUP):
                yield from walk(o, f"{path} {o['name']}")
            elif o.get("choices"):
                yield f"{path} {o['name']} (choices)", len(o["choices"])

    return walk(command, "/" + str(command.get("name")))


# ---------------------------------------------------------------------------- checking
def check(commands: Sequence[Node], limits: Limits = DISCORD) -> list[Breach]:
    """Every breach of Discord's rules (``DISCORD``) or of the room kept (``ROOM``) in the
    commands a bot syncs, in every locale they carry."""
    found: list[Breach] = []
    if len(commands) > MAX_COMMANDS:
        found.append(Breach("(all commands)", DEFAULT_LOCALE,
                            f"{len(commands)} commands; Discord takes {MAX_COMMANDS}"))
    langs = locales(commands)
    found += _siblings(commands, "(all commands)", langs)
    for command in commands:
        found += _node(command, "/" + str(command.get("name")), limits, langs, top=True)
        for locale in (*langs, DISCORD_COUNT):
            count = characters(command, locale)
            if count > limits.characters:
                found.append(Breach("/" + str(command.get("name")), locale,
                                    f"{count:,} characters; {limits.label} is "
                                    f"{limits.characters:,}"))
    return found


def _node(node: Node, path: str, limits: Limits, langs: Sequence[str], *,
          top: bool = False) -> list[Breach]:
    found: list[Breach] = []
    for locale in langs:
        what = name_problem(_said(node, "name", locale))
        if what is not None:
            found.append(Breach(path, locale, what))
        what = text_problem(_said(node, "description", locale))
        if what is not None:
            found.append(Breach(path, locale, what))
    options = node.get("options") or ()
    if len(options) > limits.entries:
        found.append(Breach(path, DEFAULT_LOCALE, f"{len(options)} options or subcommands; "
                            f"{limits.label} is {limits.entries}"))
    # one level of groups: a command holds groups and subcommands, or parameters; a group
    # only subcommands; a subcommand only parameters; a parameter nothing
    nested = {o.get("type") in (SUBCOMMAND, GROUP) for o in options}
    kind = "command" if top else {GROUP: "group", SUBCOMMAND: "subcommand"}.get(
        int(node.get("type") or 0), "parameter")
    allowed = {"command": ({True}, {False}), "group": ({True},),
               "subcommand": ({False},)}.get(kind, ())
    if options and nested not in allowed:
        found.append(Breach(path, DEFAULT_LOCALE, f"a {kind} holding "
                            + ("subcommands and parameters side by side" if len(nested) > 1
                               else "subcommands" if True in nested else "parameters")
                            + ": Discord allows one level of groups"))
    if any(o.get("type") == GROUP for o in options) and not top:
        found.append(Breach(path, DEFAULT_LOCALE, "a group inside a group: Discord allows "
                            "one level of groups"))
    found += _siblings(options, path, langs)
    for o in options:
        found += _node(o, f"{path} {o.get('name')}", limits, langs)
    found += _choices(node, path, limits, langs)
    return found


def _choices(node: Node, path: str, limits: Limits, langs: Sequence[str]) -> list[Breach]:
    found: list[Breach] = []
    choices = node.get("choices") or ()
    if len(choices) > limits.entries:
        found.append(Breach(path, DEFAULT_LOCALE, f"{len(choices)} choices; {limits.label} "
                            f"is {limits.entries}"))
    for choice in choices:
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            found.append(Breach(f"{path}={value[:20]}…", DEFAULT_LOCALE,
                                f"choice value of {len(value)} characters; at most {MAX_TEXT}"))
        for locale in langs:
            what = text_problem(_said(choice, "name", locale), "choice name")
            if what is not None:
                found.append(Breach(f"{path}={value}", locale, what))
    return found


def _siblings(nodes: Sequence[Node], path: str, langs: Sequence[str]) -> list[Breach]:
    found: list[Breach] = []
    for locale in langs:
        names = [_said(n, "name", locale) for n in nodes]
        for name in sorted({n for n in names if names.count(n) > 1}):
            found.append(Breach(path, locale, f"name {name!r} twice on one level"))
    return found


def report(commands: Sequence[Node]) -> str:
    """A table of every command's characters per locale and by Discord's count, and the
    entries of its fullest level (for the README and the review)."""
    langs = locales(commands)
    head = ["command", *langs, "Discord's count", "fullest level"]
    rows = [head]
    for command in commands:
        path, entries = max(levels(command), key=lambda lv: lv[1])
        rows.append(["/" + str(command.get("name")),
                     *(f"{characters(command, lang):,}" for lang in langs),
                     f"{characters(command, DISCORD_COUNT):,}", f"{entries} ({path})"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in rows)
