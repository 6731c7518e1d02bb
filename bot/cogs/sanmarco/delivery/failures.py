"""What a channel's worker does after a step failed (docs/OUTBOX.md, "When Discord refuses"):
wait and try again, hold the channel, or try the post alone, then replace it by its minimal
post, then give it up, so a post that cannot be sent never takes another with it.

A post's tries are its stored ``outbox.attempts`` (one post's never count for the next, and
a restart keeps them), read as ``Tries``: the stage it is at (``Stage.WHOLE``, then
``Stage.MINIMAL`` once it was replaced) and its tries at that stage. A worker's own failures
in a row (``turns``: Discord down, the store failing) time its wait instead, so a new worker
tries again within a second of Discord answering again.
"""

from __future__ import annotations

import enum
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot import i18n
from bot.cogs.sanmarco.delivery.compose import Composer
from bot.cogs.sanmarco.delivery.plan import DeliveryStep, nonce
from bot.cogs.sanmarco.delivery.sending import Sender
from bot.cogs.sanmarco.shared.faults import FaultKind, classify, lacking, log_fault
from bot.cogs.sanmarco.shared.saved import Outcome
from bot.service import GameService
from bot.service.errors import StorageFailed
from bot.service.posts import Pending
from bot.store import StorageError
from bot.text.markup import MAX_CONTENT

log = logging.getLogger(__name__)

# A post that fails for a bug of ours is tried whole until it has failed this many times,
# then replaced by its minimal post (the Now line, buttons, pings), which is given up after
# as many more.
MAX_BUG_TRIES = 3
# How the store keeps a replaced post: its ``attempts`` start again at this (a replaced post
# survives a restart as replaced). Read and written only through ``Tries``.
_REPLACED_AT = 1000


class Stage(enum.Enum):
    """How a lone post that failed is sent now."""

    WHOLE = "whole"  # as it is
    MINIMAL = "minimal"  # replaced by its minimal post (the Now line, its buttons, pings)


@dataclass(frozen=True)
class Tries:
    """A post's failed tries, from its stored ``attempts``: its stage and the tries at it."""

    stage: Stage
    count: int

    @classmethod
    def of(cls, attempts: int) -> Tries:
        if attempts >= _REPLACED_AT:
            return cls(Stage.MINIMAL, attempts - _REPLACED_AT)
        return cls(Stage.WHOLE, attempts)

    @classmethod
    def of_step(cls, step: DeliveryStep) -> Tries:
        """The step's most tried post's (a catch-up's posts were each tried whole)."""
        return max((cls.of(p.attempts) for p in step.posts),
                   key=lambda t: (t.stage is Stage.MINIMAL, t.count))


def stage(step: DeliveryStep) -> Stage:
    """How the step is sent: a lone post tried whole as often as a bug of ours may be goes as
    its minimal post."""
    if len(step.posts) == 1 and step.form in ("full", "text"):
        return Tries.of(step.posts[0].attempts).stage
    return Stage.WHOLE


class Unworded(Exception):
    """A waiting post whose words raise (a bug of ours): it is tried alone from now on."""

    def __init__(self, pending: Pending) -> None:
        super().__init__(f"outbox post {pending.id} has no words")
        self.pending = pending


def told_sizes(composer: Composer, language: str,
               pending: Sequence[Pending]) -> dict[int, int]:
    """How long each waiting post reads as text (``delivery.plan`` folds them). A post whose
    words raise (a bug of ours) raises ``Unworded`` the first time, so it is tried alone
    from then on; a retried catch-up's is only counted, not told."""
    tr = i18n.translations(language)
    sizes: dict[int, int] = {}
    for p in pending:
        try:
            sizes[p.id] = len("\n".join(composer.told(tr, p.post, language)))
        except Exception as exc:
            if not p.attempts and p.batch is None:
                raise Unworded(p) from exc
            sizes[p.id] = MAX_CONTENT + 1 if p.batch is not None else 0
    return sizes


@dataclass(frozen=True)
class FailedStep:
    """A failed step and what the worker knows of it: the failure, how the step was sent,
    and the worker's failures in a row (this one included)."""

    channel: int
    guild: int
    step: DeliveryStep
    exc: Exception
    turns: int
    stage: Stage
    lease: str  # the worker's fence (``delivery.leases``)


@dataclass(frozen=True)
class Retry:
    """Try again after ``seconds`` (or as soon as a new change arrives)."""

    seconds: float


@dataclass(frozen=True)
class Hold:
    """Stop: the place refuses (``Outcome.BLOCKED`` for a missing ``permission``,
    ``Outcome.GONE``); whoever waits is told so."""

    outcome: Outcome
    permission: str | None = None


