"""Whether a version's post reached the channel, as a seat's page reads it (the service's
``page_post``, on both stores; the deliverer's calls played by hand): none in a lobby,
"saved" while its post is being sent, "waiting" once a send failed or takes long (or an
older post waits before it), "blocked" while the bot lacks a permission there, "sent" once
no post of it or of an older version waits, "gone" when Discord says the channel is gone.
The seat's decision JSON and its page carry it in the reader's language, in a button's
words; only a session of the game may ask."""

from __future__ import annotations

import random
import re
from typing import Any

from bot import i18n, text
from bot.links import hand_query
from bot.service import GameService
from tests.web.conftest import CHANNEL, GUILD, NAMES, PIDS, Clock, move, start_game, token_of

SECRET = "k" * 64
EN = i18n.translations("en")
DE = i18n.translations("de")


async def _waiting_ids(svc: GameService) -> list[int]:
    return [p.id for p in await svc.pending_posts(CHANNEL)]


async def test_a_versions_post_is_saved_then_waiting_blocked_sent_or_gone(
        svc: GameService) -> None:
    clock = svc.clock
    assert isinstance(clock, Clock)
    await svc.create_lobby(GUILD, CHANNEL, PIDS[0], seats=3, name=NAMES[0])
    token = await token_of(svc)
    assert (await svc.page_post(token, 0)).state == "none"  # a lobby: no move yet
    for pid, name in zip(PIDS[1:3], NAMES[1:3], strict=True):
        await svc.join(CHANNEL, pid, name=name)
    u = await svc.start(CHANNEL, PIDS[0])
    await svc.posts_sent(await _waiting_ids(svc))  # the lobby's posts
    u = await move(svc, u, random.Random(5))
    assert (await svc.page_post(token, u.version)).state == "saved"  # being sent now
    clock.t += 10  # nobody took it for a while: it waits for Discord
    assert (await svc.page_post(token, u.version)).state == "waiting"
    u2 = await move(svc, u, random.Random(3))
    # the next move's post waits behind it (a channel's posts go in order)
    assert (await svc.page_post(token, u2.version)).state == "waiting"
    first = (await svc.pending_posts(CHANNEL))[0]
    assert first.post.version == u.version
    await svc.posts_sent([first.id])
    assert (await svc.page_post(token, u.version)).state == "sent"
    assert (await svc.page_post(token, u2.version)).state == "saved"
    u3 = await move(svc, u2, random.Random(3))
    await svc.post_failed(await _waiting_ids(svc))  # a send failed (Discord down, a 5xx)
    assert (await svc.page_post(token, u3.version)).state == "waiting"
    await svc.place_blocked(CHANNEL, GUILD, "attach_files")
    blocked = await svc.page_post(token, u3.version)
    assert (blocked.state, blocked.permission) == ("blocked", "attach_files")
    assert "Attach Files" in text.post_state(EN, blocked.state, blocked.permission)
    assert "**" not in text.post_state(EN, blocked.state, blocked.permission)
    await svc.place_open(CHANNEL)
    # the older version's post is sent, the newer one's still waits (posts go in order)
    second = (await svc.pending_posts(CHANNEL))[0]
    assert second.post.version == u2.version
    await svc.posts_sent([second.id])
    assert (await svc.page_post(token, u2.version)).state == "sent"
    assert (await svc.page_post(token, u3.version)).state == "waiting"
    await svc.posts_sent(await _waiting_ids(svc))
    assert (await svc.page_post(token, u3.version)).state == "sent"
    await svc.place_gone(CHANNEL, GUILD)
    assert (await svc.page_post(token, u3.version)).state == "gone"


async def test_the_seat_decision_and_page_carry_the_post_state(
        svc: GameService, client_of: Any) -> None:
    u = await start_game(svc, 3)
    token = await token_of(svc)
    me = u.view["waiting_for"][0]
    svc.clock.t += 10  # type: ignore[attr-defined]
    client = await client_of(svc, secret=SECRET)
    page = await client.get(f"/g/{token}/hand?{hand_query(SECRET, token, me, svc.clock())}"
                            "&lang=de")
    body = await page.text()
    assert page.status == 200 and 'data-state="waiting"' in body
    said = re.search(r'<p id="posted"[^>]*>([^<]*)</p>', body)
    assert said and said[1] == text.post_state(DE, "waiting") != text.post_state(EN, "waiting")
    answer = await (await client.get(f"/g/{token}/seat/decision?lang=en")).json()
    assert answer["post"] == {"version": u.version, "state": "waiting",
                              "said": text.post_pending(EN)}
    await svc.posts_sent(await _waiting_ids(svc))
    asked = await client.get(f"/g/{token}/seat/post?version={u.version}&lang=fr")
    assert (await asked.json())["post"]["said"] == text.posted(i18n.translations("fr"))
    for bad in ("", "-1", "1e3", "²", "9" * 19):
        assert (await client.get(f"/g/{token}/seat/post?version={bad}")).status == 400
    stranger = await client_of(svc, secret=SECRET)
    refused = await stranger.get(f"/g/{token}/seat/post?version={u.version}")
    assert refused.status == 403
    assert (await refused.json())["said"] == text.seat_refused(EN, "session")
