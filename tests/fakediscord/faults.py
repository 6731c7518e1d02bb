"""Discord failing as it does: 5xx answers (a number of times, or during an outage window),
a message stored and then answered with a 5xx, 429s with Discord's headers, the per-channel
limit of 5 posts per 5 seconds, and Discord's error codes — each answer recorded (route,
status, code, channel) so tests can count them.

Routes are named as Discord's API reference names them (``POST /channels/{channel_id}/
messages``); a webhook or callback route belongs to its interaction's channel.

What discord.py does with them: the bot's own requests (channel messages, edits) retry
500, 502, 504 and 524 after 1, 3, 5, 7, 9 seconds and then give up (25 s), and raise a 503
at once; interaction follow-ups and edits (its webhook adapter) retry every 5xx the same
way. A 429 is waited out and retried only when it carries ``Via`` and a JSON body with
``retry_after``. Every other error is raised at once.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

CHANNEL_POST = "POST /channels/{channel_id}/messages"
FOLLOWUP = "POST /webhooks/{application_id}/{interaction_token}"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"  # GET, PATCH, DELETE
WEBHOOK_MESSAGE = "/webhooks/{application_id}/{interaction_token}/messages/{message_id}"
CHANNEL = "/channels/{channel_id}"  # GET, PATCH (a thread's archived flag)
POSTS = (CHANNEL_POST, FOLLOWUP)  # every way the bot makes a message
EDITS = (f"PATCH {CHANNEL_MESSAGE}", f"PATCH {WEBHOOK_MESSAGE}")

# Discord's JSON error codes the fake answers: code -> (HTTP status, message).
ERRORS: dict[int, tuple[int, str]] = {
    10003: (404, "Unknown Channel"),
    10007: (404, "Unknown Member"),
    10008: (404, "Unknown Message"),
    10015: (404, "Unknown Webhook"),
    10062: (404, "Unknown interaction"),
    40060: (400, "Interaction has already been acknowledged."),
    50001: (403, "Missing Access"),
    50007: (403, "Cannot send messages to this user"),
    50013: (403, "Missing Permissions"),
    50027: (401, "Invalid Webhook Token"),
    50033: (400, "Invalid Recipient(s)"),
    50083: (400, "Thread is archived"),
}
# What the edge answers for a 5xx: no JSON, as Cloudflare and Discord's proxies send it.
SERVER_ERRORS: dict[int, str] = {
    500: '{"message": "500: Internal Server Error", "code": 0}',
    502: "<html><head><title>502 Bad Gateway</title></head></html>",
    503: "upstream connect error or disconnect/reset before headers. reset reason: overflow",
    504: "<html><head><title>504 Gateway Timeout</title></head></html>",
}
INVALID_STATUSES = (401, 403, 429)  # Discord bans an IP at 10,000 of these per 10 minutes


def error(code: int) -> tuple[int, dict[str, Any]]:
    """Discord's answer for a JSON error code: (status, body)."""
    status, message = ERRORS[code]
    return status, {"message": message, "code": code}


class Clock:
    """The fake's time: the machine's monotonic clock plus what tests moved it on.

    Outage windows and the post limit run on ``now()``. Discord's deadlines for
    interactions run on ``moved`` alone, so a slow machine never makes an interaction
    late by itself: only a test that moves the clock does."""

    def __init__(self) -> None:
        self.moved = 0.0

    def now(self) -> float:
        return time.monotonic() + self.moved

    def advance(self, seconds: float) -> None:
        self.moved += seconds


@dataclass
class Answer:
    """An error the fake answered (injected, or what Discord says for that request)."""

    route: str
    status: int
    code: int | None
    channel: int | None
    injected: bool
    at: float  # on the fake's clock
    scope: str | None = None  # X-RateLimit-Scope of a 429


