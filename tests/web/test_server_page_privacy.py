"""The server's page shows only what every member of the server may view (issue 36 item 5),
on SQLite and PostgreSQL: a channel's games (lobbies, running, recent) and their players'
names appear only once Discord said everyone may view the channel (unknown: private), or a
manager chose the channel; never a private thread's, whatever is chosen for its channel;
a change Discord reports is followed."""

from __future__ import annotations

import random
from typing import Any

from bot.service import GameService
from tests.web.conftest import CHANNEL, GUILD, NAMES, PIDS, start_game
from tests.web.conftest import play_until as until


async def test_a_private_channels_games_and_names_stay_off_the_page(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc, 3)  # in CHANNEL: a staff channel
    await until(svc, u, random.Random(5), lambda u: u.finished)  # a finished game
    await svc.create_lobby(GUILD, 11, PIDS[3], seats=4, name="Zora")  # a lobby
    await svc.create_lobby(GUILD, 12, PIDS[1], seats=3, name=NAMES[1])  # a running game
    for pid, name in ((PIDS[2], NAMES[2]), (PIDS[3], "Zora")):
        await svc.join(12, pid, name=name)
    await svc.start(12, PIDS[1])
    await svc.see_channel(GUILD, CHANNEL, everyone=False)
    await svc.see_channel(GUILD, 12, everyone=False)  # 11: never seen
    token = await svc.set_server_page(GUILD, True)
    client = await client_of(svc)

    async def body() -> str:
        got = await client.get(f"/s/{token}?lang=en")
        assert got.status == 200
        return str(await got.text())

    page = await svc.server_page(token)
    assert not page.lobbies and not page.running and not page.history and not page.names
    text = await body()
    assert not any(n in text for n in ("Ann", "Bob", "Zora", "#1", "/g/"))
    # Discord says the channels opened to everyone (a later sighting): listed
    await svc.see_channel(GUILD, 12, everyone=True)
    await svc.see_channel(GUILD, 11, everyone=True)
    page = await svc.server_page(token)
    assert [g.game_id for g in page.running] == [(await svc.status(12)).game_id]
    assert [lob.channel_id for lob in page.lobbies] == [11] and not page.history
    assert "Zora" in await body()
    # a manager lists the staff channel; then unlists the lobby's: as chosen
    await svc.list_channel(GUILD, CHANNEL, True)
    await svc.list_channel(GUILD, 11, False)
    await svc.see_channel(GUILD, 11, everyone=True)  # seen again: the choice stays
    page = await svc.server_page(token)
    assert [p.history.game_id for p in page.history] == [u.game_id] and not page.lobbies
    await svc.list_channel(GUILD, CHANNEL, None)  # as Discord says again: private
    assert not (await svc.server_page(token)).history
    stored = {v.channel_id: v for v in await svc.seen_channels(GUILD)}
    assert set(stored) == {CHANNEL, 11, 12} and await svc.seen_channels(GUILD + 1) == []
    assert stored[11].everyone and stored[11].listed is False and stored[CHANNEL].listed is None
