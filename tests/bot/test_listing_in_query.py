"""Who may hear of a game is decided in the query that lists games (the store's
``listing``), on SQLite and PostgreSQL: the rule case by case (unknown is private; a
thread follows its channel; a private thread never, but inside itself; a manager's choice
wins), and
lists that keep their limit — ``history``, ``lobbies``, the server page's recent games and
running games, the stats' player choices — however many private games are newer than the
listed ones (a filter after a read of four times the limit listed none); ``stats`` of
another player counts only the games the asker may hear of, one's own every game."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.service import GameService
from bot.store import Seat

from .test_service import make_service
from .test_stats import GUILD, finish

OPEN, STAFF = 50, 51  # every member may view OPEN; STAFF is a staff channel
THREAD = 5000  # the bot's threads for games start here


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:
    service = await make_service(db)
    yield service
    await service.close()


async def test_who_may_hear_of_a_game_case_by_case(svc: GameService) -> None:
    """Unknown is private; a thread follows its channel (as the bot opened it, or as
    Discord named its parent); a private thread never (but asked inside it); a manager's
    choice wins over Discord's word, for a channel and its public threads; asked in a
    place, its games and its public threads' are heard of too."""
    await svc.see_channel(GUILD, 1, everyone=True)
    await svc.see_channel(GUILD, 2, everyone=False)
    await svc.see_channel(GUILD, 3, everyone=True, parent=1, private_thread=True)
    await svc.see_channel(GUILD, 4, everyone=True, parent=2)  # its channel closed since
    await svc.list_channel(GUILD, 5, True)
    await svc.see_channel(GUILD, 6, everyone=True)
    await svc.list_channel(GUILD, 6, False)
    await svc.see_channel(GUILD, 7, everyone=False, parent=5, private_thread=True)
    places = {  # game's channel, the channel whose thread the bot opened for it
        "open": (1, None), "staff": (2, None), "never seen": (99, None),
        "thread of open": (91, 1), "thread of staff": (92, 2), "private thread": (3, None),
        "thread of closed": (4, None), "chosen": (5, None), "thread of chosen": (98, 5),
        "unchosen": (6, None), "thread of unchosen": (97, 6), "private of chosen": (7, None)}
    ids = {}
    for k, (name, (channel, parent)) in enumerate(places.items()):
        row = await svc.store.create_game(GUILD, channel, Seat(f"{k + 100}"), 4, float(k),
                                          parent_id=parent)
        ids[name] = row.id
    practice = await svc.store.create_game(GUILD, 93, Seat("200"), 3, 0.0, parent_id=1,
                                           practice=True)

    async def heard(*here: int) -> set[str]:
        got = await svc.listed_games([*ids.values(), practice.id], here=here)
        return {name for name, game in ids.items() if game in got}

    listed = {"open", "thread of open", "chosen", "thread of chosen"}
    assert await heard() == listed
    assert await heard(2) == listed | {"staff", "thread of staff", "thread of closed"}
    assert await heard(92, 2) == await heard(2)  # a thread and its channel
    assert await heard(3, 1) == listed | {"private thread"}  # inside it only
    assert await heard(1) == listed  # not its private thread's
    assert await heard(7, 5) == listed | {"private of chosen"}
    assert await heard(6) == listed | {"unchosen", "thread of unchosen"}
    # the same rule in each list's query: the lobbies a member hears of
    lobbies = {lob.game_id for lob in await svc.lobbies(GUILD, here=(2,))}
    assert lobbies == {ids[n] for n in listed | {"staff", "thread of staff",
                                                 "thread of closed"}}


async def test_history_and_stats_choices_are_full_past_many_newer_private_games(
        svc: GameService) -> None:
    await svc.see_channel(GUILD, OPEN, everyone=True)
    await svc.see_channel(GUILD, STAFF, everyone=False)
    listed = [await finish(svc, ["ann", "bob", "cid"], ["ann"], {"ann": 1}, channel=OPEN,
                           at=float(k)) for k in range(12)]
    hidden = [await finish(svc, ["zed", "bob", "yan"], ["zed"], {"zed": 1}, channel=STAFF,
                           at=100.0 + k) for k in range(50)]  # newer than every listed one
    past = await svc.past_games(GUILD, 10, here=(OPEN,))
    assert [p.history.game_id for p in past] == listed[::-1][:10]  # the ten newest listed
    assert len(await svc.past_games(GUILD, 25, here=(OPEN,))) == 12  # all there are
    # asked in the staff channel: its games first (the newest), as many as asked
    staff = await svc.past_games(GUILD, 25, here=(STAFF,))
    assert [p.history.game_id for p in staff] == hidden[::-1][:25]
    # the bot itself: every game
    assert len(await svc.past_games(GUILD, 25)) == 25


