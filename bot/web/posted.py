"""Whether a seat's move reached its channel, as its page says it: the post of the version
the page shows is being sent (saved), sent, or waits for Discord (down, slow, a 429, a
missing permission), in the words a button's answer uses (``text.post_state``). Read from
the outbox (``GameService.page_post``), so every tab and device of the seat says the same,
and a page asks again until the post is out."""

from __future__ import annotations

from bot import text
from bot.i18n import Tr
from bot.service import GameService

PENDING = frozenset({"saved", "waiting", "blocked"})  # the page asks again until it is out


async def post_json(tr: Tr, service: GameService, token: str,
                    version: int) -> dict[str, int | str]:
    """The post state of ``version`` of the game behind ``token``, with its sentence."""
    got = await service.page_post(token, version)
    return {"version": got.version, "state": got.state,
            "said": text.post_state(tr, got.state, got.permission)}
