"""The REST routes a bot calls, each request recorded with Discord's name for its route and
the channel it acts on; injected faults (``faults``) are answered before a route runs, or
after it for a message "stored, then 5xx". A route the fake does not know answers 404 and
is kept in ``unknown`` so tests can assert there were none.

Discord's own refusals are modelled: a deleted channel (10003), a deleted message (10008),
the bot without View Channel (50001) or another permission it needs (50013), a late
interaction callback (10062), an expired token (50027), a post into an archived thread
(50083); each is recorded like an injected fault, as not injected.

Every message body — a channel post or edit, a DM, an interaction callback's message (types
4 and 7), a follow-up and its edit — and an autocomplete answer's choices are checked
against Discord's limits first (``limits.py``): one over them is answered 400 / 50035
"Invalid Form Body" with Discord's ``errors`` object, an empty message 400 / 50006, and the
request kept in ``refused_bodies`` (the test fixtures assert there were none: a body
Discord refuses is a post never shown).
"""

from __future__ import annotations

import json
import time
from typing import Any

from aiohttp import web

from .faults import (
    CALLBACK,
    CHANNEL,
    CHANNEL_MESSAGE,
    CHANNEL_POST,
    FOLLOWUP,
    WEBHOOK_MESSAGE,
    rate_limited,
)
from .faults import error as discord_error
from .limits import EMPTY, check_choices, check_message, is_empty
from .messages import (
    BOT_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    FakeMessage,
    InteractionRecord,
    Recorded,
)

JSON_HEADERS = {"Content-Type": "application/json"}  # exactly this: FAKE_DISCORD gotcha 1
CALLBACK_SECONDS = 3.0  # Discord's time to answer an interaction
# Discord keeps a nonce for "a few minutes" (undocumented); tests set ``nonce_window``.
NONCE_WINDOW = 5 * 60.0
HISTORY_LIMIT = 100  # GET /channels/{id}/messages: at most this many a request (default 50)
TOKEN_SECONDS = 15 * 60.0  # how long an interaction token takes follow-ups and edits
UNAUTHORIZED = (401, {"message": "401: Unauthorized", "code": 0})
Answer = tuple[int, Any] | tuple[int, Any, dict[str, str]]  # (with a 429's headers)


