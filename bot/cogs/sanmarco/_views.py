"""Persistent buttons and selects. No game state lives here: a component carries only
``sm:<channel>:<game>.<version>:<tag>[:<arg>]`` and its callback hands that to the cog,
which loads the game from the service. The game id keeps a button of an earlier game in the
same channel from acting on a later one. So every button still works after a restart (STYLE.md §3).

Discord limits designed around: custom_id ≤ 100 characters, 5 rows, 25 options per select,
labels ≤ 80 (buttons) / 100 (options) characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from engine import Action, Doge, card_of, describe, doge_cost
from engine.cards import card_label

from . import _text

if TYPE_CHECKING:
    from ._cog import SanMarcoCog

PREFIX = "sm"
MAX_CUSTOM_ID = 100
MAX_OPTIONS = 25

BUTTON_TAGS = ("join", "leave", "start", "build", "commit", "reset", "take", "next", "ok",
               "more", "back", "cpu")
SELECT_TAGS = ("asg", "card", "grp", "pick")

_ARG = r"(?::(?P<arg>[A-Za-z0-9_.,\-]{0,70}))?"


def _template(tags: Sequence[str]) -> str:
    return (rf"{PREFIX}:(?P<ch>[0-9]{{1,20}}):(?P<game>[0-9]{{1,12}})\.(?P<ver>[0-9]{{1,9}}):"
            rf"(?P<tag>{'|'.join(tags)}){_ARG}")


@dataclass(frozen=True)
class Ref:
    """What a component's custom_id says: which game, at which version, what to do."""

    channel: int
    game: int
    version: int
    tag: str
    arg: str = ""
    values: tuple[str, ...] = field(default=())

    @classmethod
    def from_match(cls, match: re.Match[str], values: Sequence[str] = ()) -> Ref:
        return cls(int(match["ch"]), int(match["game"]), int(match["ver"]), match["tag"],
                   match["arg"] or "", tuple(values))


def custom_id(channel: int, game: int, version: int, tag: str, arg: str = "") -> str:
    """Build a custom_id; raises ValueError if it would break Discord's 100-character limit."""
    cid = f"{PREFIX}:{channel}:{game}.{version}:{tag}" + (f":{arg}" if arg else "")
    if len(cid) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long ({len(cid)})")
    return cid


def _cog(interaction: discord.Interaction[Any]) -> SanMarcoCog:
    cog = interaction.client.get_cog("SanMarco")  # type: ignore[attr-defined]
    if cog is None:  # pragma: no cover - the cog registers these items itself
        raise RuntimeError("San Marco cog is not loaded")
    return cog  # type: ignore[no-any-return]


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_template(BUTTON_TAGS)):
    """Every button of the bot. The tag says what it does; the cog does it."""

    def __init__(self, ref: Ref, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=style, disabled=disabled,
            custom_id=custom_id(ref.channel, ref.game, ref.version, ref.tag, ref.arg)))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GameButton:
        return cls(Ref.from_match(match), label=getattr(item, "label", None) or "…")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_component(interaction, self.ref)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_template(SELECT_TAGS)):
    """Every select menu of the bot; the chosen values travel with the ref."""

    def __init__(self, ref: Ref, options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None, min_values: int = 1,
                 max_values: int = 1) -> None:
        opts = list(options) or [discord.SelectOption(label="…", value="-")]
        super().__init__(discord.ui.Select(
            custom_id=custom_id(ref.channel, ref.game, ref.version, ref.tag, ref.arg),
            options=opts[:MAX_OPTIONS], placeholder=placeholder, min_values=min_values,
            max_values=min(max_values, len(opts[:MAX_OPTIONS]))))
        self.ref = ref

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GameSelect:
        assert isinstance(item, discord.ui.Select)  # discord.py matched the component type
        return cls(Ref.from_match(match), options=item.options, min_values=item.min_values,
                   max_values=item.max_values)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = tuple(self.item.values)
        ref = Ref(self.ref.channel, self.ref.game, self.ref.version, self.ref.tag,
                  self.ref.arg, values)
        await _cog(interaction).on_component(interaction, ref)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, GameSelect)


