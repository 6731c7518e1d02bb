"""The slash commands in German and French Discord clients: the commands the
bot syncs carry ``name_localizations`` and ``description_localizations`` for ``de`` and
``fr`` from the catalogue (bot/cogs/sanmarco/_translator.py), and every localised name
keeps Discord's rules — at most 32 characters, lowercase, no spaces, unique among its
siblings — or Discord would refuse the whole sync."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from bot import i18n
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness

# Discord's pattern for command and option names (its API reference, "Application Command
# Naming"), for the scripts German and French use.
NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = ("de", "fr")


def _nodes(options: list[dict[str, Any]], path: str) -> Iterator[tuple[str, dict[str, Any],
                                                                      list[dict[str, Any]]]]:
    """(path, node, its siblings) for every option under a command, depth first."""
    for o in options:
        here = f"{path} {o['name']}"
        yield here, o, options
        yield from _nodes(o.get("options") or [], here)


async def _synced(fake: FakeDiscord, harness: BotHarness) -> dict[str, Any]:
    await harness.start(seed=1)
    commands = [c for cmds in fake.commands.values() for c in cmds]
    [group] = [c for c in commands if c["name"] == "sanmarco"]
    return group


async def test_every_command_option_and_choice_is_localised_in_german_and_french(
        fake: FakeDiscord, harness: BotHarness) -> None:
    group = await _synced(fake, harness)
    assert set(group.get("description_localizations") or {}) == set(LOCALES)
    untranslated = []
    for path, node, _ in [("sanmarco", group, [group]), *_nodes(group["options"], "sanmarco")]:
        for locale in LOCALES:
            tr = i18n.translations(locale)
            if not (node.get("description_localizations") or {}).get(locale):
                untranslated.append(f"{path}: description ({locale})")
            for choice in node.get("choices") or []:
                same = tr.pgettext(i18n.COMMAND_CHOICE, choice["name"]) == choice["name"]
                if not (choice.get("name_localizations") or {}).get(locale) and not same:
                    untranslated.append(f"{path}={choice['value']} ({locale})")
    assert not untranslated, untranslated
    # a German user sees the book's words, a French one theirs
    rules = next(o for o in group["options"] if o["name"] == "rules")
    assert rules["name_localizations"] == {"de": "regeln", "fr": "règles"}
    assert rules["description_localizations"]["de"] == \
        i18n.translations("de").gettext(rules["description"])


async def test_every_localised_name_keeps_discords_rules(fake: FakeDiscord,
                                                         harness: BotHarness) -> None:
    group = await _synced(fake, harness)
    problems = []
    for path, node, siblings in _nodes(group["options"], "sanmarco"):
        for locale, name in (node.get("name_localizations") or {}).items():
            if not NAME.match(name) or name != name.lower():
                problems.append(f"{path} ({locale}): {name!r}")
            taken = [(s.get("name_localizations") or {}).get(locale, s["name"])
                     for s in siblings]
            if taken.count(name) > 1:
                problems.append(f"{path} ({locale}): {name!r} twice among its siblings")
        for choice in node.get("choices") or []:
            for locale, name in (choice.get("name_localizations") or {}).items():
                if not 1 <= len(name) <= 100:
                    problems.append(f"{path}={choice['value']} ({locale}): {name!r}")
        for locale, text in (node.get("description_localizations") or {}).items():
            if not 1 <= len(text) <= 100:
                problems.append(f"{path} ({locale}) description of {len(text)} characters")
    assert not problems, problems