class RestMixin:
    """The REST half of the fake Discord.

    Nonces as Discord keeps them: a message made with ``nonce`` and ``enforce_nonce`` by an
    author that already made one with that nonce within ``nonce_window`` seconds (on the
    fake's clock) is not made again: the first is returned, in whatever channel it was made
    (a DM included). Every message made this way is the bot's, so the bot is the author.
    After the window the nonce is forgotten and a repeat is a new message."""

    nonce_window: float = NONCE_WINDOW

    # ------------------------------------------------------------------ the pipeline
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
        rec.route, rec.channel = self._route_of(request.method, parts)
        self.requests.append(rec)
        content = str(body.get("content") or "") if isinstance(body, dict) else ""
        fault = self.faults.pick(rec.route, rec.channel, self._is_public(rec, parts, body),
                                 content)
        if fault is not None and fault.dropped:  # no answer: the connection just ends
            rec.status = 0
            self.faults.record(rec.route, 0, None, rec.channel, injected=True)
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=204)  # never reaches the client
        if fault is not None and not fault.stored:
            return self._answer(rec, *fault.answer(), injected=True, scope=fault.scope)
        headers: dict[str, str] = {}
        if rec.route == CHANNEL_POST and rec.channel not in self.dm_channels:
            wait, headers = self.faults.take_post_slot(int(parts[1]))
            if wait is not None:  # Discord's channel limit: 5 messages per 5 seconds
                return self._answer(rec, *rate_limited(wait), injected=False, scope="user")
        try:
            resp = self._route(request.method, parts, body, files, rec)
        except Exception as exc:  # a bug in the fake must be loud, not a hang
            self.errors.append(f"{request.method} /{tail}: {exc!r}")
            return self._answer(rec, 500, {"message": repr(exc), "code": 0}, {},
                                injected=False)
        if resp is None:
            self.unknown.append(rec)
            return self._answer(rec, 404, {"message": "404: Not Found", "code": 0}, {},
                                injected=False)
        while self._channel_updates:  # a thread the bot changed: Discord tells it so
            cid = self._channel_updates.pop(0)
            if self.sessions_for(self.guild_of(cid)):
                await self.announce(cid)
        await self._announce_threads()
        status, payload, *more = resp
        headers.update(*more)  # a 429's headers
        if fault is not None and status < 300:  # stored, then an error: the bot cannot know
            return self._answer(rec, *fault.answer(), injected=True, scope=fault.scope)
        return self._answer(rec, status, payload, headers, injected=False)

    def _answer(self, rec: Recorded, status: int, payload: Any, headers: dict[str, str], *,
                injected: bool, scope: str | None = None) -> web.Response:
        rec.status = status
        rec.code = (payload.get("code") or None) if isinstance(payload, dict) else None
        if not injected and rec.code in (50006, 50035):  # a body Discord would refuse
            self.refused_bodies.append((rec, payload))
        if status >= 400:
            self.faults.record(rec.route, status, payload, rec.channel, injected=injected,
                               scope=scope if status == 429 else None)
        if status == 204:
            return web.Response(status=204)
        if isinstance(payload, str):
            return web.Response(status=status, text=payload, headers={
                "Content-Type": headers.pop("Content-Type", "text/plain"), **headers})
        return web.Response(status=status, body=json.dumps(payload).encode(),
                            headers={**JSON_HEADERS, **headers})

    def _route_of(self, method: str, p: list[str]) -> tuple[str, int | None]:
        """Discord's name for a request's route, and the channel it acts on."""
        n = len(p)
        if p[:1] == ["channels"] and n >= 2 and p[1].isdigit():
            channel = int(p[1])
            if n == 2:
                return f"{method} {CHANNEL}", channel
            if n == 3 and p[2] == "messages":
                return f"{method} /channels/{{channel_id}}/messages", channel
            if n == 4 and p[2] == "messages":
                return f"{method} {CHANNEL_MESSAGE}", channel
            if n == 3 and p[2] == "threads":
                return f"{method} /channels/{{channel_id}}/threads", channel
            if n == 4 and p[2] == "thread-members":
                return f"{method} /channels/{{channel_id}}/thread-members/{{user_id}}", channel
        if p[:1] == ["webhooks"] and n >= 3:
            inter = self.interactions.get(p[2])
            channel = inter.channel_id if inter is not None else None
            if n == 3:
                return f"{method} /webhooks/{{application_id}}/{{interaction_token}}", channel
            if n == 5 and p[3] == "messages":
                return f"{method} {WEBHOOK_MESSAGE}", channel
        if p[:1] == ["interactions"] and n == 4 and p[3] == "callback":
            inter = self.interactions.get(p[2])
            return CALLBACK, inter.channel_id if inter is not None else None
        return f"{method} /{'/'.join(p)}", None

    def _is_public(self, rec: Recorded, p: list[str], body: Any) -> bool:
        """Whether the request makes something others see (an outage on posts spares a
        private answer unless told otherwise)."""
        if rec.route != FOLLOWUP:
            return True
        flags = int((body or {}).get("flags") or 0)
        inter = self.interactions.get(p[2])
        loading = [m for m in inter.messages if m.loading] if inter is not None else []
        private = flags & EPHEMERAL or (inter is not None and inter.callback_type == 5
                                        and loading and loading[0].ephemeral)
        return not private

    # ------------------------------------------------------------------ routes
    def _route(self, method: str, p: list[str], body: Any, files: dict[str, tuple[str, bytes]],
               rec: Recorded) -> Answer | None:
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
            return self._sync_commands(p, body, rec)
        if p[:1] == ["interactions"] and n == 4 and p[3] == "callback" and method == "POST":
            return self._callback(int(p[1]), p[2], body, files)
        if p[:1] == ["webhooks"] and n >= 3:
            return self._webhook(method, p, body, files)
        if method == "POST" and p == ["users", "@me", "channels"]:
            return self._open_dm(body or {}, rec)
        if p[:1] == ["channels"] and n == 3 and p[2] == "messages" and method == "POST" \
                and int(p[1]) in self.dm_channels:
            return self._send_dm(int(p[1]), body or {}, files, rec)
        if p[:1] == ["channels"] and n == 3 and p[2] == "messages" and method == "GET" \
                and int(p[1]) in self.dm_channels:
            return (200, self._history(int(p[1]), rec.query)) if rec.authorized \
                else UNAUTHORIZED
        if p[:1] == ["channels"] and n >= 2:
            if not rec.authorized:
                return UNAUTHORIZED
            refused = self._refuses_channel(int(p[1]))
            if refused is not None:
                return refused
            if n == 2:
                return self._channel(method, int(p[1]), body or {})
            if n == 3 and p[2] == "threads" and method == "POST":
                return self._start_thread(int(p[1]), body or {})
            if n == 4 and p[2] == "thread-members" and method == "PUT" and p[3].isdigit():
                return self._add_thread_member(int(p[1]), int(p[3]))
            if p[2] == "messages":
                return self._channel_messages(method, p, body or {}, files, rec.query)
        return None

    def _sync_commands(self, p: list[str], body: Any, rec: Recorded) -> Answer:
        if not rec.authorized:
            return UNAUTHORIZED
        scope = "global" if len(p) == 3 else f"guild:{p[3]}"
        synced = []
        for cmd in body or []:
            synced.append({**cmd, "id": str(self.new_id()),
                           "application_id": str(self.app_id), "version": "1",
                           "guild_id": p[3] if len(p) == 5 else None})
        self.commands[scope] = synced
        return 200, synced

    def _refuses_channel(self, cid: int) -> Answer | None:
        """Discord's answer to anything in a channel that is gone or the bot cannot see."""
        if cid not in self.channel_ids or cid in self.deleted_channels:
            return discord_error(10003)
        if self.thread_denied(cid) & BOT_PERMISSIONS["view_channel"]:
            return discord_error(50001)
        return None

    def _channel_messages(self, method: str, p: list[str], body: dict[str, Any],
                          files: dict[str, tuple[str, bytes]],
                          query: dict[str, str]) -> Answer | None:
        cid = int(p[1])
        if len(p) == 3 and method == "POST":
            refused = check_message(body, len(files), nonce=True)
            if refused is not None:
                return refused
            if self._refuses_post(cid, bool(files), webhook=False):
                return discord_error(50013)
            if self.is_archived(cid):
                return discord_error(50083)
            same = self._same_nonce(body)
            if same is not None:  # Discord: the message this nonce already made
                self.deduplicated.append(same)
                return 200, self._message_payload(same)
            msg = self._new_message(body, files, None, channel_id=cid)
            msg.nonce = None if body.get("nonce") is None else str(body["nonce"])
            self._channel_written(cid, bool(files))
            return 200, self._message_payload(msg)
        if len(p) == 3 and method == "GET":
            return 200, self._history(cid, query)
        if len(p) == 4:
            found = self.messages.get(int(p[3])) if p[3].isdigit() else None
            if found is None or found.channel_id != cid or found.deleted:
                return discord_error(10008)
            if method == "GET":
                return 200, self._message_payload(found)
            if method == "PATCH":
                refused = self._check_edit(found, body, files)
                if refused is not None:
                    return refused
                if self.is_archived(cid):
                    return discord_error(50083)
                self._edit(found, body, files)
                self._channel_written(cid)
                return 200, self._message_payload(found)
            if method == "DELETE":
                found.deleted = True
                return 204, None
        return None

    def _same_nonce(self, body: dict[str, Any]) -> FakeMessage | None:
        """The bot's message made with this body's enforced nonce within the window."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        now = self.clock.now()
        return next((m for m in reversed(self.messages.values()) if m.nonce == str(nonce)
                     and m.interaction_id is None and now - m.t_made < self.nonce_window),
                    None)

    def _history(self, cid: int, query: dict[str, str]) -> list[dict[str, Any]]:
        """``GET /channels/{id}/messages``: newest first, ``limit`` (1-100, default 50)
        of those ``before`` or ``after`` a message id (after: the oldest after it), as
        Discord answers. Discord does not store a nonce: a message read back has none
        (discord.py #2451), so the bot can know its own only by what it says."""
        limit = max(1, min(HISTORY_LIMIT, int(query.get("limit", 50))))
        if self.thread_denied(cid) & BOT_PERMISSIONS["read_message_history"]:
            return []  # Discord: without Read Message History "no messages will be returned"
        shown = sorted((m for m in self.messages.values() if m.channel_id == cid
                        and not m.ephemeral and not m.deleted), key=lambda m: m.id)
        if "after" in query:
            shown = [m for m in shown if m.id > int(query["after"])][:limit]
        else:
            if "before" in query:
                shown = [m for m in shown if m.id < int(query["before"])]
            shown = shown[-limit:]
        return [{**self._message_payload(m), "nonce": None} for m in reversed(shown)]

    def _channel_written(self, channel_id: int, files: bool = False) -> None:
        """A clicked button's change shows in its channel (a post, or its message edited):
        the click deferred as an update is done, as far as the wire can tell; a post with a
        picture is the board of the channel's newest interaction (its latency's end)."""
        if files:
            newest = max((i for i in self.interactions.values() if i.channel_id == channel_id
                          and i.callback_type is not None and i.type in (2, 3)),
                         key=lambda i: i.id, default=None)
            if newest is not None and newest.t_files is None:
                newest.t_files = time.perf_counter()
        for inter in self.interactions.values():
            if (inter.channel_id == channel_id and inter.callback_type == 6
                    and not inter.finished.is_set() and inter.type == 3):
                source = self._source_message.get(inter.id)
                if source is not None and not source.ephemeral:
                    inter.finished.set()

    def _webhook(self, method: str, p: list[str], body: Any,
                 files: dict[str, tuple[str, bytes]]) -> Answer | None:
        inter = self.interactions.get(p[2])
        if inter is None:
            return discord_error(10015)
        if inter.expired or self.clock.moved - inter.t_created > TOKEN_SECONDS:
            return discord_error(50027)
        if len(p) == 3 and method == "POST":
            return self._followup(inter, body or {}, files)
        if len(p) == 5 and p[3] == "messages":
            msg = self._interaction_message(inter, p[4])
            if msg is None:
                return discord_error(10008)
            if method == "GET":
                return 200, self._message_payload(msg)
            if method == "PATCH":
                refused = self._check_edit(msg, body or {}, files)
                if refused is not None:
                    return refused
                self._edit(msg, body or {}, files)
                inter.completed.set()
                inter.finished.set()
                return 200, self._message_payload(msg)
            if method == "DELETE":
                msg.deleted = True
                return 204, None
        return None

    def _followup(self, inter: InteractionRecord, body: dict[str, Any],
                  files: dict[str, tuple[str, bytes]]) -> Answer:
        refused = check_message(body, len(files))
        if refused is not None:
            return refused
        flags = int(body.get("flags") or 0)
        loading = [m for m in inter.messages if m.loading]
        private = flags & EPHEMERAL or (inter.callback_type == 5 and loading
                                        and loading[0].ephemeral)
        if not private and self._refuses_post(inter.channel_id, bool(files), webhook=True):
            return discord_error(50013)
        if not private and self.is_archived(inter.channel_id):
            return discord_error(50083)
        if files and inter.t_files is None:
            inter.t_files = time.perf_counter()
        if inter.callback_type == 5 and loading:
            # After a "thinking" defer the first follow-up replaces the loading
            # message, keeping the ephemerality chosen at defer time.
            msg = loading[0]
            # (nothing of it is kept: the new attachments' entries name only new files)
            self._edit(msg, {**body, "attachments": body.get("attachments") or []}, files)
        else:
            msg = self._new_message(body, files, inter.id)
            inter.messages.append(msg)
        inter.completed.set()
        source = inter.original
        if (inter.callback_type != 6 or source is None or not source.ephemeral
                or msg.ephemeral):
            inter.finished.set()  # else the private panel's update is still to come
        return 200, self._message_payload(msg)

    def _interaction_message(self, inter: InteractionRecord, which: str) -> FakeMessage | None:
        msg = inter.original if which == "@original" else self.messages.get(int(which))
        return msg if msg is not None and not msg.deleted else None

    def _callback(self, iid: int, token: str, body: Any,
                  files: dict[str, tuple[str, bytes]]) -> Answer:
        inter = self.interactions.get(token)
        if inter is None or inter.id != iid:
            return discord_error(10062)
        if inter.expired or self.clock.moved - inter.t_created > CALLBACK_SECONDS:
            return discord_error(10062)  # Discord delivered it too late to answer
        if inter.callback_type is not None:
            return discord_error(40060)
        ctype = body["type"]
        data = body.get("data") or {}
        refused = self._check_callback(iid, ctype, data, files)
        if refused is not None:
            return refused
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

    # ------------------------------------------------------------------ message bodies
    def _check_edit(self, msg: FakeMessage, body: dict[str, Any],
                    files: dict[str, tuple[str, bytes]], root: tuple[str, ...] = ()
                    ) -> Answer | None:
        """Discord's refusal of an edit: a field over its limit, or a message left with
        nothing in it (what it keeps counts: an edit of the content alone keeps the files)."""
        refused = check_message(body, len(files), edit=True, root=root)
        if refused is not None:
            return refused
        if "attachments" in body:
            new = {str(i) for i in range(len(files))}
            kept = sum(1 for a in body["attachments"] or [] if str(a.get("id")) not in new)
        else:
            kept = len(msg.files)
        if is_empty(body.get("content", msg.content), body.get("embeds", msg.embeds),
                    body.get("components", msg.components), kept + len(files)):
            return EMPTY
        return None

    def _check_callback(self, iid: int, ctype: int, data: dict[str, Any],
                        files: dict[str, tuple[str, bytes]]) -> Answer | None:
        """An interaction callback's message (``data``): a new one (type 4) or the clicked
        message's edit (type 7), checked as Discord does, its errors under ``data``."""
        if ctype == 4:
            return check_message(data, len(files), root=("data",))
        if ctype == 8:
            return check_choices(data)
        source = self._source_message.get(iid)
        if ctype == 7 and source is not None:
            return self._check_edit(source, data, files, root=("data",))
        return None

    # ------------------------------------------------------------------ direct messages
    def _open_dm(self, body: dict[str, Any], rec: Recorded) -> Answer:
        """``POST /users/@me/channels``: the DM channel with a user (one per user)."""
        if not rec.authorized:
            return UNAUTHORIZED
        user = next((u for u in self.users.values() if str(u.id) == str(
            body.get("recipient_id"))), None)
        if user is None:
            return discord_error(50033)
        cid = next((c for c, u in self.dm_channels.items() if u is user), None)
        if cid is None:
            cid = self.new_id()
            self.dm_channels[cid] = user
        return 200, {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                     "recipients": [user.payload()]}

    def _send_dm(self, cid: int, body: dict[str, Any], files: dict[str, tuple[str, bytes]],
                 rec: Recorded) -> Answer:
        """A message in a DM channel; refused (50007) when the user's DMs are closed."""
        if not rec.authorized:
            return UNAUTHORIZED
        refused = check_message(body, len(files), nonce=True)
        if refused is not None:
            return refused
        if not self.dm_channels[cid].dms_open:
            return discord_error(50007)
        same = self._same_nonce(body)
        if same is not None:  # by author: maybe another user's DM
            self.deduplicated.append(same)
            payload = self._message_payload(same)
            payload.pop("guild_id", None)
            return 200, payload
        msg = self._new_message(body, files, None, channel_id=cid)
        msg.nonce = None if body.get("nonce") is None else str(body["nonce"])
        payload = self._message_payload(msg)
        payload.pop("guild_id", None)
        return 200, payload


def _json(payload: Any, status: int = 200) -> web.Response:
    return web.Response(status=status, body=json.dumps(payload).encode(), headers=JSON_HEADERS)
