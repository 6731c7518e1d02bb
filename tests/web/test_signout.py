"""Sign-out ends every session of its player, on every device and in every process: a
copied session cookie (another device, a stolen one) is no session once its player signed
out (the page offers "Sign in with Discord" again, each POST is refused with its sentence
and changes nothing), while a new sign-in works, another player's sessions and a seat's
signed link are untouched. Through the real application with the fake Discord's OAuth2,
the second device served by a second application over a second store on the same
database (another process, as far as the store can tell). On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from bot import text
from bot.links import csrf_token, hand_query, user_session
from bot.service import GameService
from bot.store import Store, open_store
from tests.bot.conftest import fake  # noqa: F401  (fixture)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.messages import FakeUser
from tests.web.conftest import PIDS, make_service
from tests.web.test_signin import (
    EN,
    SECRET,
    WORDS,
    _sign_in,
    _signed_in,
    _site,
    _two_games,
    encode,
)

BOB = FakeUser(int(PIDS[1]), "Bob")


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def elsewhere(db: str) -> AsyncIterator[GameService]:  # noqa: F811
    """A second service on the same database: the bot's other process."""
    service = await make_service(db)
    yield service
    await service.close()


def _cookie(client: TestClient[Any, Any]) -> str:
    return next(c.value for c in client.session.cookie_jar if c.key == "sanmarco_user")


async def _act(client: TestClient[Any, Any], svc: GameService, token: str, session: str
               ) -> aiohttp.ClientResponse:
    """A move of Ann's from her seat page, with the CSRF token of ``session``."""
    snap = await svc.page_seat(token, PIDS[0])
    return await client.post(f"/g/{token}/seat/act", headers={
        "X-CSRF-Token": csrf_token(SECRET, session)}, data={
        "action": encode(snap.legal[0]), "version": str(snap.version)})


async def _decision(client: TestClient[Any, Any], token: str) -> int:
    """The status of the seat's decision read by ``client`` (200: its session is good)."""
    return (await client.get(f"/g/{token}/seat/decision?lang=en")).status


