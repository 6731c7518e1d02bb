"""Issue 36, "the page always right", through the real application (SQLite and PostgreSQL):
a picture's address names the game's version and is cached for good, so a move taken back
and played otherwise is a new address (an old address is sent on to the current one, never
the old board); the live event carries since when the game waits; a finished game's page
says it is over and stops claiming live; the server page's recent games link their pages;
a favicon."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.service import GameService
from tests.web.conftest import (
    CHANNEL,
    GUILD,
    start_game,
    token_of,
    undo_and_play_otherwise,
)
from tests.web.conftest import play_until as until
from tests.web.sse import events_until

_BOARD = re.compile(r'<img id="board" src="(/g/[0-9a-f]+/v/([0-9]+)/replay/([0-9]+)\.png)\?')


async def _board(client: Any, token: str) -> tuple[str, int, int]:
    body = await (await client.get(f"/g/{token}?lang=en")).text()
    found = _BOARD.search(body)
    assert found, body[:2000]
    return found[1], int(found[2]), int(found[3])


async def test_a_move_taken_back_and_played_otherwise_is_a_new_picture_address(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc)
    rng = random.Random(11)
    u = await until(svc, u, rng, lambda u: u.view["round"] >= 1)
    client = await client_of(svc)
    token = await token_of(svc)
    made, instead = await undo_and_play_otherwise(svc, u, rng)

    # the page as it was right after the move later taken back
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None
    src, version, step = await _board(client, token)
    assert version == row.version
    shown = await client.get(src + "?lang=en")
    assert shown.status == 200
    assert shown.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    new = await shown.read()

    # the step's number is the same as the taken-back move's, its address is not
    assert step == len((await svc.log(CHANNEL)).entries) - 1
    events = await client.get(f"/g/{token}/events?lang=en&after={version - 3}")
    sent = await events_until(events, version)
    events.close()
    assert any(e.data.get("reset") or "log" in e.data for e in sent)  # the log is redrawn
    last = sent[-1].data
    assert last["board"] == src and last["pictures"] == version

    # an older version's address of that step is sent on to the current one
    old = src.replace(f"/v/{version}/", f"/v/{version - 2}/")
    moved = await client.get(old + "?lang=en", allow_redirects=False)
    assert moved.status == 302 and moved.headers["Location"] == src + "?lang=en"
    assert "immutable" not in moved.headers.get("Cache-Control", "")
    assert await (await client.get(old + "?lang=en")).read() == new
    # the address without a version (older pages) goes to the current one too
    assert await (await client.get(f"/g/{token}/replay/{step}.png?lang=en")).read() == new
    # a version the game has not reached names nothing
    ahead = src.replace(f"/v/{version}/", f"/v/{version + 1}/")
    assert (await client.get(ahead)).status == 404


async def test_the_stream_carries_since_when_the_game_waits(
        svc: GameService, client_of: Any) -> None:
    await svc.set_settings(CHANNEL, turn_timer_hours=24)
    u = await start_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None
    stream = await client.get(f"/g/{token}/events?lang=en&after={row.version}")
    svc.clock.t += 600  # type: ignore[attr-defined]  # ten minutes later, a move
    u = await until(svc, u, random.Random(3), lambda v: v.version > u.version)
    sent = await events_until(stream, u.version)
    stream.close()
    last = sent[-1].data
    assert last["since"] == svc.clock.t  # type: ignore[attr-defined]
    assert last["deadline"] == svc.clock.t + 24 * 3600  # type: ignore[attr-defined]
    assert "Waiting since" in last["timing"] and "<time datetime=" in last["timing"]
    assert "The turn timer runs out" in last["timing"]


async def test_a_finished_games_page_says_it_is_over_and_not_live(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc, 3)
    await until(svc, u, random.Random(5), lambda u: u.finished)
    client = await client_of(svc)
    body = await (await client.get(f"/g/{await token_of(svc)}?lang=en")).text()
    assert "This game is over" in body
    assert "Live:" not in body and 'class="live"' not in body
    assert 'data-status="finished"' in body


async def test_the_server_pages_recent_games_link_their_pages_and_a_favicon(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc, 3)
    await until(svc, u, random.Random(5), lambda u: u.finished)
    await svc.see_channel(GUILD, CHANNEL, everyone=True)  # every member may view it: listed
    client = await client_of(svc)
    token = await svc.set_server_page(GUILD, True)
    body = await (await client.get(f"/s/{token}?lang=en")).text()
    history = body[body.index("Recent games"):]
    assert f'href="/g/{await token_of(svc)}?lang=en"' in history
    assert '<link rel="icon" href="/favicon.ico"' in body
    icon = await client.get("/favicon.ico")
    assert icon.status == 200 and icon.content_type == "image/png"
    assert (await icon.read())[:8] == b"\x89PNG\r\n\x1a\n"
