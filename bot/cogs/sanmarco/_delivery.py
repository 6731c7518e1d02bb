"""The outbox's deliverer: each channel's posts, in order, until Discord takes them.

The service commits every change together with the posts it must show (``bot.service.posts``);
this module sends them. One worker per channel with posts waiting reads them oldest first and
sends each as a channel message with a nonce derived from the post (Discord's
``enforce_nonce``), so a retry after "stored, then 5xx" returns the message already there
instead of a second one. A post leaves the outbox only once Discord has taken it.

- **Errors Discord may recover from** (5xx, an outage, the network): the worker retries with
  a doubling wait; a new change in the channel tries again at once.
- **Catching up.** When several posts wait (an outage, a restart), the channel gets what
  players need in a few messages, within Discord's 5 posts per 5 seconds (discord.py waits
  for room in the channel's rate-limit bucket): the missed moves as text, in order
  (at most ``CATCH_UP_MESSAGES`` messages; older ones are counted, the log has them), then
  one post of the current board with the Now line and its buttons, pinging everyone whose
  decision started meanwhile and is still awaited.
- **Places that refuse**: a missing permission (50001, 50013) holds the channel's posts for a
  doubling wait (a minute up to a day), said once in the log and to each player who acts
  there; a deleted channel (10003) suspends its games; an archived thread is unarchived
  first; a deleted lobby post is posted anew.

A post that may have reached Discord (a failed send) is never folded into a catch-up message
with other posts: it is sent again alone, under its own nonce; the posts of a catch-up message
are marked (``batch``) before it is sent, so a retry sends the same posts under the same
nonce. Workers start on a change, at start-up and after a gateway resume (``resume``), so a
process killed between a commit and its post loses nothing.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import discord

from bot import i18n, text
from bot.service import GameService
from bot.service.posts import Pending, Post, PostKind
from bot.store import PostedLink, Shards
from bot.text.markup import MAX_CONTENT

from ._compose import Composer, Outgoing, told
from ._faults import FaultKind, classify, log_fault
from ._final import remember_final
from ._language import channel_language
from ._notify import Notifier, post_url
from ._where import Place, pings

log = logging.getLogger(__name__)

CATCH_UP_MESSAGES = 2  # missed moves told as text in at most this many messages
FLUSH_WAIT = 2.5  # seconds an interaction waits for its post before saying it will follow
RETRY_FIRST, RETRY_MAX = 1.0, 60.0  # the wait between tries after an error Discord recovers from
MAX_BUG_TRIES = 5  # a post that fails for a bug of ours is given up after this many tries
# Channels sent to at once: after an outage every channel catches up, within Discord's global
# limit of 50 requests a second and without drawing thousands of boards at the same time.
MAX_SENDING = 16


class Outcome(StrEnum):
    """Where the posts of a channel stand, for the player who just acted there."""

    POSTED = "posted"  # Discord took every post
    PENDING = "pending"  # Discord has not taken it yet: it will follow
    BLOCKED = "blocked"  # the bot lacks a permission there (``permission``)
    GONE = "gone"  # the channel is deleted


@dataclass(frozen=True)
class Delivery:
    """What became of a channel's posts: ``url`` of the newest one Discord took;
    ``permission`` the bot lacks (BLOCKED, or POSTED without the board: ``as_text``)."""

    outcome: Outcome
    url: str | None = None
    permission: str | None = None
    as_text: bool = False

    def note(self, tr: i18n.Tr) -> str | None:
        """The acting player's private note when their post is not simply there."""
        if self.outcome is Outcome.PENDING:
            return text.post_pending(tr)
        if self.outcome is Outcome.BLOCKED:
            return text.not_posted(tr, self.permission or "send_messages")
        if self.outcome is Outcome.GONE:
            return text.channel_gone(tr)
        if self.as_text and self.permission:
            return text.board_posted_as_text(tr, self.permission)
        return None


@dataclass(frozen=True)
class Step:
    """One send: ``posts`` delivered by one message (or none: ``form`` skip)."""

    posts: tuple[Pending, ...]
    form: str  # full | text | lobby | remind | skip
    nonce: str
    batch: int | None = None
    elided: int = 0  # older posts only counted, not told (a long outage's catch-up)


@dataclass
class _Channel:
    """A channel's worker and what the interactions waiting on it need to know."""

    guild: int
    task: asyncio.Task[None] | None = None
    again: asyncio.Event = field(default_factory=asyncio.Event)
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    last: Delivery = Delivery(Outcome.POSTED)
    carry: set[str] = field(default_factory=set)  # pings owed by posts told as text
    reopen: bool = False  # an interaction showed the bot may post here again
    url: str | None = None


