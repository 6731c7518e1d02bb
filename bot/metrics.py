"""What the people who run the bot measure (Prometheus, through ``prometheus-client``): one
registry for the process, counted into by the Discord adapter (interactions and their answer
times, Discord's refusals by code) and the web pages (render and answer times, watchers),
read by the pages' ``/metrics`` (``bot.web.ops``). Below both: neither imports the other.

The outbox's depth and oldest age and the store's latency are read when ``/metrics`` is
scraped (``ops``), not counted as they happen: the store is the truth across processes.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

INTERACTIONS = Counter("sanmarco_interactions", "Interactions answered, by kind.", ["kind"],
                       registry=REGISTRY)
ANSWER_SECONDS = Histogram("sanmarco_answer_seconds",
                           "Time from an interaction to its first answer.",
                           buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 3, 5),
                           registry=REGISTRY)
REFUSALS = Counter("sanmarco_discord_refusals", "Discord's refusals and failures, by code.",
                   ["code"], registry=REGISTRY)
RENDER_SECONDS = Histogram("sanmarco_web_render_seconds", "Time to draw a board picture.",
                           buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2),
                           registry=REGISTRY)
PAGE_SECONDS = Histogram("sanmarco_web_request_seconds", "Time to answer a web request.",
                         ["route"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
                         registry=REGISTRY)
WATCHERS = Gauge("sanmarco_web_watchers", "Pages following a game live.", registry=REGISTRY)
OUTBOX_POSTS = Gauge("sanmarco_outbox_posts", "Posts waiting for Discord.", registry=REGISTRY)
OUTBOX_AGE = Gauge("sanmarco_outbox_oldest_seconds", "Age of the oldest post waiting.",
                   registry=REGISTRY)
STORE_SECONDS = Gauge("sanmarco_store_latency_seconds",
                      "Time of the last read of the store (at a scrape or a readiness check).",
                      registry=REGISTRY)
WORK_SECONDS = Histogram("sanmarco_work_seconds",
                         "Time of a job in the worker lanes (bot.work), by kind.", ["kind"],
                         buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 15), registry=REGISTRY)
WORK_REFUSED = Counter("sanmarco_work_refused", "Jobs refused busy (bot.work), by kind.",
                       ["kind"], registry=REGISTRY)
