"""What a component's custom_id says: ``sm:<channel>:<game>.<version>[.<stamp>]:<tag>[:<args>]``,
which game and version it belongs to and what it does (``components.items`` reads them back
with one regular expression per kind). The optional stamp names the outbox post whose channel
message carries the component (``o<id>``; ``f<id>`` for the mention that stands in for a
refused DM): the only thing Discord gives back when the bot reads a channel's messages that
tells one post from another with the same words (``delivery.sending``; nonces are not given
back). A click ignores it.

Discord keeps a custom_id of at most 100 characters (``bot.text.markup.MAX_CUSTOM_ID``);
``Ref.custom_id`` refuses a longer one rather than let Discord refuse the whole message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.text.markup import MAX_CUSTOM_ID

PREFIX = "sm"

# The parts of the templates (the widths bound every id: tests/bot/test_discord_structure.py
# builds the longest of each kind).
STAMP = r"\.[of][0-9]{1,12}"  # the outbox post a channel message is (optional)
HEAD = (rf"{PREFIX}:(?P<channel>[0-9]{{1,20}}):(?P<game>[0-9]{{1,12}})"
        rf"\.(?P<version>[0-9]{{1,9}})(?:{STAMP})?")
_STAMPED = re.compile(rf"({PREFIX}:[0-9]{{1,20}}:[0-9]{{1,12}}\.[0-9]{{1,9}})"
                      r"(?:\.([of][0-9]{1,12}))?(:.*)", re.DOTALL)
ROUND = r"(?P<passage>[1-3])\.(?P<round>[0-9]{1,3})\.(?P<extra>[01])"
ASSIGNMENT = r"(?P<assignment>[0-2-]{1,12})"
STEP = r"(?:c(?P<card>[0-9]{1,2}))?(?:g(?P<group>[0-9]{1,3}))?"


@dataclass(frozen=True)
class Ref:
    """Which channel's game, at which version, a component was made for."""

    channel: int
    game: int
    version: int

    @classmethod
    def of(cls, match: re.Match[str]) -> Ref:
        return cls(int(match["channel"]), int(match["game"]), int(match["version"]))

    def custom_id(self, tag: str, args: str = "") -> str:
        """Raises ValueError if it would break Discord's 100-character limit."""
        cid = f"{PREFIX}:{self.channel}:{self.game}.{self.version}:{tag}" + (
            f":{args}" if args else "")
        if len(cid) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id too long ({len(cid)})")
        return cid


def stamped(custom_id: str, stamp: str) -> str:
    """``custom_id`` carrying ``stamp`` (``o<id>``, ``f<id>``: which outbox post its message
    is); unchanged when it is no id of the bot's or would pass Discord's 100 characters."""
    found = _STAMPED.fullmatch(custom_id)
    if found is None:
        return custom_id
    out = f"{found[1]}.{stamp}{found[3]}"
    return out if len(out) <= MAX_CUSTOM_ID else custom_id


def stamp_of(custom_id: str) -> str | None:
    """The stamp a custom_id carries (None: none)."""
    found = _STAMPED.fullmatch(custom_id)
    return found[2] if found is not None else None


@dataclass(frozen=True)
class RoundKey:
    """Identifies a round, so an offer builder survives the other distributor's commit but
    never outlives its round."""

    passage: int
    round: int
    extra: bool

    @classmethod
    def of(cls, match: re.Match[str]) -> RoundKey:
        return cls(int(match["passage"]), int(match["round"]), match["extra"] == "1")

    def __str__(self) -> str:
        return f"{self.passage}.{self.round}.{int(self.extra)}"


def parse_assignment(text: str) -> tuple[int | None, ...]:
    """``"01-2"`` -> (0, 1, None, 2) (the template admits only 0-2 and -)."""
    return tuple(None if ch == "-" else int(ch) for ch in text)


def format_assignment(assignment: Sequence[int | None]) -> str:
    return "".join("-" if a is None else str(a) for a in assignment)


def opt_int(text: str | None) -> int | None:
    return None if text is None else int(text)


def step(card: int | None, group: int | None) -> str:
    """A chooser screen's place: ``c<card>`` and/or ``g<group>``."""
    return ("" if card is None else f"c{card}") + ("" if group is None else f"g{group}")


def chosen(values: Sequence[str]) -> list[int]:
    """A select's chosen values as indexes (values are always written as numbers)."""
    return [int(v) for v in values if v.isascii() and v.isdigit() and len(v) <= 6]


def first(values: Sequence[str]) -> int | None:
    """A single select's chosen index (None: nothing chosen)."""
    found = chosen(values[:1])
    return found[0] if found else None
