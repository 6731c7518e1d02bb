"""What the fake Discord holds: users, the requests the bot made, messages and interactions,
and the store of messages (made, edited, deleted, read back by tests)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 64
LOADING = 128
ALL_PERMISSIONS = (1 << 41) - 1
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 15) | (1 << 16) | (1 << 31)  # view/send/...
MANAGE_CHANNELS = 1 << 4
# The bot's own permissions a channel may deny it (Discord's bit numbers).
BOT_PERMISSIONS = {"view_channel": 1 << 10, "send_messages": 1 << 11, "embed_links": 1 << 14,
                   "attach_files": 1 << 15, "read_message_history": 1 << 16,
                   "manage_threads": 1 << 34, "create_public_threads": 1 << 35,
                   "create_private_threads": 1 << 36, "send_messages_in_threads": 1 << 38}


@dataclass
class FakeUser:
    id: int
    name: str
    permissions: int = MEMBER_PERMISSIONS
    dms_open: bool = True  # False: Discord refuses the bot's DMs (error 50007)
    locale: str = "en-US"  # the user's Discord language (interaction.locale)
    bot: bool = False  # another bot of the server (a user option may name one)

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0",
                "global_name": self.name, "avatar": None, "bot": self.bot}

    def member(self) -> dict[str, Any]:
        return {"user": self.payload(), "roles": [], "flags": 0, "nick": None,
                "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                "permissions": str(self.permissions)}


@dataclass
class Recorded:
    """One HTTP request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: dict[str, tuple[str, bytes]]  # part name -> (filename, bytes)
    authorized: bool
    status: int = 200
    route: str = ""  # Discord's name for it, e.g. "POST /channels/{channel_id}/messages"
    channel: int | None = None  # the channel it acts on (an interaction's, for webhooks)
    code: int | None = None  # Discord's JSON error code, when it answered one


@dataclass
class FakeMessage:
    """A message as the fake holds it (channel post, interaction response or follow-up)."""

    id: int
    channel_id: int
    content: str
    flags: int
    components: list[dict[str, Any]]
    embeds: list[dict[str, Any]]
    files: list[tuple[str, bytes]]  # (filename, bytes) of attachments
    interaction_id: int | None = None  # set for interaction responses and follow-ups
    # Each attachment's description (its alt text), in the order of ``files``; None for an
    # attachment the bot sent without one.
    descriptions: list[str | None] = field(default_factory=list)
    nonce: str | None = None
    edits: int = 0
    deleted: bool = False
    loading: bool = False
    allowed_mentions: dict[str, Any] | None = None  # as the bot sent it (who may be pinged)
    # Every text the message has shown (words(), once when made and after each edit): an
    # edited panel's earlier screens are read by its user too.
    versions: list[str] = field(default_factory=list)
    t_made: float = 0.0  # on the fake's clock (``FakeDiscord.clock``)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def pinged(self) -> set[int]:
        """The users this message may ping (its mentions Discord lets through)."""
        allowed = self.allowed_mentions or {}
        if "users" in allowed:
            return {int(u) for u in allowed["users"]}
        if "users" in allowed.get("parse", []):
            return {int(u) for u in re.findall(r"<@!?(\d+)>", self.content)}
        return set()

    def custom_ids(self) -> list[str]:
        """Every component custom_id on the message, in order."""
        out: list[str] = []
        for row in self.components:
            for comp in row.get("components", []):
                if "custom_id" in comp:
                    out.append(comp["custom_id"])
        return out

    def component(self, prefix_or_suffix: str) -> dict[str, Any]:
        """The first component whose custom_id ends with the given text or its label equals it."""
        for row in self.components:
            for comp in row.get("components", []):
                cid = comp.get("custom_id", "")
                if cid.endswith(prefix_or_suffix) or comp.get("label") == prefix_or_suffix:
                    return comp
        raise LookupError(f"no component {prefix_or_suffix!r} on message {self.id}: "
                          f"{self.custom_ids()}")

    def all_components(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]

    def text(self) -> str:
        """Content plus embed texts, for assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields", [])]
            parts.append((e.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def attachments(self) -> list[tuple[str, str | None]]:
        """Each attachment's file name and description (its alt text; None: none sent)."""
        alts = self.descriptions + [None] * (len(self.files) - len(self.descriptions))
        return [(name, alts[i]) for i, (name, _) in enumerate(self.files)]

    def words(self) -> str:
        """Everything a reader sees in words: the text, the components' labels,
        placeholders and options (labels and descriptions), and the attachments' alt text
        (what a screen reader says for a picture), one per line."""
        parts = [self.text(), *(alt or "" for _, alt in self.attachments())]
        for c in self.all_components():
            parts += [c.get("label") or "", c.get("placeholder") or ""]
            for o in c.get("options") or []:
                parts += [o.get("label") or "", o.get("description") or ""]
        return "\n".join(p for p in parts if p)


