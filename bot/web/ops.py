"""For the people who run the bot: ``/healthz`` (the process answers), ``/readyz`` (the
store answers, the gateway is connected when a bot runs here, the outbox is not stuck: its
oldest waiting post is younger than a bound) and ``/metrics`` (Prometheus' text format).
"""

from __future__ import annotations

import json
import time
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.metrics import OUTBOX_AGE, OUTBOX_POSTS, REGISTRY, STORE_SECONDS
from bot.service import GameService, ServiceError
from bot.store import OutboxDepth


def add_routes(app: web.Application, service_key: web.AppKey[GameService],
               options_key: web.AppKey[Any]) -> None:
    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(request: web.Request) -> web.Response:
        options = request.app[options_key]
        checks: dict[str, object] = {}
        depth = await _depth(request.app[service_key])
        checks["store"] = depth is not None
        if options.gateway is not None:
            checks["gateway"] = bool(options.gateway())
        if depth is not None:
            age = _age(request.app[service_key], depth)
            checks["outbox"] = age < options.outbox_bound
            checks["outbox_posts"] = depth.posts
            checks["outbox_oldest_seconds"] = round(age, 1)
        ready = all(v for k, v in checks.items() if isinstance(v, bool))
        return web.Response(status=200 if ready else 503, content_type="application/json",
                            text=json.dumps({"ready": ready, **checks}))

    async def metrics(request: web.Request) -> web.Response:
        await _depth(request.app[service_key])
        return web.Response(body=generate_latest(REGISTRY),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.router.add_get("/healthz", healthz, name="healthz")
    app.router.add_get("/readyz", readyz, name="readyz")
    app.router.add_get("/metrics", metrics, name="metrics")


async def _depth(service: GameService) -> OutboxDepth | None:
    """The outbox's depth, the store's latency measured by reading it (None: the store
    did not answer)."""
    started = time.perf_counter()
    try:
        depth = await service.outbox_depth()
    except ServiceError:
        return None
    STORE_SECONDS.set(time.perf_counter() - started)
    OUTBOX_POSTS.set(depth.posts)
    OUTBOX_AGE.set(_age(service, depth))
    return depth


def _age(service: GameService, depth: OutboxDepth) -> float:
    """The oldest waiting post's age by the service's clock (the one that dated it)."""
    return 0.0 if depth.oldest is None else max(0.0, service.clock() - depth.oldest)
