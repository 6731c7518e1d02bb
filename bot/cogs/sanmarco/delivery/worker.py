"""The outbox's deliverer: each channel's posts, in order, until Discord takes them.

The service commits every change together with the posts it must show (``bot.service.posts``);
this module sends them. One worker per channel with posts waiting reads them oldest first,
asks ``delivery.plan`` which go out next and how (a lone post whole; after an outage the missed ones
as text, then the newest whole), and ``delivery.sending`` sends that step as channel messages with
nonces. A post leaves the outbox only once Discord has taken it.

- **Errors Discord may recover from** (5xx, an outage, the network): the worker retries with
  a doubling wait; a new change in the channel tries again at once.
- **Places that refuse**: a missing permission (50001, 50013) holds the channel's posts for a
  doubling wait (a minute up to a day; the next post Discord takes ends the doubling), said
  once in the log and to each player who acts there; a deleted channel (10003, or
  CHANNEL_DELETE) suspends its games.
- **A post that cannot be sent** (a 4xx Discord will never take, a bug of ours, its words
  failing) never takes another with it: it is tried alone, counted by its stored
  ``attempts``, then replaced by its minimal post (the Now line, buttons, pings). A storage
  error is retried, never given up.
- **Who waits**: the interaction that made a change waits briefly (``flush``) to tell its
  player whether the post is there or will follow.
- **A game's thread** (``delivery.thread_steps``): renamed after its seats within Discord's two
  renames per ten minutes (a rename that would break it waits, the posts go on), archived
  once the game ended.

Workers start on a change, at start-up and after a gateway resume (``resume``), so a process
killed between a commit and its post loses nothing.

**One deliverer per channel across processes** (a rolling deploy, overlapping shards, two
processes on one PostgreSQL would otherwise group catch-ups differently, under nonces
Discord cannot match, and DM twice): a worker first takes the channel's lease
(``bot.store.leases``, a compare-and-set), each worker under a token of its own; all of
this process's are renewed together while any runs (``delivery.leases``), and a worker lets its
lease go when it ends. A worker that cannot take it looks again a few times within
seconds while posts wait (a holder that was just done has let it go), then leaves them to
the holder, whose worker reads the channel's posts again before each step, and looks again
once a lease would have run out (and at the periodic pass): a dead holder's channels are
taken over then.

A process that is asked to stop (SIGTERM) gives its workers a bound to finish (``drain``);
what they did not send waits in the outbox for the next start.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence

import discord

from bot import i18n
from bot.cogs.sanmarco.delivery.compose import Composer
from bot.cogs.sanmarco.delivery.leases import ChannelLeases
from bot.cogs.sanmarco.delivery.notify import Notifier
from bot.cogs.sanmarco.delivery.plan import DeliveryStep, nonce, plan
from bot.cogs.sanmarco.delivery.sending import Channel, Sender
from bot.cogs.sanmarco.delivery.thread_steps import Renames, ThreadSteps, sendable
from bot.cogs.sanmarco.shared.answers import ChannelTarget
from bot.cogs.sanmarco.shared.faults import FaultKind, classify, lacking, log_fault
from bot.cogs.sanmarco.shared.language import channel_language
from bot.cogs.sanmarco.shared.saved import Delivery, Outcome
from bot.service import LEASE_SECONDS, GameService
from bot.service.errors import StorageFailed
from bot.service.posts import Pending
from bot.store import Shards, StorageError
from bot.text.markup import MAX_CONTENT

__all__ = ["Deliverer", "Delivery", "Outcome"]

log = logging.getLogger(__name__)

FLUSH_WAIT = 2.5  # seconds an interaction waits for its post before saying it will follow
RETRY_FIRST, RETRY_MAX = 1.0, 60.0  # the wait between tries after an error Discord recovers from
# A post that fails for a bug of ours is tried alone until it has failed this many times,
# then replaced by its minimal post (the Now line, buttons, pings), which is given up after
# as many more. A replaced post's stored ``attempts`` start at REPLACED (it survives a
# restart as replaced).
MAX_BUG_TRIES = 3
REPLACED = 1000
# Channels sent to at once: after an outage every channel catches up, within Discord's global
# limit of 50 requests a second and without drawing thousands of boards at the same time.
MAX_SENDING = 16
# A channel another worker holds is tried again after ¼ s, doubling, 5 times (a holder that
# is just done lets it go), then left to the holder and the periodic pass.
LEASE_RETRY, LEASE_TRIES = 0.25, 5


class _Unworded(Exception):
    """A waiting post whose words raise (a bug of ours): it is tried alone from now on."""

    def __init__(self, pending: Pending) -> None:
        super().__init__(f"outbox post {pending.id} has no words")
        self.pending = pending


class Deliverer:
    """Sends the outbox's posts (see the module docstring)."""

    def __init__(self, client: discord.Client, service: GameService, composer: Composer,
                 notifier: Notifier, *, retry_first: float = RETRY_FIRST,
                 retry_max: float = RETRY_MAX, wait: float = FLUSH_WAIT,
                 shards: Callable[[], Shards | None] = lambda: None) -> None:
        self.client = client
        self.service = service
        self.composer = composer
        self.renames = Renames()
        self.sender = Sender(client, service, composer, notifier,
                             ThreadSteps(client, composer, self.renames))
        self.retry_first = retry_first
        self.retry_max = retry_max
        self.wait = wait
        self.shards = shards
        self._channels: dict[int, Channel] = {}  # the channels with a worker or news
        self._sending = asyncio.Semaphore(MAX_SENDING)
        self._stopped = False
        self._timers: dict[int, asyncio.TimerHandle] = {}  # renames held for their window
        self.leases = ChannelLeases(service, self._busy)

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
            tasks = [st.task for st in self._channels.values()
                     if st.task is not None and not st.task.done()]
            if not tasks:
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
        """The channel's worker, while it holds the channel's lease (module docstring).
        A worker of this process that was just done here lets its lease go first (a new
        one starts as soon as the last one left the channel idle)."""
        await self.leases.after_last(channel)
        token = await self._lease(channel, st)
        if token is None:
            return
        try:
            await self._work(channel, st)
        finally:
            await self.leases.let_go(channel, token)

    async def _lease(self, channel: int, st: Channel) -> str | None:
        """Take the channel's lease under a new token, trying again a few times while
        another worker holds it and posts wait; None if it is not taken (the holder
        delivers the posts; the periodic pass tries again)."""
        token = self.leases.token()
        wait = LEASE_RETRY
        for _ in range(LEASE_TRIES):
            try:
                if await self.leases.take(channel, token):
                    return token
                waiting = await self.service.pending_posts(channel)
            except Exception as exc:  # the store: the posts stay for the next pass
                log.warning("channel %s: could not take its lease: %s", channel, exc)
                self._settle(st, Delivery(Outcome.PENDING, st.url))
                return None
            if not waiting:  # the holder delivered them
                self._settle(st, Delivery(Outcome.POSTED, st.url))
                return None
            await self._pause(st, wait)
            wait *= 2
        log.info("channel %s: another process delivers its posts", channel)
        self._settle(st, Delivery(Outcome.PENDING, st.url))
        self._later(channel, st, self.service.clock() + LEASE_SECONDS)  # if it died
        return None

    def _busy(self) -> bool:
        """Whether any worker runs (the leases are renewed while one does)."""
        return any(st.task is not None and not st.task.done()
                   for st in self._channels.values())

    # ------------------------------------------------------------------ the worker
    async def _work(self, channel: int, st: Channel) -> None:
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
                    if self._channels.get(channel) is st:
                        del self._channels[channel]  # memory follows the busy channels only
                    return
                held = await self._held(channel, st)
                if held is not None:
                    if held.outcome is Outcome.GONE:  # nothing can be posted there again
                        await self.service.posts_sent([p.id for p in pending])
                    self._settle(st, held)
                    return
                renames, due = sendable(self.renames, channel, pending, self.service.clock())
                if all(p.id in renames for p in pending):  # only renames Discord holds back
                    self._later(channel, st, due)
                    self._settle(st, st.last if st.last.outcome is Outcome.POSTED
                                 else Delivery(Outcome.POSTED, st.url))
                    return
                first = next(p for p in pending if p.id not in renames)
                step = DeliveryStep((first,), "text", nonce(first.id))
                minimal = False
                try:  # the words too: a post whose words raise is a failure like a send's
                    step = plan(pending, await self._sizes(channel, st, pending), renames)
                    minimal = self._minimal(step)
                    async with self._sending:
                        delivered = await self.sender.send(channel, st, step, minimal=minimal)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    tries += 1
                    wait = await self._on_failure(channel, st, step, exc, tries, minimal)
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

    async def _sizes(self, channel: int, st: Channel,
                     pending: Sequence[Pending]) -> dict[int, int]:
        """How long each waiting post reads as text (only when several wait). A post whose
        words raise (a bug of ours) raises ``_Unworded`` the first time, so it is tried
        alone from then on; a retried catch-up's is only counted, not told."""
        if len(pending) < 2:
            return {}
        where = ChannelTarget(self.client, st.guild, channel)
        language = await channel_language(self.service, where)
        tr = i18n.translations(language)
        sizes: dict[int, int] = {}
        for p in pending:
            try:
                sizes[p.id] = len("\n".join(self.composer.told(tr, p.post, language)))
            except Exception as exc:
                if not p.attempts and p.batch is None:
                    raise _Unworded(p) from exc
                sizes[p.id] = MAX_CONTENT + 1 if p.batch is not None else 0
        return sizes

    @staticmethod
    def _minimal(step: DeliveryStep) -> bool:
        """A lone post tried alone as often as a bug of ours may be: its minimal post now."""
        return (len(step.posts) == 1 and step.form in ("full", "text")
                and step.posts[0].attempts >= REPLACED)

    @staticmethod
    def _settle(st: Channel, delivery: Delivery) -> None:
        st.last = delivery
        st.settled.set()

    async def _held(self, channel: int, st: Channel) -> Delivery | None:
        """Why the channel's posts must wait now (a gone place, a permission's wait)."""
        place = await self.service.place(channel)
        if place is None:
            return None
        if place.gone:
            return Delivery(Outcome.GONE)
        if place.blocked_until is not None and place.blocked_until > self.service.clock():
            return Delivery(Outcome.BLOCKED, st.url, place.permission)
        return None

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

    # ------------------------------------------------------------------ failures
    async def _on_failure(self, channel: int, st: Channel, step: DeliveryStep, exc: Exception,
                          turns: int, minimal: bool) -> float | None:
        """``_failed`` for the post that failed (one whose words raise: that one alone);
        the store failing as the failure is recorded is not a bug either: try later."""
        if isinstance(exc, _Unworded):
            step = DeliveryStep((exc.pending,), "text", nonce(exc.pending.id))
            exc = exc.__cause__ if isinstance(exc.__cause__, Exception) else exc
        try:
            return await self._failed(channel, st, step, exc, turns, minimal)
        except (StorageError, StorageFailed) as again:
            log.warning("channel %s: the store failed recording a failed post (%s); it is "
                        "tried again", channel, getattr(again, "code", again))
            return self._backoff(turns)

    async def _failed(self, channel: int, st: Channel, step: DeliveryStep, exc: Exception,
                      turns: int, minimal: bool) -> float | None:
        """What to do after a failed send: the seconds to wait before the next try, or None
        when the worker stops (the place refuses). ``turns``: this worker's failures in a
        row (a storage error's, an archived thread's); a post's own tries are its stored
        ``attempts``, so one post's never count for the next, and a restart keeps them."""
        ids = [p.id for p in step.posts]
        tries = max(p.attempts for p in step.posts) % REPLACED + 1  # a replaced one's anew
        fault = classify(exc)
        if fault is None and isinstance(exc, StorageError | StorageFailed):
            log.warning("channel %s: the store failed while delivering post(s) %s (%s; it is "
                        "kept and tried again)", channel, ids, getattr(exc, "code", exc))
            return self._backoff(turns)
        if fault is None or fault.kind is FaultKind.REFUSED:
            return await self._refused(channel, step, exc, tries, minimal, fault is not None)
        if fault.kind is FaultKind.GONE:
            log_fault(fault, "posting", channel)
            await self.service.place_gone(channel, st.guild)
            self._settle(st, Delivery(Outcome.GONE))
            return None
        if fault.kind is FaultKind.BLOCKED:
            permission = fault.permission or lacking(self.client, channel)
            place = await self.service.place_blocked(channel, st.guild, permission)
            first = place.backoff <= 60.0
            log_fault(fault, f"posting (the bot lacks {permission}; its posts wait "
                      f"{place.backoff:g} s)", channel,
                      level=logging.WARNING if first else logging.INFO)
            self._settle(st, Delivery(Outcome.BLOCKED, st.url, permission))
            return None
        if fault.kind is FaultKind.ARCHIVED and turns <= 2:
            await self.sender.unarchive(channel)
            return 0.0
        log_fault(fault, f"posting (try {tries}; it is kept and tried again)", channel,
                  level=logging.WARNING if tries == 1 else logging.INFO)
        await self.service.post_failed(ids, batch=step.batch)
        # Discord down: the wait doubles with this worker's failures in a row, not the post's
        # stored tries, so a new start (or a new worker) tries again within a second or two
        # of Discord answering again, however often the post failed before.
        return self._backoff(turns)

    async def _refused(self, channel: int, step: DeliveryStep, exc: Exception, tries: int,
                       minimal: bool, by_discord: bool) -> float:
        """A bug of ours, or a request Discord will never take as it is (a 4xx): never
        another post's loss. A catch-up's posts go again one by one; a lone post is tried
        alone a few times (Discord's refusal: not again), then replaced by its minimal post
        so the game moves, which is given up only if it fails as well; its traceback is
        logged once, when it is replaced or given up."""
        what = ", ".join(f"#{p.id} {p.post.kind}" for p in step.posts)
        if len(step.posts) > 1:
            log.warning("channel %s: a catch-up of posts %s failed (%s: %s); they go again "
                        "one by one", channel, what, type(exc).__name__, exc)
            await self.service.post_failed([p.id for p in step.posts])
            return 0.0
        pending = step.posts[0]
        whole = step.form in ("full", "text") and not minimal
        if not whole and (by_discord or tries >= MAX_BUG_TRIES):
            log.error("channel %s: gave up outbox post %s after %d tries", channel, what,
                      tries, exc_info=exc)
            await self.service.posts_sent([pending.id], channel=channel,
                                          owed=[*pending.owed, *pending.post.mention])
            return 0.0
        if whole and (by_discord or tries >= MAX_BUG_TRIES):
            log.error("channel %s: outbox post %s cannot be sent (try %d); its minimal post "
                      "replaces it", channel, what, tries, exc_info=exc)
            await self.service.post_failed([pending.id], at_least=REPLACED)
            return 0.0
        log.warning("channel %s: outbox post %s failed (try %d; it is tried again alone): "
                    "%s: %s", channel, what, tries, type(exc).__name__, exc)
        await self.service.post_failed([pending.id])
        return self._backoff(tries)

    def _backoff(self, tries: int) -> float:
        return backoff(tries, self.retry_first, self.retry_max)


def backoff(tries: int, first: float, cap: float) -> float:
    """The wait before try ``tries + 1``: ``first`` doubling, spread ±20 % so channels that
    failed together do not retry together, and never above ``cap``."""
    return min(cap, min(cap / 1.2, first * 2.0 ** (tries - 1)) * random.uniform(0.8, 1.2))
