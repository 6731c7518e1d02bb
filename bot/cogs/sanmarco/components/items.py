"""Persistent buttons and selects: one ``DynamicItem`` class per kind, each with a typed
template. No game state lives here (STYLE.md §3): a component's custom_id says which game
and version it belongs to and what it does, ``sm:<channel>:<game>.<version>:<tag>[:<args>]``,
and its callback (``clicks.Component``) runs the item's ``run`` under the reception, which
asks the panels, which ask the service (docs/CLICK.md). So every button still works after a
restart, and a button of an earlier game never acts on a later one.

A custom_id in the bot's format that no template accepts (an older format, or forged) is an
``OutdatedItem``: the player is told the prompt is outdated and gets the current one.

Discord limits designed around: custom_id ≤ 100 characters, 5 rows, 25 options per select,
labels ≤ 80 (buttons) / 100 (options) characters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.cogs.sanmarco.components.clicks import (
    Button,
    ClickContext,
    Component,
    Select,
    TagButton,
    make_button,
    make_select,
)
from bot.cogs.sanmarco.components.custom_ids import (
    ASSIGNMENT,
    HEAD,
    PREFIX,
    ROUND,
    STEP,
    Ref,
    RoundKey,
    chosen,
    first,
    format_assignment,
    opt_int,
    parse_assignment,
    step,
)
from bot.cogs.sanmarco.components.practice import EndPracticeButton, SkipLessonsButton
from bot.cogs.sanmarco.shared.answers import Interaction


# ---------------------------------------------------------------------------- the lobby
class JoinButton(TagButton, tag="join", style=discord.ButtonStyle.success):
    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.join(interaction, self.ref)


class LeaveButton(TagButton, tag="leave"):
    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.leave(interaction, self.ref)


class ComputerButton(TagButton, tag="cpu"):
    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.add_computer(interaction, self.ref)


class StartButton(TagButton, tag="start", style=discord.ButtonStyle.primary):
    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.start(interaction, self.ref)


# ---------------------------------------------------------------------------- the offer builder
class BuildButton(Component, discord.ui.DynamicItem[Button],
                  template=HEAD + ":build:" + ROUND):
    """On the channel post of a split: opens the distributor's private builder."""

    def __init__(self, ref: Ref, rkey: RoundKey, label: str = "…") -> None:
        super().__init__(make_button(ref, "build", str(rkey), label, discord.ButtonStyle.primary))
        self.ref, self.rkey = ref, rkey

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BuildButton:
        return cls(Ref.of(match), RoundKey.of(match))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.open_builder(interaction, self.ref, self.rkey)