@dataclass
class InteractionRecord:
    """An interaction the fake sent, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    callback_type: int | None = None
    callback: Any = None
    messages: list[FakeMessage] = field(default_factory=list)  # in the order they were made
    choices: list[dict[str, Any]] | None = None  # autocomplete result
    updated: FakeMessage | None = None  # the clicked message, when the bot updated it
    original: FakeMessage | None = None  # what @original names: the response, or the clicked
    since_id: int = 0  # every message made for it (or after it) has a larger id
    t_sent: float = 0.0  # perf_counter when the fake dispatched it
    t_callback: float | None = None  # when the interaction callback arrived
    t_files: float | None = None  # when the first message with an attachment arrived
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    handled: asyncio.Event = field(default_factory=asyncio.Event)  # set by the harness hook
    # The bot's last request for this interaction has arrived, judged from the wire alone
    # (for a bot in another process, where the harness hook cannot reach).
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    completed: asyncio.Event = field(default_factory=asyncio.Event)
    # Discord's deadlines (3 s to answer, 15 minutes for the token) run from here: the
    # time tests moved the fake's clock on (``Clock.moved``) when the user acted.
    t_created: float = 0.0
    expired: bool = False  # the token no longer works (``FakeDiscord.expire_tokens``)

    @property
    def response(self) -> FakeMessage:
        """The message that answers the interaction (original response, else first follow-up)."""
        for m in self.messages:
            if not m.loading or m.edits:
                return m
        raise LookupError(f"interaction {self.id} has no message response "
                          f"(callback type {self.callback_type})")

    @property
    def ephemeral(self) -> bool:
        return self.response.ephemeral

    @property
    def private(self) -> list[FakeMessage]:
        """The messages only the user sees (the answer to a command, a panel, a refusal)."""
        return [m for m in self.messages if m.ephemeral and not m.deleted]


def _file_keys(files: dict[str, tuple[str, bytes]]) -> list[str]:
    return sorted(files, key=lambda k: int(k[6:-1]) if k.startswith("files[") else 0)


def files_in_order(files: dict[str, tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The attachments of a multipart request in their ``files[N]`` order."""
    return [files[k] for k in _file_keys(files)]


def descriptions_in_order(data: dict[str, Any],
                          files: dict[str, tuple[str, bytes]]) -> list[str | None]:
    """Each new attachment's description, in ``files_in_order``'s order: the payload_json's
    ``attachments`` name each part ``files[N]`` by its ``id`` N and may give it a
    ``description`` (Discord's alt text, at most 1,024 characters)."""
    said = {str(a.get("id")): a.get("description") for a in data.get("attachments") or []
            if isinstance(a, dict)}
    return [said.get(k[6:-1]) if k.startswith("files[") else None for k in _file_keys(files)]


