"""The gateway: HELLO, heartbeats and their ACKs, IDENTIFY -> READY + GUILD_CREATE, RESUME
-> the missed events + RESUMED, and dispatch of events (INTERACTION_CREATE above all) on
the connection that holds the event's guild (its shard's, as Discord does).

A session outlives its connection: events dispatched while the bot is away (a zombie
connection, a close, a reconnect in progress) are kept with their sequence numbers and
replayed when the bot RESUMEs; a session ended by a clean close (1000), by ``invalid_session
(resumable=False)`` or by a 4009 close cannot be resumed (op 9), and the bot identifies
anew. Faults: ``reconnect`` (op 7), ``invalid_session`` (op 9), ``close_gateway`` (a close
code; 1006 drops the connection without one), ``zombie`` (no more ACKs or events on the
current connection, until the bot gives up on it), ``pause``/``unpause`` (a new connection
waits for its HELLO).

``heartbeat_interval`` (milliseconds) is what HELLO says; with a small one and the client's
``heartbeat_timeout`` small too, discord.py notices a zombie within a second or two. (Keep
that timeout above 5 s where the bot must identify anew: discord.py waits 5 s before a
second IDENTIFY without reading the socket, and would give that connection up too.)
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

KEEP_EVENTS = 2000  # events a session keeps for a RESUME
ENDS_SESSION = (1000, 1001, 4009)  # a clean close, or Discord's "session timed out"


@dataclass
class Session:
    """A gateway session: its shard, its connection (if any) and its events."""

    id: str
    shard: tuple[int, int] | None
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)  # (seq, frame) to replay
    zombie: bool = False  # no ACKs, no events on the wire: the connection is dead
    ended: bool = False  # cannot be resumed

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed and not self.zombie


class GatewayMixin:
    """The gateway half of the fake Discord."""

    def _init_gateway(self) -> None:
        self.sessions: list[Session] = []
        self._session_of: dict[web.WebSocketResponse, Session] = {}
        self._requests_of: dict[web.WebSocketResponse, web.Request] = {}
        self._closed_by_us: set[web.WebSocketResponse] = set()
        self._hello = asyncio.Event()  # cleared by ``pause``: new connections wait
        self._hello.set()
        self.heartbeat_interval = 41250  # milliseconds, as HELLO says
        self.resumes = 0  # successful RESUMEs
        self.connections = 0
        self.resumable = True  # False: every RESUME is answered op 9 (not resumable)

    # ------------------------------------------------------------------ the socket
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        self._requests_of[ws] = request
        self.connections += 1
        try:
            await self._hello.wait()
            await ws.send_str(json.dumps({"op": 10, "d": {
                "heartbeat_interval": self.heartbeat_interval}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    session = self._session_of.get(ws)
                    if session is None or not session.zombie:
                        await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    await self._identify(ws, frame.get("d") or {})
                elif op == 6:
                    await self._resume(ws, frame.get("d") or {})
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
            self._shard_of.pop(ws, None)
            self._requests_of.pop(ws, None)
            session = self._session_of.pop(ws, None)
            by_us = ws in self._closed_by_us
            self._closed_by_us.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if not by_us and ws.close_code in ENDS_SESSION:
                    session.ended = True  # the bot closed cleanly: its session is over
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        self.identifies += 1
        shard = d.get("shard")
        held = (int(shard[0]), int(shard[1])) if shard else None
        self._shard_of[ws] = held
        session = Session(f"s{self.identifies}", held, ws)
        self.sessions.append(session)
        self._session_of[ws] = session
        guilds = [g for g in self.guild_channels if self.on_shard(g, held)]
        ready: dict[str, Any] = {
            "v": 10, "user": self.bot_user, "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [], "relationships": [],
        }
        if held is not None:
            ready["shard"] = list(held)
        await self._send(session, "READY", ready)
        for g in guilds:
            await self._send(session, "GUILD_CREATE", self._guild_payload(g))
        key = held[0] if held else None
        self.shard_identifies[key] = self.shard_identifies.get(key, 0) + 1
        self.ready.set()

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        """RESUME: the session's events after ``seq``, then RESUMED; op 9 if it is gone."""
        session = next((s for s in self.sessions if s.id == d.get("session_id")), None)
        if session is None or session.ended or not self.resumable:
            if session is not None:
                session.ended = True
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return
        if session.ws is not None and session.ws is not ws and not session.ws.closed:
            self._closed_by_us.add(session.ws)
            await session.ws.close(code=4000)  # Discord drops the old connection
        session.ws, session.zombie = ws, False
        self._session_of[ws] = session
        self._shard_of[ws] = session.shard
        since = int(d.get("seq") or 0)
        for seq, frame in session.events:
            if seq > since:
                await ws.send_str(frame)
        await self._send(session, "RESUMED", {})
        self.resumes += 1

    async def _send(self, session: Session, event: str, data: Any) -> None:
        """The event with the session's next sequence number: sent if the connection is
        live, kept for a RESUME either way."""
        session.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.seq, "d": data})
        session.events.append((session.seq, frame))
        del session.events[:-KEEP_EVENTS]
        if session.live:
            assert session.ws is not None
            await session.ws.send_str(frame)

    # ------------------------------------------------------------------ dispatching
    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that would receive the guild's events, live ones first, newest
        first within each."""
        held = [s for s in self.sessions if not s.ended
                and (guild_id is None or self.on_shard(guild_id, s.shard))]
        return sorted(held, key=lambda s: (not s.live, -self.sessions.index(s)))

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a gateway event on the session that holds the event's guild (its shard's):
        on the wire if its connection is live, else kept until the bot RESUMEs."""
        guild = data.get("guild_id") if isinstance(data, dict) else None
        sessions = self.sessions_for(None if guild is None else int(guild))
        if not sessions:
            raise RuntimeError(f"no bot connected to the fake gateway holds guild {guild}")
        self.dispatched.append((sessions[0].shard, None if guild is None else int(guild)))
        await self._send(sessions[0], event, data)

    def holds(self, guild_id: int) -> bool:
        """Whether a connected bot holds the guild (its shard is up)."""
        return any(self.on_shard(guild_id, self._shard_of.get(ws))
                   for ws in self._sockets if not ws.closed and ws in self._shard_of)

    # ------------------------------------------------------------------ faults
    def _live(self) -> list[Session]:
        return [s for s in self.sessions if s.live]

    async def reconnect(self) -> None:
        """Op 7 Reconnect on every live connection: the bot closes it and RESUMEs."""
        for session in self._live():
            assert session.ws is not None
            await session.ws.send_str(json.dumps({"op": 7, "d": None}))

    async def invalid_session(self, *, resumable: bool) -> None:
        """Op 9 Invalid Session: the bot RESUMEs (``resumable``) or identifies anew (its
        session is ended, and the events it missed are lost, as on Discord)."""
        for session in self._live():
            assert session.ws is not None
            session.ended = not resumable
            await session.ws.send_str(json.dumps({"op": 9, "d": resumable}))

    async def close_gateway(self, code: int = 4000) -> None:
        """Discord closes every live connection with ``code`` (4000 unknown error: the bot
        RESUMEs; 4009 session timed out: it must identify anew); 1006 drops the TCP
        connection without a close frame."""
        for session in self._live():
            ws = session.ws
            assert ws is not None
            if code == 1006:
                request = self._requests_of.get(ws)
                if request is not None and request.transport is not None:
                    request.transport.abort()
                continue
            if code in ENDS_SESSION:
                session.ended = True
            self._closed_by_us.add(ws)
            await ws.close(code=code)

    def zombie(self) -> None:
        """Every live connection goes dead without closing: no heartbeat ACKs, no events
        (kept for the RESUME), until the bot notices and reconnects."""
        for session in self._live():
            session.zombie = True

    def pause(self) -> None:
        """New gateway connections get no HELLO until ``unpause``: the bot stays away."""
        self._hello.clear()

    def unpause(self) -> None:
        self._hello.set()
