"""What every persistent button and select of the bot shares (``components.items`` has one class per
kind): what a click asks the bot to do (``Clicks``, which ``components.panels.Panels`` does), the cog
that receives every click (``Host``), and how a button or select is made with its
custom_id (Discord's limits: labels ≤ 80 characters, 25 options per select)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import discord

from bot.cogs.sanmarco.components.custom_ids import Ref, RoundKey
from bot.cogs.sanmarco.shared.answers import Interaction
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
    async def outdated(self, interaction: Interaction) -> None: ...


@runtime_checkable
class Host(Protocol):
    """The cog that receives every click (``cog.SanMarcoCog``): it answers errors, it
    sends a finished game's replay and file, and a player's digest of a running game."""

    async def on_component(self, interaction: Interaction, item: Component) -> None: ...
    async def send_replay(self, interaction: Interaction, game_id: int | None) -> None: ...
    async def send_game_file(self, interaction: Interaction, game_id: int | None) -> None: ...
    async def send_digest(self, interaction: Interaction, game_id: int | None) -> None: ...


def host_of(interaction: Interaction) -> Host:
    cog = interaction.client.get_cog("SanMarco")
    if not isinstance(cog, Host):  # pragma: no cover - the cog registers these items
        raise RuntimeError("San Marco cog is not loaded")
    return cog


class Component:
    """What every item does when clicked: hand itself to the cog (which answers errors)."""

    ref: Ref

    def belongs_to(self, channel: int | None) -> bool:
        """A component copied into another channel's message acts on nothing there."""
        return channel == self.ref.channel

    async def callback(self, interaction: Interaction) -> None:
        await host_of(interaction).on_component(interaction, self)

    async def run(self, panels: Clicks, interaction: Interaction) -> None:
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
