"""Teaching (issue 32): ``/sanmarco hint`` and the **My review** button's answer.

A base of the cog like ``commands.moves``: deferred privately by the cog's
``interaction_check`` before the body runs, refusals through the one error reception. A
hint answers only its caller, in their language: nothing about it reaches the channel (the
final post says only that hints were used). The service runs the search off the event loop
(about a second); a review takes seconds, and the reception defers the click first.
``send_review`` is the one answer of the button, wherever it is (the final post, the answer
to ``/sanmarco-server replay``).
"""

from __future__ import annotations

from discord.ext import commands

from bot import text
from bot.cogs.sanmarco.commands.inputs import channel_of
from bot.cogs.sanmarco.commands.tree import SANMARCO
from bot.cogs.sanmarco.components.panels import pid_of
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import user_tr
from bot.service import GameService


class HintCommands(commands.Cog):
    """The cog's hint command and the review button's answer."""

    service: GameService

    @SANMARCO.command(name="hint",
                      description="The hard computer's choice for your decision, and why "
                                  "(only you see it)")
    async def hint(self, interaction: Interaction) -> None:
        hint = await self.service.hint(channel_of(interaction), pid_of(interaction))
        await send_private(interaction, text.hint_text(user_tr(interaction), hint.advice,
                                                       hint.names, hint.drawn))

    async def send_review(self, interaction: Interaction, game_id: int | None) -> None:
        """The clicker's own review of the finished game ``game_id`` (a button of that
        game; the interaction is deferred already); refused to anyone who did not play."""
        review = await self.service.review(channel_of(interaction), pid_of(interaction),
                                           game_id=game_id)
        await send_private(interaction, text.review_text(user_tr(interaction), review.game_id,
                                                         review.review, review.names))
