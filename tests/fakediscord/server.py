"""A loopback fake of the slice of Discord that a discord.py bot touches.

The gateway (HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE, dispatch of
INTERACTION_CREATE) and the REST routes the bot calls. Every request is recorded; a route
that is not implemented answers 404 and is kept in ``unknown`` so tests can assert there
were none. See /work/shared/FAKE_DISCORD.md for the facts this follows.

Sharding (issue 15): ``GET /gateway/bot`` tells the recommended shard count and the session
start limits; a connection that IDENTIFYs with ``shard: [id, count]`` gets the guilds of that
shard only, and each guild's events are dispatched on the connection holding shard
``(guild_id >> 22) % count``, as Discord does. ``add_guild(shard=, of=)`` makes a guild on a
given shard. A channel post with a ``nonce`` and ``enforce_nonce`` that repeats one already
made in that channel returns the message made first (Discord's deduplication).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

JSON_HEADERS = {"Content-Type": "application/json"}  # exactly this: FAKE_DISCORD gotcha 1
EPHEMERAL = 64
LOADING = 128
_ALL_PERMISSIONS = (1 << 41) - 1
_MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 15) | (1 << 16) | (1 << 31)  # view/send/...
MANAGE_CHANNELS = 1 << 4
# The bot's own permissions a channel may deny it (Discord's bit numbers).
BOT_PERMISSIONS = {"view_channel": 1 << 10, "send_messages": 1 << 11, "embed_links": 1 << 14,
                   "attach_files": 1 << 15, "read_message_history": 1 << 16}
MISSING_PERMISSIONS = {"message": "Missing Permissions", "code": 50013}
CANNOT_DM = {"message": "Cannot send messages to this user", "code": 50007}


@dataclass
class FakeUser:
    id: int
    name: str
    permissions: int = _MEMBER_PERMISSIONS
    dms_open: bool = True  # False: Discord refuses the bot's DMs (error 50007)
    locale: str = "en-US"  # the user's Discord language (interaction.locale)

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0",
                "global_name": self.name, "avatar": None, "bot": False}

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
    nonce: str | None = None
    edits: int = 0
    deleted: bool = False
    loading: bool = False
    allowed_mentions: dict[str, Any] | None = None  # as the bot sent it (who may be pinged)
    # Every text the message has shown (words(), once when made and after each edit): an
    # edited panel's earlier screens are read by its user too.
    versions: list[str] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def pinged(self) -> set[int]:
        """The users this message may ping (its mentions Discord lets through)."""
        allowed = self.allowed_mentions or {}
        if "users" in allowed:
            return {int(u) for u in allowed["users"]}
        if "users" in allowed.get("parse", []):
            import re
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

    def words(self) -> str:
        """Everything a reader sees in words: the text, and the components' labels,
        placeholders and options (labels and descriptions), one per line."""
        parts = [self.text()]
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


class FakeDiscord:
    """The fake server. ``await start()``, point discord.py at ``api_base``/``gateway_url``."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self.app_id = self.new_id()
        self.bot_user = {"id": str(self.app_id), "username": "San Marco", "discriminator": "0",
                         "global_name": None, "avatar": None, "bot": True, "flags": 0,
                         "verified": True, "mfa_enabled": False}
        self.guild_id = self.new_id()
        self.channel_id = self.new_id()
        self.other_channel_id = self.new_id()
        self.channel_ids: list[int] = [self.channel_id, self.other_channel_id]  # all guilds'
        self.guild_channels: dict[int, list[int]] = {self.guild_id: list(self.channel_ids)}
        self._guild_seq = itertools.count(300_000_000)
        self.users: dict[str, FakeUser] = {}
        self.requests: list[Recorded] = []
        self.unknown: list[Recorded] = []
        self.errors: list[str] = []
        self.messages: dict[int, FakeMessage] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}  # scope -> synced commands
        self.interactions: dict[str, InteractionRecord] = {}  # by token
        self._source_message: dict[int, FakeMessage] = {}  # component interaction -> message
        self._by_id: dict[int, InteractionRecord] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self.ready = asyncio.Event()
        self.identifies = 0
        # shard id (None: an unsharded connection) -> IDENTIFYs made for it
        self.shard_identifies: dict[int | None, int] = {}
        self._shard_of: dict[web.WebSocketResponse, tuple[int, int] | None] = {}
        self.recommended_shards = 1
        self.max_concurrency = 16
        self.deduplicated: list[FakeMessage] = []  # posts answered by their nonce's message
        self.dispatched: list[tuple[tuple[int, int] | None, int | None]] = []  # (shard, guild)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.latency_hook: Any = None  # called as hook(record) when an interaction completes
        self.denied: dict[int, int] = {}  # channel -> permission bits the bot lacks there
        self.dm_channels: dict[int, FakeUser] = {}  # DM channel id -> its user
        # every server's preferred locale (set before connecting)
        self.guild_locale = "en-US"

    # ------------------------------------------------------------------ lifecycle
    def new_id(self) -> int:
        return next(self._ids)

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

    def guild_of(self, channel_id: int) -> int:
        return next((g for g, chs in self.guild_channels.items() if channel_id in chs),
                    self.guild_id)

    @staticmethod
    def on_shard(guild_id: int, shard: tuple[int, int] | None) -> bool:
        """Whether a connection identified with ``shard`` ([id, count]) receives the guild."""
        return shard is None or (guild_id >> 22) % shard[1] == shard[0]

    def deny(self, channel_id: int, *permissions: str) -> None:
        """Take permissions (``BOT_PERMISSIONS`` names) from the bot in a channel, as an
        admin would: Discord then refuses its posts there with 403 Missing Permissions,
        and interactions carry the reduced ``app_permissions``."""
        for name in permissions:
            self.denied[channel_id] = self.denied.get(channel_id, 0) | BOT_PERMISSIONS[name]

    def _refuses_post(self, channel_id: int, files: bool, *, webhook: bool) -> bool:
        """Whether Discord refuses the bot's public post here: a channel message needs View
        Channel and Send Messages, and a file needs Attach Files (a follow-up too)."""
        denied = self.denied.get(channel_id, 0)
        needed = BOT_PERMISSIONS["attach_files"] if files else 0
        if not webhook:
            needed |= BOT_PERMISSIONS["view_channel"] | BOT_PERMISSIONS["send_messages"]
        return bool(denied & needed)

    def add_user(self, name: str, *, manage_channels: bool = False,
                 locale: str = "en-US") -> FakeUser:
        perms = _MEMBER_PERMISSIONS | (MANAGE_CHANNELS if manage_channels else 0)
        user = FakeUser(self.new_id(), name, perms, locale=locale)
        self.users[name] = user
        return user

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/ws", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown_route)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    # ------------------------------------------------------------------ gateway
    def _guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        gid = guild_id or self.guild_id
        everyone = {"id": str(gid), "name": "@everyone", "permissions":
                    str(_MEMBER_PERMISSIONS), "position": 0, "color": 0, "hoist": False,
                    "managed": False, "mentionable": False, "flags": 0}
        channels = [
            {"id": str(cid), "type": 0, "name": name, "position": i, "permission_overwrites": [],
             "guild_id": str(gid), "nsfw": False, "topic": None, "parent_id": None,
             "rate_limit_per_user": 0}
            for i, (cid, name) in enumerate(
                (cid, "san-marco" if i == 0 else f"channel-{i}")
                for i, cid in enumerate(self.guild_channels[gid]))
        ]
        me = {"user": self.bot_user, "roles": [], "flags": 0, "nick": None,
              "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False}
        return {
            "id": str(gid), "name": "Venice", "icon": None, "owner_id": "1",
            "roles": [everyone], "channels": channels, "threads": [], "emojis": [],
            "stickers": [], "features": [], "members": [me] + [u.member() for u in
                                                                self.users.values()],
            "member_count": 1 + len(self.users), "large": False, "unavailable": False,
            "voice_states": [], "presences": [], "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "premium_tier": 0, "system_channel_flags": 0, "preferred_locale": self.guild_locale,
            "afk_timeout": 300, "nsfw_level": 0, "joined_at": "2024-01-01T00:00:00+00:00",
        }

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    self.identifies += 1
                    shard = frame.get("d", {}).get("shard")
                    held = (int(shard[0]), int(shard[1])) if shard else None
                    self._shard_of[ws] = held
                    guilds = [g for g in self.guild_channels if self.on_shard(g, held)]
                    ready: dict[str, Any] = {
                        "v": 10, "user": self.bot_user, "session_id": f"s{self.identifies}",
                        "resume_gateway_url": self.gateway_url,
                        "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                        "application": {"id": str(self.app_id), "flags": 0},
                        "private_channels": [], "relationships": [],
                    }
                    if held is not None:
                        ready["shard"] = list(held)
                    await self._send(ws, "READY", ready)
                    for g in guilds:
                        await self._send(ws, "GUILD_CREATE", self._guild_payload(g))
                    key = held[0] if held else None
                    self.shard_identifies[key] = self.shard_identifies.get(key, 0) + 1
                    self.ready.set()
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
            self._shard_of.pop(ws, None)
        return ws

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a gateway event to the newest connected bot that holds the event's guild
        (its shard's connection)."""
        live = [ws for ws in self._sockets if not ws.closed]
        guild = data.get("guild_id") if isinstance(data, dict) else None
        if guild is not None:
            live = [ws for ws in live if self.on_shard(int(guild), self._shard_of.get(ws))]
        if not live:
            raise RuntimeError(f"no bot connected to the fake gateway holds guild {guild}")
        self.dispatched.append((self._shard_of.get(live[-1]), None if guild is None
                                else int(guild)))
        await self._send(live[-1], event, data)

    def holds(self, guild_id: int) -> bool:
        """Whether a connected bot holds the guild (its shard is up)."""
        return any(self.on_shard(guild_id, self._shard_of.get(ws))
                   for ws in self._sockets if not ws.closed and ws in self._shard_of)

    # ------------------------------------------------------------------ REST
    async def _unknown_route(self, request: web.Request) -> web.Response:
        rec = Recorded(request.method, request.path, dict(request.query), None, {},
                       "Authorization" in request.headers, 404)
        self.requests.append(rec)
        self.unknown.append(rec)
        return _json({"message": "404: Not Found", "code": 0}, 404)

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[str, tuple[str, bytes]]]:
        files: dict[str, tuple[str, bytes]] = {}
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = part.name or ""  # type: ignore[union-attr]
                data = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(data)
                else:
                    files[name] = (part.filename or "", bytes(data))  # type: ignore[union-attr]
            return payload, files
        text = await request.text()
        return (json.loads(text) if text else None), files

    async def _rest(self, request: web.Request) -> web.Response:
        body, files = await self._read_body(request)
        tail = request.match_info["tail"]
        parts = tail.split("/")
        rec = Recorded(request.method, "/" + tail, dict(request.query), body, files,
                       "Authorization" in request.headers)
        self.requests.append(rec)
        try:
            resp = self._route(request.method, parts, body, files, rec)
        except Exception as exc:  # a bug in the fake must be loud, not a hang
            self.errors.append(f"{request.method} /{tail}: {exc!r}")
            rec.status = 500
            return _json({"message": repr(exc), "code": 0}, 500)
        if resp is None:
            rec.status = 404
            self.unknown.append(rec)
            return _json({"message": "404: Not Found", "code": 0}, 404)
        status, payload = resp
        rec.status = status
        if status == 204:
            return web.Response(status=204)
        return _json(payload, status)

    def _route(self, method: str, p: list[str], body: Any, files: dict[str, tuple[str, bytes]],
               rec: Recorded) -> tuple[int, Any] | None:
        n = len(p)
        if method == "GET" and p == ["users", "@me"]:
            return 200, self.bot_user
        if method == "GET" and p == ["gateway", "bot"]:
            return 200, {"url": self.gateway_url, "shards": self.recommended_shards,
                         "session_start_limit": {"total": 1000, "remaining": 999,
                                                 "reset_after": 14_400_000,
                                                 "max_concurrency": self.max_concurrency}}
        if method == "GET" and p == ["oauth2", "applications", "@me"]:
            return 200, {"id": str(self.app_id), "name": "San Marco", "description": "",
                         "icon": None, "bot_public": True, "bot_require_code_grant": False,
                         "owner": self.bot_user, "verify_key": "00", "flags": 0,
                         "rpc_origins": [], "team": None}
        if p[:1] == ["applications"] and n >= 3 and p[-1] == "commands" and method == "PUT":
            if not rec.authorized:
                return 401, {"message": "401: Unauthorized", "code": 0}
            scope = "global" if n == 3 else f"guild:{p[3]}"
            synced = []
            for cmd in body or []:
                synced.append({**cmd, "id": str(self.new_id()),
                               "application_id": str(self.app_id), "version": "1",
                               "guild_id": p[3] if n == 5 else None})
            self.commands[scope] = synced
            return 200, synced
        if p[:1] == ["interactions"] and n == 4 and p[3] == "callback" and method == "POST":
            return self._callback(int(p[1]), p[2], body, files)
        if p[:1] == ["webhooks"] and n >= 3:
            token = p[2]
            inter = self.interactions.get(token)
            if inter is None:
                return 404, {"message": "Unknown Webhook", "code": 10015}
            if n == 3 and method == "POST":
                flags = int((body or {}).get("flags") or 0)
                loading = [m for m in inter.messages if m.loading]
                private = flags & EPHEMERAL or (inter.callback_type == 5 and loading
                                                and loading[0].ephemeral)
                if not private and self._refuses_post(inter.channel_id, bool(files),
                                                      webhook=True):
                    return 403, MISSING_PERMISSIONS
                if files and inter.t_files is None:
                    inter.t_files = time.perf_counter()
                if inter.callback_type == 5 and loading:
                    # After a "thinking" defer the first follow-up replaces the loading
                    # message, keeping the ephemerality chosen at defer time.
                    msg = loading[0]
                    self._edit(msg, {**(body or {}), "attachments": []}, files)
                else:
                    msg = self._new_message(body or {}, files, inter.id)
                    inter.messages.append(msg)
                inter.completed.set()
                source = inter.original
                if (inter.callback_type != 6 or source is None or not source.ephemeral
                        or msg.ephemeral):
                    inter.finished.set()  # else the private panel's update is still to come
                return 200, self._message_payload(msg)
            if n == 5 and p[3] == "messages":
                msg = self._interaction_message(inter, p[4])
                if msg is None:
                    return 404, {"message": "Unknown Message", "code": 10008}
                if method == "GET":
                    return 200, self._message_payload(msg)
                if method == "PATCH":
                    self._edit(msg, body or {}, files)
                    inter.completed.set()
                    inter.finished.set()
                    return 200, self._message_payload(msg)
                if method == "DELETE":
                    msg.deleted = True
                    return 204, None
        if method == "POST" and p == ["users", "@me", "channels"]:
            return self._open_dm(body or {}, rec)
        if p[:1] == ["channels"] and n == 3 and p[2] == "messages" and method == "POST" \
                and int(p[1]) in self.dm_channels:
            return self._send_dm(int(p[1]), body or {}, files, rec)
        if p[:1] == ["channels"] and n >= 3 and p[2] == "messages":
            if not rec.authorized:
                return 401, {"message": "401: Unauthorized", "code": 0}
            cid = int(p[1])
            if cid not in self.channel_ids:
                return 404, {"message": "Unknown Channel", "code": 10003}
            if n == 3 and method == "POST":
                if self._refuses_post(cid, bool(files), webhook=False):
                    return 403, MISSING_PERMISSIONS
                nonce = (body or {}).get("nonce")
                if nonce is not None and (body or {}).get("enforce_nonce"):
                    same = next((m for m in self.messages.values() if m.channel_id == cid
                                 and m.nonce == str(nonce)), None)
                    if same is not None:  # Discord: the message this nonce already made
                        self.deduplicated.append(same)
                        return 200, self._message_payload(same)
                msg = self._new_message(body or {}, files, None, channel_id=cid)
                msg.nonce = None if nonce is None else str(nonce)
                return 200, self._message_payload(msg)
            if n == 4:
                found = self.messages.get(int(p[3]))
                if found is None or found.channel_id != cid or found.deleted:
                    return 404, {"message": "Unknown Message", "code": 10008}
                if method == "GET":
                    return 200, self._message_payload(found)
                if method == "PATCH":
                    self._edit(found, body or {}, files)
                    return 200, self._message_payload(found)
                if method == "DELETE":
                    found.deleted = True
                    return 204, None
        return None

    # ------------------------------------------------------------------ direct messages
    def _open_dm(self, body: dict[str, Any], rec: Recorded) -> tuple[int, Any]:
        """``POST /users/@me/channels``: the DM channel with a user (one per user)."""
        if not rec.authorized:
            return 401, {"message": "401: Unauthorized", "code": 0}
        user = next((u for u in self.users.values() if str(u.id) == str(
            body.get("recipient_id"))), None)
        if user is None:
            return 400, {"message": "Invalid Recipient(s)", "code": 50033}
        cid = next((c for c, u in self.dm_channels.items() if u is user), None)
        if cid is None:
            cid = self.new_id()
            self.dm_channels[cid] = user
        return 200, {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                     "recipients": [user.payload()]}

    def _send_dm(self, cid: int, body: dict[str, Any], files: dict[str, tuple[str, bytes]],
                 rec: Recorded) -> tuple[int, Any]:
        """A message in a DM channel; refused (50007) when the user's DMs are closed."""
        if not rec.authorized:
            return 401, {"message": "401: Unauthorized", "code": 0}
        if not self.dm_channels[cid].dms_open:
            return 403, CANNOT_DM
        msg = self._new_message(body, files, None, channel_id=cid)
        payload = self._message_payload(msg)
        payload.pop("guild_id", None)
        return 200, payload

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """The bot's direct messages to ``user`` that arrived, oldest first."""
        return [m for m in self.messages.values() if self.dm_channels.get(m.channel_id) is user]

    def _interaction_message(self, inter: InteractionRecord, which: str) -> FakeMessage | None:
        if which == "@original":
            return inter.original
        msg = self.messages.get(int(which))
        return msg if msg is not None and not msg.deleted else None

    def _callback(self, iid: int, token: str, body: Any,
                  files: dict[str, tuple[str, bytes]]) -> tuple[int, Any]:
        inter = self.interactions.get(token)
        if inter is None or inter.id != iid:
            return 404, {"message": "Unknown interaction", "code": 10062}
        if inter.callback_type is not None:
            return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}
        ctype = body["type"]
        data = body.get("data") or {}
        inter.t_callback = time.perf_counter()
        if files and inter.t_files is None:
            inter.t_files = inter.t_callback
        inter.callback_type = ctype
        inter.callback = body
        resource: dict[str, Any] = {"type": ctype}
        response_id: int | None = None
        if ctype == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
            msg = self._new_message(data, files, iid)
            inter.messages.append(msg)
            inter.original = msg
            response_id = msg.id
            resource["message"] = self._message_payload(msg)
            inter.completed.set()
        elif ctype == 5:  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            msg = self._new_message({"content": "", "flags": (data.get("flags") or 0) | LOADING},
                                    {}, iid)
            msg.loading = True
            inter.messages.append(msg)
            inter.original = msg
            response_id = msg.id
            resource["message"] = self._message_payload(msg)
        elif ctype in (6, 7):  # DEFERRED_UPDATE_MESSAGE / UPDATE_MESSAGE
            source = self._source_message.get(iid)
            if source is not None:
                if ctype == 7:
                    self._edit(source, data, files)
                    inter.completed.set()
                response_id = source.id
                resource["message"] = self._message_payload(source)
                inter.updated = source
                inter.original = source
        elif ctype == 8:  # AUTOCOMPLETE_RESULT
            inter.choices = data.get("choices", [])
            inter.completed.set()
        else:
            inter.completed.set()
        inter.answered.set()
        if ctype not in (5, 6):
            inter.finished.set()
        return 200, {"interaction": {"id": str(iid), "type": inter.type,
                                     "response_message_id": str(response_id) if response_id
                                     else None,
                                     "response_message_loading": ctype == 5,
                                     "response_message_ephemeral": bool(
                                         (data.get("flags") or 0) & EPHEMERAL)},
                     "resource": resource if ctype not in (8, 9) else None}

    # ------------------------------------------------------------------ messages
    def _new_message(self, data: dict[str, Any], files: dict[str, tuple[str, bytes]],
                     interaction_id: int | None, channel_id: int | None = None) -> FakeMessage:
        msg = FakeMessage(
            id=self.new_id(), channel_id=channel_id or self._interaction_channel(interaction_id),
            content=data.get("content") or "", flags=int(data.get("flags") or 0),
            components=list(data.get("components") or []), embeds=list(data.get("embeds") or []),
            files=_files_in_order(data, files), interaction_id=interaction_id,
            allowed_mentions=data.get("allowed_mentions"))
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
            old = [f for i, f in enumerate(msg.files) if f"old{i}" in keep]
            msg.files = old + _files_in_order(data, files)
        msg.loading = False
        msg.flags &= ~LOADING
        msg.edits += 1
        msg.versions.append(msg.words())

    def _message_payload(self, msg: FakeMessage) -> dict[str, Any]:
        attachments = [
            {"id": f"{msg.id}{i}", "filename": name, "size": len(data),
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
            "flags": msg.flags, "components": msg.components,
            "application_id": str(self.app_id), "webhook_id": str(self.app_id)
            if msg.interaction_id else None,
        }

    def _interaction_channel(self, interaction_id: int | None) -> int:
        rec = self._by_id.get(interaction_id) if interaction_id else None
        return rec.channel_id if rec is not None else self.channel_id

    def mark_handled(self, interaction_id: int) -> None:
        """The bot finished handling this interaction (called by the harness's hook)."""
        rec = self._by_id.get(interaction_id)
        if rec is not None:
            rec.handled.set()

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

    def _base(self, user: FakeUser, itype: int, channel_id: int | None) -> InteractionRecord:
        iid = self.new_id()
        token = f"tok{iid}"
        rec = InteractionRecord(iid, token, itype, user, channel_id or self.channel_id,
                                since_id=iid)
        self.interactions[token] = rec
        self._by_id[iid] = rec
        return rec

    def _payload(self, rec: InteractionRecord, data: dict[str, Any],
                 message: FakeMessage | None = None) -> dict[str, Any]:
        cid = rec.channel_id
        gid = self.guild_of(cid)
        payload: dict[str, Any] = {
            "id": str(rec.id), "application_id": str(self.app_id), "type": rec.type,
            "token": rec.token, "version": 1, "guild_id": str(gid),
            "channel": {"id": str(cid), "type": 0, "guild_id": str(gid),
                        "name": "san-marco", "position": 0, "permission_overwrites": []},
            "channel_id": str(cid), "member": rec.user.member(), "data": data,
            "app_permissions": str(_ALL_PERMISSIONS & ~self.denied.get(cid, 0)),
            "locale": rec.user.locale, "guild_locale": self.guild_locale,
            "entitlements": [], "authorizing_integration_owners": {"0": str(gid)},
            "context": 0, "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = self._message_payload(message)
        return payload

    async def _inject(self, rec: InteractionRecord, payload: dict[str, Any],
                      wait: bool) -> InteractionRecord:
        rec.t_sent = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await asyncio.wait_for(rec.completed.wait(), 30)
        return rec

    def _command_data(self, path: list[str], options: dict[str, Any],
                      focused: str | None = None) -> dict[str, Any]:
        cmd = self._find_command(path[0])
        opts: list[dict[str, Any]] = [
            {"name": k, "type": self._option_type(cmd, path, k, v), "value": v,
             **({"focused": True} if k == focused else {})}
            for k, v in options.items()
        ]
        for depth in range(len(path) - 1, 0, -1):  # a group is type 2, a subcommand type 1
            opts = [{"name": path[depth], "type": self._level_type(cmd, path[:depth + 1]),
                     "options": opts}]
        scope = {"guild_id": cmd["guild_id"]} if cmd.get("guild_id") else {}  # a guild command
        return {"id": cmd.get("id", "0"), "name": path[0], "type": 1, "options": opts, **scope}

    def _find_command(self, name: str) -> dict[str, Any]:
        for cmds in self.commands.values():
            for c in cmds:
                if c["name"] == name:
                    return c
        return {"name": name, "options": []}

    @staticmethod
    def _level_type(cmd: dict[str, Any], path: list[str]) -> int:
        """The synced option type of ``path``'s last word: 2 a group, 1 a subcommand."""
        node: dict[str, Any] = cmd
        for sub in path[1:]:
            node = next((o for o in node.get("options") or [] if o["name"] == sub), {})
        return int(node.get("type", 1))

    @staticmethod
    def _option_type(cmd: dict[str, Any], path: list[str], name: str, value: Any) -> int:
        node = cmd
        for sub in path[1:]:
            node = next((o for o in node.get("options", []) if o["name"] == sub), {})
        for o in node.get("options", []):
            if o["name"] == name:
                return int(o["type"])
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        return 3

    async def slash(self, user: FakeUser, path: str, *, channel_id: int | None = None,
                    wait: bool = True, **options: Any) -> InteractionRecord:
        """Run ``/path`` (e.g. ``"sanmarco play"``) as ``user`` with string/int options."""
        rec = self._base(user, 2, channel_id)
        return await self._inject(rec, self._payload(rec, self._command_data(path.split(),
                                                                              options)), wait)

    async def autocomplete(self, user: FakeUser, path: str, focused: str,
                           channel_id: int | None = None, **options: Any) -> list[dict[str, Any]]:
        """The choices the bot offers for option ``focused`` while the others hold ``options``."""
        rec = self._base(user, 4, channel_id)
        data = self._command_data(path.split(), options, focused)
        await self._inject(rec, self._payload(rec, data), True)
        return rec.choices or []

    async def click(self, user: FakeUser, message: FakeMessage, custom_id: str, *,
                    wait: bool = True) -> InteractionRecord:
        """Press the button ``custom_id`` on ``message`` as ``user``."""
        return await self._component(user, message, {"custom_id": custom_id,
                                                     "component_type": 2}, wait)

    async def select(self, user: FakeUser, message: FakeMessage, custom_id: str,
                     values: list[str], *, wait: bool = True) -> InteractionRecord:
        """Choose ``values`` in the select menu ``custom_id`` on ``message`` as ``user``."""
        return await self._component(user, message, {"custom_id": custom_id,
                                                     "component_type": 3, "values": values},
                                     wait)

    async def _component(self, user: FakeUser, message: FakeMessage, data: dict[str, Any],
                         wait: bool) -> InteractionRecord:
        rec = self._base(user, 3, message.channel_id)
        self._source_message[rec.id] = message
        return await self._inject(rec, self._payload(rec, data, message), wait)


def _files_in_order(data: dict[str, Any], files: dict[str, tuple[str, bytes]]) -> list[
        tuple[str, bytes]]:
    out = []
    for key in sorted(files, key=lambda k: int(k[6:-1]) if k.startswith("files[") else 0):
        out.append(files[key])
    return out


def _json(payload: Any, status: int = 200) -> web.Response:
    return web.Response(status=status, body=json.dumps(payload).encode(), headers=JSON_HEADERS)
