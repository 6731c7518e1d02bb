"""A game's thread kept in step with its game: the outbox's THREAD posts rename it after its
seats, and archive it (locked too, where the bot has Manage Threads) once the game ended, so
a finished game's thread no longer counts against Discord's 1,000 active threads a server.

Discord allows two renames of a channel per ten minutes (a third is answered 429 with a
wait of up to ten minutes): ``Renames`` counts the renames per thread, stored (table
``thread_renames``) so a restarted bot or another process knows them too, and a rename that
would be a third waits (``held``) while the channel's posts go on; a rename a
later change of the thread makes moot is never made (``delivery.plan.superseded``), and one
held back never goes before the posts behind it (``delivery.plan.plan``). A game that ends while
its rename is held is archived under the name it has (renaming it would be the third
rename). A rename Discord refuses all the same (a moderator's renames) is not slept on:
the client raises ``discord.RateLimited`` with Discord's ``retry_after`` at once
(``max_ratelimit_timeout``), and the rename waits that long, the posts going on. A rename or an
archive Discord refuses for a missing permission is given up (logged once): a thread's
name is no reason to hold a game's posts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cogs.sanmarco.delivery.compose import Composer
from bot.cogs.sanmarco.delivery.plan import superseded
from bot.cogs.sanmarco.shared.faults import FaultKind, classify, log_fault
from bot.service.posts import Pending, Post, PostKind

log = logging.getLogger(__name__)

RENAMES = 2  # Discord's renames of one channel per window
RENAME_WINDOW = 600.0  # seconds
RENAME_WAIT = 5.0  # a rename discord.py is slow on (a short 429 it sleeps on) waits


@dataclass
class Renames:
    """The renames made per thread (this process's, and the stored ones: ``recall``), to
    keep within Discord's limit."""

    made: dict[int, list[float]] = field(default_factory=dict)

    def due(self, thread: int, now: float) -> float | None:
        """When the thread may be renamed again (None: now)."""
        recent = [t for t in self.made.get(thread, ()) if t > now - RENAME_WINDOW]
        self.made[thread] = recent
        if len(recent) < RENAMES:
            return None
        return min(recent) + RENAME_WINDOW

    def renamed(self, thread: int, now: float) -> None:
        self.made.setdefault(thread, []).append(now)

    def spent(self, thread: int, now: float, retry_after: float = RENAME_WINDOW) -> None:
        """Discord refused a rename: none until ``retry_after`` seconds from now."""
        self.made[thread] = [now + min(retry_after, RENAME_WINDOW) - RENAME_WINDOW] * RENAMES

    def recall(self, thread: int, stored: Sequence[float]) -> None:
        """The renames the store knows (another process's, a run before this one's)."""
        mine = self.made.get(thread, [])
        both = [*stored, *(t for i, t in enumerate(mine)  # two renames may share an instant
                           if mine[:i + 1].count(t) > list(stored).count(t))]
        self.made[thread] = sorted(both)[-RENAMES:]

    def latest(self, thread: int) -> list[float]:
        """What to store of the thread's renames (Discord's limit needs the last two)."""
        return sorted(self.made.get(thread, ()))[-RENAMES:]

    def forget(self, thread: int) -> None:
        self.made.pop(thread, None)


def sendable(renames: Renames, channel: int, pending: Sequence[Pending],
             now: float) -> tuple[frozenset[int], float | None]:
    """The renames Discord's limit holds back now (``delivery.plan.plan`` sends the posts around
    them), and when they become due (None: none is held). A rename a later change of the
    thread makes moot is not held: the plan skips it, judged against every waiting post."""
    due = renames.due(channel, now)
    if due is None:
        return frozenset(), None
    held = frozenset(p.id for i, p in enumerate(pending)
                     if p.post.kind is PostKind.THREAD and not p.post.archive
                     and not superseded(p, pending[i + 1:]))
    return held, due if held else None


class ThreadSteps:
    """Applies THREAD posts to their threads."""

    def __init__(self, client: discord.Client, composer: Composer, renames: Renames) -> None:
        self.client = client
        self.composer = composer
        self.renames = renames

    async def _thread(self, channel: int) -> discord.Thread | None:
        cached = self.client.get_channel(channel)
        if isinstance(cached, discord.Thread):
            return cached
        fetched = await self.client.fetch_channel(channel)
        return fetched if isinstance(fetched, discord.Thread) else None

    async def apply(self, post: Post, language: str, now: float) -> bool:
        """Rename the post's thread after its seats, and archive it if the game ended;
        False when Discord held the rename back (the post waits for the next window).
        Raises what Discord answered otherwise (the deliverer's ``_failed`` reads it)."""
        thread = await self._thread(post.channel_id)
        if thread is None:  # not a thread (any more): nothing to keep in step
            return True
        service = self.composer.service
        self.renames.recall(thread.id, await service.thread_renames(thread.id))
        changes: dict[str, Any] = {}
        name = self.composer.thread_name(post, language)
        if post.archive and self.renames.due(thread.id, now) is not None:
            name = thread.name  # Discord would hold the rename back: archived as it is named
        if post.practice:
            name = thread.name  # a practice thread keeps the learner's name ("Practice — ann")
        if name != thread.name and not (post.archive and thread.archived):
            changes["name"] = name
            if thread.archived:
                changes["archived"] = False  # Discord renames an open thread only
        if post.archive:
            if not thread.archived:
                changes["archived"] = True
            me = thread.guild.me
            if not thread.locked and me is not None \
                    and thread.permissions_for(me).manage_threads:
                changes["locked"] = True  # nobody posts in a finished game's thread
                changes["archived"] = True
        if not changes:
            return True
        if "name" in changes and self.renames.due(thread.id, now) is not None:
            return False  # the stored renames close Discord's window: the rename waits
        try:
            await asyncio.wait_for(thread.edit(**changes), RENAME_WAIT)
        except (TimeoutError, discord.RateLimited) as exc:  # a third rename: it waits
            wait = exc.retry_after if isinstance(exc, discord.RateLimited) else RENAME_WINDOW
            self.renames.spent(thread.id, now, wait)
            await service.set_thread_renames(thread.id, self.renames.latest(thread.id))
            log.info("thread %s: Discord holds its rename back for %.0f s; it waits",
                     thread.id, wait)
            return False
        except discord.Forbidden as exc:
            fault = classify(exc)
            if fault is None or fault.kind is not FaultKind.BLOCKED:
                raise
            if changes.pop("locked", None):  # archived, if not locked
                return await self._edit_or_give_up(thread, changes, now)
            log_fault(fault, "renaming or archiving a game's thread (given up)", thread.id)
            return True
        await self._done(thread.id, "name" in changes, post.archive, now)
        return True

    async def _done(self, thread: int, renamed: bool, archived: bool, now: float) -> None:
        """Remember a rename (stored: a restart keeps Discord's window); an archived
        thread's are forgotten."""
        if renamed:
            self.renames.renamed(thread, now)
        if archived:
            self.renames.forget(thread)
        if renamed or archived:
            await self.composer.service.set_thread_renames(thread, self.renames.latest(thread))

    async def _edit_or_give_up(self, thread: discord.Thread, changes: dict[str, Any],
                               now: float) -> bool:
        try:
            await asyncio.wait_for(thread.edit(**changes), RENAME_WAIT)
        except (TimeoutError, discord.RateLimited) as exc:
            wait = exc.retry_after if isinstance(exc, discord.RateLimited) else RENAME_WINDOW
            self.renames.spent(thread.id, now, wait)
            await self.composer.service.set_thread_renames(thread.id,
                                                           self.renames.latest(thread.id))
            return False
        except discord.Forbidden as exc:
            fault = classify(exc)
            if fault is None:
                raise
            log_fault(fault, "archiving a game's thread (given up)", thread.id)
            return True
        await self._done(thread.id, "name" in changes, bool(changes.get("archived")), now)
        return True