def _view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# ---------------------------------------------------------------- channel prompts
def lobby_view(channel: int, game: int, version: int) -> discord.ui.View:
    return _view([
        GameButton(Ref(channel, game, version, "join"), "Join", discord.ButtonStyle.success),
        GameButton(Ref(channel, game, version, "leave"), "Leave", discord.ButtonStyle.secondary),
        GameButton(Ref(channel, game, version, "cpu"), "Add computer",
                   discord.ButtonStyle.secondary),
        GameButton(Ref(channel, game, version, "start"), "Start", discord.ButtonStyle.primary),
    ])


def round_key(view: Mapping[str, Any]) -> str:
    """Identifies the round, so an offer builder survives the other distributor's commit
    but never outlives its round."""
    return f"{view.get('passage', 0)}.{view.get('round', 0)}.{int(bool(view.get('extra_round')))}"


def current_offers(view: Mapping[str, Any]) -> tuple[str, list[Mapping[str, Any]]] | None:
    """The distributor and offers the decision-maker now chooses from (revealed, public)."""
    revealed = view.get("offers") or []
    for column in reversed(revealed):
        offers = column.get("offers") or []
        if any(o.get("taken_by") is None for o in offers):
            return column["distributor"], offers
    return None


def prompt_view(channel: int, game: int,
                view: Mapping[str, Any]) -> discord.ui.View | None:
    """The buttons under a channel message for whatever the game awaits now (no secrets:
    it is built from the public view only)."""
    version = int(view["version"])
    phase = view.get("phase")
    if view.get("finished") or phase == "game_over":
        return None
    if phase == "split":
        return _view([GameButton(Ref(channel, game, version, "build", round_key(view)),
                                 "Build your offers", discord.ButtonStyle.primary)])
    if phase == "choose":
        found = current_offers(view)
        if found is not None:
            _, offers = found
            buttons = []
            for o in offers:
                if o.get("taken_by") is not None:
                    continue
                k = int(o["index"])
                cards = o.get("cards") or []
                label = (f"Take offer {k + 1}: {len(cards)} card"
                         f"{'s' if len(cards) != 1 else ''}, limit {_text.limit_points(cards)}")
                buttons.append(GameButton(Ref(channel, game, version, "take", str(k)), label,
                                          discord.ButtonStyle.primary))
            if buttons:
                return _view(buttons[:5])
    label = "Play next card" if phase == "play" else "Your move"
    return _view([GameButton(Ref(channel, game, version, "next"), label,
                             discord.ButtonStyle.primary)])


# ---------------------------------------------------------------- offer builder (ephemeral)
def parse_assignment(text: str, n_cards: int, n_offers: int) -> list[int | None] | None:
    """``"01-2"`` -> [0, 1, None, 2]; None if it does not fit the drawn cards."""
    if len(text) != n_cards:
        return None
    out: list[int | None] = []
    for ch in text:
        if ch == "-":
            out.append(None)
        elif ch.isdigit() and int(ch) < n_offers:
            out.append(int(ch))
        else:
            return None
    return out


def format_assignment(assignment: Sequence[int | None]) -> str:
    return "".join("-" if a is None else str(a) for a in assignment)


def builder_view(channel: int, game: int, version: int, rkey: str, drawn: Sequence[str],
                 assignment: Sequence[int | None], n_offers: int) -> discord.ui.View:
    """One multi-select per offer (its cards pre-selected), Commit and Reset. The whole
    assignment rides in every custom_id, so nothing is remembered between clicks."""
    code = format_assignment(assignment)
    items: list[discord.ui.Item[Any]] = []
    for k in range(n_offers):
        options = [discord.SelectOption(label=f"{i + 1}. {card_label(c)}", value=str(i),
                                        default=assignment[i] == k)
                   for i, c in enumerate(drawn)]
        items.append(GameSelect(Ref(channel, game, version, "asg", f"{rkey},{k},{code}"), options,
                                placeholder=f"Cards in offer {k + 1}", min_values=0,
                                max_values=len(options)))
    complete = all(a is not None for a in assignment)
    items.append(GameButton(Ref(channel, game, version, "commit", f"{rkey},{code}"),
                            "Commit offers", discord.ButtonStyle.success, disabled=not complete))
    items.append(GameButton(Ref(channel, game, version, "reset", rkey), "Reset",
                            discord.ButtonStyle.secondary))
    return _view(items)


