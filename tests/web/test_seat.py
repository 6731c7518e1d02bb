"""A seat played from its page, through the real aiohttp application on both stores: the
signed link opens a session (an HttpOnly, SameSite=Lax cookie for that game's addresses);
a move is the engine's action text with the version the page shows and the session's
CSRF token, made through the service's ``act``. Everything refused (no or a wrong CSRF
token, no session, an expired or forged one, another seat's, another game's, an old
version, a move sent twice) is answered with its sentence and changes nothing; while a
distributor splits, no other seat's page, decision or the public page holds their cards.
"""

from __future__ import annotations

import asyncio
import html
import random
import re
from typing import Any

from bot import i18n, text
from bot.links import hand_query, seat_session
from bot.service import GameService
from bot.web.decision import decision
from bot.web.seat import COOKIE
from engine import Doge, decode
from tests.web.conftest import CHANNEL, PIDS, start_game, token_of
from tests.web.conftest import play_until as until

SECRET = "k" * 64
EN = i18n.translations("en")


def _shows(body: str, drawn: list[str]) -> bool:
    """Whether a page lists these drawn cards on the split builder's buttons."""
    return all(f">{i + 1}. {text.card_label(EN, c)}</button>" in body
               for i, c in enumerate(drawn))


async def _open(client_of: Any, svc: GameService, token: str, user: str) -> tuple[Any, str]:
    """A browser of ``user``'s seat: its client (with the session's cookie) and the CSRF
    token its page carries."""
    client = await client_of(svc, secret=SECRET)
    page = await client.get(f"/g/{token}/hand?{hand_query(SECRET, token, user, svc.clock())}"
                            "&lang=en")
    assert page.status == 200 and "no-store" in page.headers["Cache-Control"]
    body = await page.text()
    found = re.search(r'data-csrf="([0-9a-f]{64})"', body)
    assert found is not None
    return client, found.group(1)


async def _split_game(svc: GameService) -> tuple[str, str, str, list[str], int]:
    """A 3-player game at a split: (token, distributor, another seat, drawn, offers)."""
    u = await start_game(svc, 3)
    u = await until(svc, u, random.Random(8), lambda u: u.view["phase"] == "split")
    me = u.view["waiting_for"][0]
    other = next(p for p in PIDS[:3] if p != me)
    private = (await svc.private_view(CHANNEL, me))["private"]
    return await token_of(svc), me, other, list(private["drawn"]), int(private["offers"])


