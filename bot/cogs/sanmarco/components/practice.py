"""A practice game's two buttons, under every post of it (``screens.with_practice``): Skip
explanations and End practice. Persistent like every item (``components.items`` registers
them with the others); its thread is private, so only its learner can press them, and the
service checks all the same (``skip_lessons``: the learner's; ``abandon``: the opener's).
"""

from __future__ import annotations

import discord

from bot.cogs.sanmarco.components.clicks import ClickContext, TagButton
from bot.cogs.sanmarco.shared.answers import Interaction


class SkipLessonsButton(TagButton, tag="skip"):
    """No more explanations in this practice game."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.skip_lessons(interaction, self.ref)


class EndPracticeButton(TagButton, tag="endp", style=discord.ButtonStyle.danger):
    """Ends the practice game (``abandon``, its learner's right)."""

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        await context.panels.end_practice(interaction, self.ref)
