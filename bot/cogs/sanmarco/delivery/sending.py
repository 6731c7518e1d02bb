"""How one step of a channel's posts goes out (``delivery.plan`` says which step): a post whole or
the missed ones as text, a lobby edited in place (posted anew if a user deleted it), a
reminder each player's way, DMs after a post, a game's thread renamed or archived
(``delivery.thread_steps``); a thread Discord archived is unarchived first.
Each post is a channel message with its nonce (Discord's ``enforce_nonce``), so a retry of a
post Discord stored before failing returns the message already there. A post leaves the
outbox only once Discord took it (and after its DMs).

Discord keeps a nonce only for a few minutes (by author): a step that may have reached
Discord longer ago than that is looked for first (``delivery.copies``: a post known by its
outbox id, stamped in its message's custom ids).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import i18n, text
from bot.cogs.sanmarco.delivery.compose import Composer, Outgoing
from bot.cogs.sanmarco.delivery.copies import Copies, Lookup, stamp
from bot.cogs.sanmarco.delivery.final import remember_final
from bot.cogs.sanmarco.delivery.notify import Notifier
from bot.cogs.sanmarco.delivery.plan import DeliveryStep, nonce
from bot.cogs.sanmarco.delivery.thread_steps import ThreadSteps
from bot.cogs.sanmarco.shared.answers import ChannelTarget, pings, post_url
from bot.cogs.sanmarco.shared.faults import FaultKind, classify, log_fault
from bot.cogs.sanmarco.shared.language import channel_language
from bot.cogs.sanmarco.shared.saved import Delivery, Outcome
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.posts import Pending, Post, PostKind
from bot.store import LeaseLost, PostedLink, player_of
from bot.text.markup import MAX_CONTENT

log = logging.getLogger(__name__)


MAX_NONCE = 25  # Discord refuses a longer nonce
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def dm_nonce(post_nonce: str, user: str) -> str:
    """The nonce of one player's DM of a post (at most 25 characters, the same at every
    try): Discord deduplicates nonces by author, not by channel, so DMs of one post sharing
    a nonce would each be answered with the first player's DM, and the others never told.
    The post's nonce, ``d``, and the user id in base 36 (its last digits when long: two
    recipients of one post differ there)."""
    room = MAX_NONCE - len(post_nonce) - 1
    number, digits = int(user) if user.isdigit() else sum(map(ord, user)), ""
    while number and len(digits) < room:
        number, digit = divmod(number, 36)
        digits = _DIGITS[digit] + digits
    return f"{post_nonce}d{digits or '0'}"


@dataclass
class Channel:
    """A channel's worker and what the interactions waiting on it need to know."""

    guild: int
    task: asyncio.Task[None] | None = None
    again: asyncio.Event = field(default_factory=asyncio.Event)
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    last: Delivery = Delivery(Outcome.POSTED)
    reopen: bool = False  # an interaction showed the bot may post here again
    url: str | None = None
    look: Lookup = field(default_factory=Lookup)  # the step's earlier copy, if any
    # whether its worker still holds the channel's lease: asked again just before each
    # message goes (a step's pictures and reads may outlast the lease: then nothing goes)
    held: Callable[[], bool] = lambda: True


