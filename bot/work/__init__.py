"""One place for CPU work, off the event loop (issue 36): board pictures, page pictures,
replays, hints, reviews, the listed leaderboard, ``/check``'s verify and the computer
players' thinking run here, in worker processes when configured (else threads), never on
the loop.

Two lanes, so Discord's own board pictures (the outbox's) never wait behind a page's
picture or a hint: ``discord`` (the outbox's pictures, the computer players' thinking; never
refused) and ``side`` (everything a page, a hint or a review asks for; its processes run at
a lower OS priority). Each kind of side job has a bounded queue and a budget: a job that
cannot start within its budget, or finds its kind's queue full, raises ``Busy`` (with a
retry-after) which callers turn into a clear answer — a 503 with Retry-After, a catalogue
sentence — never a slower game for everyone else.

A job is a module-level function of plain picklable values (public view dicts, actions as
``Action`` values, rows), so a spawned process can import and run it.

This room sits at the bottom of the bot's layers: it imports nothing of the bot.
"""

from __future__ import annotations

from .lanes import (
    CHECK,
    DISCORD,
    HINT,
    PICTURE,
    RATING,
    REPLAY,
    REVIEW,
    Busy,
    Kind,
    Workers,
    default_processes,
)

__all__ = ["CHECK", "DISCORD", "HINT", "PICTURE", "RATING", "REPLAY", "REVIEW", "Busy", "Kind",
           "Workers", "default_processes"]
