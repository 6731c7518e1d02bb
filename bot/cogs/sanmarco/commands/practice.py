"""``/sanmarco game learn``: a guided practice game, the learner and two computer players, in a
private thread of the channel (of its parent channel when used inside a thread), in the
learner's Discord language; each idea explained the first time it comes up
(``bot.service.teaching``).

Always a private thread, whatever the channel's ``threads`` setting: a practice game is one
learner's, so it must neither take the one game a channel that keeps its games in itself
may hold nor fill a shared channel with explanations nobody else asked for, and a learner
reads and errs more freely where nobody watches.

A base of the cog, as every command module is (``commands.game`` says how): deferred
privately before its body runs, so it answers with ``send_private``.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

import discord
from discord.ext import commands

from bot import i18n, text
from bot.cogs.sanmarco.commands.inputs import guild_of
from bot.cogs.sanmarco.commands.tree import GAME
from bot.cogs.sanmarco.components.panels import Panels, pid_of
from bot.cogs.sanmarco.shared.answers import Interaction, send_private
from bot.cogs.sanmarco.shared.language import user_tr
from bot.cogs.sanmarco.shared.opening import Opener
from bot.cogs.sanmarco.shared.saved import Outcome, mark_saved
from bot.locks import KeyedLocks
from bot.service import GameService
from bot.service.errors import Code, ServiceError

# Seconds ``learn`` waits for the practice game's first post before it answers (a command
# is deferred at once: Discord allows a quarter of an hour for its answer).
FIRST_POST_WAIT = 20.0


class PracticeCommands(commands.Cog):
    """The cog's command that opens a learner's practice game."""

    service: GameService
    panels: Panels
    opener: Opener

    # One ``learn`` at a time per learner and server in this process: a second quick click
    # waits, then is pointed to the thread the first made (no second thread left empty).
    # The store refuses a second practice game across processes (``PracticeExists``).
    _learning: ClassVar[KeyedLocks[tuple[int, str]]] = KeyedLocks()

    @GAME.command(name="learn",
                  description="Learn San Marco: a practice game that explains as you play")
    async def learn(self, interaction: Interaction) -> None:
        guild, pid = guild_of(interaction), pid_of(interaction)
        async with self._learning((guild, pid)):
            await self._learn(interaction, guild, pid)

    async def _learn(self, interaction: Interaction, guild: int, pid: str) -> None:
        waiting = await self.service.practice_of(guild, pid)
        if waiting is not None and await _thread_gone(interaction, waiting):
            # Its thread was deleted: nobody can play it any more, so it ends and a new one
            # opens (else the learner would be pointed at a missing thread for good).
            await self.service.abandon(waiting, pid)
        elif waiting is not None:  # one at a time: back to it (or how to end it)
            raise ServiceError(Code.PRACTICE_OPEN, channels=str(waiting))
        # Everything that could refuse is asked first, so a refusal leaves no empty thread.
        self.opener.check(interaction, private=True)
        language = i18n.language_of(interaction.locale)
        name = interaction.user.display_name
        parent = self.opener.parent_of(interaction)
        number = await self.service.reserve_number()
        thread = await self.opener.make_private_thread(
            parent, text.practice_thread_name(i18n.translations(language), name),
            interaction.user.id)
        await self.service.open_practice(guild, thread, pid, language=language, name=name,
                                         parent=parent, number=number)
        note = await self._first_post(interaction, guild, thread, parent)
        await send_private(interaction, text.practice_opened(user_tr(interaction), thread)
                           + (f"\n{note}" if note else ""))

    async def _first_post(self, interaction: Interaction, guild: int, thread: int,
                          parent: int) -> str | None:
        """Wait for the practice game's first post (its board may take a while to draw on
        a busy machine) so the answer comes after it, up to ``FIRST_POST_WAIT`` seconds:
        the learner's note if it is not there then. A post still on its way is said so
        (it will come), without blaming Discord, which did nothing wrong."""
        mark_saved(interaction)
        deliverer = self.panels.deliverer
        deliverer.wake(parent, guild)
        loop = asyncio.get_running_loop()
        until = loop.time() + FIRST_POST_WAIT
        while True:
            delivery = await deliverer.flush(thread, guild)
            if delivery.outcome is not Outcome.PENDING or loop.time() >= until:
                break
        if delivery.outcome is Outcome.PENDING:
            return text.practice_on_its_way(user_tr(interaction))
        return delivery.note(user_tr(interaction))


async def _thread_gone(interaction: Interaction, channel_id: int) -> bool:
    """Whether the practice game's thread was deleted: Discord answers 10003 Unknown
    Channel. A thread the bot cannot read now (50001) may come back: not gone."""
    if interaction.client.get_channel(channel_id) is not None:
        return False
    try:
        await interaction.client.fetch_channel(channel_id)
    except discord.NotFound:
        return True
    except discord.Forbidden:
        return False
    return False
