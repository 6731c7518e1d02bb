"""Discord's markup and limits, in one place: how a mention, a channel, a time and a cut
look in a message, and how long Discord lets each thing be.

Lengths are counted in characters (Python's code points), as Discord counts them; whatever
is cut here is cut before a code point, never inside one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A message: Discord refuses content over 2,000 characters (the whole post with it).
MESSAGE_LIMIT = 2000
MAX_CONTENT = 1990  # what a post may hold, with room to spare
EVENT_LINES_LIMIT = 1500  # a post's story of what happened, leaving room for the rest
LIST_LIMIT = 1900  # a list answered on its own (the leaderboard, the history, one's games)

# Components: Discord refuses the whole message when one is over.
MAX_CUSTOM_ID = 100  # characters of a button's or select's custom_id
MAX_OPTIONS = 25  # options of one select
MAX_BUTTON_LABEL = 80  # characters of a button's label
MAX_OPTION_TEXT = 100  # characters of a select option's label, or of its description
MAX_BUTTONS_PER_ROW = 5

# Slash commands: an autocomplete answers at most 25 choices, each name and value at most
# 100 characters.
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100

MORE = "…"  # what stands for the part cut off


def mention(pid: str) -> str:
    """A user mention (Discord shows the member's name; it pings only when the message's
    allowed mentions say so)."""
    return f"<@{pid}>"


def unmention(typed: str) -> str:
    """The id in a user mention as a person may type or paste it (``<@123>``, ``<@!123>``),
    or the text itself."""
    return typed.strip().removeprefix("<@").removesuffix(">").lstrip("!")


def escape(words: str) -> str:
    """``words`` shown as typed in a message: the characters Discord reads as formatting
    (bold, italics, strike-through, spoilers, code, a mention) are escaped."""
    return re.sub(r"([\\*_~`|<])", r"\\\1", words)


def channel(channel_id: int | str) -> str:
    """A channel mention (Discord shows the channel's name)."""
    return f"<#{channel_id}>"


def timestamp(when: float, style: str = "R") -> str:
    """A time every reader sees in their own time zone: ``R`` relative ("2 hours ago"),
    ``d`` a short date."""
    return f"<t:{int(when)}:{style}>"


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, ending in ``…`` when it was longer."""
    return text if len(text) <= limit else text[:limit - len(MORE)] + MORE


def fit_lines(lines: Sequence[str], limit: int = LIST_LIMIT) -> str:
    """Whole lines, as many as fit in ``limit`` characters; a last ``…`` when some did not
    (a message stays within Discord's 2,000 characters)."""
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            out.append(MORE)
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)
