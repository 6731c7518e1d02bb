"""A server's memory: ``/sanmarco-server stats``, ``leaderboard``, ``history``, ``replay``
and ``gamefile``, and the final post's Replay and Game file buttons. The replay's answer
carries the **My review** button (``commands.hints`` answers it) when the game is this
channel's. The answers speak the
user's language; the replay picture the channel's (as every picture of the game does).

A base of the cog (a Cog itself, so its commands type-check; discord.py binds every command
of the cog's groups to the cog): errors reach the cog's one error handler. Every answer is
ephemeral: these are lookups for the one who asks. A running game's seed is never shown:
the replay and the game file exist only for finished games (R15, the service refuses). A
practice game's replay and file are its learner's alone: anyone else, by number or button,
hears what a number that names no game hears (the service checks who asks).

Who hears of which game (``bot.service._stats``, as the server's page): ``history``, the
stats' player choices and ``leaderboard`` name only the games of channels every member may
view (or that their managers listed) — except that ``history`` also names the games of the
place it is asked in (``here_of``: that channel, or a thread and its channel, with their
public threads), which the asker can view anyway; ``replay`` and ``gamefile`` by number play
the games ``history`` names there (another number is one that names no game), and ``stats``
of another player counts those games only (one's own record counts all one played). A
private channel's games are told in it, never elsewhere; the leaderboard ranks the listed
games' players only.
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, text
from bot.cogs.sanmarco.commands.inputs import guild_of
from bot.cogs.sanmarco.commands.tree import SERVER
from bot.cogs.sanmarco.components.custom_ids import Ref
from bot.cogs.sanmarco.components.items import ReviewButton
from bot.cogs.sanmarco.delivery.pictures import Drawer
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import channel_language, user_tr
from bot.service import GameService, places_here
from bot.service.errors import BadInput, Code, ServiceError
from bot.text.markup import unmention
from engine.views import PublicView
from render.replay import render_replay

log = logging.getLogger(__name__)

MAX_UPLOAD = 8 * 1024 * 1024  # Discord's upload limit without boosts
_KEEP_REPLAYS = 4


def replay_cache() -> OrderedDict[tuple[int, str], bytes]:
    """The replays last drawn, (game id, language) -> GIF (a finished game is final): one
    per cog, as game ids are one database's."""
    return OrderedDict()


def draw_replay(frames: list[tuple[PublicView, list[dict[str, Any]]]],
                names: Mapping[str, str],
                language: str, step_names: Sequence[Mapping[str, str]] = ()) -> bytes:
    """The replay GIF, its words in ``language`` (runs in a render worker: plain values in,
    bytes out); ``step_names``: the seats' names at each frame when a seat changed hands
    (each step names whoever made it)."""
    tr = i18n.translations(language)
    return render_replay(frames, text.local_names(tr, names), tr,
                         frame_names=[text.local_names(tr, n) for n in step_names] or None)


def here_of(interaction: Interaction) -> tuple[int, ...]:
    """The places a member asking through ``interaction`` can view: its channel, and the
    channel of the thread it was used in."""
    where = interaction.channel
    assert interaction.channel_id is not None
    parent = where.parent_id if isinstance(where, discord.Thread) else None
    return places_here(interaction.channel_id, parent)


def _game_number(game: int | None) -> int | None:
    # discord.py passes option values as Discord sent them: check the type too.
    if game is None:
        return None
    if not isinstance(game, int) or isinstance(game, bool) or not 1 <= game <= 10**12:
        raise BadInput(Code.MALFORMED)
    return game


