"""A step's earlier copy on Discord: a send Discord stored and then failed to confirm (a 5xx,
a process killed mid-send) may be there already, longer ago than Discord keeps its nonce.

Discord deduplicates a nonce for a few minutes (by author). A step a send of which started
longer ago than that (``NONCE_TRUST``: the stored ``outbox.tried_at``, written before its
first send, in this process or an earlier one) is looked for first among the channel's
messages since the game's latest post (and each DM among the player's latest DMs). A step
never tried is not looked for: no copy can exist. Discord gives no nonce back when messages
are read (discord.py #2451), so every channel message with components carries its outbox
post's id in their custom ids (``stamp``: ``o<id>``, ``f<id>`` for the mention standing in
for a refused DM; ``components.custom_ids``), and the bot knows its own post by that alone,
whatever form it went in (whole, minimal, without its board): two reminders of one turn,
with the same words and buttons, are two posts. A message without components (a catch-up's
text, a note) is known by its words, which name the moves it tells; a lone post tried before
is found in its catch-up text form too; a DM, known by its words only, among those made
since the step's first try (two reminders of a turn say the same). The gateway's
MESSAGE_CREATE does carry the nonce, but a process that was down never got it.

A read that fails (a 5xx) fails the step, which is tried again like a send. A read that
comes back empty for lack of Read Message History (Discord answers an empty list, not a
refusal) is named once in the log: the post then goes again (a duplicate, the lesser evil).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import discord

from bot.cogs.sanmarco.components.custom_ids import stamp_of, stamped
from bot.cogs.sanmarco.delivery.compose import Outgoing
from bot.cogs.sanmarco.delivery.plan import DeliveryStep
from bot.service import GameService

log = logging.getLogger(__name__)

# Discord deduplicates a nonce for "a few minutes" (undocumented): a step first tried longer
# ago than this is looked for among the channel's messages before it is sent again.
NONCE_TRUST = 60.0
HISTORY_SCAN = 300  # the channel's messages read for it at most (three requests)
_NONCE = re.compile(r"sm(\d+)(?:-\d+)?([tf]?)")


@dataclass
class Lookup:
    """What the step being sent needs looked for (one per channel's worker)."""

    recheck: bool = False  # the step may be on Discord already, its nonce forgotten
    after: int | None = None  # the game's post before the step (where to look from)
    ids: frozenset[int] = frozenset()  # the step's outbox posts (their stamps)
    told: frozenset[str] = frozenset()  # a lone post's words as a catch-up's text
    tried: float | None = None  # when a send of the step first started


class Copies:
    """Looks for a step's earlier copy among the channel's messages."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self._named: set[int] = set()  # channels named for lacking Read Message History

    async def prepare(self, look: Lookup, step: DeliveryStep, told: str | None) -> None:
        """Whether the step may be on Discord already with its nonce forgotten: a send of
        it started longer ago than ``NONCE_TRUST`` (``tried_at``). Then ``find`` looks for
        it first (``told``: a lone post's words as a catch-up's text, a form a try may
        have sent it in). A step never tried is marked tried before it goes."""
        look.recheck, look.after, look.tried = False, None, None
        look.ids, look.told = frozenset(p.id for p in step.posts), frozenset()
        if not step.posts or step.form in ("skip", "count", "thread"):
            return
        tried = [p.tried_at for p in step.posts if p.tried_at is not None]
        if len(tried) < len(step.posts):
            await self.service.posts_tried([p.id for p in step.posts if p.tried_at is None])
        if not tried or self.service.clock() - min(tried) < NONCE_TRUST:
            return
        look.recheck, look.tried = True, min(tried)
        look.told = frozenset({told}) if told and told != "…" else frozenset()
        game = step.posts[-1].post.game_id
        known = await self.service.latest_message(game) if game is not None else None
        look.after = known.message_id if known is not None else None

    async def find(self, target: discord.PartialMessageable, look: Lookup, out: Outgoing,
                   nonce_: str) -> discord.Message | None:
        """The bot's message that is this step's post (since the game's post before it,
        or among the channel's latest): one whose components carry the stamp of one of
        the step's posts, or, without components, one with the step's words."""
        me = self.client.user
        found = _NONCE.fullmatch(nonce_)
        kind = "f" if found is not None and found[2] == "f" else "o"
        marks = {f"{kind}{i}" for i in look.ids}
        words = ({out.content, *look.told} if kind == "o" else {out.content}) - {"…"}
        after = discord.Object(look.after) if look.after is not None else None
        read = 0
        async for message in target.history(limit=HISTORY_SCAN if after else 100,
                                            after=after):
            read += 1
            if me is None or message.author.id != me.id:
                continue
            ids = message_ids(message)
            if ids:
                if {stamp_of(c) for c in ids} & marks:
                    return message
            elif message.content in words and (not view_ids(out.view)
                                               or message.content in look.told):
                return message
        if not read:
            self._unread(target)
        return None

    def _unread(self, target: discord.PartialMessageable) -> None:
        """The channel's messages came back empty: named once if the bot lacks Read
        Message History there (Discord then answers an empty list, not a refusal)."""
        if target.id in self._named:
            return
        cached = self.client.get_channel(target.id)
        if isinstance(cached, discord.abc.GuildChannel | discord.Thread):
            me = cached.guild.me
            if me is not None and not cached.permissions_for(me).read_message_history:
                self._named.add(target.id)
                log.warning("channel %s: the bot lacks Read Message History (permission "
                            "read_message_history): a post tried before cannot be looked "
                            "for, and may show twice", target.id)


def stamp(view: discord.ui.View, nonce_: str) -> None:
    """The view's custom ids name the outbox post the message is (``o<id>``; ``f<id>``: the
    mention standing in for a refused DM): read back, they tell this post from any other
    with the same words and buttons (two reminders of one turn)."""
    found = _NONCE.fullmatch(nonce_)
    if found is None:
        return
    stamp = ("f" if found[2] == "f" else "o") + found[1]
    for item in view.children:  # buttons, selects, and the DynamicItems around them
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str) and custom_id:
            item.custom_id = stamped(custom_id, stamp)  # type: ignore[attr-defined]


def view_ids(view: discord.ui.View | None) -> list[str]:
    """The custom ids a message with ``view`` has (sorted: rows may order them otherwise)."""
    if view is None:
        return []
    return sorted(str(c) for item in view.children
                  if (c := getattr(item, "custom_id", None)) is not None)


def message_ids(message: discord.Message) -> list[str]:
    return sorted(str(c) for row in message.components
                  for item in getattr(row, "children", [row])
                  if (c := getattr(item, "custom_id", None)) is not None)
