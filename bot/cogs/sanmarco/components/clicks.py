"""What every persistent button and select of the bot shares (``components.items`` has one
class per kind): what a click asks the bot to do (``Clicks``, which ``components.panels.Panels``
does; ``GameFiles`` and ``Hints``), the adapter's one context a click finds on the bot
(``ClickContext``), and how a button or select is made with its custom_id (Discord's limits:
labels ≤ 80 characters, 25 options per select).

A press goes straight to what it does (docs/CLICK.md): the item's callback finds the context
on ``interaction.client`` and runs its own handler under ``shared.reception.Reception.click``
(the one place errors become answers); nothing goes back up through the cog.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

import discord

from bot.cogs.sanmarco.components.custom_ids import HEAD, Ref, RoundKey
from bot.cogs.sanmarco.shared.answers import Interaction
from bot.cogs.sanmarco.shared.reception import Reception
from bot.service.errors import StalePrompt
from bot.text.markup import MAX_BUTTON_LABEL, MAX_OPTIONS

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]


class Clicks(Protocol):
    """What a click asks the bot to do (``components.panels.Panels`` does it): the items say which
    game and version, the panels ask the service."""

    async def join(self, interaction: Interaction, ref: Ref) -> None: ...
    async def leave(self, interaction: Interaction, ref: Ref) -> None: ...
    async def add_computer(self, interaction: Interaction, ref: Ref) -> None: ...
    async def start(self, interaction: Interaction, ref: Ref) -> None: ...
    async def open_builder(self, interaction: Interaction, ref: Ref, rkey: RoundKey) -> None: ...
    async def reset_builder(self, interaction: Interaction, ref: Ref, rkey: RoundKey) -> None: ...
    async def assign(self, interaction: Interaction, ref: Ref, rkey: RoundKey, offer: int,
                     assignment: Sequence[int | None], chosen: Sequence[int]) -> None: ...
    async def commit(self, interaction: Interaction, ref: Ref, rkey: RoundKey,
                     assignment: Sequence[int | None]) -> None: ...
    async def take(self, interaction: Interaction, ref: Ref, offer: int) -> None: ...
    async def show_chooser(self, interaction: Interaction, ref: Ref, *, card: int | None = None,
                           group: int | None = None, offset: int = 0) -> None: ...
    async def pick(self, interaction: Interaction, ref: Ref, index: int | None,
                   back: tuple[int | None, int | None] = (None, None)) -> None: ...
    async def confirm(self, interaction: Interaction, ref: Ref, index: int) -> None: ...
    async def undo(self, interaction: Interaction, channel: int, *,
                   expected_version: int | None = None, game_id: int | None = None) -> None: ...
    async def rematch(self, interaction: Interaction, ref: Ref) -> None: ...
    async def skip_lessons(self, interaction: Interaction, ref: Ref) -> None: ...
    async def end_practice(self, interaction: Interaction, ref: Ref) -> None: ...
    async def outdated(self, interaction: Interaction) -> None: ...


class GameFiles(Protocol):
    """A finished game's replay, file and the clicker's review, and a player's digest of a
    running game (``commands.history``, ``commands.hints`` and ``commands.digest`` answer
    them, for the commands too)."""

    async def send_replay(self, interaction: Interaction, game_id: int | None) -> None: ...
    async def send_game_file(self, interaction: Interaction, game_id: int | None) -> None: ...
    async def send_digest(self, interaction: Interaction, game_id: int | None) -> None: ...
    async def send_review(self, interaction: Interaction, game_id: int | None) -> None: ...


class Hints(Protocol):
    """After a click: the private hint after a refused DM, once (``delivery.notify``)."""

    async def hint(self, interaction: Interaction) -> None: ...


@dataclass(frozen=True)
class ClickContext:
    """The adapter's one context for a click, made by the cog at load and held by the bot
    (``ClickHost``), so an item registered at setup works after a restart."""

    reception: Reception
    panels: Clicks
    files: GameFiles
    hints: Hints


@runtime_checkable
class ClickHost(Protocol):
    """The bot a click arrives at (``bot.client.SanMarcoBot`` is one)."""

    click_context: ClickContext | None


def context_of(interaction: Interaction) -> ClickContext:
    client = interaction.client
    if not isinstance(client, ClickHost) or client.click_context is None:
        raise RuntimeError("San Marco cog is not loaded")  # pragma: no cover - it registers
    return client.click_context


class Component:
    """What every item does when clicked: what ``run`` says, straight away, under the
    reception (which defers it and answers errors)."""

    ref: Ref

    def belongs_to(self, channel: int | None) -> bool:
        """A component copied into another channel's message acts on nothing there."""
        return channel == self.ref.channel

    async def callback(self, interaction: Interaction) -> None:
        context = context_of(interaction)

        async def work() -> None:
            if not self.belongs_to(interaction.channel_id):
                raise StalePrompt()
            await self.run(context, interaction)

        await context.reception.click(interaction, work,
                                      lambda: context.hints.hint(interaction))

    async def run(self, context: ClickContext, interaction: Interaction) -> None:
        raise NotImplementedError


def make_button(ref: Ref, tag: str, args: str, label: str, style: discord.ButtonStyle,
            disabled: bool = False) -> Button:
    return discord.ui.Button(label=label[:MAX_BUTTON_LABEL], style=style, disabled=disabled,
                             custom_id=ref.custom_id(tag, args))


def make_select(ref: Ref, tag: str, args: str, options: Sequence[discord.SelectOption],
            placeholder: str | None, min_values: int = 1, max_values: int = 1) -> Select:
    opts = list(options)[:MAX_OPTIONS] or [discord.SelectOption(label="…", value="-")]
    return discord.ui.Select(custom_id=ref.custom_id(tag, args), options=opts,
                             placeholder=placeholder, min_values=min_values,
                             max_values=min(max_values, len(opts)))


class TagButton(Component, discord.ui.DynamicItem[Button], template=HEAD + ":(?!)"):
    """A button whose custom_id names only its game, version and tag (no arguments): a
    subclass says its tag and style once, ``class JoinButton(TagButton, tag="join",
    style=...)``, and what a click does (``run``); its template is ``HEAD:<tag>``. (This base
    matches no custom_id and is never registered.)"""

    tag: ClassVar[str] = ""
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init_subclass__(cls, *, tag: str,
                          style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init_subclass__(template=f"{HEAD}:{tag}")
        cls.tag, cls.style = tag, style

    def __init__(self, ref: Ref, label: str = "…") -> None:
        super().__init__(make_button(ref, self.tag, "", label, self.style))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(Ref.of(match))
