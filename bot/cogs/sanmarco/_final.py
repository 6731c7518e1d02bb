"""The final post's extras: the summary picture beside the board, the seed now
revealed (R15: only once the game is over), the Replay and Game file buttons, and the post's
link kept for ``/sanmarco-server history``.

A failure here costs the extras, never the final post: the result is posted regardless.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot import i18n, text
from bot.service import GameService
from bot.service.results import Update
from engine.views import PublicView
from render.summary import render_summary

from ._custom_ids import Ref
from ._drawing import Drawer
from ._items import GameFileButton, ReplayButton
from ._where import Where

log = logging.getLogger(__name__)


def draw_summary(view: PublicView, events: list[dict[str, Any]],
                 names: dict[str, str], language: str = i18n.DEFAULT) -> bytes:
    """The summary PNG, its words in ``language`` (runs in a render worker: plain values
    in, bytes out)."""
    tr = i18n.translations(language)
    return render_summary(view, events, text.local_names(tr, names), tr)


def finished_buttons(tr: i18n.Tr, channel: int, game_id: int,
                     version: int) -> discord.ui.View:
    """The buttons under a final post: they belong to that game for good."""
    ref = Ref(channel, game_id, version)
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(ref, text.label(tr, "replay")))
    view.add_item(GameFileButton(ref, text.label(tr, "game_file")))
    return view


@dataclass
class FinalExtras:
    """What the final post carries besides the board, and how to remember it."""

    game_id: int
    channel_id: int
    line: str
    summary: discord.File | None
    view: discord.ui.View

    async def remember(self, service: GameService, interaction: Where,
                       message: discord.Message) -> None:
        # a webhook message may not know its guild (message.jump_url then says @me)
        url = (f"https://discord.com/channels/{interaction.guild_id}/{self.channel_id}/"
               f"{message.id}")
        try:
            await service.remember_final_post(self.game_id, message.id, url)
        except Exception:
            log.warning("could not keep the final post of game %s", self.game_id,
                        exc_info=True)


async def final_extras(drawer: Drawer, service: GameService, interaction: Where,
                       update: Update, language: str) -> FinalExtras:
    """The summary picture, the seed line and the buttons for a finished game's post, in
    the channel's ``language``."""
    tr = i18n.translations(language)
    view = finished_buttons(tr, update.channel_id, update.game_id, update.version)
    over = next((e for e in update.events if e.type == "game_over"), None)
    seed = over.get("seed") if over is not None else None
    line = text.seed_line(tr, seed) if isinstance(seed, int) else ""
    summary: discord.File | None = None
    try:
        guild = interaction.guild_id or 0
        game = await service.finished_game(guild, update.channel_id, update.game_id)
        line = text.seed_line(tr, game.seed)
        png = await drawer.run_render(draw_summary, game.view,
                                      [e.to_dict() for e in game.events], dict(update.names),
                                      language)
        summary = discord.File(io.BytesIO(png), filename="summary.png")
    except Exception:
        log.error("no summary picture for game %s", update.game_id, exc_info=True)
    return FinalExtras(update.game_id, update.channel_id, line, summary, view)
