"""A loopback fake of the slice of Discord that a discord.py bot touches.

The gateway (``gateway.py``: HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE, RESUME,
dispatch of INTERACTION_CREATE) and the REST routes the bot calls (``rest.py``). Every
request is recorded; a route that is not implemented answers 404 and is kept in ``unknown``
so tests can assert there were none. See /work/shared/FAKE_DISCORD.md for the facts this
follows.

Sharding: ``GET /gateway/bot`` tells the recommended shard count and the session
start limits; a connection that IDENTIFYs with ``shard: [id, count]`` gets the guilds of that
shard only, and each guild's events are dispatched on the connection holding shard
``(guild_id >> 22) % count``, as Discord does. ``add_guild(shard=, of=)`` makes a guild on a
given shard. A message (a channel post or a DM) with a ``nonce`` and ``enforce_nonce`` that
repeats one the bot made within ``nonce_window`` seconds, in any channel, returns the message
made first (Discord's deduplication, by author); after the window it is a new message.

Discord failing as it does (``faults.py``, ``fake.faults``): 5xx answers and outage windows,
"stored, then 5xx", 429s with Discord's headers, the per-channel post limit; deleted
messages, channels and archived threads (``places.py``); threads made, renamed within
Discord's limit and counted against its 1,000 a server (``threads.py``); late interactions
and expired tokens; gateway reconnects, invalid sessions, closes and zombie connections.
The fake's clock (``fake.clock``) is the machine's plus whatever a test moves it on.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

from aiohttp import web

from .faults import Clock, Faults
from .gateway import GatewayMixin
from .messages import (
    BOT_PERMISSIONS,
    EPHEMERAL,
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    FakeMessage,
    FakeUser,
    InteractionRecord,
    MessagesMixin,
    Recorded,
)
from .oauth import FakeOAuth
from .places import FakeThread, PlacesMixin
from .rest import JSON_HEADERS, RestMixin
from .threads import ThreadsMixin

__all__ = ["BOT_PERMISSIONS", "EPHEMERAL", "JSON_HEADERS", "FakeDiscord", "FakeMessage",
           "FakeUser", "InteractionRecord", "Recorded"]


class FakeDiscord(GatewayMixin, RestMixin, ThreadsMixin, PlacesMixin, MessagesMixin):
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
        self.threads: dict[int, FakeThread] = {}
        self.deleted_channels: set[int] = set()
        self._channel_updates: list[int] = []  # threads PATCHed, their THREAD_UPDATE due
        self._guild_seq = itertools.count(300_000_000)
        self.users: dict[str, FakeUser] = {}
        self.requests: list[Recorded] = []
        # Requests whose body Discord would refuse (50035, 50006), with the answer given.
        self.refused_bodies: list[tuple[Recorded, dict[str, Any]]] = []
        self.unknown: list[Recorded] = []
        self.errors: list[str] = []
        self.messages: dict[int, FakeMessage] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}  # scope -> synced commands
        self.interactions: dict[str, InteractionRecord] = {}  # by token
        self._source_message: dict[int, FakeMessage] = {}  # component interaction -> message
        self._by_id: dict[int, InteractionRecord] = {}
        self._sockets: list[web.WebSocketResponse] = []
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
        self.hidden: set[int] = set()  # channels @everyone may not view (``hide``)
        self.dm_channels: dict[int, FakeUser] = {}  # DM channel id -> its user
        # every server's preferred locale (set before connecting)
        self.guild_locale = "en-US"
        self.clock = Clock()
        self.faults = Faults(self.clock)
        self.oauth = FakeOAuth(str(self.app_id), self.clock)  # "Sign in with Discord"
        self._init_gateway()
        self._init_threads()
        # The bot runs in the test's process, and the harness tells when it has handled a
        # click (else only the requests on the wire can tell).
        self.hooked = False

    # ------------------------------------------------------------------ lifecycle
    def new_id(self) -> int:
        return next(self._ids)

    def add_user(self, name: str, *, manage_channels: bool = False,
                 locale: str = "en-US", bot: bool = False) -> FakeUser:
        perms = MEMBER_PERMISSIONS | (MANAGE_CHANNELS if manage_channels else 0)
        user = FakeUser(self.new_id(), name, perms, locale=locale, bot=bot)
        self.users[name] = user
        return user

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/ws", self._gateway)
        self.oauth.add_routes(app)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest_or_bearer)
        app.router.add_route("*", "/{tail:.*}", self._unknown_route)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _rest_or_bearer(self, request: web.Request) -> web.Response:
        """A call with a user's OAuth2 bearer token (``oauth``), else the bot's REST."""
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return self.oauth.me(request)
        return await self._rest(request)

    async def close(self) -> None:
        self.unpause()
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

    @property
    def invalid_requests(self) -> int:
        """The 401, 403 and 429 answers Discord would count towards banning the bot's IP
        (10,000 in 10 minutes)."""
        return self.faults.invalid_requests

    # ------------------------------------------------------------------ interactions
    def mark_handled(self, interaction_id: int) -> None:
        """The bot finished handling this interaction (called by the harness's hook)."""
        rec = self._by_id.get(interaction_id)
        if rec is not None:
            rec.handled.set()

    def _base(self, user: FakeUser, itype: int, channel_id: int | None) -> InteractionRecord:
        if not self.may_see(user.id, channel_id or self.channel_id):
            raise AssertionError(f"user {user.id} is not a member of private thread "
                                 f"{channel_id}: Discord shows them nothing there to use")
        iid = self.new_id()
        token = f"tok{iid}"
        rec = InteractionRecord(iid, token, itype, user, channel_id or self.channel_id,
                                since_id=iid, t_created=self.clock.moved)
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
            "channel": self._channel_object(cid) if cid in self.threads else {
                "id": str(cid), "type": 0, "guild_id": str(gid), "name": "san-marco",
                "position": 0, "permission_overwrites": []},
            "channel_id": str(cid), "member": rec.user.member(), "data": data,
            "app_permissions": str(self.app_permissions(cid)),
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
            # A click may need no answer but its deferral (its change is posted in the
            # channel): the harness's hook says when an in-process bot is done with it;
            # for a bot in another process the wire does (``finished``).
            if rec.type == 3:
                events = [rec.handled] if self.hooked else [rec.completed, rec.finished]
            else:
                events = [rec.completed]
            done = [asyncio.ensure_future(e.wait()) for e in events]
            try:
                await asyncio.wait_for(asyncio.wait(done, return_when=asyncio.FIRST_COMPLETED),
                                       30)
            finally:
                for task in done:
                    task.cancel()
        return rec

    def _command_data(self, path: list[str], options: dict[str, Any],
                      focused: str | None = None) -> dict[str, Any]:
        cmd = self._find_command(path[0])
        # A user option (type 6) carries the user's id; Discord adds the user and their
        # membership under ``resolved``, as it does for a member picked in the client.
        named = {str(v.id): v for v in options.values() if isinstance(v, FakeUser)}
        opts: list[dict[str, Any]] = [
            {"name": k, "type": self._option_type(cmd, path, k, v),
             "value": str(v.id) if isinstance(v, FakeUser) else v,
             **({"focused": True} if k == focused else {})}
            for k, v in options.items()
        ]
        for depth in range(len(path) - 1, 0, -1):  # a group is type 2, a subcommand type 1
            opts = [{"name": path[depth], "type": self._level_type(cmd, path[:depth + 1]),
                     "options": opts}]
        scope = {"guild_id": cmd["guild_id"]} if cmd.get("guild_id") else {}  # a guild command
        if named:
            scope["resolved"] = {
                "users": {i: u.payload() for i, u in named.items()},
                "members": {i: {k: v for k, v in u.member().items() if k != "user"}
                            for i, u in named.items()}}
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
        if isinstance(value, FakeUser):
            return 6
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
