"""Guilds, channels and threads as the fake Discord holds them, and what the bot may do in
each: permissions an admin takes away (``deny``), channels deleted (``delete_channel``),
threads Discord archives (``archive``) and the bot unarchives (``PATCH /channels/{id}``).

A thread is a channel to Discord (type 11, or 12 for a private thread: only its members see
it, the bot adds one with ``PUT /channels/{id}/thread-members/{user}``) with a ``parent_id``
and ``thread_metadata``;
GUILD_CREATE lists the active ones under ``threads``; a post into an archived thread is
refused (50083) until the thread is unarchived, which a locked thread allows only to a bot
with Manage Threads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .faults import error as discord_error
from .messages import ALL_PERMISSIONS, BOT_PERMISSIONS, MEMBER_PERMISSIONS

GUILD_TEXT, PUBLIC_THREAD, PRIVATE_THREAD = 0, 11, 12
WEEK_MINUTES = 10080  # the longest auto-archive duration Discord offers


@dataclass
class FakeThread:
    id: int
    parent_id: int
    name: str
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = WEEK_MINUTES
    private: bool = False  # type 12: only its members see it and may use it
    invitable: bool = True  # a private thread's members may add others
    members: set[int] = field(default_factory=set)  # a private thread's, the bot's aside

    @property
    def type(self) -> int:
        return PRIVATE_THREAD if self.private else PUBLIC_THREAD

    def metadata(self) -> dict[str, Any]:
        return {"archived": self.archived, "locked": self.locked,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": "2024-01-01T00:00:00+00:00",
                "invitable": self.invitable if self.private else True}


class PlacesMixin:
    """Guilds, channels, threads and the bot's permissions in them."""

    # ------------------------------------------------------------------ making places
    def add_channel(self, guild_id: int | None = None) -> int:
        """Another text channel in the guild (the first one unless named; add before the bot
        connects)."""
        cid = self.new_id()
        self.channel_ids.append(cid)
        self.guild_channels[guild_id or self.guild_id].append(cid)
        return cid

    def add_guild(self, *, shard: int = 0, of: int = 1, channels: int = 1) -> int:
        """Another guild, on gateway shard ``shard`` of ``of`` (its id is chosen so), with
        ``channels`` text channels; returns its id."""
        gid = (next(self._guild_seq) * of + shard) << 22
        self.guild_channels[gid] = []
        for _ in range(channels):
            self.add_channel(gid)
        return gid

    def add_thread(self, parent: int | None = None, *, name: str = "san-marco-game",
                   archived: bool = False, locked: bool = False) -> int:
        """A thread in ``parent`` (the first channel unless named; add before the bot
        connects, or it learns of it only from an interaction in it)."""
        tid = self.new_id()
        self.threads[tid] = FakeThread(tid, parent or self.channel_id, name, archived, locked)
        self.channel_ids.append(tid)
        return tid

    def guild_of(self, channel_id: int) -> int:
        thread = self.threads.get(channel_id)
        if thread is not None:
            channel_id = thread.parent_id
        return next((g for g, chs in self.guild_channels.items() if channel_id in chs),
                    self.guild_id)

    @staticmethod
    def on_shard(guild_id: int, shard: tuple[int, int] | None) -> bool:
        """Whether a connection identified with ``shard`` ([id, count]) receives the guild."""
        return shard is None or (guild_id >> 22) % shard[1] == shard[0]

    # ------------------------------------------------------------------ what the bot may do
    def deny(self, channel_id: int, *permissions: str) -> None:
        """Take permissions (``BOT_PERMISSIONS`` names) from the bot in a channel, as an
        admin would: Discord then refuses its posts there with 403 — Missing Access
        (50001) without View Channel, else Missing Permissions (50013) — and interactions
        carry the reduced ``app_permissions``. ``announce`` tells a connected bot."""
        for name in permissions:
            self.denied[channel_id] = self.denied.get(channel_id, 0) | BOT_PERMISSIONS[name]

    def allow(self, channel_id: int, *permissions: str) -> None:
        """Give permissions back (all of them unless named)."""
        bits = sum(BOT_PERMISSIONS[n] for n in permissions) if permissions else ~0
        self.denied[channel_id] = self.denied.get(channel_id, 0) & ~bits

    def hide(self, channel_id: int, hidden: bool = True) -> None:
        """Make a channel private, as an admin does: an @everyone overwrite denying View
        Channel (``hidden`` False: remove it). ``announce`` tells a connected bot."""
        if hidden:
            self.hidden.add(channel_id)
        else:
            self.hidden.discard(channel_id)

    def app_permissions(self, channel_id: int) -> int:
        return ALL_PERMISSIONS & ~self.thread_denied(channel_id)

    def _refuses_post(self, channel_id: int, files: bool, *, webhook: bool) -> bool:
        """Whether Discord refuses the bot's public post here: a channel message needs View
        Channel and Send Messages (in a thread: Send Messages in Threads, in its channel),
        and a file needs Attach Files (a follow-up too)."""
        denied = self.thread_denied(channel_id)
        needed = BOT_PERMISSIONS["attach_files"] if files else 0
        if not webhook:
            send = ("send_messages_in_threads" if channel_id in self.threads
                    else "send_messages")
            needed |= BOT_PERMISSIONS["view_channel"] | BOT_PERMISSIONS[send]
        return bool(denied & needed)

    async def announce(self, channel_id: int) -> None:
        """CHANNEL_UPDATE (THREAD_UPDATE for a thread) as Discord sends it after an admin
        changed the channel: the bot's cache then knows its permissions there."""
        event = "THREAD_UPDATE" if channel_id in self.threads else "CHANNEL_UPDATE"
        await self.dispatch(event, self._channel_object(channel_id))

    async def delete_channel(self, channel_id: int, *, tell: bool = True) -> None:
        """The channel is deleted: everything in it answers 10003 Unknown Channel; a
        connected bot hears CHANNEL_DELETE (unless ``tell`` is False: it missed it)."""
        payload = self._channel_object(channel_id)
        self.deleted_channels.add(channel_id)
        if tell and self.sessions_for(self.guild_of(channel_id)):
            event = "THREAD_DELETE" if channel_id in self.threads else "CHANNEL_DELETE"
            await self.dispatch(event, payload)

    async def archive(self, thread_id: int, *, locked: bool = False) -> None:
        """Discord archives the thread (its auto-archive time passed; ``locked``: a
        moderator locked it too); a connected bot hears THREAD_UPDATE."""
        thread = self.threads[thread_id]
        thread.archived, thread.locked = True, locked
        if self.sessions_for(self.guild_of(thread_id)):
            await self.dispatch("THREAD_UPDATE", self._channel_object(thread_id))

    def is_archived(self, channel_id: int) -> bool:
        thread = self.threads.get(channel_id)
        return thread is not None and thread.archived

    # ------------------------------------------------------------------ payloads
    def _channel_object(self, cid: int) -> dict[str, Any]:
        """A channel (or thread) as Discord describes it."""
        gid = self.guild_of(cid)
        thread = self.threads.get(cid)
        if thread is not None:
            return {"id": str(cid), "type": thread.type, "guild_id": str(gid),
                    "parent_id": str(thread.parent_id), "name": thread.name,
                    "owner_id": str(self.app_id), "thread_metadata": thread.metadata(),
                    "message_count": 0, "member_count": 1, "rate_limit_per_user": 0,
                    "flags": 0, "total_message_sent": 0}
        chans = self.guild_channels.get(gid, [])
        i = chans.index(cid) if cid in chans else 0
        denied = self.denied.get(cid, 0)
        overwrites = [{"id": str(self.app_id), "type": 1, "allow": "0", "deny": str(denied)}
                      ] if denied else []
        if cid in self.hidden:  # the @everyone role's overwrite (its id is the guild's)
            overwrites.insert(0, {"id": str(gid), "type": 0, "allow": "0",
                                  "deny": str(BOT_PERMISSIONS["view_channel"])})
        return {"id": str(cid), "type": GUILD_TEXT, "name": "san-marco" if i == 0
                else f"channel-{i}", "position": i, "permission_overwrites": overwrites,
                "guild_id": str(gid), "nsfw": False, "topic": None, "parent_id": None,
                "rate_limit_per_user": 0}

    def _guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        gid = guild_id or self.guild_id
        everyone = {"id": str(gid), "name": "@everyone", "permissions":
                    str(MEMBER_PERMISSIONS), "position": 0, "color": 0, "hoist": False,
                    "managed": False, "mentionable": False, "flags": 0}
        bot_role = self.bot_role(gid)
        channels = [self._channel_object(cid) for cid in self.guild_channels[gid]
                    if cid not in self.deleted_channels]
        threads = [self._channel_object(t.id) for t in self.threads.values()
                   if self.guild_of(t.id) == gid and not t.archived
                   and t.id not in self.deleted_channels]
        me = {"user": self.bot_user, "roles": [bot_role["id"]], "flags": 0, "nick": None,
              "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False}
        return {
            "id": str(gid), "name": "Venice", "icon": None, "owner_id": "1",
            "roles": [everyone, bot_role], "channels": channels, "threads": threads, "emojis": [],
            "stickers": [], "features": [], "members": [me] + [u.member() for u in
                                                                self.users.values()],
            "member_count": 1 + len(self.users), "large": False, "unavailable": False,
            "voice_states": [], "presences": [], "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "premium_tier": 0, "system_channel_flags": 0, "preferred_locale": self.guild_locale,
            "afk_timeout": 300, "nsfw_level": 0, "joined_at": "2024-01-01T00:00:00+00:00",
        }

    # ------------------------------------------------------------------ the channel route
    def _channel(self, method: str, cid: int, body: dict[str, Any]
                 ) -> tuple[int, Any] | tuple[int, Any, dict[str, str]] | None:
        """``GET /channels/{id}``; ``PATCH`` of a thread's ``name`` (two renames per ten
        minutes), ``archived`` and ``locked`` (locking, or unarchiving a locked thread,
        needs Manage Threads)."""
        if method == "GET":
            return 200, self._channel_object(cid)
        thread = self.threads.get(cid)
        if method != "PATCH" or thread is None:
            return None
        manage = not self.thread_denied(cid) & BOT_PERMISSIONS["manage_threads"]
        if "locked" in body and not manage:
            return discord_error(50013)
        if body.get("archived") is False and thread.locked and not manage:
            return discord_error(50013)
        if "name" in body:
            refused = self._rename(cid, str(body["name"]))
            if refused is not None:
                return refused
        if "archived" in body:
            thread.archived = bool(body["archived"])
        if "locked" in body:
            thread.locked = bool(body["locked"])
        self._channel_updates.append(cid)  # THREAD_UPDATE follows the answer
        return 200, self._channel_object(cid)