@dataclass
class Fault:
    """One injected fault: which requests it hits and what they are answered."""

    routes: tuple[str, ...]
    status: int
    code: int | None = None
    times: int | None = 1  # None: until ``stop()`` or the window's end
    until: float | None = None  # the window's end on the fake's clock
    channel: int | None = None  # only requests acting on this channel
    ephemeral: bool = False  # also private answers (an outage on posts spares them)
    stored: bool = False  # the message is made first, then the error is answered
    dropped: bool = False  # no answer at all: the connection is closed (a network failure)
    retry_after: float = 1.0  # a 429's
    is_global: bool = False  # a 429 of the global limit
    scope: str = "user"  # a 429's X-RateLimit-Scope: user, global or shared
    then: Callable[[], object] | None = None  # called once ``times`` hits have been made
    content: str | None = None  # only a message whose content holds this (a body refused)
    hits: int = 0
    stopped: bool = False

    def matches(self, route: str, channel: int | None, public: bool, now: float,
                content: str = "") -> bool:
        if self.stopped or (self.until is not None and now >= self.until):
            return False
        if self.content is not None and self.content not in content:
            return False
        if self.times is not None and self.hits >= self.times:
            return False
        if self.channel is not None and channel != self.channel:
            return False
        return (public or self.ephemeral) and any(_route_is(route, r) for r in self.routes)

    def stop(self) -> None:
        """The fault is over: Discord answers these requests again."""
        self.stopped = True

    def __enter__(self) -> Fault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answer(self) -> tuple[int, Any, dict[str, str]]:
        """(status, body, headers) as Discord sends them."""
        if self.status == 429:
            return rate_limited(self.retry_after, is_global=self.is_global, scope=self.scope)
        if self.status >= 500:
            return self.status, SERVER_ERRORS.get(self.status, SERVER_ERRORS[503]), {
                "Content-Type": "application/json" if self.status == 500 else "text/plain"}
        status, body = error(self.code or 0) if self.code in ERRORS else (
            self.status, {"message": f"{self.status}", "code": self.code or 0})
        return status, body, {}


def _route_is(route: str, pattern: str) -> bool:
    """``pattern`` names the route with its method, or any method (``/channels/...``)."""
    return route == pattern or (pattern.startswith("/") and route.split(" ", 1)[1] == pattern)


def rate_limited(retry_after: float, *, is_global: bool = False, scope: str = "user",
                 limit: int = 5, bucket: str = "f4e3d2c1b0a9") -> tuple[int, Any, dict[str, str]]:
    """A 429 with Discord's headers and body (``Via`` is what discord.py checks to tell
    Discord's 429 from a Cloudflare ban)."""
    headers = {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": "0",
               "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
               "X-RateLimit-Reset-After": f"{retry_after:.3f}", "X-RateLimit-Bucket": bucket,
               "X-RateLimit-Scope": "global" if is_global else scope,
               "Retry-After": str(max(1, math.ceil(retry_after))), "Via": "1.1 google",
               "Content-Type": "application/json"}
    if is_global:
        headers["X-RateLimit-Global"] = "true"
        del headers["X-RateLimit-Bucket"]
    return 429, {"message": "You are being rate limited.", "retry_after": retry_after,
                 "global": is_global}, headers


