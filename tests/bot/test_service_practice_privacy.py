"""A practice game is its learner's alone, through the service on SQLite and PostgreSQL
(issue 36 item 5): its replay, game file, review and rematch answer anyone else as a number
that names no game does, running or finished; it has no page (its token finds nothing, no link is
made for it); a stranger cannot end it as a suspended game nor see it listed as one."""

from __future__ import annotations

import pytest

from bot.service import GameService, ServiceError
from bot.service.errors import NoGame
from tests.bot.test_service_practice import CHANNEL, GUILD, LEARNER, Learner, follow, make

OTHER = "200000000000000002"


async def _code(call: object) -> str:
    with pytest.raises(ServiceError) as e:
        await call  # type: ignore[misc]
    return e.value.code


async def _raw_token(svc: GameService, game_id: int) -> str:
    """The token the row holds, read around the store's own queries (a guessed link)."""
    rows = await svc.store._fetch(lambda r: str(r[0]),  # noqa: SLF001
                                  "SELECT page_token FROM games WHERE id = ?", (game_id,))
    return rows[0]


async def test_a_practice_game_is_known_to_its_learner_only(db: str) -> None:
    svc = await make(db)
    try:
        start = await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        number = start.game_id
        for asker in (OTHER, "1"):
            for call in (svc.finished_game(GUILD, 9, number, asker=asker),
                         svc.game_file(GUILD, 9, number, asker=asker),
                         svc.finished_game(GUILD, 9, number + 7, asker=asker)):
                assert await _code(call) == "history.no_game"
        assert await _code(svc.finished_game(GUILD, 9, number, asker=LEARNER)) == \
            "history.not_over"
        # no page: neither a link nor the page behind a guessed token
        token = await _raw_token(svc, number)
        with pytest.raises(NoGame):
            await svc.page_token(number)
        for page in (svc.page_game(token), svc.page_replay(token), svc.page_file(token),
                     svc.page_hand(token, LEARNER)):
            with pytest.raises(NoGame):
                await page
        # its thread gone: nobody else ends it nor sees it listed as suspended
        await svc.place_gone(CHANNEL, GUILD)
        with pytest.raises(NoGame):
            await svc.end_suspended(GUILD, OTHER, number, is_admin=True)
        assert await svc.suspended_games(GUILD) == []
        assert await follow(svc, Learner(), taught=False)
        for call in (svc.finished_game(GUILD, 9, number, asker=OTHER),
                     svc.game_file(GUILD, 9, number, asker=OTHER)):
            assert await _code(call) == "history.no_game"
        assert await _code(svc.review(CHANNEL, OTHER, game_id=number)) == "history.no_game"
        with pytest.raises(NoGame):
            await svc.rematch_of(GUILD, number, OTHER)
        mine = await svc.finished_game(GUILD, 9, number, asker=LEARNER)
        assert mine.game_id == number and mine.seed is not None
        assert f'"game": {number}' in await svc.game_file(GUILD, 9, number, asker=LEARNER)
        with pytest.raises(NoGame):
            await svc.page_game(token)
    finally:
        await svc.close()
