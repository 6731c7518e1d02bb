"""A game's page through aiohttp's test client, on SQLite and PostgreSQL: what it shows (the
board, its facts, the log, in the reader's language), what it refuses (a forged token, a
game's number, an unknown path, an oversized request), what it never shows (a
distributor's cards, the seed of a running game: every response of every route searched),
and the game file's check."""

from __future__ import annotations

import json
import logging
import random
import re
from typing import Any

from bot.service import GameService
from engine.replay import verify
from tests.web.conftest import (
    CHANNEL,
    NAMES,
    PIDS,
    SEED,
    make_service,
    start_game,
    token_of,
)
from tests.web.conftest import play_until as until
from tests.web.sse import events_until


async def test_a_game_page_shows_the_board_its_facts_and_the_log(
        svc: GameService, client_of: Any) -> None:
    """The board picture with its alt text, the facts as HTML (the Doge, prestige and limit
    per player, each district's leader), the log with the players' names (not Discord
    mentions), the replay slider over every step, in the browser's language or ?lang."""
    u = await start_game(svc)
    u = await until(svc, u, random.Random(3), lambda u: u.view["round"] >= 1)
    client = await client_of(svc)
    token = await token_of(svc)
    page = await client.get(f"/g/{token}", headers={"Accept-Language": "fr-CH, de;q=0.5"})
    assert page.status == 200
    body = await page.text()
    assert '<html lang="fr">' in body and "Le plateau" in body
    assert 'alt="Le plateau de San Marco' in body
    assert all(name in body for name in NAMES)
    assert "&lt;@" not in body and "<@" not in body  # names, never Discord mentions
    steps = len((await svc.log(CHANNEL)).entries)
    assert f'max="{steps - 1}"' in body  # the slider covers every step
    english = await (await client.get(f"/g/{token}?lang=en")).text()
    assert "Who leads each district" in english and "The log" in english
    german = await (await client.get(f"/g/{token}", headers={"Accept-Language": "de"})).text()
    assert "Der Spielplan" in german
    png = await client.get(f"/g/{token}/replay/0.png")
    assert png.status == 200 and (await png.read())[:8] == b"\x89PNG\r\n\x1a\n"
    assert (await client.get(f"/g/{token}/replay/{steps}.png")).status == 404


async def test_a_forged_token_a_game_number_or_an_unknown_path_get_a_clear_page(
        svc: GameService, client_of: Any) -> None:
    await start_game(svc)
    client = await client_of(svc)
    token = await token_of(svc)
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None
    forged = ("0" * 32, token[:-1] + ("0" if token[-1] != "0" else "1"), str(row.id),
              token.upper(), token + "0")
    for path in [*(f"/g/{t}" for t in forged), *(f"/g/{t}/board.png" for t in forged),
                 *(f"/g/{t}/events" for t in forged), "/nothing", "/g/", "/static/x.py",
                 f"/g/{token}/replay/99999.png"]:
        answer = await client.get(path)
        assert answer.status == 404, path
        if answer.content_type == "text/html":
            assert "Page not found" in await answer.text()
    assert re.fullmatch(r"[0-9a-f]{32}", token)