def nonce(first: int, last: int | None = None) -> str:
    """The nonce of a message delivering outbox posts ``first``..``last`` (at most 25
    characters): the same for every try of the same posts."""
    return f"sm{first}" if last is None or last == first else f"sm{first}-{last}"


class Deliverer:
    """Sends the outbox's posts (see the module docstring)."""

    def __init__(self, client: discord.Client, service: GameService, composer: Composer,
                 notifier: Notifier, *, retry_first: float = RETRY_FIRST,
                 retry_max: float = RETRY_MAX,
                 shards: Callable[[], Shards | None] = lambda: None) -> None:
        self.client = client
        self.service = service
        self.composer = composer
        self.notifier = notifier
        self.retry_first = retry_first
        self.retry_max = retry_max
        self.shards = shards
        self._channels: dict[int, _Channel] = {}  # the channels with a worker or news
        self._sending = asyncio.Semaphore(MAX_SENDING)
        self._stopped = False

    # ------------------------------------------------------------------ the public surface
    def wake(self, channel: int, guild: int) -> None:
        """Deliver the channel's waiting posts now (a worker starts if none runs)."""
        if self._stopped:
            return
        st = self._channels.get(channel)
        if st is None:
            st = self._channels[channel] = _Channel(guild)
        st.settled.clear()
        st.again.set()
        if st.task is None or st.task.done():
            if st.last.outcome is not Outcome.GONE:
                st.last = Delivery(Outcome.POSTED, st.url)  # this run's news, not the last's
            st.task = asyncio.create_task(self._work(channel, st), name=f"outbox-{channel}")

    async def flush(self, channel: int, guild: int, timeout: float = FLUSH_WAIT) -> Delivery:
        """Deliver the channel's posts and wait (at most ``timeout`` s) to tell the player
        who acted what became of them."""
        self.wake(channel, guild)
        st = self._channels[channel]
        try:
            await asyncio.wait_for(st.settled.wait(), timeout)
        except TimeoutError:
            return Delivery(Outcome.PENDING, st.url)
        return st.last

    async def resume(self) -> int:
        """Start a worker for every channel (of this process's shards) with posts waiting:
        at start-up, after a gateway resume, and at each periodic pass (a blocked place's
        wait may be over). Returns how many."""
        try:
            channels = await self.service.outbox_channels(shards=self.shards())
        except Exception:
            log.exception("could not read the outbox")
            return 0
        for channel in channels:
            st = self._channels.get(channel)
            if st is not None and st.task is not None and not st.task.done():
                continue
            guild = st.guild if st is not None else await self._guild_of(channel)
            if guild is not None:
                self.wake(channel, guild)
        return len(channels)

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no worker runs (tests and the periodic pass)."""
        tasks = [st.task for st in self._channels.values()
                 if st.task is not None and not st.task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def close(self) -> None:
        """Stop every worker (their posts stay in the outbox for the next start)."""
        self._stopped = True
        tasks = [st.task for st in self._channels.values() if st.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def gone(self, channel: int, guild: int) -> None:
        """Discord says the channel was deleted: its games are suspended and its posts
        dropped (a place nobody plays in is not remembered)."""
        try:
            if await self.service.has_games(channel):
                await self.service.place_gone(channel, guild)
        except Exception:
            log.exception("channel %s: could not suspend its games", channel)

    def opened(self, channel: int) -> None:
        """Discord shows the bot may post in the channel again (an interaction's
        permissions): its held posts go now."""
        st = self._channels.get(channel)
        if st is not None and st.last.outcome is Outcome.BLOCKED:
            st.reopen = True
            self.wake(channel, st.guild)

    async def _guild_of(self, channel: int) -> int | None:
        posts = await self.service.pending_posts(channel)
        return posts[0].post.guild_id if posts else None

    # ------------------------------------------------------------------ the worker
    async def _work(self, channel: int, st: _Channel) -> None:
        tries = 0
        try:
            if st.reopen:
                st.reopen = False
                if await self.service.place_open(channel):
                    log.info("channel %s: the bot may post again; sending its waiting posts",
                             channel)
            while True:
                st.again.clear()
                pending = await self.service.pending_posts(channel)
                if not pending and st.again.is_set():
                    continue  # a change committed while we read: read again
                if not pending:
                    self._settle(st, st.last if st.last.outcome is Outcome.POSTED
                                 else Delivery(Outcome.POSTED, st.url))
                    if not st.carry and self._channels.get(channel) is st:
                        del self._channels[channel]  # memory follows the busy channels only
                    return
                held = await self._held(channel, st)
                if held is not None:
                    if held.outcome is Outcome.GONE:  # nothing can be posted there again
                        await self.service.posts_sent([p.id for p in pending])
                    self._settle(st, held)
                    return
                step = self._plan(pending, await self._sizes(channel, st, pending))
                try:
                    async with self._sending:
                        delivered = await self._send(channel, st, step)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    tries += 1
                    wait = await self._failed(channel, st, step, exc, tries)
                    if wait is None:
                        return
                    await self._pause(st, wait)
                    continue
                tries = 0
                st.last = delivered
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug of ours: the posts stay for the next pass
            log.exception("channel %s: delivering its posts failed", channel)
            self._settle(st, Delivery(Outcome.PENDING, st.url))

    async def _sizes(self, channel: int, st: _Channel,
                     pending: Sequence[Pending]) -> dict[int, int]:
        """How long each waiting post reads as text (only when several wait)."""
        if len(pending) < 2:
            return {}
        language = await channel_language(self.service, Place(self.client, st.guild, channel))
        tr = i18n.translations(language)
        return {p.id: len("\n".join(told(tr, p.post, language))) for p in pending}

    @staticmethod
    def _settle(st: _Channel, delivery: Delivery) -> None:
        st.last = delivery
        st.settled.set()

    async def _held(self, channel: int, st: _Channel) -> Delivery | None:
        """Why the channel's posts must wait now (a gone place, a permission's wait)."""
        place = await self.service.place(channel)
        if place is None:
            return None
        if place.gone:
            return Delivery(Outcome.GONE)
        if place.blocked_until is not None and place.blocked_until > self.service.clock():
            return Delivery(Outcome.BLOCKED, st.url, place.permission)
        return None

    async def _pause(self, st: _Channel, seconds: float) -> None:
        """Wait before the next try, or less if a new change arrives in the channel."""
        st.settled.set()  # whoever waits is told now that the post will follow
        if st.last.outcome is Outcome.POSTED:
            st.last = Delivery(Outcome.PENDING, st.url)
        try:
            await asyncio.wait_for(st.again.wait(), seconds)
        except TimeoutError:
            pass
        st.settled.clear()

    # ------------------------------------------------------------------ planning
    def _plan(self, pending: Sequence[Pending], sizes: Mapping[int, int]) -> Step:
        """The next send (see the module docstring): a superseded post is skipped; a
        retried catch-up message is sent again as it was; a lone post, or one that may
        have reached Discord, goes alone; otherwise the oldest posts go as text together,
        as many as one message holds (``sizes``: each post's words), and when more wait
        than ``CATCH_UP_MESSAGES`` messages hold, the oldest of them are only counted."""
        first = pending[0]
        later = pending[1:]
        if self._superseded(first, later):
            return Step((first,), "skip", "")
        if first.batch is not None:
            again = tuple(p for p in pending if p.id <= first.batch)
            return Step(again, "text", nonce(first.id, first.batch), first.batch,
                        elided=len(again) if sum(sizes.get(p.id, 0) for p in again)
                        > MAX_CONTENT else 0)
        if first.post.kind is PostKind.LOBBY:
            return Step((first,), "lobby", nonce(first.id))
        if first.post.kind is PostKind.REMINDER:
            return Step((first,), "remind", nonce(first.id))
        if not later:
            return Step((first,), "full", nonce(first.id))
        if first.attempts or not _tellable(first.post):
            return Step((first,), "text", nonce(first.id))
        run: list[Pending] = []
        for p in pending[:-1]:
            if p.attempts or p.batch is not None or not _tellable(p.post):
                break
            run.append(p)
        budget = CATCH_UP_MESSAGES * MAX_CONTENT
        told_size = sum(sizes.get(p.id, 0) + 1 for p in run)
        if told_size > budget:  # a long outage: the oldest are counted, the log has them
            cut = 0
            while told_size > budget and cut < len(run) - 1:
                told_size -= sizes.get(run[cut].id, 0) + 1
                cut += 1
            counted = run[:cut]
            last = counted[-1].id
            return Step(tuple(counted), "text", nonce(first.id, last), last,
                        elided=len(counted))
        group: list[Pending] = []
        size = 0
        for p in run:
            size += sizes.get(p.id, 0) + 1
            if group and size > MAX_CONTENT:
                break
            group.append(p)
        if len(group) == 1:
            return Step((first,), "text", nonce(first.id))
        last = group[-1].id
        return Step(tuple(group), "text", nonce(first.id, last), last)

    @staticmethod
    def _superseded(first: Pending, later: Sequence[Pending]) -> bool:
        """A lobby post a later post of its game shows again, or a reminder a later post of
        its game makes moot (the later one pings)."""
        game = first.post.game_id
        if first.post.kind is PostKind.LOBBY:
            return any(p.post.game_id == game and (p.post.kind is PostKind.LOBBY
                                                   or p.post.lobby is not None) for p in later)
        if first.post.kind is PostKind.REMINDER:
            return any(p.post.game_id == game for p in later)
        return False

    # ------------------------------------------------------------------ sending
    async def _send(self, channel: int, st: _Channel, step: Step) -> Delivery:
        ids = [p.id for p in step.posts]
        if step.form == "skip":
            post = step.posts[0].post
            if post.kind is PostKind.REMINDER:
                st.carry.update(post.mention)
            await self.service.posts_sent(ids)
            return st.last
        language = await channel_language(self.service, Place(self.client, st.guild, channel))
        target = self.client.get_partial_messageable(channel, guild_id=st.guild)
        await self._unarchive_if_archived(channel)
        if step.form == "lobby":
            return await self._lobby(target, st, step.posts[0], language)
        if step.form == "remind":
            return await self._remind(target, st, step, language)
        if step.form == "text":
            if step.batch is not None and not any(p.batch for p in step.posts):
                await self.service.post_failed(ids, batch=step.batch)  # the group, before
            message = await self._post(target, st, Outgoing(self._catch_up(step, language)),
                                       step.nonce)
            for p in step.posts:
                st.carry.update(p.post.mention)
            await self.service.posts_sent(ids, link=self._link(step.posts[-1].post, message))
            return Delivery(Outcome.POSTED, st.url)
        pending = step.posts[0]
        post = pending.post
        mention = [*dict.fromkeys([*st.carry, *post.mention])]
        out = await self.composer.full(post, language, mention=mention)
        as_text = False
        try:
            message = await self._post(target, st, out, step.nonce)
        except discord.Forbidden as exc:
            if not out.pictures or exc.code != 50013:
                raise
            out.pictures = []  # without the board: the game goes on, the next player is told
            message = await self._post(target, st, out, step.nonce + "t")
            as_text = True
        st.carry.clear()
        if post.lobby is not None:  # after the post: whoever watches the lobby sees both
            await self._close_lobby(target, post, language)
        link = self._link(post, message)
        if out.final is not None and link is not None:
            await remember_final(self.service, post, link.message_id, link.url)
        await self._tell_by_dm(target, post, out, link, step.nonce, language)
        await self.service.posts_sent([pending.id], link=link)
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

    def _catch_up(self, step: Step, language: str) -> str:
        """The missed posts as text, in order (or only counted: ``elided``)."""
        tr = i18n.translations(language)
        if step.elided:
            return text.missed_moves(tr, step.elided)
        lines = ["\n".join(told(tr, p.post, language)) for p in step.posts]
        return "\n".join(line for line in lines if line)[:MAX_CONTENT] or "…"

    async def _post(self, target: discord.PartialMessageable, st: _Channel, out: Outgoing,
                    nonce_: str) -> discord.Message:
        """One channel message. Discord allows 5 per channel every 5 seconds; discord.py
        keeps to it from the rate-limit headers Discord sends (it waits before a request the
        bucket has no room for), and a catch-up folds a pile of posts into a few."""
        kwargs: dict[str, Any] = {"allowed_mentions": pings(out.ping), "nonce": nonce_}
        if out.view is not None:
            kwargs["view"] = out.view
        if out.pictures:
            kwargs["files"] = [discord.File(io.BytesIO(png), filename=name)
                               for name, png in out.pictures]
        message = await target.send(out.content, **kwargs)
        st.url = post_url(st.guild, target.id, message.id)
        return message

    async def _lobby(self, target: discord.PartialMessageable, st: _Channel,
                     pending: Pending, language: str) -> Delivery:
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
        await self.service.posts_sent([pending.id], link=link)
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

    async def _remind(self, target: discord.PartialMessageable, st: _Channel, step: Step,
                      language: str) -> Delivery:
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
                sent = await self.notifier.dm(
                    self.client, post.guild_id, pid,
                    text.dm_turn(tr, post.awaiting.get(pid, ""), known.url if known else None,
                                 reminder_since=post.since), nonce=step.nonce + "d")
                if not sent and pid not in ping:
                    ping.append(pid)  # the mention instead, once
        if ping:
            out.ping = tuple(ping)
            await self._post(target, st, out, step.nonce)
        await self.service.posts_sent([pending.id])
        return Delivery(Outcome.POSTED, st.url)

    async def _tell_by_dm(self, target: discord.PartialMessageable, post: Post,
                          out: Outgoing, link: PostedLink | None, nonce_: str,
                          language: str) -> None:
        """DM the players who chose DMs, with the post's link; a refused DM becomes one
        mention in the channel, with the same buttons."""
        if not out.dm:
            return
        tr = i18n.translations(language)
        url = link.url if link is not None else None
        refused = [p for p in out.dm if not await self.notifier.dm(
            self.client, post.guild_id, p, text.dm_turn(tr, post.awaiting.get(p, ""), url),
            nonce=nonce_ + "d")]
        if refused and not post.finished:
            fallback = Outgoing(text.dm_fallback(tr, refused, post.awaiting, post.names),
                                view=out.view, ping=tuple(refused))
            try:
                await self._post(target, self._channels[target.id], fallback, nonce_ + "f")
            except discord.HTTPException as exc:
                fault = classify(exc)
                if fault is not None:
                    log_fault(fault, "mentioning instead of a refused DM", target.id)

    async def _unarchive_if_archived(self, channel: int) -> None:
        """Discord archives an idle thread; a post there needs it open again first."""
        cached = self.client.get_channel(channel)
        if isinstance(cached, discord.Thread) and cached.archived:
            await self._unarchive(channel)

    async def _unarchive(self, channel: int) -> None:
        thread = self.client.get_channel(channel)
        if not isinstance(thread, discord.Thread):
            fetched = await self.client.fetch_channel(channel)
            if not isinstance(fetched, discord.Thread):
                return
            thread = fetched
        await thread.edit(archived=False)
        log.info("channel %s: unarchived the thread to post in it", channel)

    # ------------------------------------------------------------------ failures
    async def _failed(self, channel: int, st: _Channel, step: Step, exc: Exception,
                      tries: int) -> float | None:
        """What to do after a failed send: the seconds to wait before the next try, or None
        when the worker stops (the place refuses, or the posts were given up)."""
        ids = [p.id for p in step.posts]
        fault = classify(exc)
        if fault is None or fault.kind is FaultKind.REFUSED:
            log.error("channel %s: a post failed (%s, try %d)", channel,
                      ", ".join(str(p.post.kind) for p in step.posts), tries, exc_info=exc)
            if tries >= MAX_BUG_TRIES:
                log.error("channel %s: gave up outbox post(s) %s", channel, ids)
                await self.service.posts_sent(ids)
                return 0.0
            await self.service.post_failed(ids, batch=step.batch)
            return self._backoff(tries)
        if fault.kind is FaultKind.GONE:
            log_fault(fault, "posting", channel)
            await self.service.place_gone(channel, st.guild)
            self._settle(st, Delivery(Outcome.GONE))
            return None
        if fault.kind is FaultKind.BLOCKED:
            permission = fault.permission or self._missing(channel)
            place = await self.service.place_blocked(channel, st.guild, permission)
            first = place.backoff <= 60.0
            log_fault(fault, f"posting (the bot lacks {permission}; its posts wait "
                      f"{place.backoff:g} s)", channel,
                      level=logging.WARNING if first else logging.INFO)
            self._settle(st, Delivery(Outcome.BLOCKED, st.url, permission))
            return None
        if fault.kind is FaultKind.ARCHIVED and tries <= 2:
            await self._unarchive(channel)
            return 0.0
        log_fault(fault, f"posting (try {tries}; it is kept and tried again)", channel,
                  level=logging.WARNING if tries == 1 else logging.INFO)
        await self.service.post_failed(ids, batch=step.batch)
        return self._backoff(tries)

    def _backoff(self, tries: int) -> float:
        wait = min(self.retry_max, self.retry_first * 2.0 ** (tries - 1))
        return wait * random.uniform(0.8, 1.2)  # channels that failed together spread out

    def _missing(self, channel: int) -> str:
        """Which permission a refused post lacked, from what the client's cache says the
        bot may do in the channel (Send Messages if it cannot tell)."""
        cached = self.client.get_channel(channel)
        if isinstance(cached, discord.abc.GuildChannel):
            have = cached.permissions_for(cached.guild.me)
            for name in ("view_channel", "send_messages"):
                if not getattr(have, name):
                    return name
        return "send_messages"


def _tellable(post: Post) -> bool:
    """A post that can be told as text in a catch-up (a lobby is edited, not told)."""
    return post.kind is not PostKind.LOBBY


def channels_of(posts: Iterable[Post]) -> set[tuple[int, int]]:
    return {(p.channel_id, p.guild_id) for p in posts}