class AssignSelect(Component, discord.ui.DynamicItem[Select],
                   template=HEAD + ":asg:" + ROUND + r",(?P<offer>[0-2])," + ASSIGNMENT):
    """One offer's cards; the whole assignment rides in the custom_id, so the builder works
    after a restart and without the store. The store's copy of the half-made split (shared
    with the seat page, ``GameService.split_draft``) wins when there is one: the page may
    have changed it since this builder was drawn."""

    def __init__(self, ref: Ref, rkey: RoundKey, offer: int,
                 assignment: Sequence[int | None],
                 options: Sequence[discord.SelectOption] = (), placeholder: str | None = None
                 ) -> None:
        args = f"{rkey},{offer},{format_assignment(assignment)}"
        super().__init__(make_select(ref, "asg", args, options, placeholder, 0, len(options)))
        self.ref, self.rkey, self.offer = ref, rkey, offer
        self.assignment = tuple(assignment)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> AssignSelect:
        return cls(Ref.of(match), RoundKey.of(match), int(match["offer"]),
                   parse_assignment(match["assignment"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.assign(interaction, self.ref, self.rkey, self.offer, self.assignment,
                            chosen(self.item.values))


class CommitButton(Component, discord.ui.DynamicItem[Button],
                   template=HEAD + ":commit:" + ROUND + "," + ASSIGNMENT):
    def __init__(self, ref: Ref, rkey: RoundKey, assignment: Sequence[int | None],
                 label: str = "…", disabled: bool = False) -> None:
        args = f"{rkey},{format_assignment(assignment)}"
        super().__init__(make_button(ref, "commit", args, label, discord.ButtonStyle.success,
                                 disabled))
        self.ref, self.rkey, self.assignment = ref, rkey, tuple(assignment)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CommitButton:
        return cls(Ref.of(match), RoundKey.of(match), parse_assignment(match["assignment"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.commit(interaction, self.ref, self.rkey, self.assignment)


class ResetButton(Component, discord.ui.DynamicItem[Button],
                  template=HEAD + ":reset:" + ROUND):
    def __init__(self, ref: Ref, rkey: RoundKey, label: str = "…") -> None:
        super().__init__(make_button(ref, "reset", str(rkey), label,
                                 discord.ButtonStyle.secondary))
        self.ref, self.rkey = ref, rkey

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ResetButton:
        return cls(Ref.of(match), RoundKey.of(match))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.reset_builder(interaction, self.ref, self.rkey)


# ---------------------------------------------------------------------------- offers and cards
class TakeButton(Component, discord.ui.DynamicItem[Button],
                 template=HEAD + r":take:(?P<offer>[0-2])"):
    """One button per revealed offer (``offer`` counts from 0, the label from 1)."""

    def __init__(self, ref: Ref, offer: int, label: str = "…") -> None:
        super().__init__(make_button(ref, "take", str(offer), label, discord.ButtonStyle.primary))
        self.ref, self.offer = ref, offer

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TakeButton:
        return cls(Ref.of(match), int(match["offer"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.take(interaction, self.ref, self.offer)


class NextButton(TagButton, tag="next", style=discord.ButtonStyle.primary):
    """"Play next card" / "Your move": opens the awaited player's private chooser."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.show_chooser(interaction, self.ref)


class BackButton(Component, discord.ui.DynamicItem[Button],
                 template=HEAD + r":back(?::" + STEP + ")?"):
    """Back to the chooser screen it names (a card's target list, the card list...)."""

    def __init__(self, ref: Ref, card: int | None = None, group: int | None = None,
                 label: str = "…") -> None:
        super().__init__(make_button(ref, "back", step(card, group), label,
                                 discord.ButtonStyle.secondary))
        self.ref, self.card, self.group = ref, card, group

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BackButton:
        return cls(Ref.of(match), opt_int(match["card"]), opt_int(match["group"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.show_chooser(interaction, self.ref, card=self.card, group=self.group)


class CardSelect(Component, discord.ui.DynamicItem[Select], template=HEAD + ":card"):
    """Which card to play next (values: indexes into the distinct playable cards)."""

    def __init__(self, ref: Ref, options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None) -> None:
        super().__init__(make_select(ref, "card", "", options, placeholder))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CardSelect:
        return cls(Ref.of(match))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.show_chooser(interaction, self.ref, card=first(self.item.values))


class GroupSelect(Component, discord.ui.DynamicItem[Select],
                  template=HEAD + r":grp(?::c(?P<card>[0-9]{1,2}))?"):
    """A target group, when one card has more than 25 moves."""

    def __init__(self, ref: Ref, card: int | None, options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None) -> None:
        super().__init__(make_select(ref, "grp", "" if card is None else f"c{card}", options,
                                 placeholder))
        self.ref, self.card = ref, card

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GroupSelect:
        return cls(Ref.of(match), opt_int(match["card"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.show_chooser(interaction, self.ref, card=self.card,
                                  group=first(self.item.values))


class PickSelect(Component, discord.ui.DynamicItem[Select],
                 template=HEAD + r":pick(?::" + STEP + ")?"):
    """The moves themselves (values: indexes into the legal actions at ``version``)."""

    def __init__(self, ref: Ref, card: int | None, group: int | None,
                 options: Sequence[discord.SelectOption] = (), placeholder: str | None = None
                 ) -> None:
        super().__init__(make_select(ref, "pick", step(card, group), options, placeholder))
        self.ref, self.card, self.group = ref, card, group

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PickSelect:
        return cls(Ref.of(match), opt_int(match["card"]), opt_int(match["group"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.pick(interaction, self.ref, first(self.item.values),
                          (self.card, self.group))


class MoreButton(Component, discord.ui.DynamicItem[Button],
                 template=HEAD + r":more:" + STEP + r"\.(?P<offset>[0-9]{1,5})"):
    """The next 25 choices of a long list."""

    def __init__(self, ref: Ref, card: int | None, group: int | None, offset: int,
                 label: str = "…") -> None:
        super().__init__(make_button(ref, "more", f"{step(card, group)}.{offset}", label,
                                 discord.ButtonStyle.secondary))
        self.ref, self.card, self.group, self.offset = ref, card, group, offset

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> MoreButton:
        return cls(Ref.of(match), opt_int(match["card"]), opt_int(match["group"]),
                   int(match["offset"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.show_chooser(interaction, self.ref, card=self.card, group=self.group,
                                  offset=self.offset)


class ConfirmButton(Component, discord.ui.DynamicItem[Button],
                    template=HEAD + r":ok:(?P<index>[0-9]{1,6})"):
    """Confirms a Doge route (``index`` into the legal actions at ``version``)."""

    def __init__(self, ref: Ref, index: int, label: str = "…") -> None:
        super().__init__(make_button(ref, "ok", str(index), label, discord.ButtonStyle.success))
        self.ref, self.index = ref, index

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ConfirmButton:
        return cls(Ref.of(match), int(match["index"]))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.confirm(interaction, self.ref, self.index)


# ---------------------------------------------------------------------------- a finished game
# On the final post: they act on that game (``ref.game``) for as long as the post
# stands, whatever the channel plays next.
class ReplayButton(TagButton, tag="replay"):
    """The animated replay of the finished game (answered only to the one who asks)."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.files.send_replay(interaction, self.ref.game)


class GameFileButton(TagButton, tag="file"):
    """The finished game's file (seed, actions, events) for ``python -m engine.replay``."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.files.send_game_file(interaction, self.ref.game)


class ReviewButton(TagButton, tag="review"):
    """The clicker's own review of the finished game: their costliest decisions by the hard
    computer's reckoning (answered only to them; refused to anyone who did not play)."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.files.send_review(interaction, self.ref.game)


class RematchButton(TagButton, tag="again", style=discord.ButtonStyle.success):
    """A new lobby for the finished game's players (in a new thread where the channel's
    games get threads), opened by whoever presses it; the others are asked back."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.rematch(interaction, self.ref)


# ---------------------------------------------------------------------------- taking back
# On the private answer to one's own move, while it may be taken back.
class UndoButton(TagButton, tag="undo"):
    """Takes back the clicking player's move made at ``version`` (only theirs, only while
    nobody has moved since: the service checks)."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.undo(interaction, self.ref.channel, expected_version=self.ref.version,
                          game_id=self.ref.game)


# ---------------------------------------------------------------------------- since your last move
# Under every post of a running game: whoever presses it reads, privately, what happened
# since their own previous decision (any seated player; nothing is changed).
class SinceButton(TagButton, tag="since"):
    """The clicker's digest of the game ``ref.game`` (their own, whoever presses it)."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.files.send_digest(interaction, self.ref.game)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    JoinButton, LeaveButton, ComputerButton, StartButton, BuildButton, AssignSelect,
    CommitButton, ResetButton, TakeButton, NextButton, BackButton, CardSelect, GroupSelect,
    PickSelect, MoreButton, ConfirmButton,
    ReplayButton, GameFileButton, RematchButton, ReviewButton,  # a finished game's
    UndoButton,  # taking one's move back
    SinceButton,  # what happened since one's previous decision
    SkipLessonsButton, EndPracticeButton)  # a practice game's

# Every other custom_id in the bot's own format: discord.py runs EVERY matching template, so
# this one must exclude the others.
_ANY_OTHER = ("(?!(?:" + "|".join(
    "(?:" + re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern) + ")"
    for item in ITEMS) + r")\Z)" + PREFIX + r":.{0,97}")


class OutdatedItem(Component, discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]],
                   template=_ANY_OTHER):
    """A button or select of the bot that no current template accepts: outdated."""

    def __init__(self, item: discord.ui.Item[discord.ui.View]) -> None:
        super().__init__(item)

    def belongs_to(self, channel: int | None) -> bool:
        return True  # it says "outdated" wherever it is

    @classmethod
    async def from_custom_id(cls, interaction: Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OutdatedItem:
        return cls(item)

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.outdated(interaction)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*ITEMS, OutdatedItem)