class Failures:
    """Decides what follows a failed step (see the module docstring)."""

    def __init__(self, client: discord.Client, service: GameService, sender: Sender,
                 retry_first: float, retry_max: float) -> None:
        self.client = client
        self.service = service
        self.sender = sender
        self.retry_first = retry_first
        self.retry_max = retry_max

    async def after(self, failed: FailedStep) -> Retry | Hold:
        """What follows ``failed`` (one whose words raise: that post alone); the store
        failing as the failure is recorded is not a bug either: try later."""
        exc = failed.exc
        if isinstance(exc, Unworded):
            post = exc.pending
            cause = exc.__cause__ if isinstance(exc.__cause__, Exception) else exc
            failed = FailedStep(failed.channel, failed.guild,
                            DeliveryStep((post,), "text", nonce(post.id)), cause,
                            failed.turns, failed.stage, failed.lease)
        try:
            return await self._failed(failed)
        except (StorageError, StorageFailed) as again:
            log.warning("channel %s: the store failed recording a failed post (%s); it is "
                        "tried again", failed.channel, getattr(again, "code", again))
            return self.retry(failed.turns)

    async def refused(self, channel: int) -> Hold | None:
        """Whether the channel's posts must wait now (a gone place, a permission's wait)."""
        place = await self.service.place(channel)
        if place is None:
            return None
        if place.gone:
            return Hold(Outcome.GONE)
        if place.blocked_until is not None and place.blocked_until > self.service.clock():
            return Hold(Outcome.BLOCKED, place.permission)
        return None

    def retry(self, turns: int) -> Retry:
        return Retry(backoff(turns, self.retry_first, self.retry_max))

    async def _failed(self, failed: FailedStep) -> Retry | Hold:
        channel, step, exc, turns = failed.channel, failed.step, failed.exc, failed.turns
        ids = [p.id for p in step.posts]
        tries = Tries.of_step(step).count + 1  # a replaced one's anew
        fault = classify(exc)
        if fault is None and isinstance(exc, StorageError | StorageFailed):
            log.warning("channel %s: the store failed while delivering post(s) %s (%s; it is "
                        "kept and tried again)", channel, ids, getattr(exc, "code", exc))
            return self.retry(turns)
        if fault is None or fault.kind is FaultKind.REFUSED:
            return await self._refused(failed, tries, by_discord=fault is not None)
        if fault.kind is FaultKind.GONE:
            log_fault(fault, "posting", channel)
            await self.service.place_gone(channel, failed.guild)
            return Hold(Outcome.GONE)
        if fault.kind is FaultKind.BLOCKED:
            permission = fault.permission or lacking(self.client, channel)
            place = await self.service.place_blocked(channel, failed.guild, permission)
            first = place.backoff <= 60.0
            log_fault(fault, f"posting (the bot lacks {permission}; its posts wait "
                      f"{place.backoff:g} s)", channel,
                      level=logging.WARNING if first else logging.INFO)
            return Hold(Outcome.BLOCKED, permission)
        if fault.kind is FaultKind.ARCHIVED and turns <= 2:
            await self.sender.unarchive(channel)
            return Retry(0.0)
        log_fault(fault, f"posting (try {tries}; it is kept and tried again)", channel,
                  level=logging.WARNING if tries == 1 else logging.INFO)
        await self.service.post_failed(ids, batch=step.batch)
        # Discord down: the wait doubles with this worker's failures in a row, not the post's
        # stored tries, so a new start (or a new worker) tries again within a second or two
        # of Discord answering again, however often the post failed before.
        return self.retry(turns)

    async def _refused(self, failed: FailedStep, tries: int, *, by_discord: bool) -> Retry:
        """A bug of ours, or a request Discord will never take as it is (a 4xx): never
        another post's loss. A catch-up's posts go again one by one; a lone post is tried
        alone a few times (Discord's refusal: not again), then replaced by its minimal post
        so the game moves, which is given up only if it fails as well; its traceback is
        logged once, when it is replaced or given up."""
        channel, step, exc = failed.channel, failed.step, failed.exc
        what = ", ".join(f"#{p.id} {p.post.kind}" for p in step.posts)
        if len(step.posts) > 1:
            log.warning("channel %s: a catch-up of posts %s failed (%s: %s); they go again "
                        "one by one", channel, what, type(exc).__name__, exc)
            await self.service.post_failed([p.id for p in step.posts])
            return Retry(0.0)
        pending = step.posts[0]
        whole = step.form in ("full", "text") and failed.stage is Stage.WHOLE
        last = by_discord or tries >= MAX_BUG_TRIES
        if not whole and last:
            log.error("channel %s: gave up outbox post %s after %d tries", channel, what,
                      tries, exc_info=exc)
            await self.service.posts_sent([pending.id], channel=channel,
                                          owed=[*pending.owed, *pending.post.mention],
                                          lease=failed.lease)
            return Retry(0.0)
        if whole and last:
            log.error("channel %s: outbox post %s cannot be sent (try %d); its minimal post "
                      "replaces it", channel, what, tries, exc_info=exc)
            await self.service.post_failed([pending.id], at_least=_REPLACED_AT)
            return Retry(0.0)
        log.warning("channel %s: outbox post %s failed (try %d; it is tried again alone): "
                    "%s: %s", channel, what, tries, type(exc).__name__, exc)
        await self.service.post_failed([pending.id])
        return self.retry(tries)


def backoff(tries: int, first: float, cap: float) -> float:
    """The wait before try ``tries + 1``: ``first`` doubling, spread ±20 % so channels that
    failed together do not retry together, and never above ``cap``."""
    return min(cap, min(cap / 1.2, first * 2.0 ** (tries - 1)) * random.uniform(0.8, 1.2))
