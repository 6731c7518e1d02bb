"""Threads as Discord makes and keeps them: ``POST /channels/{id}/threads`` (a thread without
a starter message, THREAD_CREATE to the gateway: public with ``type`` 11; private when
``type`` is 12 *or left out* — API v10's default — which takes Create Private Threads, and
only the thread's members see it: the bot adds one with ``PUT
/channels/{id}/thread-members/{user}``, 204, refused in an archived thread (50083) or for
someone who is not in the server (10007); a user who is not a member cannot use anything in
it, so a test's click there fails), Discord's limit of 1,000 active
threads per server (160006; ``thread_limit`` lowers it for a test), the permissions a thread
needs (Create Public Threads in its text channel; posting in it takes Send Messages in
Threads, not Send Messages), and the limit of two renames of a channel per ten minutes (a
third is answered 429 with the wait and kept in ``rename_refusals``).

The bot's cached permissions come from its role (``bot_permissions``: what the README's
invite link grants; a test adds Manage Threads to let the bot lock threads).
"""

from __future__ import annotations

from typing import Any

from .faults import error as discord_error
from .faults import rate_limited
from .messages import BOT_PERMISSIONS, MEMBER_PERMISSIONS
from .places import PRIVATE_THREAD, PUBLIC_THREAD, FakeThread

GUILD_THREADS = 1000  # Discord's active threads per server
RENAMES, RENAME_WINDOW = 2, 600.0  # Discord's renames of one channel per ten minutes
# What the README's invite link grants the bot (its role in every server).
INVITE_PERMISSIONS = MEMBER_PERMISSIONS | sum(BOT_PERMISSIONS[n] for n in (
    "view_channel", "send_messages", "embed_links", "attach_files", "read_message_history",
    "create_public_threads", "create_private_threads", "send_messages_in_threads"))
ERRORS = {160006: (400, "Maximum number of active threads reached"),
          50024: (400, "Cannot execute action on this channel type")}


class ThreadsMixin:
    """Making threads, their names and what the bot may do in them."""

    def _init_threads(self) -> None:
        self.thread_limit = GUILD_THREADS
        self.bot_permissions = INVITE_PERMISSIONS
        self.made_threads: list[dict[str, Any]] = []  # every POST .../threads body taken
        self.thread_member_adds: list[tuple[int, int]] = []  # (thread, user) the bot added
        self.renames: dict[int, list[float]] = {}  # thread -> when it was renamed (clock)
        self.rename_refusals: list[int] = []  # renames refused for Discord's limit
        self._thread_creates: list[int] = []  # threads made, their THREAD_CREATE due

    def active_threads(self, guild_id: int) -> int:
        return sum(1 for t in self.threads.values() if not t.archived
                   and t.id not in self.deleted_channels and self.guild_of(t.id) == guild_id)

    def parent_of(self, channel_id: int) -> int:
        """A thread's text channel (a channel is its own)."""
        thread = self.threads.get(channel_id)
        return thread.parent_id if thread is not None else channel_id

    def _start_thread(self, parent: int, body: dict[str, Any]) -> tuple[int, Any]:
        """``POST /channels/{parent}/threads``: a public thread with no starter message."""
        if parent in self.threads:
            status, message = ERRORS[50024]
            return status, {"message": message, "code": 50024}
        kind = int(body.get("type") or PRIVATE_THREAD)  # Discord's default (API v9, v10)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            return 400, {"message": "Invalid Form Body", "code": 50035}
        needed = "create_public_threads" if kind == PUBLIC_THREAD else "create_private_threads"
        if (self.denied.get(parent, 0) | ~self.bot_permissions) & BOT_PERMISSIONS[needed]:
            return discord_error(50013)
        if self.active_threads(self.guild_of(parent)) >= self.thread_limit:
            status, message = ERRORS[160006]
            return status, {"message": message, "code": 160006}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            return 400, {"message": "Invalid Form Body", "code": 50035}
        tid = self.new_id()
        self.threads[tid] = FakeThread(tid, parent, name, auto_archive_duration=int(
            body.get("auto_archive_duration") or 4320), private=kind == PRIVATE_THREAD,
            invitable=bool(body.get("invitable", True)))
        self.channel_ids.append(tid)
        self.made_threads.append({"id": tid, "parent": parent, **body})
        self._thread_creates.append(tid)
        return 201, {**self._channel_object(tid), "newly_created": True}

    def _add_thread_member(self, tid: int, user_id: int) -> tuple[int, Any]:
        """``PUT /channels/{thread}/thread-members/{user}``: 204; needs the thread unarchived
        and the bot able to post in it; the user must be in the server (10007)."""
        thread = self.threads.get(tid)
        if thread is None:
            status, message = ERRORS[50024]
            return status, {"message": message, "code": 50024}
        if thread.archived:
            return discord_error(50083)
        if self._refuses_post(tid, False, webhook=False):
            return discord_error(50013)
        if all(u.id != user_id for u in self.users.values()):
            return discord_error(10007)
        thread.members.add(user_id)
        self.thread_member_adds.append((tid, user_id))
        return 204, None

    def may_see(self, user_id: int, channel_id: int) -> bool:
        """Whether a user sees the channel: a private thread only its members."""
        thread = self.threads.get(channel_id)
        return thread is None or not thread.private or user_id in thread.members

    def _rename(self, tid: int, name: str) -> tuple[int, Any, dict[str, str]] | None:
        """A thread's new name, within Discord's two renames per ten minutes (else a 429
        with the wait, and the refusal kept)."""
        thread = self.threads[tid]
        if name == thread.name:
            return None
        now = self.clock.now()
        made = [t for t in self.renames.get(tid, []) if t > now - RENAME_WINDOW]
        if len(made) >= RENAMES:
            self.rename_refusals.append(tid)
            return rate_limited(min(made) + RENAME_WINDOW - now, scope="shared")
        self.renames.setdefault(tid, []).append(now)
        thread.name = name
        return None

    def thread_denied(self, channel_id: int) -> int:
        """The permission bits the bot lacks in a channel; a thread's are its channel's."""
        return self.denied.get(self.parent_of(channel_id), 0) | self.denied.get(channel_id, 0)

    async def _announce_threads(self) -> None:
        """THREAD_CREATE for the threads made: the bot's cache learns of them."""
        while self._thread_creates:
            tid = self._thread_creates.pop(0)
            if self.sessions_for(self.guild_of(tid)):
                await self.dispatch("THREAD_CREATE", {**self._channel_object(tid),
                                                      "newly_created": True})

    def bot_role(self, guild_id: int) -> dict[str, Any]:
        """The bot's role in a server: the permissions its invite granted."""
        return {"id": str(guild_id + 1), "name": "San Marco", "permissions":
                str(self.bot_permissions), "position": 1, "color": 0, "hoist": False,
                "managed": True, "mentionable": False, "flags": 0}
