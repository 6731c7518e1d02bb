"""A distributor's half-made split kept by the service (migration 21), on both stores and
through the real aiohttp application: stored from the page (``POST /g/<token>/seat/draft``
with the session's CSRF token) it is what the seat's other tabs and devices (and Discord's
builder: tests/web/test_discord_draft.py) show; one that does not fit the drawn cards is
refused with its sentence and changes nothing; once the game has moved on it is ignored and
deleted; and it is a secret: nothing another seat or the public receives, and no log line,
holds it or the cards."""

from __future__ import annotations

import asyncio
import logging
import random
import re
from typing import Any

import pytest

from bot import i18n, text
from bot.links import hand_query
from bot.service import BadInput, Code, GameService, NotYourTurn
from engine import Split
from tests.web.conftest import CHANNEL, PIDS, start_game, token_of
from tests.web.conftest import play_until as until

SECRET = "k" * 64
EN = i18n.translations("en")


async def _split_game(svc: GameService) -> tuple[str, str, str, list[str], int]:
    """A 3-player game at a split: (token, distributor, another seat, drawn, offers)."""
    u = await start_game(svc, 3)
    u = await until(svc, u, random.Random(8), lambda u: u.view["phase"] == "split")
    me = u.view["waiting_for"][0]
    other = next(p for p in PIDS[:3] if p != me)
    private = (await svc.private_view(CHANNEL, me))["private"]
    return await token_of(svc), me, other, list(private["drawn"]), int(private["offers"])


async def _open(client_of: Any, svc: GameService, token: str, user: str) -> tuple[Any, str]:
    """A browser (a tab on a device of its own) of ``user``'s seat and its CSRF token."""
    client = await client_of(svc, secret=SECRET)
    page = await client.get(f"/g/{token}/hand?{hand_query(SECRET, token, user, svc.clock())}"
                            "&lang=en")
    assert page.status == 200
    found = re.search(r'data-csrf="([0-9a-f]{64})"', await page.text())
    assert found is not None
    return client, found.group(1)


def _cards_in(body: str, offer: int) -> list[int]:
    """The drawn cards' indices a page shows in ``offer`` (-1: the loose ones)."""
    key = "" if offer < 0 else str(offer)
    part = re.search(rf'<div class="offer[^"]*" data-offer="{key}">(.*?)</div></div>', body,
                     re.DOTALL)
    assert part is not None
    return [int(i) for i in re.findall(r'class="card" data-card="([0-9]+)"', part.group(1))]


async def test_the_service_keeps_a_well_formed_draft_for_its_deal_only(
        svc: GameService) -> None:
    token, me, other, drawn, offers = await _split_game(svc)
    snap = await svc.page_seat(token, me)
    assert await svc.split_draft(snap) is None
    kept = await svc.keep_split_draft(snap, [[0, 3], [], [1]])
    assert kept.assignment[:4] == (0, 2, None, 0) and kept.version == snap.version
    assert (await svc.split_draft(await svc.page_seat(token, me))) == kept
    # not well-formed: an index out of range, a card twice, more offers than the engine's
    for bad in ([[len(drawn)]], [[0], [0]], [[0]] * (offers + 1), [[-1]], [["0"]]):
        with pytest.raises(BadInput) as refused:
            await svc.keep_split_draft(snap, bad)
        assert refused.value.code == Code.SPLIT_DRAFT
        assert text.refusal(EN, refused.value.code, refused.value.params) != ""
    assert (await svc.split_draft(snap)) == kept  # nothing changed
    with pytest.raises(NotYourTurn):  # a seat that splits nothing keeps no draft
        await svc.keep_split_draft(await svc.page_seat(token, other), [[0]])
    # the split committed: the game has moved on, the draft is ignored and deleted
    split = Split(tuple(i % offers for i in range(len(drawn))))
    await svc.page_act(token, me, split, snap.version)
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None and await svc.store.draft(row.id, me) is None
    await svc.store.save_draft(row.id, me, "1.1.0", snap.version, [[0]], svc.clock())
    assert await svc.split_draft(await svc.page_seat(token, me)) is None
    assert await svc.store.draft(row.id, me) is None


