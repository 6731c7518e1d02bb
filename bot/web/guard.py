"""The guard every request passes: each answer, errors included, is a page in the reader's
language with the security headers; whatever went wrong inside is logged once with its
traceback and answered 500 (never aiohttp's bare page); a request over a limit is
answered 429 or 503 with ``Retry-After``; numbers in an address are read strictly.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot import i18n, text
from bot.metrics import PAGE_SECONDS
from bot.service import ServiceError

from . import html
from .doors import Refused

log = logging.getLogger("bot.web")

SECURITY = {
    # no other site, no inline script: a display name can never run as code
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a page's address (its token) stays with its reader
}
DIGITS = 9  # the most digits a number in an address may have (a version, a step, a moment)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def language(request: web.Request) -> str:
    return html.choose_language(request.query.get("lang"),
                                request.headers.get("Accept-Language"))


def number(raw: str | None, digits: int = DIGITS) -> int:
    """A number in an address: ASCII digits only, at most ``digits`` of them; anything
    else (``²``, ``-1``, ``1e9``, ``٣``) is a 400."""
    if raw is None or not (0 < len(raw) <= digits and raw.isascii() and raw.isdigit()):
        raise web.HTTPBadRequest()
    return int(raw)


def refusal(request: web.Request, status: int, retry_after: int | None = None,
            headers: dict[str, str] | None = None, code: str | None = None) -> web.Response:
    """The page answering HTTP error ``status``, in the reader's language (``code``: the
    service's refusal whose catalogue sentence the page says instead)."""
    lang = language(request)
    tr = i18n.translations(lang)
    heading, sentence = text.refused(tr, status)
    if code is not None:
        sentence = text.refusal(tr, code)
    page = html.sorry_page(lang, (heading, sentence))
    extra = dict(headers or {})
    if retry_after is not None:
        extra["Retry-After"] = str(retry_after)
    extra.setdefault("Cache-Control", "no-store")
    return web.Response(status=status, text=page, content_type="text/html", headers=extra)


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer: a page for each refusal, the security headers, its time measured."""
    started = time.perf_counter()
    route = request.match_info.route.name or "unknown"
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:  # a redirect
            response = web.Response(status=exc.status, headers=exc.headers)
        else:
            kept = {k: v for k, v in exc.headers.items() if k in ("Allow", "Retry-After")}
            response = refusal(request, exc.status, headers=kept)
            if exc.status in (408, 413):  # what is left of its body is not waited for
                response.force_close()
    except Refused as exc:
        response = refusal(request, exc.status, exc.retry_after)
    except ServiceError as exc:
        wait = exc.params.get("retry_after")
        if isinstance(wait, int):  # the worker lanes are full (WorkBusy): nothing was done
            return _measured(route, started, refusal(request, 503, max(1, wait),
                                                     code=exc.code))
        # the store did not answer (the service logged it)
        log.warning("web: a %s request answered 503: the store said %s", route, exc.code)
        response = web.Response(status=503, text=html.store_away_page(language(request)),
                                content_type="text/html", headers={"Retry-After": "5"})
    except (asyncio.CancelledError, ConnectionResetError):
        raise  # the reader left
    except Exception as exc:
        wait = getattr(exc, "retry_after", None)  # the workers are busy: come back later
        if isinstance(wait, int | float) and not isinstance(wait, bool):
            response = refusal(request, 503, max(1, int(wait)))
        else:
            log.exception("web: a %s request failed", route)
            response = refusal(request, 500)
    return _measured(route, started, response)


def _measured(route: str, started: float, response: web.StreamResponse) -> web.StreamResponse:
    if route != "events":  # a stream's time is how long it was read
        PAGE_SECONDS.labels(route).observe(time.perf_counter() - started)
    return response


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    """Before any answer starts (a page, a picture, a stream, an error): the headers."""
    for key, value in SECURITY.items():
        response.headers.setdefault(key, value)
