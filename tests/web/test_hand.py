"""A player's own hand in the browser, by a link the bot signs (SANMARCO_WEB_SECRET): it
shows that player's drawn cards to whoever holds it, for an hour; the same link for another
player, an altered one, an expired one, or any link where no secret is set is refused with
a clear page that holds nothing of anyone's hand."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import parse_qs

from bot import i18n, text
from bot.links import hand_query
from bot.service import GameService
from tests.web.conftest import CHANNEL, start_game, token_of
from tests.web.conftest import play_until as until

SECRET = "s" * 64


def _shows(body: str, drawn: list[str]) -> bool:
    """Whether a page lists these drawn cards, each on its button in the split builder."""
    tr = i18n.translations("en")
    return all(f">{i + 1}. {text.card_label(tr, c)}</button>" in body
               for i, c in enumerate(drawn))


def _altered(signature: str) -> str:
    """The signature with its last digit changed (always another one)."""
    return signature[:-1] + ("1" if signature.endswith("0") else "0")


async def test_a_signed_link_shows_its_player_alone_their_drawn_cards_for_an_hour(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc)
    u = await until(svc, u, random.Random(8), lambda u: u.view["phase"] == "split")
    first, second = u.view["waiting_for"][:2]
    drawn = (await svc.private_view(CHANNEL, first))["private"]["drawn"]
    other = (await svc.private_view(CHANNEL, second))["private"]["drawn"]
    client = await client_of(svc, secret=SECRET)
    token = await token_of(svc)
    now = svc.clock()
    link = f"/g/{token}/hand?{hand_query(SECRET, token, first, now)}"
    mine = await client.get(link + "&lang=en")
    assert mine.status == 200 and "no-store" in mine.headers["Cache-Control"]
    assert _shows(await mine.text(), drawn)
    theirs = await (await client.get(
        f"/g/{token}/hand?{hand_query(SECRET, token, second, now)}&lang=en")).text()
    assert _shows(theirs, other) and not _shows(theirs, drawn)

    q = {k: v[0] for k, v in parse_qs(link.split("?", 1)[1]).items()}
    refused = [
        f"/g/{token}/hand?u={second}&e={q['e']}&s={q['s']}",  # another player's
        f"/g/{token}/hand?u={first}&e={int(q['e']) + 3600}&s={q['s']}",  # longer
        f"/g/{token}/hand?u={first}&e={q['e']}&s={_altered(q['s'])}",  # altered
        f"/g/{'0' * 32}/hand?u={first}&e={q['e']}&s={q['s']}",  # another game
        f"/g/{token}/hand", f"/g/{token}/hand?u={first}&e=1&s=y²"]
    for path in refused:
        answer = await client.get(path + "&lang=en" if "?" in path else path)
        body = await answer.text()
        assert answer.status == 403 and "This link does not work" in body, path
        assert not _shows(body, drawn) and not _shows(body, other)
    svc.clock.t += 3601  # type: ignore[attr-defined]  # an hour later
    assert (await client.get(link)).status == 403
    unsigned = await client_of(svc)  # no secret: no hand links at all
    svc.clock.t -= 3601  # type: ignore[attr-defined]
    assert (await unsigned.get(link)).status == 403