async def test_mid_split_no_response_of_any_route_holds_a_secret(
        svc: GameService, client_of: Any) -> None:
    """R15: while the distributors split (one has committed, the other not), no page,
    picture, event, file or check holds a drawn card, a split, the seed or the RNG."""
    u = await start_game(svc)
    rng = random.Random(8)
    u = await until(svc, u, rng, lambda u: u.view["phase"] == "split")
    first = u.view["waiting_for"][0]
    drawn = (await svc.private_view(CHANNEL, first))["private"]["drawn"]
    split = (await svc.legal_actions(CHANNEL, first))[-1]
    u = await svc.act(CHANNEL, first, split, expected_version=u.version)
    assert u.view["phase"] == "split" and u.view["waiting_for"]  # the other still splits
    other = u.view["waiting_for"][0]
    other_drawn = (await svc.private_view(CHANNEL, other))["private"]["drawn"]
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None and row.state is not None
    rng_value = json.loads(row.state)["rng"]
    secrets = [str(SEED), str(rng_value), split.encode(), '"drawn"', "cards_drawn",
               json.dumps(drawn), json.dumps(other_drawn), repr(drawn), repr(other_drawn)]
    client = await client_of(svc)
    token = await token_of(svc)
    steps = len((await svc.log(CHANNEL)).entries)
    answers: list[bytes] = []
    for lang in ("en", "de", "fr"):
        for path in [f"/g/{token}?lang={lang}", f"/g/{token}/board.png?lang={lang}",
                     *(f"/g/{token}/replay/{n}.png?lang={lang}" for n in range(steps)),
                     f"/g/{token}/game.json", "/healthz", "/readyz", "/metrics", "/nothing",
                     f"/g/{'0' * 32}"]:
            answers.append(await (await client.get(path)).read())
        stream = await client.get(f"/g/{token}/events?lang={lang}",
                                  headers={"Last-Event-ID": "0"})
        sent = await events_until(stream, row.version)
        stream.close()
        answers += [json.dumps(e.data).encode() for e in sent]
        answers.append(await (await client.post(f"/check?lang={lang}", data=b"{}")).read())
    assert (await client.get(f"/g/{token}/game.json")).status == 404  # the seed is secret
    for answer in answers:
        words = answer.decode("utf-8", "replace")
        leaked = [s for s in secrets if s in words]
        assert not leaked, leaked


async def test_the_finished_games_file_downloads_and_checks_in_the_page(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc, 3)
    await until(svc, u, random.Random(5), lambda u: u.finished)
    client = await client_of(svc)
    token = await token_of(svc)
    page = await (await client.get(f"/g/{token}")).text()
    assert "How the game ended" in page and f"/g/{token}/game.json" in page
    answer = await client.get(f"/g/{token}/game.json")
    assert answer.status == 200
    data = await answer.read()
    assert verify(json.loads(data)).ok
    checked = await (await client.post("/check?lang=de", data=data)).json()
    assert checked["ok"] and checked["report"].startswith("Geprüft:")
    altered = json.loads(data)
    altered["seed"] += 1
    checked = await (await client.post("/check", data=json.dumps(altered))).json()
    assert not checked["ok"] and checked["report"].startswith("Rejected:")
    too_big = await client.post("/check", data=b" " * (2 * 1024 * 1024))
    assert too_big.status == 413


async def test_health_readiness_and_metrics(svc: GameService, client_of: Any) -> None:
    """/readyz: the store answers and the outbox's oldest post is under the bound (the
    posts the service wrote wait: no Discord here), not an hour later; a bot whose gateway
    is not connected is not ready; /metrics: Prometheus' text, no player named."""
    await start_game(svc)
    client = await client_of(svc)
    assert (await client.get("/healthz")).status == 200
    ready = await client.get("/readyz")
    assert ready.status == 200 and (await ready.json())["store"]
    svc.clock.t += 3600  # type: ignore[attr-defined]  # an hour on, no post delivered
    answer = await client.get("/readyz")
    assert answer.status == 503 and not (await answer.json())["outbox"]
    gone = await client_of(svc, gateway=lambda: False)
    assert (await gone.get("/readyz")).status == 503
    metrics = await (await client.get("/metrics")).text()
    assert "sanmarco_outbox_posts " in metrics and "sanmarco_store_latency_seconds" in metrics
    assert PIDS[0] not in metrics


async def test_a_store_that_does_not_answer_gets_a_clear_page_and_one_warning(
        db: str, client_of: Any, caplog: Any) -> None:
    """No traceback: the store's failure is an expected condition (one WARNING line)."""
    svc = await make_service(db)
    await start_game(svc)
    token = await token_of(svc)
    client = await client_of(svc)
    await svc.store.execute_sql("ALTER TABLE games RENAME TO games_gone")  # a broken store
    caplog.set_level(logging.WARNING)
    answer = await client.get(f"/g/{token}?lang=en")
    assert answer.status == 503 and "cannot be read just now" in await answer.text()
    assert not any(r.exc_info for r in caplog.records)
    assert [r.levelname for r in caplog.records if r.name == "bot.web"] == ["WARNING"]
    assert token not in caplog.text
    await svc.close()
