"""The outbox's deliverer: each channel's posts, in order, until Discord takes them.

The service commits every change together with the posts it must show (``bot.service.posts``);
this module sends them. One worker per channel with posts waiting reads them oldest first,
asks ``delivery.plan`` which go out next and how (a lone post whole; after an outage the missed ones
as text, then the newest whole), and ``delivery.sending`` sends that step as channel messages with
nonces. A post leaves the outbox only once Discord has taken it.

- **Errors Discord may recover from** (5xx, an outage, the network): the worker retries with
  a doubling wait; a new change in the channel tries again at once.
- **Places that refuse** (``delivery.failures``): a missing permission holds the channel's
  posts for a doubling wait; a deleted channel suspends its games.
- **A post that cannot be sent** (a 4xx, a bug of ours, its words failing) never takes
  another with it (``delivery.failures``). A storage error is retried, never given up.
- **Who waits**: the interaction that made a change waits briefly (``flush``) to tell its
  player whether the post is there or will follow.
- **A game's thread** (``delivery.thread_steps``): renamed after its seats within Discord's two
  renames per ten minutes (a rename that would break it waits, the posts go on), archived
  once the game ended.

Workers start on a change, at start-up and after a gateway resume (``resume``), so a process
killed between a commit and its post loses nothing.

**One deliverer per channel across processes**: a worker first takes the channel's lease
(``delivery.leases``, fenced); one that cannot leaves the posts to the holder and looks
again when that lease runs out. No wake-up is lost (``_run``).

A process that is asked to stop (SIGTERM) gives its workers a bound to finish (``drain``);
what they did not send waits in the outbox for the next start.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable, Sequence

import discord

from bot.cogs.sanmarco.delivery.compose import Composer
from bot.cogs.sanmarco.delivery.failures import (
    FailedStep,
    Failures,
    Hold,
    Retry,
    Stage,
    backoff,
    stage,
    told_sizes,
)
from bot.cogs.sanmarco.delivery.leases import ChannelLeases, Lease, Taking
from bot.cogs.sanmarco.delivery.notify import Notifier
from bot.cogs.sanmarco.delivery.plan import DeliveryStep, nonce, plan
from bot.cogs.sanmarco.delivery.sending import Channel, Sender
from bot.cogs.sanmarco.delivery.thread_steps import Renames, ThreadSteps, sendable
from bot.cogs.sanmarco.shared.answers import ChannelTarget
from bot.cogs.sanmarco.shared.language import channel_language
from bot.cogs.sanmarco.shared.saved import Delivery, Outcome
from bot.service import LEASE_SECONDS, GameService
from bot.service.posts import Pending
from bot.store import LeaseLost, Shards

__all__ = ["Deliverer", "Delivery", "Outcome", "backoff"]

log = logging.getLogger(__name__)

FLUSH_WAIT = 2.5  # seconds an interaction waits for its post before saying it will follow
RETRY_FIRST, RETRY_MAX = 1.0, 60.0  # the wait between tries after an error Discord recovers from
# Channels sent to at once: after an outage every channel catches up, within Discord's global
# limit of 50 requests a second and without drawing thousands of boards at the same time.
MAX_SENDING = 16


class End(enum.Enum):
    """Why a worker ended."""

    DONE = "done"  # nothing it may send waits (none, the place refuses, renames held)
    LOST = "lost"  # its lease is no longer its own: it is taken again (or left to the holder)


class Deliverer:
    """Sends the outbox's posts (see the module docstring)."""

    def __init__(self, client: discord.Client, service: GameService, composer: Composer,
                 notifier: Notifier, *, retry_first: float = RETRY_FIRST,
                 retry_max: float = RETRY_MAX, wait: float = FLUSH_WAIT,
                 shards: Callable[[], Shards | None] = lambda: None,
                 lease_seconds: float = LEASE_SECONDS) -> None:
        self.client = client
        self.service = service
        self.composer = composer
        self.renames = Renames()
        self.sender = Sender(client, service, composer, notifier,
                             ThreadSteps(client, composer, self.renames))
        self.failures = Failures(client, service, self.sender, retry_first, retry_max)
        self.wait = wait
        self.shards = shards
        self._channels: dict[int, Channel] = {}  # the channels with a worker or news
        self._sending = asyncio.Semaphore(MAX_SENDING)
        self._stopped = False
        self._timers: dict[int, asyncio.TimerHandle] = {}  # renames held for their window
        self.leases = ChannelLeases(service, lease_seconds)

    # ------------------------------------------------------------------ the public surface
    def wake(self, channel: int, guild: int) -> None:
        """Deliver the channel's waiting posts now (a worker starts if none runs)."""
        if self._stopped:
            return
        st = self._channels.get(channel)
        if st is None:
            st = self._channels[channel] = Channel(guild)
        st.settled.clear()
        st.again.set()
        if st.task is None or st.task.done():
            if st.last.outcome is not Outcome.GONE:
                st.last = Delivery(Outcome.POSTED, st.url)  # this run's news, not the last's
            st.task = asyncio.create_task(self._run(channel, st), name=f"outbox-{channel}")

    async def flush(self, channel: int, guild: int) -> Delivery:
        """Deliver the channel's posts and wait (at most ``wait`` s; less when Discord
        fails and the worker waits to try again) to tell the player who acted what became
        of them."""
        self.wake(channel, guild)
        st = self._channels.get(channel)
        if st is None:  # the deliverer is closed (the bot stops): the next start sends it
            return Delivery(Outcome.PENDING)
        try:
            await asyncio.wait_for(st.settled.wait(), self.wait)
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
                continue  # (it reads the channel's posts again before each step)
            guild = st.guild if st is not None else await self._guild_of(channel)
            if guild is not None:
                self.wake(channel, guild)
        return len(channels)

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no worker runs (tests and the periodic pass)."""
        if tasks := self._running():
            await asyncio.wait(tasks, timeout=timeout)

    def _running(self) -> list[asyncio.Task[None]]:
        return [st.task for st in self._channels.values()
                if st.task is not None and not st.task.done()]

    def _later(self, channel: int, st: Channel, due: float | None) -> None:
        """Wake the channel's worker when a held rename is due (the pass wakes it too)."""
        if due is None or channel in self._timers:
            return
        delay = max(0.0, due - self.service.clock())

        def wake() -> None:
            self._timers.pop(channel, None)
            self.wake(channel, st.guild)

        self._timers[channel] = asyncio.get_running_loop().call_later(delay, wake)

    async def drain(self, timeout: float) -> int | None:
        """Shutdown: the held renames' timers stop, and the workers running now (and those
        an interaction already being handled wakes) get up to ``timeout`` s to send what
        they hold, retrying as usual; then every worker stops (``close``). Returns how many
        posts stay in the outbox for the next start (None if it cannot be read)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        while (left := deadline - loop.time()) > 0:
            if not (tasks := self._running()):
                break
            await asyncio.wait(tasks, timeout=left)
        await self.close()
        try:
            channels = await self.service.outbox_channels(shards=self.shards())
            return sum([len(await self.service.pending_posts(c)) for c in channels])
        except Exception as exc:  # the store's own words are logged by the service
            log.warning("could not count the posts left in the outbox (%s)", exc)
            return None

    async def close(self) -> None:
        """Stop every worker (their posts stay in the outbox for the next start)."""
        self._stopped = True
        for handle in self._timers.values():
            handle.cancel()
        self.leases.stop()
        tasks = [st.task for st in self._channels.values() if st.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.leases.close()  # another process may take the channels over at once

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

    # ------------------------------------------------------------------ the lease
    async def _run(self, channel: int, st: Channel) -> None:
        """The channel's worker, while it holds the channel's lease (``delivery.leases``).
        A worker of this process that was just done here lets its lease go first (a new
        one starts as soon as the last one left the channel idle). A change committed
        after the last read (``again``: while this worker let its lease go, or after the
        holder's last read), or a lease lost, is read again at once: no wake-up is lost."""
        while True:
            await self.leases.after_last(channel)
            lease = await self._lease(channel, st)
            if not isinstance(lease, Lease):
                if lease is Taking.DELIVERED and st.again.is_set() and not self._stopped:
                    continue
                return
            try:
                end = await self._work(channel, st, lease)
            finally:
                await self.leases.let_go(lease)
            if self._stopped or self._channels.get(channel) is not st or (
                    end is End.DONE and not st.again.is_set()):
                return

    async def _lease(self, channel: int, st: Channel) -> Lease | Taking:
        """Take the channel's lease under a new token (``ChannelLeases.take_or_wait``);
        if it is not taken, whoever waits is told why."""
        async def waiting() -> list[Pending]:
            st.again.clear()  # a change committed after this read is read again
            return await self.service.pending_posts(channel)

        taking = await self.leases.take_or_wait(channel, self.leases.token(), waiting,
                                                lambda seconds: self._pause(st, seconds))
        if isinstance(taking, Lease):
            return taking
        self._settle(st, Delivery(Outcome.POSTED if taking is Taking.DELIVERED
                                  else Outcome.PENDING, st.url))  # (PENDING: the pass's)
        if taking is not Taking.DELIVERED:  # look again when the holder's lease runs out
            if taking is Taking.ELSEWHERE:  # (if it died, the channel is taken over then)
                log.info("channel %s: another process delivers its posts", channel)
            self._later(channel, st, self.service.clock() + await self.leases.left(channel))
        return taking

    # ------------------------------------------------------------------ the worker
    async def _work(self, channel: int, st: Channel, lease: Lease) -> End:
        """Send the channel's posts, one step at a time, until none waits, the place
        refuses them (``Failures``: a Hold) or the lease is lost (checked before each step,
        and by the store as each step's posts are marked sent). ``turns``: this worker's
        failures in a row."""
        turns = 0
        st.held = lambda: lease.held  # asked again before each message (``sending``)
        try:
            await self._reopen(channel, st)
            while True:
                st.again.clear()
                pending = await self.service.pending_posts(channel)
                if not pending and st.again.is_set():
                    continue  # a change committed while we read: read again
                held = await self._ready(channel, st, pending, lease)
                if held is None:
                    return End.DONE
                if not lease.held:
                    raise LeaseLost(channel, lease.token)
                outcome = await self._step(channel, st, pending, held, turns, lease)
                if isinstance(outcome, Delivery):
                    turns, st.last = 0, outcome
                    continue
                turns += 1
                if isinstance(outcome, Hold):
                    self._hold(st, outcome)
                    return End.DONE
                await self._pause(st, outcome.seconds)
        except asyncio.CancelledError:
            raise
        except LeaseLost:
            log.info("channel %s: its worker no longer holds the lease; it stops", channel)
            self._settle(st, Delivery(Outcome.PENDING, st.url))
            return End.LOST
        except Exception:  # a bug of ours: the posts stay for the next pass
            log.exception("channel %s: delivering its posts failed", channel)
            self._settle(st, Delivery(Outcome.PENDING, st.url))
        return End.DONE

    async def _reopen(self, channel: int, st: Channel) -> None:
        """An interaction showed the bot may post here again: the place's wait ends."""
        if st.reopen:
            st.reopen = False
            if await self.service.place_open(channel):
                log.info("channel %s: the bot may post again; sending its waiting posts",
                         channel)

    async def _ready(self, channel: int, st: Channel, pending: Sequence[Pending],
                     lease: Lease) -> frozenset[int] | None:
        """The renames Discord's limit holds back now, if a step can go; None when the
        worker is done (nothing waits, the place refuses, only held renames wait), with
        whoever waits told."""
        if not pending:
            self._settle(st, self._posted(st))
            if self._channels.get(channel) is st:
                del self._channels[channel]  # memory follows the busy channels only
            return None
        refused = await self.failures.refused(channel)
        if refused is not None:
            if refused.outcome is Outcome.GONE:  # nothing can be posted there again
                await self.service.posts_sent([p.id for p in pending], channel=channel,
                                              lease=lease.token)
            self._hold(st, refused)
            return None
        renames, due = sendable(self.renames, channel, pending, self.service.clock())
        if all(p.id in renames for p in pending):  # only renames Discord holds back
            self._later(channel, st, due)
            self._settle(st, self._posted(st))
            return None
        return renames

    async def _step(self, channel: int, st: Channel, pending: Sequence[Pending],
                    renames: frozenset[int], turns: int,
                    lease: Lease) -> Delivery | Retry | Hold:
        """Plan and send the next step: what Discord showed, or what follows its failure
        (the words too: a post whose words raise fails like a send)."""
        first = next(p for p in pending if p.id not in renames)
        step = DeliveryStep((first,), "text", nonce(first.id))
        how = Stage.WHOLE
        try:
            step = plan(pending, await self._sizes(channel, st, pending), renames,
                        await self.service.waiting_beyond(channel, len(pending)))
            how = stage(step)
            async with self._sending:
                return await self.sender.send(channel, st, step, lease=lease.token,
                                              minimal=how is Stage.MINIMAL)
        except (asyncio.CancelledError, LeaseLost):
            raise
        except Exception as exc:
            return await self.failures.after(
                FailedStep(channel, st.guild, step, exc, turns + 1, how, lease.token))

    async def _sizes(self, channel: int, st: Channel,
                     pending: Sequence[Pending]) -> dict[int, int]:
        """How long each waiting post reads as text (only when several wait:
        ``failures.told_sizes``)."""
        if len(pending) < 2:
            return {}
        where = ChannelTarget(self.client, st.guild, channel)
        language = await channel_language(self.service, where)
        return told_sizes(self.composer, language, pending)

    @staticmethod
    def _posted(st: Channel) -> Delivery:
        """What a worker that is done tells whoever waits: its last post, there."""
        return st.last if st.last.outcome is Outcome.POSTED else Delivery(Outcome.POSTED,
                                                                          st.url)

    @staticmethod
    def _settle(st: Channel, delivery: Delivery) -> None:
        st.last = delivery
        st.settled.set()

    def _hold(self, st: Channel, hold: Hold) -> None:
        """The place refuses the channel's posts: whoever waits is told so."""
        self._settle(st, Delivery(hold.outcome, st.url if hold.outcome is Outcome.BLOCKED
                                  else None, hold.permission))

    async def _pause(self, st: Channel, seconds: float) -> None:
        """Wait before the next try, or less if a new change arrives in the channel."""
        st.settled.set()  # whoever waits is told now that the post will follow
        if st.last.outcome is Outcome.POSTED:
            st.last = Delivery(Outcome.PENDING, st.url)
        try:
            await asyncio.wait_for(st.again.wait(), seconds)
        except TimeoutError:
            pass
        st.settled.clear()