async def test_the_server_page_lists_its_limit_past_many_newer_private_games(
        svc: GameService) -> None:
    await svc.see_channel(GUILD, OPEN, everyone=True)
    await svc.see_channel(GUILD, STAFF, everyone=False)
    listed = [await finish(svc, ["ann", "bob", "cid"], ["ann"], {"ann": 1}, channel=OPEN,
                           at=float(k)) for k in range(30)]
    for k in range(110):  # more than four times the page's 25
        await finish(svc, ["zed", "bob", "yan"], ["zed"], {"zed": 1}, channel=STAFF,
                     at=100.0 + k)
    page = await svc.server_page(await svc.set_server_page(GUILD, True))
    assert [p.history.game_id for p in page.history] == listed[::-1][:25]
    assert "zed" not in page.names


async def test_lobbies_list_their_limit_past_many_private_lobbies(svc: GameService) -> None:
    await svc.see_channel(GUILD, OPEN, everyone=True)
    await svc.see_channel(GUILD, STAFF, everyone=False)
    hidden = [(await svc.store.create_game(GUILD, THREAD + k, Seat(f"{1000 + k}"), 4, float(k),
                                           parent_id=STAFF)).id for k in range(110)]
    shown = [(await svc.store.create_game(GUILD, THREAD + 500 + k, Seat(f"{2000 + k}"), 4,
                                          500.0 + k, parent_id=OPEN)).id for k in range(30)]
    # the private lobbies are the oldest: the first hundred rows read are theirs
    got = [lob.game_id for lob in await svc.lobbies(GUILD, here=(OPEN,))]
    assert got == shown[:25]
    got = [lob.game_id for lob in await svc.lobbies(GUILD, here=(STAFF,))]
    assert got == hidden[:25]
    page = await svc.server_page(await svc.set_server_page(GUILD, True))
    assert [lob.game_id for lob in page.lobbies] == shown[:25]


async def test_stats_of_another_player_count_only_the_games_heard_of_there(
        svc: GameService) -> None:
    """A staff channel's games of a player are no member's business elsewhere, not even
    as a count; asked in the staff channel (or its threads) they count; one's own record
    counts every game one played, wherever one asks."""
    await svc.see_channel(GUILD, OPEN, everyone=True)
    await svc.see_channel(GUILD, STAFF, everyone=False)
    await svc.see_channel(GUILD, THREAD, everyone=False, parent=STAFF)
    await finish(svc, ["ann", "zed", "cid"], ["ann"], {"ann": 60, "zed": 50, "cid": 40},
                 channel=OPEN, at=1.0)
    await finish(svc, ["zed", "bob", "yan"], ["zed"], {"zed": 90, "bob": 10, "yan": 5},
                 channel=STAFF, at=2.0)
    await finish(svc, ["zed", "bob", "yan"], ["zed"], {"zed": 80, "bob": 10, "yan": 5},
                 channel=THREAD, at=3.0)
    seen = await svc.player_stats(GUILD, "zed", asker="bob", here=(OPEN,))
    assert (seen.overall.games, seen.overall.wins, seen.overall.best) == (1, 0, 50)
    for here in ((STAFF,), (THREAD, STAFF)):
        seen = await svc.player_stats(GUILD, "zed", asker="bob", here=here)
        assert (seen.overall.games, seen.overall.wins, seen.overall.best) == (3, 2, 90)
    own = await svc.player_stats(GUILD, "zed", asker="zed", here=(OPEN,))
    assert (own.overall.games, own.overall.wins, own.overall.best) == (3, 2, 90)
    # a player of the staff channel only: nothing at all elsewhere
    assert (await svc.player_stats(GUILD, "yan", asker="bob", here=(OPEN,))).overall.games == 0
    assert (await svc.player_stats(GUILD, "yan")).overall.games == 2  # the bot itself
