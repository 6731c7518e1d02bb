"""Structural checks on the cog: every command is described, custom_ids are unique and fit.

Walks the real command tree as python-discord's test_cogs.py walks its cogs (STYLE.md §5).
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import discord
from discord import app_commands

from bot.client import SanMarcoBot, bot_intents
from bot.cogs.sanmarco.components import items, screens
from bot.cogs.sanmarco.components.items import Ref, RoundKey
from bot.cogs.sanmarco.delivery.final import finished_buttons
from bot.config import Config
from bot.i18n import ENGLISH as EN
from engine import legal_actions, new_game
from engine.cards import ACTION_DECK, LIMIT_DECK

BIG_CHANNEL = 99_999_999_999_999_999_999 // 10  # 20 digits, more than any snowflake today
BIG_GAME = 999_999_999_999
BIG_VERSION = 999_999_999


async def _tree() -> app_commands.CommandTree[SanMarcoBot]:
    bot = SanMarcoBot(Config(token="x"), service=SimpleNamespace(),  # type: ignore[arg-type]
                      sync_commands=False)
    await bot.load_extension("bot.cogs.sanmarco")
    return bot.tree


def _walk(cmds: list[app_commands.Command | app_commands.Group]) -> list:
    out = []
    for c in cmds:
        out.append(c)
        if isinstance(c, app_commands.Group):
            out += _walk(c.commands)
    return out


async def test_every_command_and_option_has_a_description() -> None:
    """Discord shows descriptions in the command picker; discord.py's default is '…'."""
    tree = await _tree()
    names = set()
    for cmd in _walk(tree.get_commands()):
        assert cmd.description and cmd.description != "…", cmd.qualified_name
        assert len(cmd.description) <= 100, cmd.qualified_name
        names.add(cmd.qualified_name)
        if isinstance(cmd, app_commands.Command):
            for p in cmd.parameters:
                assert p.description and p.description != "…", f"{cmd.qualified_name} {p.name}"
    expected = {"sanmarco board", "sanmarco status", "sanmarco hand", "sanmarco offers",
                "sanmarco take", "sanmarco play",
                *(f"sanmarco game {n}" for n in ("new", "join", "leave", "start", "computer",
                                                 "log", "undo", "rules", "abandon")),
                "sanmarco seat replace", "sanmarco seat reclaim",
                *(f"sanmarco-server {n}" for n in ("stats", "leaderboard", "history",
                                                   "replay", "gamefile", "settings",
                                                   "notify", "games"))}
    assert expected <= names


async def test_two_top_level_commands_hold_every_command() -> None:
    """/sanmarco plays this channel's game; /sanmarco-server is the server's memory, the
    channel's settings and the player's own (two commands: room on every level and in
    Discord's characters per command, tests/bot/test_command_limits.py)."""
    tree = await _tree()
    assert [c.name for c in tree.get_commands()] == ["sanmarco", "sanmarco-server"]


BIG = Ref(BIG_CHANNEL, BIG_GAME, BIG_VERSION)


def test_each_custom_id_matches_exactly_one_item_and_anything_else_is_outdated() -> None:
    """discord.py runs every template that matches: exactly one may."""
    patterns = [item.__discord_ui_compiled_template__ for item in items.DYNAMIC_ITEMS]
    for cid in ("sm:1:2.3:take:7", "sm:1:2.3:take", "sm:1:2.3:asg:1.1.0,5,01", "sm:x",
                "sm:1:2.3:nonsense:1", "sm:1:2:join", BIG.custom_id("next") + ":1"):
        matching = [p for p in patterns if p.fullmatch(cid)]
        assert matching == [items.OutdatedItem.__discord_ui_compiled_template__], cid
    assert not any(p.fullmatch("other:1:2.3:join") for p in patterns)


def _items(view: discord.ui.View) -> list[discord.ui.Item]:
    """The underlying buttons and selects (a DynamicItem wraps one in ``.item``)."""
    return [i.item if isinstance(i, discord.ui.DynamicItem) else i for i in view.children]


def _all_custom_ids(view: discord.ui.View) -> list[str]:
    return [i.custom_id for i in _items(view) if getattr(i, "custom_id", None)]


def test_every_custom_id_the_bot_builds_fits_discord_and_is_recognised() -> None:
    """≤ 100 characters, at most 25 options, 5 rows, and a DynamicItem claims it."""
    patterns = [item.__discord_ui_compiled_template__ for item in items.DYNAMIC_ITEMS]
    outdated = items.OutdatedItem.__discord_ui_compiled_template__
    views: list[discord.ui.View] = []
    drawn = list(ACTION_DECK[:6]) + list(LIMIT_DECK[:4])
    builder = screens.builder(EN, BIG, RoundKey(3, 999, True), drawn, [2] * len(drawn), 3).view
    assert builder is not None
    views.append(builder)
    # a final post's buttons (the review's among them)
    views.append(finished_buttons(EN, BIG_CHANNEL, BIG_GAME, BIG_VERSION))
    state = new_game(["1" * 19, "2" * 19, "3" * 19], seed=3)
    for _ in range(400):
        if state.finished:
            break
        pid = state.waiting_for[0]
        view = state.public_view()
        pv = screens.prompt(EN, BIG_CHANNEL, BIG_GAME, {**view, "version": BIG_VERSION})
        if pv is not None:
            views.append(pv)
        actions = legal_actions(state, pid)
        if view["phase"] != "split":
            hand = view["hand"]["cards"] if view["hand"] else []
            for card, group in ((None, None), (0, None), (1, None), (0, 0), (1, 1)):
                chooser = screens.chooser(EN, BIG, pid, actions, hand, card=card, group=group)
                assert chooser.view is not None
                views.append(chooser.view)
        from engine import apply

        state, _ = apply(state, pid, actions[len(actions) // 2])
    assert state.finished
    for view in views:
        assert len(view.children) <= 25
        for item in _items(view):
            if isinstance(item, discord.ui.Select):
                assert len(item.options) <= 25
                for o in item.options:
                    assert len(o.label) <= 100 and len(o.value) <= 100
        for cid in _all_custom_ids(view):
            assert len(cid) <= 100, cid
            assert sum(bool(p.fullmatch(cid)) for p in patterns) == 1, cid
            assert not outdated.fullmatch(cid), cid
    assert len(views) > 50


def test_intents_are_not_privileged() -> None:
    intents = bot_intents()
    assert not intents.message_content and not intents.members and not intents.presences
    assert intents.guilds


def test_custom_id_too_long_is_refused() -> None:
    try:
        BIG.custom_id("pick", "x" * 80)
    except ValueError:
        return
    raise AssertionError("a 100+ character custom_id was accepted")


def test_select_values_cover_every_listed_card_once() -> None:
    drawn = list(itertools.islice(ACTION_DECK, 0, 60, 7))[:7] + list(LIMIT_DECK[:3])
    view = screens.builder(EN, Ref(1, 1, 1), RoundKey(1, 1, False), drawn, [None] * len(drawn),
                           2).view
    assert view is not None
    selects = [i for i in _items(view) if isinstance(i, discord.ui.Select)]
    assert len(selects) == 2
    for s in selects:
        assert sorted(int(o.value) for o in s.options) == list(range(len(drawn)))