class Sender:
    """Sends one step of a channel's posts."""

    def __init__(self, client: discord.Client, service: GameService, composer: Composer,
                 notifier: Notifier, threads: ThreadSteps) -> None:
        self.client = client
        self.service = service
        self.composer = composer
        self.notifier = notifier
        self.threads = threads
        self.copies = Copies(client, service)

    async def send(self, channel: int, st: Channel, step: DeliveryStep, *, lease: str,
                   minimal: bool = False) -> Delivery:
        """Send ``step``; ``minimal``: its one post with the fewest parts (the Now line,
        its buttons and pings), for a post Discord never took whole. Pings a catch-up owes
        (``Pending.owed``) pass to the channel's next post until a whole post pings them,
        and so do missed posts a long backlog only counted (``Pending.counted``) until a
        message counts them. ``lease``: the worker's fence (``delivery.leases``): the posts
        are marked sent only while it holds the channel (else ``LeaseLost``: another worker
        sends them)."""
        ids = [p.id for p in step.posts]
        owed = [u for p in step.posts for u in p.owed]
        carried = step.carried
        st.look.recheck = False
        if step.form in ("skip", "count"):  # no message: their pings (and count) go on
            for p in step.posts:
                if p.post.kind is PostKind.REMINDER or step.form == "count":
                    owed += p.post.mention
            await self.service.posts_sent(ids, channel=channel, owed=owed, lease=lease,
                                          counted=carried + (step.elided
                                                             if step.form == "count" else 0))
            return st.last
        where = ChannelTarget(self.client, st.guild, channel)
        language = await channel_language(self.service, where)
        await self.copies.prepare(st.look, step, self._told_alone(step, language))
        if step.form == "thread":  # renamed or archived: no message
            if await self.threads.apply(step.posts[0].post, language, self.service.clock()):
                await self.service.posts_sent(ids, channel=channel, owed=owed,
                                              counted=carried, lease=lease)
            return st.last
        target = self.client.get_partial_messageable(channel, guild_id=st.guild)
        await self._unarchive_if_archived(channel)
        if step.form == "lobby":
            return await self._lobby(target, st, step.posts[0], language, lease)
        if step.form == "remind":
            return await self._remind(target, st, step, language, lease)
        if step.form == "text" and not minimal:
            if step.batch is not None and not any(p.batch for p in step.posts):
                await self.service.post_failed(ids, batch=step.batch)  # the group, before
            message = await self._post(target, st, Outgoing(self._catch_up(step, language)),
                                       step.nonce)
            owed += [u for p in step.posts for u in p.post.mention]
            await self.service.posts_sent(ids, link=self._link(step.posts[-1].post, message),
                                          channel=channel, owed=owed, took=True,
                                          lease=lease)
            return Delivery(Outcome.POSTED, st.url)
        pending = step.posts[0]
        post = pending.post
        mention = [*dict.fromkeys([*pending.owed, *post.mention])]
        tr = i18n.translations(language)
        out = await self.composer.full(post, language, mention=mention, minimal=minimal,
                                       extra=[text.missed_moves(tr, carried)]
                                       if carried and not minimal else ())
        as_text = False
        try:
            message = await self._post(target, st, out, step.nonce)
        except discord.Forbidden as exc:
            if not out.pictures or exc.code != 50013:
                raise
            out.pictures = []  # without the board: the game goes on, the next player is told
            message = await self._post(target, st, out, step.nonce + "t")
            as_text = True
        if post.lobby is not None:  # after the post: whoever watches the lobby sees both
            await self._close_lobby(target, post, language)
        link = self._link(post, message)
        if out.final is not None and link is not None:
            await remember_final(self.service, post, link.message_id, link.url)
        await self._tell_by_dm(target, st, post, out, link, step.nonce, language)
        await self.service.posts_sent([pending.id], link=link, channel=channel, took=True,
                                      counted=carried if minimal else 0, lease=lease)
        if as_text:
            log.warning("channel %s: the bot lacks Attach Files; a post went out as text",
                        channel)
            return Delivery(Outcome.POSTED, st.url, "attach_files", True)
        return Delivery(Outcome.POSTED, st.url)


    def _link(self, post: Post, message: discord.Message) -> PostedLink | None:
        if post.game_id is None:
            return None
        return PostedLink(post.game_id, message.id,
                          post_url(post.guild_id, post.channel_id, message.id))


    def _told_alone(self, step: DeliveryStep, language: str) -> str | None:
        """A lone move's or note's words as a catch-up's text (a try may have sent it so)."""
        if step.form != "full" or step.posts[0].post.kind not in (PostKind.MOVE, PostKind.NOTE):
            return None
        try:
            return self._catch_up(step, language)
        except Exception:  # its words fail: it was never told as text either
            return None

    def _catch_up(self, step: DeliveryStep, language: str) -> str:
        """The missed posts as text, in order (or only counted: ``elided``)."""
        tr = i18n.translations(language)
        if step.elided:
            return text.missed_moves(tr, step.elided)
        lines = ["\n".join(self.composer.told(tr, p.post, language)) for p in step.posts]
        if step.carried:  # posts counted before (a backlog longer than one read)
            lines.insert(0, text.missed_moves(tr, step.carried))
        return "\n".join(line for line in lines if line)[:MAX_CONTENT] or "…"


    async def _post(self, target: discord.PartialMessageable, st: Channel, out: Outgoing,
                    nonce_: str) -> discord.Message:
        """One channel message. Discord allows 5 per channel every 5 seconds; discord.py
        keeps to it from the rate-limit headers Discord sends (it waits before a request the
        bucket has no room for), and a catch-up folds a pile of posts into a few."""
        found = (await self.copies.find(target, st.look, out, nonce_) if st.look.recheck
                 else None)
        if found is not None:
            log.info("channel %s: a post tried before was there already (nonce %s)",
                     target.id, nonce_)
            message = found
        else:
            if not st.held():  # lost while the step was made: the new holder sends it
                raise LeaseLost(target.id, "")
            kwargs: dict[str, Any] = {"allowed_mentions": pings(out.ping), "nonce": nonce_}
            if out.view is not None:
                stamp(out.view, nonce_)
                kwargs["view"] = out.view
            if out.pictures:
                kwargs["files"] = [picture.file() for picture in out.pictures]
            message = await target.send(out.content, **kwargs)
        st.url = post_url(st.guild, target.id, message.id)
        return message


    async def _lobby(self, target: discord.PartialMessageable, st: Channel,
                     pending: Pending, language: str, lease: str) -> Delivery:
        """A lobby's post: its message edited in place, or made (anew if it was deleted)."""
        post = pending.post
        assert post.game_id is not None and post.lobby is not None
        out = self.composer.lobby(post, language)
        known = await self.service.latest_message(post.game_id)
        link: PostedLink | None = None
        if known is not None and await self._edit(target, known.message_id, out):
            st.url = known.url
        elif post.lobby.status.value == "lobby":
            message = await self._post(target, st, out, nonce(pending.id))
            link = self._link(post, message)
        await self.service.posts_sent([pending.id], link=link, channel=target.id,
                                      owed=pending.owed, took=True, counted=pending.counted,
                                      lease=lease)
        return Delivery(Outcome.POSTED, st.url)


    async def _close_lobby(self, target: discord.PartialMessageable, post: Post,
                           language: str) -> None:
        """A started or ended lobby's post loses its buttons (if it is still there)."""
        assert post.game_id is not None and post.lobby is not None
        known = await self.service.latest_message(post.game_id)
        if known is not None:
            await self._edit(target, known.message_id,
                             self.composer.lobby(post, language))


    async def _edit(self, target: discord.PartialMessageable, message_id: int,
                    out: Outgoing) -> bool:
        """Edit one of the bot's messages; False if a user deleted it (10008)."""
        try:
            await target.get_partial_message(message_id).edit(
                content=out.content, view=out.view, allowed_mentions=pings(()))
        except discord.NotFound as exc:
            fault = classify(exc)
            if fault is None or fault.kind is not FaultKind.NO_MESSAGE:
                raise
            log_fault(fault, "editing a message a user deleted", target.id)
            return False
        return True


    async def _remind(self, target: discord.PartialMessageable, st: Channel, step: DeliveryStep,
                      language: str, lease: str) -> Delivery:
        """A reminder, each player their way: DMs with the link to the game's latest post,
        and one channel post for those who chose mentions (or whose DM Discord refused);
        none if nobody is to be mentioned."""
        pending = step.posts[0]
        post = pending.post
        out = await self.composer.full(post, language)
        ping = list(out.ping)
        if out.dm and post.game_id is not None:
            tr = i18n.translations(language)
            known = await self.service.latest_message(post.game_id)
            for pid in out.dm:
                user = player_of(post.names, pid)
                sent = await self.notifier.dm(
                    self.client, post.guild_id, user, await self._with_digest(
                        tr, post, user, text.dm_turn(tr, post.awaiting.get(pid, ""),
                                                     known.url if known else None,
                                                     reminder_since=post.since)),
                    nonce=dm_nonce(step.nonce, user), recheck=st.look.recheck,
                    tried=st.look.tried)
                if not sent and user not in ping:
                    ping.append(user)  # the mention instead, once
        if ping:
            out.ping = tuple(ping)
            await self._post(target, st, out, step.nonce)
        await self.service.posts_sent([pending.id], channel=target.id, owed=pending.owed,
                                      took=bool(ping), counted=pending.counted,
                                      lease=lease)
        return Delivery(Outcome.POSTED, st.url)


    async def _tell_by_dm(self, target: discord.PartialMessageable, st: Channel, post: Post,
                          out: Outgoing, link: PostedLink | None, nonce_: str,
                          language: str) -> None:
        """DM the players who chose DMs, with the post's link; a refused DM becomes one
        mention in the channel, with the same buttons."""
        if not out.dm:
            return
        tr = i18n.translations(language)
        url = link.url if link is not None else None
        refused = [p for p in out.dm if not await self.notifier.dm(
            self.client, post.guild_id, player_of(post.names, p), await self._with_digest(
                tr, post, player_of(post.names, p), text.dm_turn(
                    tr, post.awaiting.get(p, ""), url)),
            nonce=dm_nonce(nonce_, player_of(post.names, p)), recheck=st.look.recheck,
            tried=st.look.tried)]
        if refused and not post.finished:
            fallback = Outgoing(text.dm_fallback(tr, refused, post.awaiting, post.names),
                                view=out.view,
                                ping=tuple(player_of(post.names, p) for p in refused))
            try:
                await self._post(target, st, fallback, nonce_ + "f")
            except discord.HTTPException as exc:
                fault = classify(exc)
                if fault is not None:
                    log_fault(fault, "mentioning instead of a refused DM", target.id)


    async def _with_digest(self, tr: i18n.Tr, post: Post, user: str, head: str) -> str:
        """A DM of ``user``'s turn (the person who plays the awaited seat now) with what
        happened since their previous decision below it (the DM is theirs alone); the DM
        alone before their first decision or if the digest cannot be read."""
        try:
            digest = await self.service.digest(post.channel_id, user, game_id=post.game_id)
        except ServiceError:
            return head
        return text.digest_dm(tr, head, digest if digest.since else None)


    async def _unarchive_if_archived(self, channel: int) -> None:
        """Discord archives an idle thread; a post there needs it open again first."""
        cached = self.client.get_channel(channel)
        if isinstance(cached, discord.Thread) and cached.archived:
            await self.unarchive(channel)


    async def unarchive(self, channel: int) -> None:
        thread = self.client.get_channel(channel)
        if not isinstance(thread, discord.Thread):
            fetched = await self.client.fetch_channel(channel)
            if not isinstance(fetched, discord.Thread):
                return
            thread = fetched
        await thread.edit(archived=False)
        log.info("channel %s: unarchived the thread to post in it", channel)