def most_in_window(times: Iterable[float], window: float) -> int:
    """The most of ``times`` that fall within any ``window`` seconds."""
    ordered = sorted(times)
    best = start = 0
    for end, t in enumerate(ordered):
        while t - ordered[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


class MessagesMixin:
    """The messages the bot made, as the fake stores, edits and shows them."""

    messages: dict[int, FakeMessage]
    channel_id: int
    port: int
    app_id: int
    bot_user: dict[str, Any]

    def _new_message(self, data: dict[str, Any], files: dict[str, tuple[str, bytes]],
                     interaction_id: int | None, channel_id: int | None = None) -> FakeMessage:
        msg = FakeMessage(
            id=self.new_id(), channel_id=channel_id or self._interaction_channel(interaction_id),
            content=data.get("content") or "", flags=int(data.get("flags") or 0),
            components=list(data.get("components") or []), embeds=list(data.get("embeds") or []),
            files=files_in_order(files), interaction_id=interaction_id,
            descriptions=descriptions_in_order(data, files),
            allowed_mentions=data.get("allowed_mentions"), t_made=self.clock.now())
        msg.versions.append(msg.words())
        self.messages[msg.id] = msg
        return msg

    def _edit(self, msg: FakeMessage, data: dict[str, Any],
              files: dict[str, tuple[str, bytes]]) -> None:
        if "content" in data:
            msg.content = data["content"] or ""
        if "components" in data:
            msg.components = list(data["components"] or [])
        if "embeds" in data:
            msg.embeds = list(data["embeds"] or [])
        if "allowed_mentions" in data and msg.loading:  # an edit never pings; a follow-up
            msg.allowed_mentions = data["allowed_mentions"]  # replacing "thinking…" may
        if "attachments" in data or files:
            keep = {str(a.get("id")) for a in data.get("attachments") or []}
            kept = [i for i in range(len(msg.files)) if f"old{i}" in keep]
            alts = msg.descriptions + [None] * (len(msg.files) - len(msg.descriptions))
            msg.files = [msg.files[i] for i in kept] + files_in_order(files)
            msg.descriptions = [alts[i] for i in kept] + descriptions_in_order(data, files)
        msg.loading = False
        msg.flags &= ~LOADING
        msg.edits += 1
        msg.versions.append(msg.words())

    def _message_payload(self, msg: FakeMessage) -> dict[str, Any]:
        alts = msg.descriptions + [None] * (len(msg.files) - len(msg.descriptions))
        attachments = [
            {"id": f"{msg.id}{i}", "filename": name, "size": len(data),
             **({"description": alts[i]} if alts[i] is not None else {}),
             "url": f"http://127.0.0.1:{self.port}/att/{msg.id}/{i}/{name}",
             "proxy_url": f"http://127.0.0.1:{self.port}/att/{msg.id}/{i}/{name}",
             "content_type": "image/png" if name.endswith(".png") else "application/octet-stream"}
            for i, (name, data) in enumerate(msg.files)
        ]
        return {
            "id": str(msg.id), "channel_id": str(msg.channel_id),
            "guild_id": str(self.guild_of(msg.channel_id)),
            "type": 0 if msg.interaction_id is None else 20, "content": msg.content,
            "author": self.bot_user, "attachments": attachments, "embeds": msg.embeds,
            "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False,
            "tts": False, "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": "2024-01-01T00:00:01+00:00" if msg.edits else None,
            "flags": msg.flags, "components": msg.components, "nonce": msg.nonce,
            "application_id": str(self.app_id), "webhook_id": str(self.app_id)
            if msg.interaction_id else None,
        }

    # ------------------------------------------------------------------ test helpers
    def channel_messages(self, channel_id: int | None = None) -> list[FakeMessage]:
        """Everybody-visible messages in a channel (not ephemeral, not deleted), oldest first."""
        cid = channel_id or self.channel_id
        return [m for m in self.messages.values()
                if m.channel_id == cid and not m.ephemeral and not m.deleted]

    def last_channel_message(self, channel_id: int | None = None) -> FakeMessage:
        msgs = self.channel_messages(channel_id)
        if not msgs:
            raise LookupError("no channel message yet")
        return msgs[-1]

    def public_answer(self, rec: InteractionRecord) -> FakeMessage:
        """The message everyone sees that the bot made for ``rec``: its public follow-up, or
        (for a slash command, whose answer is private) the bot's next message in the
        channel."""
        for m in sorted(self.messages.values(), key=lambda m: m.id):
            if (m.id > rec.since_id and m.channel_id == rec.channel_id and not m.ephemeral
                    and not m.deleted and m.interaction_id in (None, rec.id)):
                return m
        raise LookupError(f"interaction {rec.id} made no public message")

    async def public_post(self, rec: InteractionRecord, seconds: float = 30.0) -> FakeMessage:
        """``public_answer``, once it is there: a command's answer may come before its
        channel post, which the outbox sends when Discord and the machine let it (a bot in
        another process, a loaded machine: the answer says the post will follow)."""
        for _ in range(int(seconds / 0.05)):
            try:
                return self.public_answer(rec)
            except LookupError:
                await asyncio.sleep(0.05)
        return self.public_answer(rec)

    def most_posts_in(self, channel_id: int, window: float = 5.0, *,
                      since: float | None = None) -> int:
        """The most public messages ``channel_id`` received within any ``window`` seconds
        (Discord lets a bot post 5 per 5 seconds per channel), counting those made at or
        after ``since`` on the fake's clock; deleted ones count, they were seen."""
        return most_in_window((m.t_made for m in self.messages.values()
                               if m.channel_id == channel_id and not m.ephemeral
                               and (since is None or m.t_made >= since)), window)

    async def delete_message(self, msg: FakeMessage, *, tell: bool = True) -> None:
        """A user deletes one of the bot's messages: edits and reads of it answer 10008
        Unknown Message; the bot hears MESSAGE_DELETE (when ``tell`` and connected)."""
        msg.deleted = True
        if tell and self.sessions_for(self.guild_of(msg.channel_id)):
            await self.dispatch("MESSAGE_DELETE", {
                "id": str(msg.id), "channel_id": str(msg.channel_id),
                "guild_id": str(self.guild_of(msg.channel_id))})

    def expire_tokens(self, records: Iterable[InteractionRecord] | None = None) -> None:
        """Interaction tokens that no longer work (Discord's 15 minutes are over):
        follow-ups and edits answer 401 50027 Invalid Webhook Token. Every interaction
        so far unless ``records`` names some."""
        for rec in self.interactions.values() if records is None else records:
            rec.expired = True

    def _interaction_channel(self, interaction_id: int | None) -> int:
        rec = self._by_id.get(interaction_id) if interaction_id else None
        return rec.channel_id if rec is not None else self.channel_id

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """The bot's direct messages to ``user`` that arrived, oldest first."""
        return [m for m in self.messages.values() if self.dm_channels.get(m.channel_id) is user]