# ---------------------------------------------------------------- move chooser (ephemeral)
def group_key(action: Action, names: Mapping[str, str] | None = None) -> str:
    """A target, for splitting a long list of choices into two smaller steps."""
    k = action.kind
    a: Any = action
    if k == "district":
        return a.hop and f"{a.district}, then {a.hop}" or a.district
    if k == "bridge":
        return f"Bridge {a.a} – {a.b}"
    if k == "takeover":
        return f"{_text.who(a.owner, names)}'s bridge {a.a} – {a.b}"
    if k == "transfer":
        return f"Transfer in {a.district}"
    if k == "doge":
        return f"Doge to {a.target}"
    return describe(action, names)


def option_for(index: int, action: Action, pid: str,
               names: Mapping[str, str] | None = None) -> discord.SelectOption:
    text = describe(action, names)
    desc = None
    if isinstance(action, Doge):
        cost = doge_cost(action, pid)
        desc = f"Costs you {cost} prestige" if cost else "Free"
    if len(text) > 100:
        text, desc = text[:99] + "…", (desc or text[99:199])
    return discord.SelectOption(label=text, value=str(index), description=desc)


@dataclass
class Choice:
    """One screen of the chooser: text and its components."""

    text: str
    view: discord.ui.View


def chooser(channel: int, game: int, version: int, pid: str, actions: Sequence[Action],
            hand: Sequence[str], step: str = "", names: Mapping[str, str] | None = None,
            offset: int = 0) -> Choice:
    """The next screen of the "play next card" flow.

    ``step`` is ``""`` (start), ``c<i>`` (card i of the distinct cards chosen) or
    ``c<i>g<j>`` (card i, then target group j). The actions are the service's legal actions
    for pid at ``version``; option values are indexes into that tuple.
    """
    indexed = list(enumerate(actions))
    cards = list(dict.fromkeys(c for _, a in indexed if (c := card_of(a)) is not None))
    card_i: int | None = None
    group_j: int | None = None
    m = re.fullmatch(r"(?:c(\d+))?(?:g(\d+))?", step or "")
    if m:
        card_i = int(m[1]) if m[1] else None
        group_j = int(m[2]) if m[2] else None
    if cards and card_i is None and len(cards) > 1:
        opts = [discord.SelectOption(label=card_label(c), value=str(i))
                for i, c in enumerate(cards)]
        left = f" Cards still to play: {_text.cards_text(hand)}." if hand else ""
        return Choice("Which card do you play next?" + left,
                      _view([GameSelect(Ref(channel, game, version, "card"), opts,
                                        placeholder="Choose a card")]))
    if cards:
        ci = card_i or 0
        if ci >= len(cards):
            ci = 0
        indexed = [(i, a) for i, a in indexed if card_of(a) == cards[ci]]
        prefix = f"c{ci}"
        title = f"{card_label(cards[ci])}: "
    else:
        prefix, title = "", ""
    if len(indexed) > MAX_OPTIONS:
        groups = list(dict.fromkeys(group_key(a, names) for _, a in indexed))
        if group_j is None or group_j >= len(groups):
            opts = [discord.SelectOption(label=g[:100], value=str(j))
                    for j, g in enumerate(groups)][offset:offset + MAX_OPTIONS]
            return Choice(title + "choose the target.",
                          _view([GameSelect(Ref(channel, game, version, "grp", prefix), opts,
                                            placeholder="Choose a target")]))
        indexed = [(i, a) for i, a in indexed if group_key(a, names) == groups[group_j]]
        prefix += f"g{group_j}"
    page = indexed[offset:offset + MAX_OPTIONS]
    opts = [option_for(i, a, pid, names) for i, a in page]
    items: list[discord.ui.Item[Any]] = [
        GameSelect(Ref(channel, game, version, "pick", prefix), opts, placeholder="Choose")]
    if offset + MAX_OPTIONS < len(indexed):
        items.append(GameButton(Ref(channel, game, version, "more",
                                    f"{prefix}.{offset + MAX_OPTIONS}"), "More choices"))
    if prefix:
        items.append(GameButton(Ref(channel, game, version, "back"), "Back"))
    return Choice(title + "choose what to do.", _view(items))


def confirm_view(channel: int, game: int, version: int, index: int) -> discord.ui.View:
    return _view([GameButton(Ref(channel, game, version, "ok", str(index)), "Confirm",
                             discord.ButtonStyle.success),
                  GameButton(Ref(channel, game, version, "back"), "Back")])
