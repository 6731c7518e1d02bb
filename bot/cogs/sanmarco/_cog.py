"""The San Marco cog: receives interactions, calls the service, says what happened.

No rules here: what is legal comes from the service's ``legal_actions``; every change goes
through the service, which commits it before anything is posted. Each handler responds
exactly once (a message, an update of the clicked message, or a defer followed by
follow-ups); errors of any kind end in one short ephemeral sentence (``_report``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import logging
import multiprocessing
import time
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands, tasks

from engine import Action, Doge, decode
from engine.ai import is_computer
from engine.views import PublicView
from render import render_board
from render.story import highlight_from_events

from . import _autocomplete as ac
from . import _text
from . import _views as v

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
NO_PINGS = discord.AllowedMentions.none()


class BotError(Exception):
    """A refusal decided in the adapter (bad option, missing permission), with a code."""

    def __init__(self, code: str, message: str | None = None) -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message


def _pid(interaction: Interaction) -> str:
    return str(interaction.user.id)


def _channel(interaction: Interaction) -> int:
    if interaction.channel_id is None or interaction.guild_id is None:
        raise BotError("game.none", "San Marco is played in a server channel.")
    return interaction.channel_id


def _is_ephemeral_message(interaction: Interaction) -> bool:
    msg = interaction.message
    return bool(msg is not None and msg.flags.ephemeral)


class SanMarcoCog(commands.GroupCog, name="SanMarco", group_name="sanmarco",
                  group_description="Play San Marco in this channel"):
    """Slash commands under ``/sanmarco`` and the handlers of every button and select."""

    def __init__(self, bot: commands.Bot, service: Any) -> None:
        self.bot = bot
        self.service = service
        self._post_locks: dict[int, asyncio.Lock] = {}
        self._render_pool: concurrent.futures.Executor | None = None  # None: a thread
        self._warm: asyncio.Task[None] | None = None
        self.clock = time.time  # the reminder task's notion of now (tests move it)
        self._component_handlers = {
            "join": self._btn_join, "leave": self._btn_leave, "start": self._btn_start,
            "build": self._btn_build, "asg": self._sel_assign, "commit": self._btn_commit,
            "reset": self._btn_reset, "take": self._btn_take, "next": self._btn_next,
            "card": self._sel_card, "grp": self._sel_group, "pick": self._sel_pick,
            "ok": self._btn_confirm, "more": self._btn_more, "back": self._btn_next,
            "cpu": self._btn_computer,
        }
        super().__init__()

    # ------------------------------------------------------------------ lifecycle
    async def cog_load(self) -> None:
        workers = int(getattr(getattr(self.bot, "config", None), "render_processes", 0) or 0)
        if workers > 0:
            self._render_pool = concurrent.futures.ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"))
        self._warm = asyncio.create_task(self._warm_up(max(workers, 1)), name="sm-warm-up")
        self.bot.add_dynamic_items(*v.DYNAMIC_ITEMS)
        self.bot.tree.on_error = self._tree_error  # type: ignore[method-assign]
        poll = getattr(getattr(self.bot, "config", None), "reminder_poll_seconds", 300.0)
        if poll > 0:  # 0 turns the periodic task off (tests run it by hand)
            self.reminders.change_interval(seconds=poll)
            self.reminders.start()

    async def cog_unload(self) -> None:
        self.reminders.cancel()
        self.bot.remove_dynamic_items(*v.DYNAMIC_ITEMS)
        if self._warm is not None and not self._warm.done():
            self._warm.cancel()
        if self._render_pool is not None:
            self._render_pool.shutdown(wait=False, cancel_futures=True)

    async def _warm_up(self, workers: int) -> None:
        """Render once per district highlight so the first real boards are not slow (the
        renderer caches per district); in every worker process when there are several."""
        loop = asyncio.get_running_loop()
        try:
            await asyncio.gather(*(loop.run_in_executor(self._render_pool, warm_render)
                                   for _ in range(workers)))
        except Exception:  # a cold cache is slower, not broken
            log.warning("render warm-up failed", exc_info=True)

    # ------------------------------------------------------------------ errors
    async def _tree_error(self, interaction: Interaction,
                          error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
            original = BotError("input.malformed")
        await self._report(interaction, original)

    async def _report(self, interaction: Interaction, exc: BaseException) -> None:
        """Answer an error with one short ephemeral sentence; never a traceback."""
        code = getattr(exc, "code", None)
        if not isinstance(code, str):
            log.error("unexpected error in %s (channel %s, user %s): %s",
                      _where(interaction), interaction.channel_id, interaction.user.id,
                      type(exc).__name__, exc_info=exc)
            text, view = _text.APOLOGY, None
        else:
            text = _text.error_text(code, getattr(exc, "message", None))
            view = None
            if code in ("state.stale", "action.not_your_turn") and interaction.channel_id:
                text, view = await self._current_prompt(interaction.channel_id, text)
        try:
            kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_PINGS}
            if view is not None:
                kwargs["view"] = view
            if interaction.response.is_done():
                await interaction.followup.send(text, **kwargs)
            else:
                await interaction.response.send_message(text, **kwargs)
        except discord.HTTPException:
            log.warning("could not send an error answer in channel %s", interaction.channel_id)

    async def _current_prompt(self, channel: int,
                              head: str) -> tuple[str, discord.ui.View | None]:
        try:
            status = await self.service.status(channel)
            view = await self.service.public_view(channel)
        except Exception:  # no game any more: the sentence alone is the answer
            return head, None
        if status.status != "running":
            return head, None
        line = _text.awaited_line(view)
        return ((f"{head}\nNow: {line}" if line else head),
                v.prompt_view(channel, status.game_id, view))

    async def on_component(self, interaction: Interaction, ref: v.Ref) -> None:
        """Entry point of every button and select (see _views)."""
        try:
            if interaction.channel_id != ref.channel:
                raise BotError("state.stale")
            handler = self._component_handlers[ref.tag]
            await handler(interaction, ref)
        except Exception as exc:
            await self._report(interaction, exc)

    # ------------------------------------------------------------------ posting
    def _lock(self, channel: int) -> asyncio.Lock:
        return self._post_locks.setdefault(channel, asyncio.Lock())

    async def _board_file(self, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                          names: Mapping[str, str] | None) -> discord.File:
        # Pillow off the event loop: in worker processes when configured, else a thread.
        png = await asyncio.get_running_loop().run_in_executor(
            self._render_pool, draw_board, dict(view), [dict(e) for e in events],
            dict(names or {}))
        return discord.File(io.BytesIO(png), filename="board.png")

    async def _post_result(self, interaction: Interaction, channel: int, result: Any,
                           *, header: str | None = None,
                           board: discord.File | None = None) -> None:
        """The public post after an action: what happened, the board, the next prompt, and a
        ping for whoever's decision just started. One post per interaction (coalesced)."""
        view = result.view
        names = result.names
        events = list(result.events)  # public events only (service contract)
        lines = [header] if header else []
        text = _text.events_text(events, names)
        if text:
            lines.append(text)
        over = next((e for e in reversed(events) if e.get("type") == "game_over"), None)
        end = _text.event_line(over, names) if over else None
        if end and end not in text:  # the cut kept the first lines: never lose the result
            lines.append(end)
        pings = [p for p in result.mention if p.isdigit()]
        awaited = _text.awaited_line(view, names)
        if awaited and not view.get("finished"):
            lines.append(f"**Now** — {awaited}")
        content = "\n".join(lines)[:1990] or "…"
        if board is None:
            board = await self._board_file(view, events, names)
        prompt = v.prompt_view(channel, result.game_id, view)
        mentions = discord.AllowedMentions(users=[discord.Object(int(p)) for p in pings],
                                           roles=False, everyone=False)
        kwargs: dict[str, Any] = {"file": board, "allowed_mentions": mentions}
        if prompt is not None:
            kwargs["view"] = prompt
        await interaction.followup.send(content, **kwargs)

    # ------------------------------------------------------------------ the action path
    async def _act(self, interaction: Interaction, channel: int, action: str,
                   expected_version: int | None) -> None:
        """Apply one action for the user and tell the channel (one response).

        The channel lock keeps posts in the order of the actions; the private panel is
        updated only after the public post, so a player never acts ahead of the board."""
        pid = _pid(interaction)
        async with self._lock(channel):
            result = await self.service.act(channel, pid, action,
                                            expected_version=expected_version)
            board = asyncio.ensure_future(self._board_file(result.view, result.events,
                                                           result.names))
            try:
                if interaction.type == discord.InteractionType.component:
                    await interaction.response.defer()  # update later; the post comes first
                else:
                    await interaction.response.defer(thinking=True)
            except BaseException:
                board.cancel()
                raise
            await self._post_result(interaction, channel, result, board=await board)
        if _is_ephemeral_message(interaction):
            screen = await self._screen(channel, result.game_id, pid, result.view,
                                        result.names)
            if screen is None:
                await interaction.edit_original_response(content="Done.", view=None)
            else:
                await interaction.edit_original_response(content=screen.text, view=screen.view)

    async def _screen(self, channel: int, game: int, pid: str, view: Mapping[str, Any],
                      names: Mapping[str, str] | None, step: str = "",
                      offset: int = 0) -> v.Choice | None:
        """The private screen for pid now: the offer builder or the move chooser."""
        if pid not in (view.get("waiting_for") or []):
            return None
        if view.get("phase") == "split":
            return await self._builder(channel, game, pid, view, None)
        actions = await self.service.legal_actions(channel, pid)
        if not actions:
            return None
        hand = (view.get("hand") or {}).get("cards") or []
        return v.chooser(channel, game, int(view["version"]), pid, actions, hand, step, names,
                         offset)

    async def _builder(self, channel: int, game: int, pid: str, view: Mapping[str, Any],
                       assignment: list[int | None] | None) -> v.Choice:
        private = (await self.service.private_view(channel, pid)).get("private") or {}
        drawn = list(private.get("drawn") or [])
        if not drawn:
            raise BotError("action.wrong_phase", "You have no cards to split right now.")
        n_offers = int(private.get("offers") or 2)  # the engine says how many
        if assignment is None:
            assignment = [None] * len(drawn)
        text = _text.builder_text(drawn, assignment, n_offers)
        return v.Choice(text, v.builder_view(channel, game, int(view["version"]),
                                             v.round_key(view), drawn, assignment, n_offers))

    # ------------------------------------------------------------------ slash commands
    @app_commands.command(name="new", description="Open a new San Marco game in this channel")
    @app_commands.describe(seats="How many players: 3 or 4",
                           computers="How many seats computer players take now (0-3)",
                           level="How well those computer players play")
    async def new(self, interaction: Interaction,
                  seats: app_commands.Range[int, 3, 4] = 3,
                  computers: app_commands.Range[int, 0, 3] = 0,
                  level: Literal["normal", "easy"] = "normal") -> None:
        channel = _channel(interaction)
        if computers >= seats:
            raise BotError("input.malformed", "Leave at least one seat for a person.")
        lobby = await self.service.create_lobby(interaction.guild_id, channel,
                                                _pid(interaction), seats=seats,
                                                name=interaction.user.display_name)
        for _ in range(computers):
            lobby = await self.service.add_computer(channel, _pid(interaction), level=level)
        await interaction.response.send_message(**_lobby_message(lobby))

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        lobby = await self.service.join(channel, _pid(interaction),
                                        name=interaction.user.display_name)
        await interaction.response.send_message(
            **_lobby_message(lobby, f"{_text.who(_pid(interaction))} joins. "))

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        lobby = await self.service.leave(channel, _pid(interaction))
        await interaction.response.send_message(
            **_lobby_message(lobby, f"{_text.who(_pid(interaction))} leaves. "))

    @app_commands.command(name="start", description="Start the game with the players seated")
    @app_commands.describe(fill="Fill the empty seats with computer players first")
    async def start(self, interaction: Interaction, fill: bool = False) -> None:
        channel = _channel(interaction)
        async with self._lock(channel):
            result = await self.service.start(channel, _pid(interaction),
                                              fill_with_computers=bool(fill))
            await interaction.response.defer(thinking=True)
            await self._post_result(interaction, channel, result,
                                    header="**San Marco begins!**")

    @app_commands.command(name="board", description="Show the board (only you see it)")
    async def board(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        view = await self.service.public_view(channel)
        status = await self.service.status(channel)
        names = status.names
        await interaction.response.defer(ephemeral=True, thinking=True)
        board = await self._board_file(view, [], names)
        line = (_text.ERRORS["game.abandoned"] if status.status == "abandoned"
                else _text.awaited_line(view, names))  # an abandoned game awaits nobody
        await interaction.followup.send(line or "The board.",
                                        file=board, ephemeral=True, allowed_mentions=NO_PINGS)

    @app_commands.command(name="status", description="Whose move it is, and since when")
    async def status(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        status = await self.service.status(channel)
        await interaction.response.send_message(_status_text(status), ephemeral=True,
                                                allowed_mentions=NO_PINGS)


    @app_commands.command(name="hand", description="Re-open your private panel (only you see it)")
    async def hand(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        pid = _pid(interaction)
        status = await self.service.status(channel)
        if status.status == "abandoned":  # its state still names who it was waiting for
            raise BotError("game.abandoned")
        view = await self.service.public_view(channel)
        screen = await self._screen(channel, status.game_id, pid, view, status.names)
        if screen is None:
            text = _text.error_text("action.not_your_turn")
            line = _text.awaited_line(view, status.names)
            if line:
                text += f" Now: {line}"
            if pid in (view.get("players") or []):
                text += "\n" + _text.position_line(view, pid)
            await interaction.response.send_message(text, ephemeral=True,
                                                    allowed_mentions=NO_PINGS)
            return
        await interaction.response.send_message(screen.text, view=screen.view, ephemeral=True,
                                                allowed_mentions=NO_PINGS)

    @app_commands.command(name="offers", description="Build and commit your offers "
                                                     "(distributors; only you see it)")
    async def offers(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        pid = _pid(interaction)
        status = await self.service.status(channel)
        if status.status == "abandoned":
            raise BotError("game.abandoned")
        view = await self.service.public_view(channel)
        if view.get("phase") != "split" or pid not in (view.get("waiting_for") or []):
            raise BotError("action.not_your_turn")
        screen = await self._builder(channel, status.game_id, pid, view, None)
        await interaction.response.send_message(screen.text, view=screen.view, ephemeral=True)

    @app_commands.command(name="take", description="Take one of the revealed offers")
    @app_commands.describe(offer="The offer's number (1 is the first offer)")
    async def take(self, interaction: Interaction, offer: int) -> None:
        channel = _channel(interaction)
        # discord.py passes option values as Discord sent them: check the type too.
        if not isinstance(offer, int) or isinstance(offer, bool) or not 1 <= offer <= 10:
            raise BotError("input.malformed", "Choose an offer by its number.")
        # Players see offers numbered from 1 (reveal line, buttons); the engine from 0.
        await self._act(interaction, channel, f"take:{offer - 1}", None)

    @take.autocomplete("offer")  # type: ignore[arg-type]  # an int option's autocomplete
    async def _take_autocomplete(self, interaction: Interaction,
                                 current: int) -> list[app_commands.Choice[int]]:
        return await _choices_or_none(interaction, self._offer_choices(interaction))

    async def _offer_choices(self, interaction: Interaction) -> list[app_commands.Choice[int]]:
        channel = _channel(interaction)
        pid = _pid(interaction)
        view = await self.service.public_view(channel)
        legal = await self.service.legal_actions(channel, pid)
        found = v.current_offers(view)
        return ac.offer_choices(found[1] if found else [], legal)

    @app_commands.command(name="play", description="Play a card: choose the move from the list")
    @app_commands.describe(move="What to do (the list shows only legal moves)",
                           card="Narrow the list to one card")
    async def play(self, interaction: Interaction, move: str, card: str | None = None) -> None:
        channel = _channel(interaction)
        pid = _pid(interaction)
        action = await self._parse_move(channel, pid, move)
        await self._act(interaction, channel, action, None)

    @play.autocomplete("move")
    async def _play_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        return await _choices_or_none(interaction, self._move_choices(interaction, current))

    async def _move_choices(self, interaction: Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        channel = _channel(interaction)
        pid = _pid(interaction)
        actions = await self.service.legal_actions(channel, pid)
        view = await self.service.public_view(channel)
        names = await self.service.names(channel)
        card = getattr(interaction.namespace, "card", None)
        return ac.play_choices(actions, pid, int(view["version"]), str(current or ""),
                               card if isinstance(card, str) else None, names)

    @play.autocomplete("card")
    async def _card_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            actions = await self.service.legal_actions(_channel(interaction),
                                                       _pid(interaction))
            return ac.card_choices(actions, str(current or ""))

        return await _choices_or_none(interaction, choices())

    @app_commands.command(name="computer",
                          description="Add a computer player to the lobby, or take one out")
    @app_commands.describe(level="How well it plays", remove="The computer player to take out")
    async def computer(self, interaction: Interaction,
                       level: Literal["normal", "easy"] = "normal",
                       remove: str | None = None) -> None:
        channel = _channel(interaction)
        pid = _pid(interaction)
        if remove:
            lobby = await self.service.remove_computer(channel, pid, remove)
        else:
            lobby = await self.service.add_computer(channel, pid, level=level)
        await interaction.response.send_message(**_lobby_message(lobby))

    @computer.autocomplete("remove")
    async def _computer_autocomplete(self, interaction: Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            status = await self.service.status(_channel(interaction))
            if status.status != "lobby":
                return []
            return [app_commands.Choice(name=status.names.get(p, p)[:100], value=p)
                    for p in status.players if is_computer(p)]

        return await _choices_or_none(interaction, choices())

    @app_commands.command(name="replace",
                          description="Vote to let a computer play an absent player's seat")
    @app_commands.describe(player="The absent player (or yourself, to hand over your seat)")
    async def replace(self, interaction: Interaction, player: str) -> None:
        channel = _channel(interaction)
        pid = _pid(interaction)
        target = player.strip().removeprefix("<@").removesuffix(">").lstrip("!")
        perms = interaction.permissions
        async with self._lock(channel):
            outcome = await self.service.vote_replace(
                channel, pid, target, is_admin=bool(perms.manage_channels))
            names = await self.service.names(channel)
            if not outcome.replaced:
                await interaction.response.send_message(
                    f"{_text.who(pid, names)} votes to let the computer play "
                    f"{_text.who(target, names)}'s seat ({outcome.votes} of {outcome.needed} "
                    "votes needed). Others can vote with `/sanmarco replace`.",
                    allowed_mentions=NO_PINGS)
                return
            await interaction.response.defer(thinking=True)
            header = f"The computer now plays {_text.who(target, names)}'s seat."
            if not outcome.update.finished:  # the computers may have played to the end
                header += (f" {_text.who(target, names)} can take it back with "
                           "`/sanmarco reclaim`.")
            await self._post_result(interaction, channel, outcome.update, header=header)

    @replace.autocomplete("player")
    async def _replace_autocomplete(self, interaction: Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        async def choices() -> list[app_commands.Choice[str]]:
            status = await self.service.status(_channel(interaction))
            if status.status != "running":
                return []
            return [app_commands.Choice(name=status.names.get(p, p)[:100], value=p)
                    for p in status.players if p not in status.computers
                    and str(current or "").lower() in status.names.get(p, p).lower()]

        return await _choices_or_none(interaction, choices())

    @app_commands.command(name="reclaim",
                          description="Take back your seat from the computer player")
    async def reclaim(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        pid = _pid(interaction)
        lobby = await self.service.reclaim(channel, pid)
        await interaction.response.send_message(
            f"{_text.who(pid, lobby.names)} plays their own seat again.",
            allowed_mentions=NO_PINGS)

    @app_commands.command(name="rules", description="A short summary of a rule")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t)
                                 for t in _text.RULE_TOPICS])
    async def rules(self, interaction: Interaction, topic: str = "overview") -> None:
        text = _text.RULE_TOPICS.get(topic)
        if text is None:
            raise BotError("input.topic")
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="log", description="What has happened in this game")
    async def log_(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        events = (await self.service.log(channel)).events
        names = await self.service.names(channel)
        text = _text.events_text(events, names, latest=True) or "Nothing has happened yet."
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=NO_PINGS)

    @app_commands.command(name="abandon",
                          description="End this channel's game (its creator or Manage Channel)")
    async def abandon(self, interaction: Interaction) -> None:
        channel = _channel(interaction)
        perms = interaction.permissions
        await self.service.abandon(channel, _pid(interaction),
                                   is_admin=bool(perms.manage_channels))
        await interaction.response.send_message(
            f"{_text.who(_pid(interaction))} abandoned the game. `/sanmarco new` opens another.",
            allowed_mentions=NO_PINGS)

    async def _parse_move(self, channel: int, pid: str, move: str) -> str:
        if not isinstance(move, str):
            raise BotError("input.malformed", "Choose the move from the list.")
        move = move.strip()
        if move.startswith("#"):
            version_text, _, index_text = move[1:].partition(".")
            if not (version_text.isdigit() and index_text.isdigit()):
                raise BotError("input.malformed", "Choose the move from the list.")
            view = await self.service.public_view(channel)
            if int(version_text) != int(view["version"]):
                raise BotError("state.stale")
            actions = await self.service.legal_actions(channel, pid)
            index = int(index_text)
            if index >= len(actions):
                raise BotError("state.stale")
            return str(actions[index].encode())
        decode(move)  # raises MalformedAction ("action.malformed") with a clear sentence
        return move

    # ------------------------------------------------------------------ lobby buttons
    async def _same_game(self, ref: v.Ref) -> Any:
        """The channel's game, if it is the one the component belongs to (else stale)."""
        status = await self.service.status(ref.channel)
        if status.game_id != ref.game:
            raise BotError("state.stale")
        if status.status == "abandoned":
            raise BotError("game.abandoned")
        if status.finished:
            raise BotError("game.over")
        return status

    async def _btn_join(self, interaction: Interaction, ref: v.Ref) -> None:
        await self._same_game(ref)
        lobby = await self.service.join(ref.channel, _pid(interaction),
                                        name=interaction.user.display_name)
        await interaction.response.edit_message(**_lobby_message(lobby))

    async def _btn_leave(self, interaction: Interaction, ref: v.Ref) -> None:
        await self._same_game(ref)
        lobby = await self.service.leave(ref.channel, _pid(interaction))
        await interaction.response.edit_message(**_lobby_message(lobby))

    async def _btn_computer(self, interaction: Interaction, ref: v.Ref) -> None:
        await self._same_game(ref)
        lobby = await self.service.add_computer(ref.channel, _pid(interaction))
        await interaction.response.edit_message(**_lobby_message(lobby))

    async def _btn_start(self, interaction: Interaction, ref: v.Ref) -> None:
        await self._same_game(ref)
        async with self._lock(ref.channel):
            result = await self.service.start(ref.channel, _pid(interaction))
            await interaction.response.defer()
            await self._post_result(interaction, ref.channel, result,
                                    header="**San Marco begins!**")
        await interaction.edit_original_response(content="The game has started.", view=None)

    # ------------------------------------------------------------------ offer builder
    async def _await_split(self, interaction: Interaction,
                           ref: v.Ref) -> tuple[Mapping[str, Any], str]:
        """The builder outlives the other distributor's commit (same round), nothing else."""
        await self._same_game(ref)
        view = await self.service.public_view(ref.channel)
        pid = _pid(interaction)
        rkey = ref.arg.split(",", 1)[0]
        if view.get("phase") != "split" or rkey != v.round_key(view):
            raise BotError("state.stale")
        if pid not in (view.get("waiting_for") or []):
            raise BotError("action.not_your_turn")
        return view, pid

    async def _btn_build(self, interaction: Interaction, ref: v.Ref) -> None:
        view, pid = await self._await_split(interaction, ref)
        screen = await self._builder(ref.channel, ref.game, pid, view, None)
        await interaction.response.send_message(screen.text, view=screen.view, ephemeral=True)

    async def _btn_reset(self, interaction: Interaction, ref: v.Ref) -> None:
        view, pid = await self._await_split(interaction, ref)
        screen = await self._builder(ref.channel, ref.game, pid, view, None)
        await interaction.response.edit_message(content=screen.text, view=screen.view)

    async def _sel_assign(self, interaction: Interaction, ref: v.Ref) -> None:
        view, pid = await self._await_split(interaction, ref)
        parts = ref.arg.split(",")
        private = (await self.service.private_view(ref.channel, pid)).get("private") or {}
        drawn = list(private.get("drawn") or [])
        n_offers = int(private.get("offers") or 2)  # the engine says how many
        assignment = (v.parse_assignment(parts[2], len(drawn), n_offers)
                      if len(parts) == 3 and parts[1].isdigit() and int(parts[1]) < n_offers
                      else None)
        if assignment is None:
            raise BotError("state.stale")
        k = int(parts[1])
        chosen = {int(x) for x in ref.values if x.isdigit() and int(x) < len(drawn)}
        for i in range(len(drawn)):
            if i in chosen:
                assignment[i] = k
            elif assignment[i] == k:
                assignment[i] = None
        screen = await self._builder(ref.channel, ref.game, pid, view, assignment)
        await interaction.response.edit_message(content=screen.text, view=screen.view)

    async def _btn_commit(self, interaction: Interaction, ref: v.Ref) -> None:
        await self._await_split(interaction, ref)
        _, _, code = ref.arg.partition(",")
        if not code or "-" in code:
            raise BotError("input.malformed", "Assign every card to an offer first.")
        await self._act(interaction, ref.channel, f"split:{code}", None)

    # ------------------------------------------------------------------ offers and cards
    async def _check_prompt(self, interaction: Interaction, ref: v.Ref) -> tuple[str, Any]:
        """The clicker and the game's status, if the prompt is current and the game waits
        for them."""
        status = await self._same_game(ref)
        pid = _pid(interaction)
        if pid not in status.awaiting:
            raise BotError("action.not_your_turn")
        if status.version != ref.version:
            raise BotError("state.stale")
        return pid, status

    async def _btn_take(self, interaction: Interaction, ref: v.Ref) -> None:
        await self._check_prompt(interaction, ref)
        if not ref.arg.isdigit():
            raise BotError("state.stale")
        await self._act(interaction, ref.channel, f"take:{ref.arg}", ref.version)

    async def _btn_next(self, interaction: Interaction, ref: v.Ref) -> None:
        pid, status = await self._check_prompt(interaction, ref)
        await self._show(interaction, ref, pid, status.names)

    async def _show(self, interaction: Interaction, ref: v.Ref, pid: str,
                    names: Mapping[str, str], step: str = "", offset: int = 0) -> None:
        view = await self.service.public_view(ref.channel)
        screen = await self._screen(ref.channel, ref.game, pid, view, names, step, offset)
        if screen is None:
            raise BotError("action.not_your_turn")
        if _is_ephemeral_message(interaction):
            await interaction.response.edit_message(content=screen.text, view=screen.view)
        else:
            await interaction.response.send_message(screen.text, view=screen.view,
                                                    ephemeral=True, allowed_mentions=NO_PINGS)

    async def _sel_card(self, interaction: Interaction, ref: v.Ref) -> None:
        pid, status = await self._check_prompt(interaction, ref)
        if not ref.values or not ref.values[0].isdigit():
            raise BotError("input.malformed")
        await self._show(interaction, ref, pid, status.names, f"c{ref.values[0]}")

    async def _sel_group(self, interaction: Interaction, ref: v.Ref) -> None:
        pid, status = await self._check_prompt(interaction, ref)
        if not ref.values or not ref.values[0].isdigit():
            raise BotError("input.malformed")
        await self._show(interaction, ref, pid, status.names, f"{ref.arg}g{ref.values[0]}")

    async def _btn_more(self, interaction: Interaction, ref: v.Ref) -> None:
        pid, status = await self._check_prompt(interaction, ref)
        step, _, offset = ref.arg.rpartition(".")
        await self._show(interaction, ref, pid, status.names, step,
                         int(offset) if offset.isdigit() else 0)

    async def _chosen_action(self, interaction: Interaction, ref: v.Ref,
                             index_text: str) -> tuple[Action, str, Mapping[str, str]]:
        """The action an option stands for: an index into the legal actions at the
        prompt's version (the apply that follows carries that version too)."""
        pid, status = await self._check_prompt(interaction, ref)
        actions = await self.service.legal_actions(ref.channel, pid)
        if not index_text.isdigit() or int(index_text) >= len(actions):
            raise BotError("state.stale")
        return actions[int(index_text)], pid, status.names

    async def _sel_pick(self, interaction: Interaction, ref: v.Ref) -> None:
        if not ref.values:
            raise BotError("input.malformed")
        action, pid, names = await self._chosen_action(interaction, ref, ref.values[0])
        if isinstance(action, Doge) and action.route:
            text = f"{ac.action_name(action, pid, names, limit=1500)}\nConfirm this route?"
            await interaction.response.edit_message(
                content=text,
                view=v.confirm_view(ref.channel, ref.game, ref.version, int(ref.values[0])),
                allowed_mentions=NO_PINGS)
            return
        await self._act(interaction, ref.channel, action.encode(), ref.version)

    async def _btn_confirm(self, interaction: Interaction, ref: v.Ref) -> None:
        action, _, _ = await self._chosen_action(interaction, ref, ref.arg)
        await self._act(interaction, ref.channel, action.encode(), ref.version)

    # ------------------------------------------------------------------ reminders
    @tasks.loop(seconds=300)
    async def reminders(self) -> None:
        """Ping players awaited for longer than their channel's interval. The times come
        from the store (when the decision started, when last reminded), never from sleeps
        in memory, so a restart forgets nothing."""
        try:
            due = await self.service.due_reminders(self.clock())
        except Exception:
            log.exception("reading due reminders failed")
            return
        for item in due:
            channel = self.bot.get_channel(item.channel)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            pings = [p for p in item.pids if p.isdigit()]
            what = "; ".join(f"{_text.who(p)}: {_text.AWAIT_WORDS.get(k, k)}"
                             for p, k in item.awaiting.items())
            try:
                await channel.send(
                    f"Reminder — the game is waiting for {what} (since <t:{int(item.since)}:R>)."
                    " `/sanmarco hand` opens your panel.",
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(int(p)) for p in pings], roles=False,
                        everyone=False))
                await self.service.mark_reminded(item.channel, item.version)
                log.info("reminded %d player(s) in channel %s", len(pings), item.channel)
            except discord.HTTPException:
                log.warning("could not post a reminder in channel %s", item.channel)

    @reminders.before_loop
    async def _before_reminders(self) -> None:
        await self.bot.wait_until_ready()


# ---------------------------------------------------------------------- helpers
async def _choices_or_none(interaction: Interaction,
                           choices: Coroutine[Any, Any, list[Any]]) -> list[Any]:
    """Autocomplete offers nothing rather than failing: no game here, not a player, not
    awaited (discord.py does not route autocomplete errors to the tree's on_error)."""
    try:
        return await choices
    except Exception as exc:
        if not isinstance(getattr(exc, "code", None), str):
            log.error("autocomplete failed in %s (channel %s): %s", _where(interaction),
                      interaction.channel_id, type(exc).__name__, exc_info=exc)
        return []


def draw_board(view: dict[str, Any], events: list[dict[str, Any]],
               names: dict[str, str]) -> bytes:
    """The board PNG for a public view and the public events that led to it (runs in a
    worker thread or process: plain values in, bytes out)."""
    highlight = highlight_from_events(events, names) if events else None
    return render_board(cast(PublicView, view), highlight=highlight, names=names)


def warm_render() -> None:
    from engine import BOARD, new_game

    view = new_game(["1", "2", "3"], seed=0).public_view()
    for district in BOARD:
        render_board(view, highlight={"district": district.name, "caption": "warm-up"})


def _where(interaction: Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
    cid = str(data.get("custom_id", ""))
    return f"component {cid.split(':')[3] if cid.count(':') >= 3 else '?'}"


def _lobby_message(lobby: Any, head: str = "") -> dict[str, Any]:
    """The lobby's text and buttons (for a new message or an edit of the lobby)."""
    if lobby.status == "abandoned":  # the last person left: nothing to press any more
        return {"content": head + "The lobby is closed: everybody left. `/sanmarco new` "
                "opens another.", "view": None, "allowed_mentions": NO_PINGS}
    return {"content": head + _lobby_text(lobby),
            "view": v.lobby_view(lobby.channel_id, lobby.game_id, lobby.version),
            "allowed_mentions": NO_PINGS}


def _lobby_text(lobby: Any) -> str:
    seated = _text.who_list(lobby.players, lobby.names) or "nobody yet"
    return (f"**San Marco** — {len(lobby.players)}/{lobby.seats} seats taken: {seated}. "
            "Join or add a computer player, then press Start.")


def _status_text(status: Any) -> str:
    """``/sanmarco status``: whose move, for what, since when (Discord renders <t:..:R>)."""
    names = status.names
    if status.status == "lobby":
        return (f"Lobby: {len(status.players)}/{status.seats} seats taken "
                f"({_text.who_list(status.players, names) or 'nobody'}); "
                f"{_text.who(status.creator, names)} opened it.")
    if status.status == "abandoned":
        return "The last game in this channel was abandoned. `/sanmarco new` opens another."
    if status.finished:
        scores = ", ".join(f"{_text.who(p, names)} {n}" for p, n in status.prestige.items())
        return (f"The game is over. Winner: {_text.who_list(status.winners, names)}."
                + (f" Prestige: {scores}." if scores else ""))
    waiting = "; ".join(f"{_text.who(p, names)} must {_text.AWAIT_WORDS.get(k, k)}"
                        for p, k in status.awaiting.items())
    since = f" since <t:{int(status.since)}:R>" if status.since else ""
    scores = ", ".join(f"{_text.who(p, names)} {n}" for p, n in status.prestige.items())
    return (f"{waiting}{since}." + (f"\nPrestige: {scores}." if scores else "")
            + "\n`/sanmarco hand` opens your panel if it is your move.")
