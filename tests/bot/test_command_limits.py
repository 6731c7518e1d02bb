"""The slash commands the bot syncs keep every Discord limit in every locale, and the room
kept for new commands (bot.cogs.command_limits).

Discord refuses the whole ``PUT /applications/{app}/commands`` when one command breaks one
limit, and then every command of the bot is gone. The payload checked here is the one the
real bot sends to the fake Discord, German and French localisations included.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs import command_limits as limits
from bot.cogs.command_limits import DISCORD, ROOM, Breach
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness

LOCALES = ("en", "de", "fr")


async def _synced(fake: FakeDiscord, harness: BotHarness) -> list[dict[str, Any]]:
    await harness.start(seed=1)
    return [c for cmds in fake.commands.values() for c in cmds]


def _said(breaches: list[Breach]) -> str:
    return "\n".join(str(b) for b in breaches)


async def test_the_synced_commands_keep_every_discord_limit_in_every_locale(
        fake: FakeDiscord, harness: BotHarness) -> None:
    commands = await _synced(fake, harness)
    assert limits.locales(commands) == list(LOCALES)  # German and French are checked too
    breaches = limits.check(commands)
    assert not breaches, _said(breaches)


async def test_the_synced_commands_leave_room_for_new_ones(fake: FakeDiscord,
                                                           harness: BotHarness) -> None:
    """Eight more entries fit on every level (at most 17 today), and every command counts
    fewer than 3,000 characters in every locale and by Discord's count (longest text of
    each field), a quarter below the 4,000 Discord takes."""
    commands = await _synced(fake, harness)
    breaches = limits.check(commands, ROOM)
    assert not breaches, _said(breaches)
    for command in commands:
        assert max(n for _, n in limits.levels(command)) <= 17
        for locale in (*LOCALES, limits.DISCORD_COUNT):
            assert limits.characters(command, locale) < 3000, (command["name"], locale)


async def test_the_moves_played_most_are_shortest_to_type(fake: FakeDiscord,
                                                          harness: BotHarness) -> None:
    commands = await _synced(fake, harness)
    sanmarco = next(c for c in commands if c["name"] == "sanmarco")
    direct = {o["name"] for o in sanmarco["options"] if o["type"] == limits.SUBCOMMAND}
    # and the hint, asked at one's decision beside them (issue 32)
    assert direct == {"take", "play", "offers", "hand", "board", "status", "hint"}


# ---------------------------------------------------------------------------- the checker
def _sub(name: str, description: str = "Does a thing", **more: Any) -> dict[str, Any]:
    return {"type": limits.SUBCOMMAND, "name": name, "description": description, **more}


def _command(*options: dict[str, Any], name: str = "game",
             **more: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "A game", "options": list(options),
            **more}


def _one(breaches: list[Breach]) -> Breach:
    assert len(breaches) == 1, _said(breaches)
    return breaches[0]


def test_a_well_formed_command_passes() -> None:
    command = _command(_sub("neu-1", "Öffnet eine Partie",
                            name_localizations={"de": "neu", "fr": "nouvelle_à"},
                            options=[{"type": 3, "name": "l'option", "description": "x",
                                      "choices": [{"name": "A", "value": "a"}]}]),
                       name_localizations={"fr": "partie"})
    assert limits.check([command]) == []


def test_a_26th_subcommand_is_caught_on_its_level() -> None:
    command = _command(*(_sub(f"c{i}") for i in range(26)))
    breach = _one(limits.check([command]))
    assert breach.where == "/game" and "26 options or subcommands" in breach.what
    assert "Discord's limit is 25" in str(breach)
    group = {**_sub("more"), "type": limits.GROUP, "options": [_sub(f"c{i}") for i in range(26)]}
    assert _one(limits.check([_command(group)])).where == "/game more"


def test_the_room_takes_17_entries() -> None:
    assert limits.check([_command(*(_sub(f"c{i}") for i in range(17)))], ROOM) == []
    breach = _one(limits.check([_command(*(_sub(f"c{i}") for i in range(18)))], ROOM))
    assert "18 options" in breach.what and "room" in breach.what
    assert limits.check([_command(*(_sub(f"c{i}") for i in range(18)))], DISCORD) == []


def test_a_101_character_description_is_caught_in_its_locale() -> None:
    long = "x" * 101
    command = _command(_sub("new", description_localizations={"fr": long}))
    breach = _one(limits.check([command]))
    assert (breach.where, breach.locale) == ("/game new", "fr")
    assert "description of 101 characters" in breach.what
    assert _one(limits.check([_command(_sub("new", ""))])).what.startswith("description of 0")


@pytest.mark.parametrize(("name", "why"), [
    ("New", "lower case"),
    ("new game", "' '"),
    ("new.game", "'.'"),
    ("n" * 33, "33 characters"),
    ("", "0 characters"),
])
def test_a_name_discord_refuses_is_caught(name: str, why: str) -> None:
    breach = _one(limits.check([_command(_sub("new", name_localizations={"de": name}))]))
    assert (breach.where, breach.locale) == ("/game new", "de")
    assert why in breach.what


def test_two_siblings_of_one_name_in_a_locale_are_caught() -> None:
    command = _command(_sub("new", name_localizations={"de": "neu"}),
                       _sub("fresh", name_localizations={"de": "neu"}))
    breach = _one(limits.check([command]))
    assert (breach.where, breach.locale) == ("/game", "de") and "'neu' twice" in breach.what


def test_choices_are_checked() -> None:
    option = {"type": 3, "name": "topic", "description": "Which",
              "choices": [{"name": f"t{i}", "value": f"t{i}"} for i in range(26)]}
    assert "26 choices" in _one(limits.check([_command(_sub("rules", options=[option]))])).what
    option["choices"] = [{"name": "t", "value": "t", "name_localizations": {"fr": "é" * 101}}]
    breach = _one(limits.check([_command(_sub("rules", options=[option]))]))
    assert (breach.where, breach.locale) == ("/game rules topic=t", "fr")
    assert "choice name of 101" in breach.what
    option["choices"] = [{"name": "t", "value": "v" * 101}]
    assert "choice value of 101" in _one(limits.check(
        [_command(_sub("rules", options=[option]))])).what


def test_a_group_inside_a_group_is_caught() -> None:
    inner = {**_sub("inner"), "type": limits.GROUP, "options": [_sub("leaf")]}
    outer = {**_sub("outer"), "type": limits.GROUP, "options": [inner]}
    breach = _one(limits.check([_command(outer)]))
    assert breach.where == "/game outer" and "one level of groups" in breach.what


def test_discord_counts_the_longest_text_of_each_field() -> None:
    """Each locale alone stays under 4,000 characters, but Discord counts the longest
    localisation of every field: German's long descriptions and French's long names add
    up to more than 4,000."""
    def sub(i: int) -> dict[str, Any]:
        option = {"type": 3, "name": "p", "description": "d" * 10,
                  "name_localizations": {"fr": "p" * 32},
                  "description_localizations": {"de": "D" * 40}}
        return _sub(f"c{i:02d}", "d" * 10, name_localizations={"fr": f"c{i:02d}" + "c" * 29},
                    description_localizations={"de": "D" * 100}, options=[option])

    command = _command(*(sub(i) for i in range(25)))
    assert limits.characters(command, "en") == 4 + 6 + 25 * (3 + 10 + 1 + 10)  # 610
    assert limits.characters(command, "de") == 4 + 6 + 25 * (3 + 100 + 1 + 40)  # 3,610
    assert limits.characters(command, "fr") == 4 + 6 + 25 * (32 + 10 + 32 + 10)  # 2,110
    assert limits.characters(command, limits.DISCORD_COUNT) == 4 + 6 + 25 * (32 + 100 + 32
                                                                            + 40)
    breach = _one(limits.check([command]))
    assert (breach.where, breach.locale) == ("/game", limits.DISCORD_COUNT)
    assert "5,110 characters" in breach.what and "4,000" in breach.what
    assert {b.locale for b in limits.check([command], ROOM)} == {"de", limits.DISCORD_COUNT,
                                                                 "en"}


def test_more_than_100_commands_are_caught() -> None:
    commands = [_command(_sub("x"), name=f"c{i}") for i in range(101)]
    assert "101 commands" in _one(limits.check(commands)).what


def test_the_report_names_every_command_and_its_fullest_level() -> None:
    command = _command(_sub("new"), {**_sub("seat"), "type": limits.GROUP,
                                     "options": [_sub("a"), _sub("b"), _sub("c")]})
    table = limits.report([command])
    assert "/game" in table and "3 (/game seat)" in table
