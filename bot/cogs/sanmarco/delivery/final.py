"""The final post's extras: the summary picture beside the board, the seed now
revealed (R15: only once the game is over), the Rematch, Replay, Game file and My review
buttons, and the post's link kept for ``/sanmarco-server history``.

A failure here costs the extras, never the final post: the result is posted regardless.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot import i18n, text
from bot.cogs.sanmarco.components.custom_ids import Ref
from bot.cogs.sanmarco.components.items import (
    GameFileButton,
    RematchButton,
    ReplayButton,
    ReviewButton,
)
from bot.cogs.sanmarco.delivery.pictures import Drawer
from bot.service import GameService
from bot.service.posts import Post
from engine.views import PublicView
from render.summary import render_summary

log = logging.getLogger(__name__)


def draw_summary(view: PublicView, events: list[dict[str, Any]],
                 names: Mapping[str, str], language: str = i18n.DEFAULT) -> bytes:
    """The summary PNG, its words in ``language`` (runs in a render worker: plain values
    in, bytes out)."""
    tr = i18n.translations(language)
    return render_summary(view, events, text.local_names(tr, names), tr)


def finished_buttons(tr: i18n.Tr, channel: int, game_id: int,
                     version: int, *, rematch: bool = True) -> discord.ui.View:
    """The buttons under a final post: they belong to that game for good (one row of at
    most five: the game page's link may join them; no Rematch under a practice game's: it
    would open an ordinary rated lobby)."""
    ref = Ref(channel, game_id, version)
    view = discord.ui.View(timeout=None)
    if rematch:
        view.add_item(RematchButton(ref, text.label(tr, "rematch")))
    view.add_item(ReplayButton(ref, text.label(tr, "replay")))
    view.add_item(GameFileButton(ref, text.label(tr, "game_file")))
    view.add_item(ReviewButton(ref, text.label(tr, "review")))
    return view


@dataclass(frozen=True)
class FinalExtras:
    """What the final post carries besides the board: the seed line, the summary picture
    (None if it could not be drawn) with its alt text, and the buttons."""

    line: str
    summary: bytes | None
    view: discord.ui.View
    summary_alt: str = ""


async def final_extras(drawer: Drawer, service: GameService, post: Post,
                       language: str) -> FinalExtras:
    """The summary picture, the seed line and the buttons for a finished game's post, in
    the channel's ``language``."""
    tr = i18n.translations(language)
    assert post.game_id is not None
    view = finished_buttons(tr, post.channel_id, post.game_id, post.version,
                            rematch=not post.practice)
    over = next((e for e in post.events if e.type == "game_over"), None)
    seed = over.get("seed") if over is not None else None
    line = text.seed_line(tr, seed) if isinstance(seed, int) else ""
    summary: bytes | None = None
    alt = ""
    try:
        game = await service.finished_game(post.guild_id, post.channel_id, post.game_id)
        line = text.seed_line(tr, game.seed)
        events = [e.to_dict() for e in game.events]
        # the words first: the picture never goes out without them
        alt = text.summary_alt(tr, game.view, game.events, post.names)
        summary = await drawer.run_render(draw_summary, game.view, events, post.names,
                                          language)
    except Exception:
        log.error("no summary picture for game %s", post.game_id, exc_info=True)
    return FinalExtras(line, summary, view, alt)


async def remember_final(service: GameService, post: Post, message_id: int, url: str) -> None:
    """Keep the final post's link for ``/sanmarco-server history`` (a failure costs the link, not
    the post)."""
    assert post.game_id is not None
    try:
        await service.remember_final_post(post.game_id, message_id, url)
    except Exception:
        log.warning("could not keep the final post of game %s", post.game_id, exc_info=True)