class HistoryCommands(commands.Cog):
    """The cog's commands and buttons about finished games and the server's players."""

    service: GameService
    drawer: Drawer
    replays: OrderedDict[tuple[int, str], bytes]  # replay_cache()

    # ------------------------------------------------------------------ players
    @SERVER.command(name="stats",
                    description="A player's games, wins and prestige in this server")
    @app_commands.describe(player="Whose record (default: yours)")
    async def stats(self, interaction: Interaction, player: str | None = None) -> None:
        asker = str(interaction.user.id)
        pid = unmention(player) if player else asker
        stats = await self.service.player_stats(guild_of(interaction), pid, asker=asker,
                                                here=here_of(interaction))
        await send_private(interaction, text.stats_text(user_tr(interaction), stats))

    @stats.autocomplete("player")
    async def _stats_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        try:
            games = await self.service.past_games(guild_of(interaction), 25,
                                                  here=here_of(interaction))
        except ServiceError:
            return []
        typed = str(current or "").lower()
        tr = user_tr(interaction)
        seen: dict[str, str] = {}
        for g in games:
            for p in g.history.players:
                seen.setdefault(p, text.name_of(tr, p, g.names))
        return [app_commands.Choice(name=name[:100], value=p) for p, name in seen.items()
                if typed in name.lower()][:25]

    @SERVER.command(name="leaderboard",
                    description="This server's players ranked by skill rating")
    async def leaderboard(self, interaction: Interaction) -> None:
        rows = await self.service.leaderboard(guild_of(interaction), listed=True)
        await send_private(interaction, text.leaderboard_text(user_tr(interaction), rows,
                                                              str(interaction.user.id)))

    @SERVER.command(name="history", description="This server's recent games")
    async def history(self, interaction: Interaction) -> None:
        games = await self.service.past_games(guild_of(interaction), 10,
                                              here=here_of(interaction))
        await send_private(interaction, text.history_text(user_tr(interaction), games))

    # ------------------------------------------------------------------ finished games
    @SERVER.command(name="replay",
                    description="An animated replay of a finished game (only you see it)")
    @app_commands.describe(game="The game's number in /sanmarco-server history "
                                "(default: this channel's last game)")
    async def replay(self, interaction: Interaction, game: int | None = None) -> None:
        await self.send_replay(interaction, _game_number(game))

    @SERVER.command(name="gamefile",
                    description="A finished game's file: seed, moves and events, "
                                "to check with python -m engine.replay")
    @app_commands.describe(game="The game's number in /sanmarco-server history "
                                "(default: this channel's last game)")
    async def gamefile(self, interaction: Interaction, game: int | None = None) -> None:
        await self.send_game_file(interaction, _game_number(game))

    async def send_replay(self, interaction: Interaction, game_id: int | None) -> None:
        """The replay GIF of a finished game, to the one who asked (command or button; the
        interaction is deferred already)."""
        guild = guild_of(interaction)
        assert interaction.channel_id is not None
        game = await self.service.finished_game(guild, interaction.channel_id, game_id,
                                                asker=str(interaction.user.id),
                                                here=here_of(interaction))
        key = (game.game_id, await channel_language(self.service, interaction))
        gif = self.replays.get(key)
        if gif is None:
            frames = [(view, [e.to_dict() for e in events]) for view, events in game.steps]
            gif = await self.drawer.run_render(draw_replay, frames, game.names, key[1],
                                               game.step_names)
            self.replays[key] = gif
            while len(self.replays) > _KEEP_REPLAYS:
                self.replays.popitem(last=False)
        self.replays.move_to_end(key)
        if len(gif) > MAX_UPLOAD:
            log.warning("replay of game %s is %d bytes: too big to upload", game.game_id,
                        len(gif))
            raise ServiceError(Code.INTERNAL)
        tr = user_tr(interaction)
        alt = text.replay_alt(tr, game.game_id, len(game.steps), game.view, game.names)
        extra: dict[str, Any] = {}
        if game.channel_id == interaction.channel_id:  # a review asks the game's channel
            view = discord.ui.View(timeout=None)
            view.add_item(ReviewButton(Ref(game.channel_id, game.game_id, len(game.actions)),
                                       text.label(tr, "review")))
            extra["view"] = view
        await send_private(
            interaction, text.replay_caption(tr, game.game_id, len(game.steps), len(gif)),
            file=discord.File(io.BytesIO(gif), filename=f"san-marco-{game.game_id}.gif",
                              description=alt), **extra)

    async def send_game_file(self, interaction: Interaction, game_id: int | None) -> None:
        """The game file of a finished game, to the one who asked (command or button; the
        interaction is deferred already)."""
        guild = guild_of(interaction)
        assert interaction.channel_id is not None
        asker = str(interaction.user.id)
        here = here_of(interaction)
        game = await self.service.finished_game(guild, interaction.channel_id, game_id,
                                                asker=asker, here=here)
        data = await self.service.game_file(guild, interaction.channel_id, game.game_id,
                                            asker=asker, here=here)
        tr = user_tr(interaction)
        await send_private(
            interaction, text.game_file_caption(tr, game.game_id, game.seed),
            file=discord.File(io.BytesIO(data.encode("utf-8")),
                              filename=f"san-marco-{game.game_id}.json",
                              description=text.game_file_alt(tr, game.game_id)))
