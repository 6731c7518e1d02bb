"""What Discord's refusals mean for the bot, in one place.

Discord fails in ordinary ways every week: 5xx answers and outages, 429s, a channel deleted
or a permission taken away, a message a user deleted, a click delivered too late to answer.
Each is an expected condition with a code, not a bug of ours: it is logged as one WARNING
line (the code, what the bot was doing, the channel), never with a traceback, and the outbox
decides from its ``Fault`` whether to retry, wait, or give the place up. A traceback in the
log means a bug of ours.

Codes (Discord's JSON error codes):
https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import Enum

import aiohttp
import discord

from bot.metrics import REFUSALS

log = logging.getLogger("bot.discord")

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062  # a click Discord delivered too late to answer (3 s)
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001  # the bot lost View Channel (or never had it)
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027  # an interaction's token expired (15 minutes)
ARCHIVED_THREAD = 50083  # "Operation is not allowed on an archived thread"
THREAD_LOCKED = 160005
TOO_MANY_THREADS = 160006  # a server has at most 1,000 active threads


class FaultKind(Enum):
    """What the bot does about a refusal."""

    RETRY = "retry"  # Discord may take it later: 5xx, an outage, a 429, the network
    BLOCKED = "blocked"  # a permission is missing: wait (doubling), tell whoever can act
    GONE = "gone"  # the channel is deleted: nothing can be posted there again
    ARCHIVED = "archived"  # a thread Discord archived: unarchive it, then post
    NO_MESSAGE = "no_message"  # the message to edit was deleted: post anew
    EXPIRED = "expired"  # the interaction can no longer be answered (late, or its token)
    REFUSED = "refused"  # Discord will never take this request as it is: a bug of ours


@dataclass(frozen=True)
class Fault:
    """A refusal as the bot reads it: ``status`` (HTTP) and ``code`` (Discord's JSON code,
    0 when there is none); ``route`` the request Discord refused (method and path, tokens
    left out); ``permission`` is what a BLOCKED place lacks, when known."""

    kind: FaultKind
    status: int
    code: int
    text: str
    permission: str | None = None
    route: str = ""


def route_of(exc: discord.HTTPException) -> str:
    """``POST /channels/123/messages``: the refused request, without Discord's API prefix
    and without an interaction's or a webhook's token (a token is a password for 15
    minutes: never in a log)."""
    response = getattr(exc, "response", None)
    url = getattr(response, "url", None)
    method = getattr(response, "method", None) or ""
    if url is None:
        return ""
    parts = str(getattr(url, "path", url)).split("/")
    if "v10" in parts:
        parts = parts[parts.index("v10") + 1:]
    for head in ("interactions", "webhooks"):
        if parts[:1] == [head] and len(parts) > 2:
            parts[2] = "…"  # the token
    return f"{method} /{'/'.join(p for p in parts if p)}".strip()


_BY_CODE: dict[int, FaultKind] = {
    UNKNOWN_CHANNEL: FaultKind.GONE,
    UNKNOWN_MESSAGE: FaultKind.NO_MESSAGE,
    MISSING_ACCESS: FaultKind.BLOCKED,
    MISSING_PERMISSIONS: FaultKind.BLOCKED,
    THREAD_LOCKED: FaultKind.BLOCKED,
    ARCHIVED_THREAD: FaultKind.ARCHIVED,
    UNKNOWN_INTERACTION: FaultKind.EXPIRED,
    ALREADY_ACKNOWLEDGED: FaultKind.EXPIRED,
    INVALID_WEBHOOK_TOKEN: FaultKind.EXPIRED,
    UNKNOWN_WEBHOOK: FaultKind.EXPIRED,
}


def classify(exc: BaseException) -> Fault | None:
    """The fault Discord (or the way to it) reported; None when ``exc`` is not Discord's
    doing (then it is a bug of ours)."""
    if isinstance(exc, discord.RateLimited):
        return Fault(FaultKind.RETRY, 429, 0, f"rate limited for {exc.retry_after:.1f} s")
    if isinstance(exc, discord.HTTPException):
        status, code = exc.status, exc.code
        text = exc.text or str(exc)
        if isinstance(exc, discord.DiscordServerError) or status >= 500 or status == 429:
            return Fault(FaultKind.RETRY, status, code, text, route=route_of(exc))
        kind = _BY_CODE.get(code)
        if kind is None:
            kind = FaultKind.BLOCKED if status == 403 else FaultKind.REFUSED
        permission = "view_channel" if code == MISSING_ACCESS else None
        return Fault(kind, status, code, text, permission, route_of(exc))
    if isinstance(exc, aiohttp.ClientError | asyncio.TimeoutError | ConnectionError):
        return Fault(FaultKind.RETRY, 0, 0, f"{type(exc).__name__}: {exc}")
    return None


def log_fault(fault: Fault, doing: str, channel: int | None, *, level: int = logging.WARNING
              ) -> None:
    """One line for the operator: what the bot was doing, where, and what Discord said
    (counted by code for ``/metrics``)."""
    REFUSALS.labels(str(fault.code or fault.status or "no answer")).inc()
    log.log(level, "channel %s: %s: Discord answered %s (code %s) to %s: %s", channel, doing,
            fault.status or "no answer", fault.code, fault.route or "the request", fault.text)


def lacking(client: discord.Client, channel: int) -> str:
    """Which permission a refused post lacked, from what the client's cache says the bot
    may do in the channel (a thread: in its text channel; Send Messages if it cannot tell)."""
    cached = client.get_channel(channel)
    needed = ("view_channel", "send_messages")
    if isinstance(cached, discord.Thread):
        needed = ("view_channel", "send_messages_in_threads")
    if isinstance(cached, discord.abc.GuildChannel | discord.Thread):
        me = cached.guild.me
        have = cached.permissions_for(me)
        for name in needed:
            if not getattr(have, name):
                return name
    return needed[1]
