"""Since your last move: the digest a player coming back reads instead of scrolling up the
channel. The **Since your last move** button under every post of a running game answers
whoever presses it, privately, with their own digest and the board with what changed since
highlighted; ``/sanmarco hand`` and ``status`` begin with it when something happened.

A base of the cog: it only asks the service (``digest``) and words the answer in the
reader's language (``bot.text.digest``); the picture speaks the channel's, as every board.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord.ext import commands

from bot import i18n, text
from bot.cogs.sanmarco.commands.inputs import channel_of
from bot.cogs.sanmarco.delivery.pictures import Drawer, draw_highlighted
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import channel_language, user_tr
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.results import Digest
from bot.text.markup import MAX_CONTENT

log = logging.getLogger(__name__)

MIN_HEAD = 200  # less room than this above an answer: the digest is left to the button


def highlight_of(d: Digest, caption: str) -> dict[str, Any]:
    """What the digest's board highlights: the districts whose aristocrats changed, the
    bridges built or taken over, the Doge (when it moved), and a caption."""
    return {"district": list(d.districts), "bridges": [dict(b) for b in d.bridges],
            "doge": bool(d.doge), "caption": caption}


class SinceAnswers(commands.Cog):
    """The digest: the button's answer, and the head of ``hand`` and ``status``."""

    service: GameService
    drawer: Drawer

    async def send_digest(self, interaction: Interaction, game_id: int | None) -> None:
        """The clicker's own digest of the game (a button of that game; the interaction is
        deferred already), with the board highlighted where it changed since."""
        digest = await self.service.digest(channel_of(interaction), str(interaction.user.id),
                                           game_id=game_id)
        tr = user_tr(interaction)
        if not digest.moves:
            await send_private(interaction, text.nothing_since(tr))
            return
        language = await channel_language(self.service, interaction)
        caption = text.digest_caption(i18n.translations(language), digest)
        png = await self.drawer.run_render(draw_highlighted, digest.view,
                                           highlight_of(digest, caption), dict(digest.names),
                                           language)
        await send_private(interaction, text.digest_text(tr, digest),
                           file=discord.File(io.BytesIO(png), filename="board.png",
                                             description=text.digest_alt(tr, digest)))

    async def digest_head(self, interaction: Interaction, answer: str) -> str:
        """``answer`` headed by the user's digest when something happened since their
        previous decision in a running game (none before their first decision; within a
        message; a digest that cannot be read leaves the answer as it is: it is a
        courtesy, never a reason to fail)."""
        room = min(text.EMBEDDED_LIMIT, MAX_CONTENT - len(answer) - 2)
        if room < MIN_HEAD or interaction.channel_id is None:
            return answer
        try:
            digest = await self.service.digest(interaction.channel_id,
                                               str(interaction.user.id))
        except ServiceError:  # not seated, not started: there is no "your last move"
            return answer
        if not digest.since or not digest.running:
            return answer  # no decision of theirs yet; or it is over: the final post tells
        head = text.digest_text(user_tr(interaction), digest, room)
        return f"{head}\n\n{answer}" if head else answer
