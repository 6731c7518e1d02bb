"""Every interaction's reception: answered within Discord's 3 seconds, turned away while the
bot stops, and any error of it answered in one short private sentence — the one place
errors become answers, for the slash commands (the cog's tree error handler) and the
buttons and selects (``click``) alike; and where a newcomer's first command or click is
marked to end its answer with the pointer to the practice game (``LearnPointer``).

Each interaction is deferred before any store work, so Discord's 3-second limit holds
whatever the database does; a click Discord delivered too late to answer changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot import i18n, text
from bot.cogs.sanmarco.shared.answers import (
    NO_PINGS,
    Interaction,
    owe_line,
    send_owed,
    where,
    with_owed,
)
from bot.cogs.sanmarco.shared.faults import FaultKind, classify, log_fault
from bot.cogs.sanmarco.shared.language import user_tr
from bot.cogs.sanmarco.shared.saved import is_saved
from bot.metrics import ANSWER_SECONDS, INTERACTIONS
from bot.service import GameService
from bot.service.errors import Code, RuleError, ServiceError

log = logging.getLogger(__name__)


class CurrentPrompt(Protocol):
    """An outdated prompt's answer with the current one (``components.panels.Panels``
    knows it): ``head`` and the current prompt's words and components, if any."""

    async def __call__(self, interaction: Interaction, tr: i18n.Tr,
                       head: str) -> tuple[str, discord.ui.View | None]: ...


class LearnPointer:
    """The newcomer's pointer: the first slash command or click of anyone who never sat in a
    game on the server is answered with a line naming ``/sanmarco game learn``, in their
    language, once per person and server (the service marks them told). Read when the
    interaction is deferred, before it may seat them; a failed read costs the line, never
    the answer."""

    LEARN = "sanmarco game learn"  # its own answer needs no pointer to itself
    KNOWN = 100_000  # people this process knows are told or have played, before it forgets

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.known: set[tuple[int, int]] = set()  # (server, person): no line owed, no read

    async def owe(self, interaction: Interaction) -> None:
        guild, command = interaction.guild_id, interaction.command
        if guild is None or (command is not None and command.qualified_name == self.LEARN):
            return
        key = (guild, interaction.user.id)
        if key in self.known:
            return
        try:
            told = await self.service.take_learn_pointer(guild, str(interaction.user.id))
        except ServiceError as exc:
            log.warning("the newcomer's pointer was not read (%s)", exc)
            return
        if len(self.known) >= self.KNOWN:
            self.known.clear()
        self.known.add(key)
        if told:
            owe_line(interaction, text.learn_pointer(user_tr(interaction)))


class Reception:
    """Takes each interaction in: defers it, counts it as being handled (a shutdown lets it
    complete), turns it away while the bot stops, and answers its error."""

    def __init__(self, current_prompt: CurrentPrompt,
                 pointer: LearnPointer | None = None) -> None:
        self.current_prompt = current_prompt
        self.pointer = pointer  # the newcomer's line, owed to their first answer
        self.stopping = False  # the bot stops: no new interaction is taken (``turned_away``)
        self.handling: set[asyncio.Task[Any]] = set()  # the interactions being handled

    async def click(self, interaction: Interaction, work: Callable[[], Awaitable[None]],
                    after: Callable[[], Awaitable[None]]) -> None:
        """A button or select: deferred as an update of the clicked message before any store
        work, then ``work`` (what the click does), its error answered; ``after`` once it
        succeeded. None is taken while the bot stops."""
        if await self.turned_away(interaction):
            return
        if not await self.defer(interaction, ephemeral=False):
            return
        try:
            await work()
        except Exception as exc:
            await self.report(interaction, exc)
        else:
            await after()
        await self._send_owed(interaction)

    async def _send_owed(self, interaction: Interaction) -> None:
        """A newcomer's first click is answered by its message's edit: the pointer then
        follows on its own (a Discord failure costs the line, never the click)."""
        try:
            await send_owed(interaction)
        except Exception as exc:
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, f"the newcomer's pointer after {where(interaction)}",
                      interaction.channel_id)

    async def turned_away(self, interaction: Interaction) -> bool:
        """True, having told the user privately that the bot is restarting and nothing was
        done, for an interaction that arrives while the bot stops (an autocomplete gets no
        answer). A player expects a word rather than Discord's "did not respond"."""
        if not self.stopping:
            return False
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        try:
            await interaction.response.send_message(text.stopping(user_tr(interaction)),
                                                    ephemeral=True)
        except Exception as exc:  # Discord refused it, or could not be reached
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, f"answering {where(interaction)} while stopping",
                      interaction.channel_id)
        return True

    async def defer(self, interaction: Interaction, *, ephemeral: bool) -> bool:
        """Answer within Discord's 3 seconds, before any store work; False when Discord no
        longer takes an answer (10062: the click came too late; nothing is done). From here
        the interaction counts as being handled: a shutdown lets it complete."""
        task = asyncio.current_task()
        if task is not None:
            self.handling.add(task)
            task.add_done_callback(self.handling.discard)
        try:
            if ephemeral:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except Exception as exc:  # Discord refused it, or could not be reached
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, f"answering {where(interaction)}", interaction.channel_id)
            return False
        # how soon players hear back (from Discord's moment of the interaction)
        INTERACTIONS.labels("command" if ephemeral else "component").inc()
        ANSWER_SECONDS.observe(max(0.0, time.time() - interaction.created_at.timestamp()))
        if self.pointer is not None:  # read before the command or click may seat them
            await self.pointer.owe(interaction)
        return True

    async def report(self, interaction: Interaction, exc: BaseException) -> None:
        """Answer an error with one short ephemeral sentence from the table, in the user's
        language; never a traceback. An outdated prompt comes with the current one. Discord
        failing after the change was saved is logged and not answered: an apology would
        tell the player a move that counted did not."""
        view: discord.ui.View | None = None
        tr = user_tr(interaction)
        # Discord's (an HTTP error, or no answer at all), not ours: one line, and no answer
        # if it expired; a refusal of ours is a ServiceError, anything else a bug
        fault = None if isinstance(exc, ServiceError) else classify(exc)
        if fault is not None:
            saved = is_saved(interaction)
            log_fault(fault, f"{where(interaction)}{' (the change is saved)' if saved else ''}",
                      interaction.channel_id)
            if fault.kind is FaultKind.EXPIRED or saved:
                return  # a saved change is never an apology: its post will tell the truth
            answer = text.apology(tr)
        elif isinstance(exc, ServiceError):
            action = exc.action if isinstance(exc, RuleError) else None
            answer = text.refusal(tr, exc.code, exc.params, action=action)
            if exc.code in (Code.STALE, Code.NOT_YOUR_TURN) and interaction.channel_id:
                answer, view = await self.current_prompt(interaction, tr, answer)
        else:
            log.error("unexpected error in %s (channel %s, user %s): %s",
                      where(interaction), interaction.channel_id, interaction.user.id,
                      type(exc).__name__, exc_info=exc)
            answer = text.apology(tr)
        kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_PINGS}
        if view is not None:
            kwargs["view"] = view
        try:
            if interaction.response.is_done():
                await interaction.followup.send(with_owed(interaction, answer), **kwargs)
            else:
                await interaction.response.send_message(answer, **kwargs)
        except Exception as send_exc:  # Discord refused it, or could not be reached
            fault = classify(send_exc)
            if fault is None:
                raise
            log_fault(fault, "answering privately", interaction.channel_id)