async def test_a_seat_splits_from_its_page_and_every_forged_or_old_request_changes_nothing(
        svc: GameService, client_of: Any) -> None:
    token, me, other, drawn, offers = await _split_game(svc)
    mine, csrf = await _open(client_of, svc, token, me)
    opened = await (await client_of(svc, secret=SECRET)).get(
        f"/g/{token}/hand?{hand_query(SECRET, token, me, svc.clock())}", allow_redirects=False)
    cookie = opened.headers["Set-Cookie"]
    assert opened.status == 303 and opened.headers["Location"].startswith(f"/g/{token}/seat")
    assert cookie.startswith(COOKIE + "=") and "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie and f"Path=/g/{token};" in cookie and "Secure" not in cookie
    behind = await (await client_of(svc, secret=SECRET)).get(  # a TLS proxy in front
        f"/g/{token}/hand?{hand_query(SECRET, token, me, svc.clock())}", allow_redirects=False,
        headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in behind.headers["Set-Cookie"]
    snap = await svc.page_seat(token, me)
    split = "split:" + "".join(str(i % offers) for i in range(len(drawn)))
    form = {"action": split, "version": str(snap.version)}
    act = f"/g/{token}/seat/act?lang=en"

    async def refused(client: Any, status: int, said: str, data: dict[str, str] | None = None,
                      headers: dict[str, str] | None = None) -> None:
        answer = await client.post(act, data=data or form, headers=headers or {})
        assert answer.status == status, await answer.text()
        assert (await answer.json())["said"] == said
        assert (await svc.page_seat(token, me)).version == snap.version  # nothing changed

    await refused(mine, 403, text.seat_refused(EN, "csrf"))  # no token
    await refused(mine, 403, text.seat_refused(EN, "csrf"), headers={"X-CSRF-Token": "0" * 64})
    theirs, their_csrf = await _open(client_of, svc, token, other)
    # another seat's token with this session, and this seat's move with another's session
    await refused(mine, 403, text.seat_refused(EN, "csrf"), headers={"X-CSRF-Token": their_csrf})
    await refused(theirs, 403, text.seat_refused(EN, "seat"), data={**form, "seat": me},
                  headers={"X-CSRF-Token": their_csrf})
    await refused(theirs, 409, text.refusal(EN, "action.not_your_turn"),
                  headers={"X-CSRF-Token": their_csrf})
    stranger = await client_of(svc, secret=SECRET)  # no session at all
    await refused(stranger, 403, text.seat_refused(EN, "session"), headers={"X-CSRF-Token": csrf})
    # a session of this seat in another game, sent to this one
    forged = seat_session(SECRET, "f" * 32, me, svc.clock(), "n0nce")
    stranger.session.cookie_jar.update_cookies({COOKIE: forged},
                                               stranger.make_url(f"/g/{token}/"))
    await refused(stranger, 403, text.seat_refused(EN, "session"), headers={"X-CSRF-Token": csrf})
    bad = await stranger.get(f"/g/{token}/hand?u={me}&e=1&s=" + "0" * 64)
    assert bad.status == 403 and not _shows(await bad.text(), drawn)
    await refused(mine, 409, text.refusal(EN, "state.stale"),
                  data={**form, "version": str(snap.version - 1)},
                  headers={"X-CSRF-Token": csrf})
    await refused(mine, 400, text.seat_refused(EN, "action"), data={**form, "action": "split:x"},
                  headers={"X-CSRF-Token": csrf})

    # mid-split: nothing another seat's page or the public page receives holds the cards
    leaks = [await (await theirs.get(f"/g/{token}/seat?lang=en")).text(),
             await (await theirs.get(f"/g/{token}/seat/decision?lang=en")).text(),
             await (await stranger.get(f"/g/{token}?lang=en")).text(),
             await (await stranger.get(f"/g/{token}/game.json")).text()]
    stream = await stranger.get(f"/g/{token}/events?after=0&lang=en")
    leaks.append((await asyncio.wait_for(stream.content.read(20000), 5)).decode())
    stream.close()
    assert all(not _shows(body, drawn) and "data-card=" not in body for body in leaks)
    mine_page = await (await mine.get(f"/g/{token}/seat?lang=en")).text()
    assert _shows(mine_page, drawn)
    assert 'href="/me' not in mine_page  # a link's session is not signed in: no My games

    made = await mine.post(act, data=form, headers={"X-CSRF-Token": csrf})
    assert made.status == 200 and (await made.json())["version"] > snap.version
    log = await svc.log(CHANNEL)
    again = await mine.post(act, data=form, headers={"X-CSRF-Token": csrf})  # sent twice
    assert again.status == 409 and len((await svc.log(CHANNEL)).entries) == len(log.entries)
    assert log.entries[-1].action == "split"

    svc.clock.t += 9 * 3600  # type: ignore[attr-defined]  # the session has expired
    late = await mine.get(f"/g/{token}/seat/decision?lang=en")
    assert late.status == 403
    assert (await late.json())["said"] == text.seat_refused(EN, "session")
    assert (await mine.get(f"/g/{token}/seat?lang=en")).status == 403


async def test_the_refusals_speak_the_page_language(svc: GameService, client_of: Any) -> None:
    token, me, _, _, _ = await _split_game(svc)
    mine, _ = await _open(client_of, svc, token, me)
    for lang in ("de", "fr"):
        answer = await mine.post(f"/g/{token}/seat/act?lang={lang}", data={"action": "take:0"})
        said = (await answer.json())["said"]
        assert answer.status == 403
        assert said == text.seat_refused(i18n.translations(lang), "csrf") != \
            text.seat_refused(EN, "csrf")


async def test_every_decision_of_a_game_offers_each_legal_action_on_the_page(
        svc: GameService) -> None:
    """Played to its end: at every step the awaited seat's page offers every action the
    engine lists (Doge routes with the same cost to the same players once, R11), nothing
    else; a distributor gets its own drawn cards to split, and only it."""
    u = await start_game(svc, 3)
    token = await token_of(svc)
    rng = random.Random(21)
    while not u.finished:
        pid = rng.choice(list(u.view["waiting_for"]))
        snap = await svc.page_seat(token, pid)
        d = decision(EN, snap)
        assert d.mine and d.version == u.version
        if snap.view is not None and snap.view["phase"] == "split":
            drawn = (snap.private or {}).get("drawn") or []
            assert [c.label for c in d.drawn] == [text.card_label(EN, c) for c in drawn]
        else:
            shown = [decode(c.action) for g in d.groups for c in g.choices]
            assert len(shown) == len(set(shown)) and set(shown) <= set(snap.legal)
            assert {a for a in snap.legal if not isinstance(a, Doge)} <= set(shown)
            assert {a.target for a in snap.legal if isinstance(a, Doge)} == {
                a.target for a in shown if isinstance(a, Doge)}
            for other in u.view["players"]:
                if other not in u.view["waiting_for"]:
                    assert not decision(EN, await svc.page_seat(token, other)).drawn
        actions = await svc.legal_actions(CHANNEL, pid)
        u = await svc.act(CHANNEL, pid, rng.choice(actions), expected_version=u.version)


async def test_the_link_opened_again_keeps_the_session_so_an_open_tab_still_moves(
        svc: GameService, client_of: Any) -> None:
    """A second tab opened from the same link (same browser, same cookies) keeps the seat's
    session: the first tab's CSRF token still moves (it used to be replaced: 403)."""
    token, me, _, drawn, offers = await _split_game(svc)
    mine, csrf = await _open(client_of, svc, token, me)
    svc.clock.t += 60  # type: ignore[attr-defined]
    again = await mine.get(f"/g/{token}/hand?{hand_query(SECRET, token, me, svc.clock())}",
                           allow_redirects=False)
    assert again.status == 303 and "Set-Cookie" not in again.headers
    snap = await svc.page_seat(token, me)
    split = "split:" + "".join(str(i % offers) for i in range(len(drawn)))
    made = await mine.post(f"/g/{token}/seat/act?lang=en", headers={"X-CSRF-Token": csrf},
                           data={"action": split, "version": str(snap.version)})
    assert made.status == 200, await made.text()


async def test_the_tab_says_when_the_game_awaits_the_seat(svc: GameService,
                                                          client_of: Any) -> None:
    """A seat page left open in a background tab: its title says the game awaits the seat
    (the distributor's, mid-split), and the plain title otherwise (another seat's), in the
    page's language; the script keeps it so as the game goes (both titles in its data)."""
    token, me, other, _, _ = await _split_game(svc)
    for lang in ("en", "de", "fr"):
        words = text.seat_words(i18n.translations(lang), 1)
        assert words.mine_title != words.title
        for who, title in ((me, words.mine_title), (other, words.title)):
            client, _ = await _open(client_of, svc, token, who)
            body = await (await client.get(f"/g/{token}/seat?lang={lang}")).text()
            assert f"<title>{html.escape(title)}</title>" in body, (lang, who)
            assert f'data-mine-title="{html.escape(words.mine_title)}"' in body
