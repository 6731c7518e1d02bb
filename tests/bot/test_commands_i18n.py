"""The slash commands in German and French Discord clients: the commands the bot syncs
carry ``name_localizations`` and ``description_localizations`` for ``de`` and ``fr`` from
the catalogue (bot/cogs/sanmarco/translator.py). That every localised word keeps Discord's
rules (or Discord would refuse the whole sync) is tests/bot/test_command_limits.py's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot import i18n
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness

LOCALES = ("de", "fr")


def _nodes(options: list[dict[str, Any]], path: str) -> Iterator[tuple[str, dict[str, Any],
                                                                      list[dict[str, Any]]]]:
    """(path, node, its siblings) for every option under a command, depth first."""
    for o in options:
        here = f"{path} {o['name']}"
        yield here, o, options
        yield from _nodes(o.get("options") or [], here)


async def _synced(fake: FakeDiscord, harness: BotHarness) -> list[dict[str, Any]]:
    await harness.start(seed=1)
    return [c for cmds in fake.commands.values() for c in cmds]


async def test_every_command_option_and_choice_is_localised_in_german_and_french(
        fake: FakeDiscord, harness: BotHarness) -> None:
    commands = await _synced(fake, harness)
    assert [c["name"] for c in commands] == ["sanmarco", "sanmarco-server"]
    untranslated = []
    for path, node, _ in [(c["name"], c, commands) for c in commands] + [
            n for c in commands for n in _nodes(c["options"], c["name"])]:
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
    game = next(o for o in commands[0]["options"] if o["name"] == "game")
    assert game["type"] == 2  # a subcommand group
    rules = next(o for o in game["options"] if o["name"] == "rules")
    assert rules["name_localizations"] == {"de": "regeln", "fr": "règles"}
    assert rules["description_localizations"]["de"] == \
        i18n.translations("de").gettext(rules["description"])
