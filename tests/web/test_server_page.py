"""A server's page, on SQLite and PostgreSQL: hidden until its managers show it, then its
open lobbies with free seats, the games being played (linking their pages), the leaderboard
and the recent games, by the names the games show: no Discord id, no channel, no secret."""

from __future__ import annotations

import random
from typing import Any

from bot.service import GameService
from tests.web.conftest import GUILD, NAMES, PIDS, start_game, token_of
from tests.web.conftest import play_until as until


async def test_a_servers_page_is_hidden_until_shown_then_lists_its_games(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc, 3)
    await until(svc, u, random.Random(5), lambda u: u.finished)  # a finished game
    await svc.create_lobby(GUILD, 11, PIDS[0], seats=4, name=NAMES[0])  # a lobby, 3 free
    await svc.create_lobby(GUILD, 12, PIDS[1], seats=3, name=NAMES[1])  # a running game
    for pid, name in ((PIDS[2], NAMES[2]), (PIDS[3], NAMES[3])):
        await svc.join(12, pid, name=name)
    running = await svc.start(12, PIDS[1])
    running = await until(svc, running, random.Random(8),
                          lambda u: u.view["phase"] == "split", channel=12)
    for channel in (10, 11, 12):  # channels every member may view (as Discord says)
        await svc.see_channel(GUILD, channel, everyone=True)
    client = await client_of(svc)
    assert await svc.server_page_token(GUILD) is None  # off by default
    token = await svc.set_server_page(GUILD, True)
    assert await svc.server_page_token(GUILD) == token
    page = await client.get(f"/s/{token}?lang=en")
    body = await page.text()
    assert page.status == 200 and "San Marco on this server" in body
    assert "3 seats free" in body and "Ann" in body
    row = await svc.store.latest_game(12)
    assert row is not None
    assert f"/g/{await svc.page_token(row.id)}" in body  # the running game's page
    assert "won by" in body and "Leaderboard" in body
    distributor = running.view["waiting_for"][0]
    drawn = (await svc.private_view(12, distributor))["private"]["drawn"]
    assert not any(pid in body for pid in PIDS) and "12</" not in body
    assert str(drawn) not in body and "drawn" not in body
    assert "Laufende Partien" in await (await client.get(f"/s/{token}?lang=de")).text()
    await svc.set_server_page(GUILD, False)
    assert (await client.get(f"/s/{token}")).status == 404
    assert await svc.set_server_page(GUILD, True) == token  # the same address again
    assert (await client.get(f"/s/{'0' * 32}")).status == 404
    assert (await client.get(f"/s/{await token_of(svc)}")).status == 404  # a game's token
