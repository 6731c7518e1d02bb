"""My games for a player in more running games than the page lists: the games awaiting
them are always listed (first), however long ago the others moved, and the page says how
many more there are, in the reader's language; ``games.awaiting`` (the seats a game awaits,
written with every state: a move, a move taken back) is what the store's one read sorts
by. Through the real application with a signed-in session. On SQLite and PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

from bot import i18n, text
from bot.links import user_session
from bot.service import GameService, UndoRefused, Update
from bot.service._seat_page import MAX_SIGNED_IN_GAMES
from bot.store import awaiting_column
from tests.web.conftest import GUILD, NAMES, PIDS, move

SECRET = "s" * 64
ANN = PIDS[0]


async def _game(svc: GameService, channel: int, rng: random.Random, awaits_ann: bool
                ) -> Update:
    """A running game of Ann, Bob and Cid in ``channel``, played on until it awaits Ann
    (or until it does not)."""
    await svc.create_lobby(GUILD, channel, PIDS[1], seats=3, name=NAMES[1])
    for pid, name in ((ANN, NAMES[0]), (PIDS[2], NAMES[2])):
        await svc.join(channel, pid, name=name)
    u = await svc.start(channel, PIDS[1])
    while (ANN in u.view["waiting_for"]) != awaits_ann:
        u = await move(svc, u, rng, channel)
    return u


async def _stored_awaiting(svc: GameService, channel: int) -> str | None:
    rows = await svc.store.query_sql("SELECT awaiting FROM games WHERE channel_id = ? "
                                     "AND status = 'running'", channel)
    return None if rows[0][0] is None else str(rows[0][0])


async def test_the_games_awaiting_a_player_are_listed_past_the_bound(
        svc: GameService, client_of: Any) -> None:
    rng = random.Random(5)
    count = MAX_SIGNED_IN_GAMES + 3
    awaiting = {100 + count - 2, 100 + count - 1}  # the two most recently moved
    for n in range(count):
        svc.clock.t += 60  # type: ignore[attr-defined]
        await _game(svc, 100 + n, rng, 100 + n in awaiting)
    found = await svc.page_my_games(ANN)
    assert len(found.games) == MAX_SIGNED_IN_GAMES and found.more == 3
    assert [g.game.channel_id for g in found.games[:2]] == sorted(awaiting)
    assert [g.awaits_me for g in found.games] == [True] * 2 + [False] * 48
    # the rest the longest awaited first
    rest = [g.game.since or 0 for g in found.games[2:]]
    assert rest == sorted(rest)

    client = await client_of(svc, secret=SECRET, client_id="1", client_secret="x")
    for lang in ("en", "de", "fr"):
        client.session.cookie_jar.update_cookies(
            {"sanmarco_user": user_session(SECRET, ANN, "Ann", svc.clock(), "n" + lang)})
        page = await (await client.get(f"/me?lang={lang}")).text()
        assert page.count('class="game-line') == MAX_SIGNED_IN_GAMES
        assert page.count('class="game-line awaits') == 2
        assert text.my_games_more(i18n.translations(lang), 3) in page

    # Bob plays the same games: fifty listed, three more
    bob = await svc.page_my_games(PIDS[1])
    assert len(bob.games) == MAX_SIGNED_IN_GAMES and bob.more == 3
    # Dee plays none: nothing more to say
    dee = await svc.page_my_games(PIDS[3])
    assert dee.games == () and dee.more == 0


async def test_a_game_stored_before_awaiting_was_kept_is_read_as_maybe_awaiting(
        svc: GameService) -> None:
    """A game whose ``awaiting`` is not known yet (written before schema 22) is read
    with the awaited ones, and the state says whether it awaits the player."""
    rng = random.Random(6)
    for n in range(4):
        svc.clock.t += 60  # type: ignore[attr-defined]
        await _game(svc, 200 + n, rng, n == 3)
    await svc.store.execute_sql("UPDATE games SET awaiting = NULL WHERE channel_id IN (?, ?)",
                                202, 203)
    found = await svc.page_my_games(ANN)
    assert [(g.game.channel_id, g.awaits_me) for g in found.games] == [
        (203, True), (200, False), (201, False), (202, False)]
    assert found.more == 0
    # read once, known from then on (nothing a player sees moved: the same versions)
    versions = {g.game.channel_id: g.game for g in found.games}
    assert await _stored_awaiting(svc, 203) == f",{ANN},"
    assert await _stored_awaiting(svc, 202) is not None
    assert ANN not in (await _stored_awaiting(svc, 202) or "")
    again = await svc.page_my_games(ANN)
    assert [g.game for g in again.games] == [versions[c] for c in (203, 200, 201, 202)]
    # a game moved meanwhile keeps what its move wrote
    await svc.store.execute_sql("UPDATE games SET awaiting = NULL WHERE channel_id = ?", 201)
    stale = await svc.store.game((await svc.store.latest_game(201)).id)  # type: ignore[union-attr]
    assert stale is not None
    await svc.store.fill_awaiting([(stale.id, stale.version + 1, ",x,")])
    assert await _stored_awaiting(svc, 201) is None


async def test_awaiting_is_written_with_every_state(svc: GameService) -> None:
    """A move and a move taken back both write the seats the game awaits now."""
    rng = random.Random(7)
    u = await _game(svc, 300, rng, False)
    assert await _stored_awaiting(svc, 300) == awaiting_column(u.view["waiting_for"])
    for _ in range(200):
        u = await move(svc, u, rng, 300)
        assert await _stored_awaiting(svc, 300) == awaiting_column(u.view["waiting_for"])
        actor = u.actor
        if actor is None or not u.undoable:
            continue
        try:
            undone = await svc.undo(300, actor)
        except UndoRefused:
            continue
        stored = await _stored_awaiting(svc, 300)
        assert stored == awaiting_column(undone.update.view["waiting_for"])
        assert stored is not None and f",{actor}," in stored
        return
    raise AssertionError("no move could be taken back")
