"""Sign in with Discord against the fake Discord's OAuth2 (code + PKCE + state, scope
identify): the session cookie and its attributes, My games (every running game of the
player, those awaiting them first, nobody else's), a signed-in player's seat page and its
moves (CSRF bound to the session), sign-out; and each refusal — a missing or altered state,
the reader saying no, a reused or expired code, a wrong redirect URI, verifier or client
secret, Discord failing or too slow, a forged or expired session, another player's game —
answered with its page and nothing changed. On SQLite and PostgreSQL (``svc``)."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from bot import i18n, text
from bot.computers import EngineComputers
from bot.config import ConfigError, load_config
from bot.links import user_session
from bot.service import GameService
from engine import Action
from tests.bot.conftest import fake  # noqa: F401  (fixture)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.messages import FakeUser
from tests.web.conftest import CHANNEL, GUILD, NAMES, PIDS, move, start_game, token_of

SECRET = "s" * 64


def encode(action: Action) -> str:
    return action.encode()


EN = i18n.translations("en")
WORDS = text.sign_in_words(EN)
ANN = FakeUser(int(PIDS[0]), "Ann")


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    """The browser's way to Discord's pages (the fake's), redirects not followed."""
    async with aiohttp.ClientSession() as session:
        yield session


async def _site(client_of: Any, svc: GameService, fake: FakeDiscord,  # noqa: F811
                **options: Any) -> TestClient[Any, Any]:
    options.setdefault("client_secret", fake.oauth.client_secret)
    client: TestClient[Any, Any] = await client_of(
        svc, secret=SECRET, client_id=fake.oauth.client_id, discord_api=fake.api_base,
        **options)
    fake.oauth.redirects.add(f"http://127.0.0.1:{client.port}/signin/callback")
    return client


async def _to_discord(client: TestClient[Any, Any], http: aiohttp.ClientSession,
                      then: str = "/me", **headers: str) -> tuple[str, str]:
    """Start signing in, and go through Discord's page: the callback's address (path and
    query) and the state sent."""
    start = await client.get(f"/signin?then={then}&lang=en", allow_redirects=False,
                             headers=headers)
    assert start.status == 303
    where = start.headers["Location"]
    query = parse_qs(urlsplit(where).query)
    assert query["scope"] == ["identify"] and query["code_challenge_method"] == ["S256"]
    assert query["response_type"] == ["code"]
    flow = start.cookies["sanmarco_signin"]
    assert flow["httponly"] and flow["samesite"] == "Lax" and flow["path"] == "/signin"
    assert flow["max-age"] == "600"
    back = await http.get(where, allow_redirects=False)
    if back.status != 302:
        return "", query["state"][0]
    parts = urlsplit(back.headers["Location"])
    return f"{parts.path}?{parts.query}", query["state"][0]


async def _sign_in(client: TestClient[Any, Any], http: aiohttp.ClientSession,
                   fake: FakeDiscord, user: FakeUser = ANN,  # noqa: F811
                   then: str = "/me", **headers: str) -> aiohttp.ClientResponse:
    fake.oauth.user = user
    callback, _ = await _to_discord(client, http, then, **headers)
    return await client.get(callback, allow_redirects=False, headers=headers)


async def _signed_in(client: TestClient[Any, Any]) -> bool:
    page = await (await client.get("/me?lang=en")).text()
    return WORDS.sign_out in page


async def _two_games(svc: GameService) -> tuple[str, str]:
    """Ann in two running games (one awaiting her, one not), in two channels; Bob, Cid
    and Dee in a game of their own. The tokens of Ann's games: (awaiting her, not)."""
    u = await start_game(svc, 3)  # channel 10: Ann, Bob, Cid
    rng = random.Random(3)
    while PIDS[0] in u.view["waiting_for"]:
        u = await move(svc, u, rng)
    await svc.create_lobby(GUILD, 11, PIDS[1], seats=3, name=NAMES[1])
    for pid, name in ((PIDS[0], NAMES[0]), (PIDS[2], NAMES[2])):
        await svc.join(11, pid, name=name)
    v = await svc.start(11, PIDS[1])
    while PIDS[0] not in v.view["waiting_for"]:
        v = await move(svc, v, rng, 11)
    await svc.create_lobby(GUILD, 12, PIDS[1], seats=3, name=NAMES[1])
    for pid, name in ((PIDS[2], NAMES[2]), (PIDS[3], NAMES[3])):
        await svc.join(12, pid, name=name)
    await svc.start(12, PIDS[1])
    mine = await svc.page_token((await svc.store.latest_game(11)).id)  # type: ignore[union-attr]
    return mine, await token_of(svc)


async def test_signed_in_a_player_sees_their_games_and_plays_a_seat(
        svc: GameService, client_of: Any, fake: FakeDiscord,  # noqa: F811
        http: aiohttp.ClientSession) -> None:
    awaiting, other = await _two_games(svc)
    client = await _site(client_of, svc, fake)
    assert not await _signed_in(client)
    # behind a TLS proxy the cookies are Secure (sent back here by hand: this is http)
    tls = {"X-Forwarded-Proto": "https"}
    start = await client.get("/signin", allow_redirects=False, headers=tls)
    flow = start.cookies["sanmarco_signin"]
    assert flow["secure"]
    fake.oauth.user = ANN
    back = urlsplit((await http.get(start.headers["Location"], allow_redirects=False)
                     ).headers["Location"])
    signed = await client.get(f"{back.path}?{back.query}", allow_redirects=False, headers={
        **tls, "Cookie": f"sanmarco_signin={flow.value}"})
    assert signed.status == 303
    cookie = signed.cookies["sanmarco_user"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["secure"]
    assert cookie["path"] == "/" and cookie["max-age"] == str(7 * 86400)
    client.session.cookie_jar.clear()
    signed = await _sign_in(client, http, fake)
    assert signed.status == 303 and signed.headers["Location"] == "/me?lang=en"
    assert not signed.cookies["sanmarco_user"]["secure"]
    assert signed.cookies["sanmarco_signin"].value == ""  # the flow is spent
    page = await (await client.get("/me?lang=en")).text()
    assert WORDS.signed_in_as.format(name="Ann") in page
    first, second = page.index(f"/g/{awaiting}/seat"), page.index(f"/g/{other}/seat")
    assert first < second  # awaiting her first
    assert page.count('class="game-line') == 2  # Bob, Cid and Dee's game is not hers
    game_12 = await svc.store.latest_game(12)
    assert game_12 is not None and await svc.page_token(game_12.id) not in page

    # her seat page opens without a link; a move needs the CSRF token of her session
    seat = await client.get(f"/g/{awaiting}/seat?lang=en")
    body = await seat.text()
    assert seat.status == 200 and text.seat_words(EN, 2).only_you in body
    assert f'<a href="/me?lang=en">{WORDS.title}</a>' in body  # back to My games
    csrf = body.split('data-csrf="', 1)[1].split('"', 1)[0]
    snap = await svc.page_seat(awaiting, PIDS[0])
    form = {"action": encode(snap.legal[0]), "version": str(snap.version)}
    refused = await client.post(f"/g/{awaiting}/seat/act", data=form)
    assert refused.status == 403 and (await refused.json())["said"] == text.seat_refused(
        EN, "csrf")
    assert (await svc.page_seat(awaiting, PIDS[0])).version == snap.version
    made = await client.post(f"/g/{awaiting}/seat/act", data=form,
                             headers={"X-CSRF-Token": csrf})
    assert made.status == 200 and (await made.json())["ok"]
    assert (await svc.page_seat(awaiting, PIDS[0])).version > snap.version

    # a game she has no seat in: refused, with its sentence
    theirs = await svc.page_token(game_12.id)
    page = await client.get(f"/g/{theirs}/seat?lang=en")
    assert page.status == 403 and text.seat_refused(EN, "seat") in await page.text()
    post = await client.post(f"/g/{theirs}/seat/act", data=form,
                             headers={"X-CSRF-Token": csrf})
    assert post.status == 409 and not (await post.json())["ok"]

    # sign-out: refused without the token, done with it
    out = await client.post("/signout", data={"csrf": "0" * 64}, allow_redirects=False)
    assert out.status == 403 and await _signed_in(client)
    out = await client.post("/signout", data={"csrf": csrf}, allow_redirects=False)
    assert out.status == 303 and not await _signed_in(client)
    assert (await client.get(f"/g/{awaiting}/seat?lang=en")).status == 200  # the button
    assert WORDS.sign_in in await (await client.get(f"/g/{awaiting}/seat?lang=en")).text()


async def test_a_seat_page_signs_in_and_comes_back_to_it(
        svc: GameService, client_of: Any, fake: FakeDiscord,  # noqa: F811
        http: aiohttp.ClientSession) -> None:
    awaiting, _ = await _two_games(svc)
    client = await _site(client_of, svc, fake)
    page = await (await client.get(f"/g/{awaiting}/seat?lang=de")).text()
    de = text.sign_in_words(i18n.translations("de"))
    assert de.sign_in in page and f"then=%2Fg%2F{awaiting}%2Fseat" in page
    signed = await _sign_in(client, http, fake, then=f"/g/{awaiting}/seat")
    assert signed.headers["Location"] == f"/g/{awaiting}/seat?lang=en"
    # nowhere else: an address of another site is My games
    fake.oauth.user = ANN
    start = await client.get("/signin?then=https://evil.example/", allow_redirects=False)
    back = await http.get(start.headers["Location"], allow_redirects=False)
    parts = urlsplit(back.headers["Location"])
    done = await client.get(f"{parts.path}?{parts.query}", allow_redirects=False)
    assert done.headers["Location"] == "/me?lang=en"


async def _refused(client: TestClient[Any, Any], callback: str, status: int, why: str
                   ) -> None:
    answer = await client.get(callback, allow_redirects=False)
    assert answer.status == status
    assert text.sign_in_refused(EN, why)[1] in await answer.text()
    assert "sanmarco_user" not in answer.cookies or not answer.cookies["sanmarco_user"].value
    assert not await _signed_in(client)


async def test_each_refusal_signs_nobody_in(
        svc: GameService, client_of: Any, fake: FakeDiscord,  # noqa: F811
        http: aiohttp.ClientSession, caplog: pytest.LogCaptureFixture) -> None:
    client = await _site(client_of, svc, fake)
    fake.oauth.user = ANN
    # a state that is not this browser's flow's, or none, or an altered flow cookie
    callback, state = await _to_discord(client, http)
    await _refused(client, callback.replace(state, "forged-state"), 400, "state")
    callback, state = await _to_discord(client, http)
    await _refused(client, callback.split("&state=")[0], 400, "state")
    # the flow is used once: the same callback again has no flow any more
    callback, _ = await _to_discord(client, http)
    assert (await client.get(callback, allow_redirects=False)).status == 303
    await client.post("/signout", data={"csrf": "x"})  # (refused: still signed in)
    client.session.cookie_jar.clear()
    await _refused(client, callback, 400, "state")
    # a flow older than ten minutes (the bot's clock), or its cookie altered
    callback, _ = await _to_discord(client, http)
    svc.clock.t += 601  # type: ignore[attr-defined]
    await _refused(client, callback, 400, "state")
    callback, _ = await _to_discord(client, http)
    flow = next(c for c in client.session.cookie_jar if c.key == "sanmarco_signin")
    client.session.cookie_jar.clear()
    client.session.cookie_jar.update_cookies(
        {"sanmarco_signin": flow.value[:-1] + ("0" if flow.value[-1] != "0" else "1")})
    await _refused(client, callback, 400, "state")
    # the reader says no on Discord's page
    fake.oauth.user = None
    callback, _ = await _to_discord(client, http)
    assert "error=access_denied" in callback
    await _refused(client, callback, 400, "denied")
    fake.oauth.user = ANN
    # an expired code (ten minutes on Discord's clock)
    callback, _ = await _to_discord(client, http)
    fake.clock.advance(601)
    caplog.set_level(logging.INFO, "bot.web")
    await _refused(client, callback, 502, "discord")
    assert fake.oauth.refused[-1] == "invalid_grant"
    assert "token 400 invalid_grant" in caplog.text
    # Discord failing, or too slow
    fake.oauth.fail.append(503)
    callback, _ = await _to_discord(client, http)
    await _refused(client, callback, 502, "discord")
    assert "token 503" in caplog.text
    slow = await _site(client_of, svc, fake, oauth_seconds=0.2)
    fake.oauth.delay = 1.0
    callback, _ = await _to_discord(slow, http)
    await _refused(slow, callback, 502, "discord")
    assert "failed: timeout" in caplog.text
    fake.oauth.delay = 0.0
    # a wrong client secret
    wrong = await _site(client_of, svc, fake, client_secret="not-it")
    callback, _ = await _to_discord(wrong, http)
    await _refused(wrong, callback, 502, "discord")
    assert "token 401 invalid_client" in caplog.text
    # a redirect URI the application did not register: Discord's page refuses it
    fake.oauth.redirects.clear()
    callback, _ = await _to_discord(client, http)
    assert callback == "" and fake.oauth.refused[-1] == "Invalid OAuth2 redirect_uri"
    for record in caplog.records:  # no code, verifier or token in the log
        assert "code=" not in record.getMessage() and "Bearer" not in record.getMessage()


async def test_the_fake_refuses_what_discord_refuses(
        fake: FakeDiscord, http: aiohttp.ClientSession) -> None:  # noqa: F811
    """A reused code, a wrong verifier, a wrong redirect URI: invalid_grant; a user's
    bearer token reads only that user; none at all is a 401."""
    from bot.links import pkce_challenge
    oauth, redirect = fake.oauth, "http://127.0.0.1:1/signin/callback"
    oauth.redirects.add(redirect)
    oauth.user = ANN

    async def code() -> str:
        back = await http.get(f"http://127.0.0.1:{fake.port}/oauth2/authorize", params={
            "client_id": oauth.client_id, "response_type": "code", "scope": "identify",
            "redirect_uri": redirect, "state": "st", "code_challenge": pkce_challenge("v" * 50),
            "code_challenge_method": "S256"}, allow_redirects=False)
        return parse_qs(urlsplit(back.headers["Location"]).query)["code"][0]

    async def token(given: str, verifier: str = "v" * 50, uri: str = redirect
                    ) -> tuple[int, dict[str, Any]]:
        answer = await http.post(f"{fake.api_base}/oauth2/token", data={
            "grant_type": "authorization_code", "code": given, "redirect_uri": uri,
            "code_verifier": verifier, "client_id": oauth.client_id,
            "client_secret": oauth.client_secret})
        return answer.status, await answer.json(content_type=None)

    assert await token(await code(), verifier="w" * 50) == (400, {"error": "invalid_grant"})
    assert await token(await code(), uri=redirect + "x") == (400, {"error": "invalid_grant"})
    given = await code()
    status, body = await token(given)
    assert status == 200 and body["token_type"] == "Bearer"
    me = await http.get(f"{fake.api_base}/users/@me",
                        headers={"Authorization": f"Bearer {body['access_token']}"})
    assert (await me.json(content_type=None))["id"] == PIDS[0]
    assert await token(given) == (400, {"error": "invalid_grant"})  # reused
    forged = await http.get(f"{fake.api_base}/users/@me",
                            headers={"Authorization": "Bearer forged"})
    assert forged.status == 401


async def test_forged_expired_and_other_sessions_are_refused(
        svc: GameService, client_of: Any, fake: FakeDiscord) -> None:  # noqa: F811
    awaiting, _ = await _two_games(svc)
    client = await _site(client_of, svc, fake)
    now = svc.clock()
    for value in (user_session("t" * 64, PIDS[0], "Ann", now, "n1"),  # another secret
                  user_session(SECRET, PIDS[0], "Ann", now - 8 * 86400, "n2"),  # expired
                  user_session(SECRET, PIDS[0], "Ann", now, "n3")[:-2] + "00",  # altered
                  "garbage"):
        client.session.cookie_jar.update_cookies({"sanmarco_user": value})
        assert not await _signed_in(client)
        snap = await svc.page_seat(awaiting, PIDS[0])
        post = await client.post(f"/g/{awaiting}/seat/act", data={
            "action": encode(snap.legal[0]), "version": str(snap.version)})
        assert post.status == 403
        assert (await svc.page_seat(awaiting, PIDS[0])).version == snap.version
    # Dee's own session opens no seat of Ann's game
    client.session.cookie_jar.update_cookies(
        {"sanmarco_user": user_session(SECRET, PIDS[3], "Dee", now, "n4")})
    page = await client.get(f"/g/{awaiting}/seat?lang=en")
    assert page.status == 403 and text.seat_refused(EN, "seat") in await page.text()


async def test_without_credentials_there_is_no_sign_in(
        svc: GameService, client_of: Any) -> None:
    await start_game(svc, 3)
    client = await client_of(svc, secret=SECRET)
    for address in ("/signin", "/me", "/signin/callback?code=a&state=b"):
        answer = await client.get(address + ("&" if "?" in address else "?") + "lang=en",
                                  allow_redirects=False)
        assert answer.status == 404
        page = await answer.text()
        assert text.sign_in_refused(EN, "off")[0] in page and WORDS.sign_in not in page
    seat = await client.get(f"/g/{await token_of(svc)}/seat")
    assert seat.status == 403 and WORDS.sign_in not in await seat.text()


def test_the_settings_take_both_credentials_or_neither() -> None:
    base = {"DISCORD_TOKEN": "t", "SANMARCO_WEB_SECRET": SECRET}
    config = load_config({**base, "SANMARCO_DISCORD_CLIENT_ID": "123",
                          "SANMARCO_DISCORD_CLIENT_SECRET": "shh"}, env_file=None)
    assert config.discord_client_id == "123" and "shh" not in repr(config)
    assert load_config(base, env_file=None).discord_client_id is None
    for wrong in ({"SANMARCO_DISCORD_CLIENT_ID": "123"},
                  {"SANMARCO_DISCORD_CLIENT_ID": "abc", "SANMARCO_DISCORD_CLIENT_SECRET": "x"},
                  {"SANMARCO_DISCORD_CLIENT_ID": "1", "SANMARCO_DISCORD_CLIENT_SECRET": "x",
                   "SANMARCO_WEB_SECRET": ""}):
        with pytest.raises(ConfigError):
            load_config({**base, **wrong}, env_file=None)



async def test_my_games_leaves_out_ended_lobby_and_practice_games(svc: GameService) -> None:
    """Only running games: an abandoned one, a lobby, and the learner's practice game
    (it has no page) are not listed; a game in a channel whose pages are off is listed
    without a seat link."""
    awaiting, other = await _two_games(svc)
    learner = GameService(svc.store, svc.clock, computers=EngineComputers())
    await learner.open_practice(GUILD, 20, PIDS[0], language="en", name=NAMES[0])
    await svc.create_lobby(GUILD, 21, PIDS[1], seats=3, name=NAMES[1])
    await svc.join(21, PIDS[0], name=NAMES[0])
    listed = (await svc.page_my_games(PIDS[0])).games
    assert [g.token for g in listed] == [awaiting, other]
    assert listed[0].awaits_me and not listed[1].awaits_me
    await svc.abandon(11, PIDS[1])
    await svc.set_settings(CHANNEL, pages=False)
    listed = (await svc.page_my_games(PIDS[0])).games
    assert [(g.game.channel_id, g.token) for g in listed] == [(CHANNEL, None)]
    assert [g.game.channel_id for g in (await svc.page_my_games(PIDS[3])).games] == [12]