async def test_a_draft_made_on_the_page_is_what_every_tab_of_the_seat_shows(
        svc: GameService, client_of: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)  # (a database driver's DEBUG echoes every statement)
    token, me, other, drawn, offers = await _split_game(svc)
    tab, csrf = await _open(client_of, svc, token, me)
    version = (await svc.page_seat(token, me)).version
    draft = "".join("0" if i == 1 else "1" if i == 2 else "-" for i in range(len(drawn)))
    url = f"/g/{token}/seat/draft?lang=en"
    sent = await tab.post(url, data={"draft": draft, "version": str(version)},
                          headers={"X-CSRF-Token": csrf})
    assert sent.status == 200, await sent.text()
    assert (await sent.json())["draft"] == draft

    # a second device of the same seat: its page and its decision show the same split
    device, _ = await _open(client_of, svc, token, me)
    page = await (await device.get(f"/g/{token}/seat?lang=en")).text()
    assert _cards_in(page, 0) == [1] and _cards_in(page, 1) == [2]
    assert _cards_in(page, -1) == [i for i in range(len(drawn)) if i not in (1, 2)]
    assert f'data-draft="{draft}"' in page
    again = await (await device.get(f"/g/{token}/seat/decision?lang=en")).json()
    assert again["draft"] == draft and again["version"] == version

    async def refused(status: int, said: str, data: dict[str, str],
                      headers: dict[str, str] | None = None, client: Any = tab) -> None:
        answer = await client.post(url, data=data, headers={"X-CSRF-Token": csrf}
                                   if headers is None else headers)
        assert answer.status == status, await answer.text()
        assert (await answer.json())["said"] == said
        snap = await svc.page_seat(token, me)
        kept = await svc.split_draft(snap)
        assert kept is not None and "".join("-" if a is None else str(a)
                                            for a in kept.assignment) == draft

    good = {"draft": "0" * len(drawn), "version": str(version)}
    await refused(403, text.seat_refused(EN, "csrf"), good, headers={})
    await refused(403, text.seat_refused(EN, "csrf"), good, headers={"X-CSRF-Token": "0" * 64})
    ill = text.refusal(EN, Code.SPLIT_DRAFT)
    await refused(400, ill, {**good, "draft": "x"})
    await refused(400, ill, {**good, "draft": "0" * (len(drawn) + 1)})  # a card not drawn
    await refused(400, ill, {**good, "draft": str(offers) * len(drawn)})  # an offer too many
    await refused(409, text.refusal(EN, "state.stale"), {**good, "version": str(version - 1)})
    theirs, their_csrf = await _open(client_of, svc, token, other)
    await refused(409, text.refusal(EN, "action.not_your_turn"), good,
                  headers={"X-CSRF-Token": their_csrf}, client=theirs)

    # a secret: nothing another seat or the public receives holds it or the cards
    stranger = await client_of(svc, secret=SECRET)
    leaks = [await (await theirs.get(f"/g/{token}/seat?lang=en")).text(),
             await (await theirs.get(f"/g/{token}/seat/decision?lang=en")).text(),
             await (await stranger.get(f"/g/{token}?lang=en")).text(),
             await (await stranger.get(f"/g/{token}/game.json")).text()]
    stream = await stranger.get(f"/g/{token}/events?after=0&lang=en")
    leaks.append((await asyncio.wait_for(stream.content.read(20000), 5)).decode())
    stream.close()
    names = [text.card_label(EN, c) for c in drawn]
    for body in leaks:
        assert "data-card=" not in body and "draft" not in body
        assert not any(f"{i + 1}. {n}" in body for i, n in enumerate(names))
    assert not any(draft in r.getMessage() for r in caplog.records)

    # committed from the page: the draft is gone
    split = "split:" + "".join(str(i % offers) for i in range(len(drawn)))
    made = await tab.post(f"/g/{token}/seat/act?lang=en",
                          data={"action": split, "version": str(version)},
                          headers={"X-CSRF-Token": csrf})
    assert made.status == 200
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None and await svc.store.draft(row.id, me) is None