async def test_sign_out_ends_a_copied_session_on_another_device(
        svc: GameService, elsewhere: GameService, client_of: Any,
        fake: FakeDiscord, http: aiohttp.ClientSession) -> None:  # noqa: F811
    awaiting, other = await _two_games(svc)
    phone = await _site(client_of, svc, fake)
    assert (await _sign_in(phone, http, fake)).status == 303
    copied = _cookie(phone)
    # the same cookie on a desk served by the other process: it is Ann there too
    desk = await _site(client_of, elsewhere, fake)
    desk.session.cookie_jar.update_cookies({"sanmarco_user": copied})
    assert await _signed_in(desk)
    assert await _decision(desk, awaiting) == 200
    # Bob signed in on a device of his own; Ann's seat also open by its signed link
    bobs = await _site(client_of, svc, fake)
    await _sign_in(bobs, http, fake, BOB)
    assert await _signed_in(bobs)
    linked = await _site(client_of, svc, fake)
    hand = await linked.get(f"/g/{awaiting}/hand?"
                            + hand_query(SECRET, awaiting, PIDS[0], svc.clock()))
    assert hand.status == 200
    link_session = next(c.value for c in linked.session.cookie_jar if c.key == "sanmarco_seat")

    # Ann signs out on her phone
    assert await svc.session_generation(PIDS[0]) == 0
    out = await phone.post("/signout", data={"csrf": csrf_token(SECRET, copied)},
                           allow_redirects=False)
    assert out.status == 303 and not await _signed_in(phone)
    assert await svc.session_generation(PIDS[0]) == 1

    # the copied cookie is no session on the desk, in the other process, at once
    assert not await _signed_in(desk)
    seat = await desk.get(f"/g/{awaiting}/seat?lang=en")
    assert seat.status == 200 and WORDS.sign_in in await seat.text()
    assert text.seat_words(EN, 2).only_you not in await seat.text()
    assert seat.cookies["sanmarco_user"].value == ""  # the ended cookie is forgotten
    desk.session.cookie_jar.update_cookies({"sanmarco_user": copied})  # (kept anyway)
    before = (await svc.page_seat(awaiting, PIDS[0])).version
    refused = await _act(desk, svc, awaiting, copied)
    assert refused.status == 403
    assert (await refused.json())["said"] == text.seat_refused(EN, "session")
    draft = await desk.post(f"/g/{awaiting}/seat/draft", data={"draft": "0", "version": "1"},
                            headers={"X-CSRF-Token": csrf_token(SECRET, copied)})
    assert draft.status == 403
    for path in ("decision?lang=en", f"post?version={before}"):
        answer = await desk.get(f"/g/{awaiting}/seat/{path}")
        assert answer.status == 403
    assert (await svc.page_seat(awaiting, PIDS[0])).version == before  # nothing changed
    # signing out with it again only forgets the cookie (nobody's generation moves)
    again = await desk.post("/signout", data={"csrf": csrf_token(SECRET, copied)},
                            allow_redirects=False)
    assert again.status == 303 and again.cookies["sanmarco_user"].value == ""
    assert await svc.session_generation(PIDS[0]) == 1

    # Bob's session and the signed link's seat session are untouched
    assert await _signed_in(bobs)
    assert await _decision(linked, awaiting) == 200
    assert (await _act(linked, svc, awaiting, link_session)).status == 200

    # a new sign-in works (here and on the desk), the copied cookie stays ended
    await _sign_in(phone, http, fake)
    assert await _signed_in(phone)
    page = await (await phone.get("/me?lang=en")).text()
    assert f"/g/{awaiting}/seat" in page and f"/g/{other}/seat" in page
    assert await _decision(phone, awaiting) == 200
    desk.session.cookie_jar.update_cookies({"sanmarco_user": copied})
    assert not await _signed_in(desk)
    await _sign_in(desk, http, fake)  # (the desk's own sign-in, through Ann's callback)
    assert await _signed_in(desk) and await _signed_in(phone)


async def test_signing_out_moves_only_that_players_generation(db: str) -> None:  # noqa: F811
    """The store's side: no row is generation 0; each sign-out moves it on by one, and
    only the player's own (a second store on the same database sees it at once)."""
    store: Store = await open_store(db)
    other: Store = await open_store(db)
    try:
        assert await store.session_generation(PIDS[0]) == 0
        assert await store.sign_out(PIDS[0], 1.0) == 1
        assert await other.session_generation(PIDS[0]) == 1
        assert await other.sign_out(PIDS[0], 2.0) == 2
        assert await store.session_generation(PIDS[0]) == 2
        assert await store.session_generation(PIDS[1]) == 0
        rows = await store.query_sql("SELECT user_id, generation, signed_out_at FROM "
                                     "sign_outs")
        assert [tuple(r) for r in rows] == [(PIDS[0], 2, 2.0)]
    finally:
        await store.close()
        await other.close()


async def test_a_session_of_another_generation_is_refused(
        svc: GameService, client_of: Any, fake: FakeDiscord) -> None:  # noqa: F811
    """A cookie made (signed with the secret) in a generation the store does not hold:
    an earlier one after a sign-out, or a later one the store never gave."""
    awaiting, _ = await _two_games(svc)
    client = await _site(client_of, svc, fake)
    now = svc.clock()
    await svc.sign_out(PIDS[0])
    for generation, good in ((0, False), (2, False), (1, True)):
        value = user_session(SECRET, PIDS[0], "Ann", now, f"n{generation}",
                             generation=generation)
        client.session.cookie_jar.update_cookies({"sanmarco_user": value})
        assert await _signed_in(client) is good
        assert (await _decision(client, awaiting) == 200) is good
        if not good:
            assert (await _act(client, svc, awaiting, value)).status == 403
