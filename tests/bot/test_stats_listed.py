"""The leaderboard members hear (``leaderboard(listed=True)``: the command and the server's
page) rates the listed channels' games only, on both stores: a player of a private
channel only is not ranked; newer games fold onto the kept table with exactly the result
of folding every listed game again; a channel opened or closed refolds them all."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot import ratings
from bot.service import GameService

from .test_service import make_service
from .test_stats import GUILD, finish

OPEN, STAFF = 50, 51


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:
    service = await make_service(db)
    yield service
    await service.close()


async def _expected(svc: GameService, channels: set[int]) -> list[ratings.Ranked]:
    """Every listed game folded from nothing, in the order the store rates games."""
    history = sorted((h for h in await svc.store.history(GUILD) if h.channel_id in channels),
                     key=lambda h: (h.finished_at, h.game_id))
    return ratings.leaderboard(ratings.fold(history).values())


async def test_the_listed_leaderboard_counts_only_listed_channels_games(
        svc: GameService) -> None:
    await svc.see_channel(GUILD, OPEN, everyone=True)
    await svc.see_channel(GUILD, STAFF, everyone=False)
    await finish(svc, ["ann", "bob", "cid"], ["ann"], {"ann": 60, "bob": 50, "cid": 40},
                 channel=OPEN, at=1.0)
    await finish(svc, ["zed", "bob", "yan"], ["zed"], {"zed": 90, "bob": 10, "yan": 5},
                 channel=STAFF, at=2.0)
    board = await svc.leaderboard(GUILD, listed=True)
    assert {r.player for r in board} == {"ann", "bob", "cid"}  # zed and yan: staff only
    assert board == await _expected(svc, {OPEN})
    assert {r.player for r in await svc.leaderboard(GUILD)} >= {"zed", "yan"}  # the bot's
    # a newer listed game folds onto the kept table: the same floats as all folded again
    await finish(svc, ["cid", "ann", "dan"], ["cid"], {"cid": 70, "ann": 20, "dan": 30},
                 channel=OPEN, at=3.0)
    assert await svc.leaderboard(GUILD, listed=True) == await _expected(svc, {OPEN})
    # the staff channel opened to everyone: its (older) game counts, in its place
    await svc.see_channel(GUILD, STAFF, everyone=True)
    board = await svc.leaderboard(GUILD, listed=True)
    assert board == await _expected(svc, {OPEN, STAFF}) and "zed" in {r.player for r in board}
    # and closed again (a manager's choice): gone again
    await svc.list_channel(GUILD, STAFF, False)
    assert await svc.leaderboard(GUILD, listed=True) == await _expected(svc, {OPEN})
