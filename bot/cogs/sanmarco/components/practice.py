"""A practice game's two buttons, under every post of it (``screens.with_practice``): Skip
explanations and End practice. Persistent like every item (``components.items`` registers
them with the others); its thread is private, so only its learner can press them, and the
service checks all the same (``skip_lessons``: the learner's; ``abandon``: the opener's).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.sanmarco.components.clicks import Button, ClickContext, Component, make_button
from bot.cogs.sanmarco.components.custom_ids import HEAD, Ref
from bot.cogs.sanmarco.shared.answers import Interaction


class SkipLessonsButton(Component, discord.ui.DynamicItem[Button], template=HEAD + ":skip"):
    """No more explanations in this practice game."""

    def __init__(self, ref: Ref, label: str = "…") -> None:
        super().__init__(make_button(ref, "skip", "", label, discord.ButtonStyle.secondary))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> SkipLessonsButton:
        return cls(Ref.of(match))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.skip_lessons(interaction, self.ref)


class EndPracticeButton(Component, discord.ui.DynamicItem[Button], template=HEAD + ":endp"):
    """Ends the practice game (``abandon``, its learner's right)."""

    def __init__(self, ref: Ref, label: str = "…") -> None:
        super().__init__(make_button(ref, "endp", "", label, discord.ButtonStyle.danger))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> EndPracticeButton:
        return cls(Ref.of(match))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.end_practice(interaction, self.ref)