@dataclass
class Faults:
    """The faults injected into one fake Discord, and every error it answered."""

    clock: Clock
    rules: list[Fault] = field(default_factory=list)
    answered: list[Answer] = field(default_factory=list)
    post_limit: tuple[int, float] | None = None  # (posts, seconds) per channel, if enforced
    limit_reached: int = 0  # posts that used a channel's last slot (answered Remaining: 0)
    _posts: dict[int, deque[float]] = field(default_factory=dict)

    # ------------------------------------------------------------------ injecting
    def add(self, fault: Fault) -> Fault:
        self.rules.append(fault)
        return fault

    def fail(self, *routes: str, status: int = 503, code: int | None = None,
             times: int | None = 1, channel: int | None = None, ephemeral: bool = False,
             then: Callable[[], object] | None = None, content: str | None = None) -> Fault:
        """Answer the next ``times`` matching requests with ``status`` (and ``code``, a
        Discord error code); ``then`` runs after the last of them; ``content``: only
        messages whose content holds this text (a body Discord will never take)."""
        return self.add(Fault(routes or POSTS, status, code, times, channel=channel,
                              ephemeral=ephemeral, then=then, content=content))

    def outage(self, *routes: str, seconds: float | None = None, status: int = 503,
               channel: int | None = None, ephemeral: bool = False) -> Fault:
        """Every matching request fails for ``seconds`` on the fake's clock (None: until
        ``stop()``, or the end of a ``with`` block). 503 by default: discord.py gives a
        channel post up at once, where a 502 (or a follow-up's 503) it tries for 25 s."""
        until = None if seconds is None else self.clock.now() + seconds
        return self.add(Fault(routes or POSTS, status, times=None, until=until,
                              channel=channel, ephemeral=ephemeral))

    def stored_then(self, *routes: str, status: int = 502, times: int = 1,
                    channel: int | None = None) -> Fault:
        """The message is made, then ``status`` is answered (the bot cannot know it was)."""
        return self.add(Fault(routes or POSTS, status, times=times, channel=channel,
                              stored=True))

    def drop(self, *routes: str, times: int | None = 1, ephemeral: bool = True) -> Fault:
        """Close the connection of the next ``times`` matching requests without an answer
        (Discord unreachable mid-request: the client raises a network error, not an HTTP
        one); private answers too unless ``ephemeral`` is False."""
        return self.add(Fault(routes or POSTS, 0, None, times, ephemeral=ephemeral,
                              dropped=True))

    def rate_limit(self, *routes: str, retry_after: float = 0.5, times: int = 1,
                   is_global: bool = False, scope: str = "user",
                   channel: int | None = None) -> Fault:
        """429s with Discord's headers; ``is_global`` for the global limit."""
        return self.add(Fault(routes or POSTS, 429, times=times, channel=channel,
                              retry_after=retry_after, is_global=is_global,
                              scope="global" if is_global else scope, ephemeral=True))

    def limit_posts(self, count: int = 5, per: float = 5.0) -> None:
        """Enforce Discord's per-channel limit on channel messages (5 per 5 seconds): an
        answer carries the bucket's headers, a post over it is a 429."""
        self.post_limit = (count, per)

    def clear(self) -> None:
        for rule in self.rules:
            rule.stop()

    # ------------------------------------------------------------------ answering
    def pick(self, route: str, channel: int | None, public: bool,
             content: str = "") -> Fault | None:
        """The fault this request meets, if any (and count it as hit); ``content``: the
        message's, if it makes one."""
        now = self.clock.now()
        fault = next((f for f in self.rules
                      if f.matches(route, channel, public, now, content)), None)
        if fault is not None:
            fault.hits += 1
            if fault.times is not None and fault.hits == fault.times and fault.then:
                fault.then()
        return fault

    def take_post_slot(self, channel: int) -> tuple[float | None, dict[str, str]]:
        """Under the per-channel limit: (None, the bucket's headers) and the post counts;
        over it: (seconds until a slot frees, {})."""
        if self.post_limit is None:
            return None, {}
        count, per = self.post_limit
        now = self.clock.now()
        times = self._posts.setdefault(channel, deque())
        while times and now - times[0] >= per:
            times.popleft()
        if len(times) >= count:
            return per - (now - times[0]), {}
        times.append(now)
        self.limit_reached += len(times) == count
        reset_after = per - (now - times[0])
        return None, {"X-RateLimit-Limit": str(count),
                      "X-RateLimit-Remaining": str(count - len(times)),
                      "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                      "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                      "X-RateLimit-Bucket": "80c17d2f203122d936070c88c8d10f33"}

    def record(self, route: str, status: int, body: Any, channel: int | None, *,
               injected: bool, scope: str | None = None) -> None:
        code = body.get("code") if isinstance(body, dict) else None
        self.answered.append(Answer(route, status, code or None, channel, injected,
                                    self.clock.now(), scope))

    # ------------------------------------------------------------------ counting
    def count(self, *, route: str | None = None, status: int | None = None,
              code: int | None = None, channel: int | None = None,
              injected: bool | None = None, since: float | None = None) -> int:
        """How many errors were answered that match every given field."""
        return sum(1 for a in self.answered
                   if (route is None or _route_is(a.route, route))
                   and (status is None or a.status == status)
                   and (code is None or a.code == code)
                   and (channel is None or a.channel == channel)
                   and (injected is None or a.injected == injected)
                   and (since is None or a.at >= since))

    @property
    def injected(self) -> list[Answer]:
        return [a for a in self.answered if a.injected]

    @property
    def invalid_requests(self) -> int:
        """Requests Discord counts towards its ban (401, 403, and 429 except those of a
        shared limit)."""
        return sum(1 for a in self.answered if a.status in INVALID_STATUSES
                   and not (a.status == 429 and a.scope == "shared"))
