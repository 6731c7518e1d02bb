"""The slash commands in Discord's client, in German and French: discord.py's
``app_commands.Translator`` backed by the bot's catalogue (bot/i18n/).

Discord asks for every command's, option's and choice's name and description once, when
the commands are synced, and shows each user the ones of their client's language. Names
are looked up with a message context (``command name``, ``command choice``), so that a
command called ``hand`` and a card's word can be translated apart; descriptions are
ordinary sentences. ``command_strings`` lists them all for the catalogue's template (so
nothing is marked in the decorators: whatever the cog declares is extracted).

Discord's rules for a localised name (tests/bot/test_commands_i18n.py checks them): at
most 32 characters, lowercase, letters, digits, ``-`` and ``_`` only (no spaces), unique
among its siblings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.cogs.sanmarco.cog import SanMarcoCog

log = logging.getLogger(__name__)

_CONTEXT: dict[app_commands.TranslationContextLocation, str] = {
    app_commands.TranslationContextLocation.command_name: i18n.COMMAND_NAME,
    app_commands.TranslationContextLocation.group_name: i18n.COMMAND_NAME,
    app_commands.TranslationContextLocation.parameter_name: i18n.COMMAND_NAME,
    app_commands.TranslationContextLocation.choice_name: i18n.COMMAND_CHOICE,
}


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the catalogue (None: Discord shows the
    English one)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        language = i18n.language_of(locale)
        if language == i18n.DEFAULT:
            return None
        try:
            tr = i18n.translations(language)
        except Exception:  # a broken catalogue must not keep the commands from syncing
            log.exception("no %s catalogue: the commands stay in English there", language)
            return None
        where = _CONTEXT.get(context.location)
        said = (tr.pgettext(where, string.message) if where is not None
                else tr.gettext(string.message))
        return said if said != string.message else None


def walk(group: app_commands.Group) -> Iterator[tuple[str | None, str, str]]:
    """(context, English text, where) for every name, description and choice under
    ``group`` (``where``: the command's path, for translators)."""
    where = "slash-commands/" + group.qualified_name.replace(" ", "/")
    yield i18n.COMMAND_NAME, group.name, where
    yield None, group.description, where
    for cmd in group.commands:
        if isinstance(cmd, app_commands.Group):
            yield from walk(cmd)
            continue
        here = "slash-commands/" + cmd.qualified_name.replace(" ", "/")
        yield i18n.COMMAND_NAME, cmd.name, here
        yield None, cmd.description, here
        for p in cmd.parameters:
            yield i18n.COMMAND_NAME, p.display_name, here
            yield None, p.description, here
            for choice in p.choices:
                yield i18n.COMMAND_CHOICE, choice.name, here


def top_level() -> list[app_commands.Group]:
    """The top-level commands (``/sanmarco``, ``/sanmarco-server``) as the cog declares
    them, built without a bot: discord.py copies a cog's commands when the cog object is
    made (``Cog.__new__``), before ``__init__`` would ask for one, so this is exactly what
    Discord is sent."""
    commands = SanMarcoCog.__new__(SanMarcoCog).get_app_commands()
    groups = [c for c in commands if isinstance(c, app_commands.Group)]
    assert len(groups) == len(commands), "every top-level command is a group"
    return groups


def command_strings() -> list[tuple[str | None, str, str]]:
    """Every name, description and choice of the slash commands, for the template."""
    return [s for group in top_level() for s in walk(group)]
