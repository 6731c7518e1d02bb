"""A server full of games, through the service on both stores: game numbers reserved before a
game's thread is named, games in threads (their posts: the lobby, the pointer, renames and
archiving), the queue (who plays with whom, simultaneous seekers, expiry, claims that never
opened), the server's lobbies and rematches."""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest

from bot.computers import EngineComputers
from bot.service import FILL_AFTER, QUEUE_TTL, GameService
from bot.service.errors import Code, ServiceError
from bot.service.posts import PostKind, ThreadOpened
from bot.store import Settings

from .test_service import PIDS, Clock, make_service, play, start_game

GUILD, PARENT = 1, 500


async def kinds(svc: GameService, channel: int) -> list[str]:
    return [str(p.post.kind) for p in await svc.pending_posts(channel)]


async def test_game_numbers_are_reserved_first_and_never_given_twice(db: str) -> None:
    svc = await make_service(db, Clock())
    try:
        first = await svc.reserve_number()
        other = await start_game(svc, channel=10)  # made meanwhile: a number of its own
        assert other.game_id > first
        lobby = await svc.create_lobby(GUILD, 20, PIDS[0], parent=PARENT, number=first)
        assert lobby.game_id == first
        unused = await svc.reserve_number()  # a thread that was never made: skipped
        later = await svc.create_lobby(GUILD, 30, PIDS[1])
        assert later.game_id > unused > other.game_id
    finally:
        await svc.close()


async def test_a_game_in_a_thread_posts_its_pointer_renames_and_archives(db: str) -> None:
    """The thread's game: its lobby post in the thread and one pointer line in the text
    channel; each change of seats renames the thread (a THREAD post), the end archives it
    after the final post; the thread plays by its channel's settings."""
    clock = Clock()
    svc = await make_service(db, clock, computers=EngineComputers())
    try:
        await svc.set_settings(PARENT, reminder_hours=2.0, language="de")
        number = await svc.reserve_number()
        await svc.create_lobby(GUILD, 20, PIDS[0], name="Ann", parent=PARENT, number=number)
        assert await kinds(svc, 20) == ["lobby"]
        [pointer] = await svc.pending_posts(PARENT)
        assert pointer.post.game_id is None  # not the game's post: its lobby is edited
        assert pointer.post.lines == (ThreadOpened(number, 20, PIDS[0], "new"),)
        settings = await svc.settings(20)
        assert (settings.reminder_hours, settings.language) == (2.0, "de")
        await svc.join(20, PIDS[1], name="Bob")
        await svc.add_computer(20, PIDS[0])
        assert await kinds(svc, 20) == ["lobby", "lobby", "thread", "lobby", "thread"]
        rename = (await svc.pending_posts(20))[-1].post
        assert rename.players == (PIDS[0], PIDS[1], "ai.normal.1") and not rename.archive
        await svc.remove_computer(20, PIDS[0], "ai.normal.1")
        await svc.join(20, PIDS[2], name="Cid")
        await svc.posts_sent([p.id for p in await svc.pending_posts(20)])
        update = await svc.start(20, PIDS[0])
        assert await kinds(svc, 20) == ["move"]  # the seats did not change: no rename
        await play(svc, 20, update, random.Random(3))
        while len(pending := await svc.pending_posts(20)) == 100:  # read 100 at a time
            await svc.posts_sent([p.id for p in pending[:98]])
        tail = pending[-2:]
        assert [str(p.post.kind) for p in tail] == ["move", "thread"]
        assert tail[0].post.finished and tail[1].post.archive
        # a game in a channel of its own (no parent) never renames or archives anything
        await start_game(svc, channel=40)
        await svc.abandon(40, PIDS[0])
        assert PostKind.THREAD not in {p.post.kind for p in await svc.pending_posts(40)}
    finally:
        await svc.close()


async def test_the_queue_seats_the_oldest_players_who_fit_together(db: str) -> None:
    """Players wait for tables of 3 or 4; a table forms as soon as enough players who want
    its size and agree on its language (none agrees with any) wait, the oldest first."""
    clock = Clock()
    svc = await make_service(db, clock)
    try:
        async def seek(pid: str, players: int = 3, language: str | None = None,
                       channel: int = PARENT) -> object:
            clock.t += 1
            return await svc.seek(GUILD, channel, pid, name=f"n{pid}", players=players,
                                  language=language)

        assert (await seek("1", 4)).found is None  # type: ignore[attr-defined]
        assert (await seek("2", 3, "de")).found is None  # type: ignore[attr-defined]
        assert (await seek("3", 3, "fr")).found is None  # type: ignore[attr-defined]
        assert (await seek("4", 3)).found is None  # type: ignore[attr-defined]
        sought = await seek("5", 3, channel=600)
        found = sought.found  # type: ignore[attr-defined]
        assert found is not None and found.pids == ("2", "4", "5")  # not fr with de
        assert found.language == "de" and found.channel_id == 600 and found.computers == 0
        assert [s.pid for s in await svc.queue(GUILD) if not s.seating] == ["1", "3"]
        update = await svc.open_found(found, 700)
        assert set(update.view["players"]) == {"2", "4", "5"}
        assert update.mention and (await svc.settings(700)).language == "de"
        post = (await svc.pending_posts(700))[-1]  # the start (the lobby's is moot)
        assert post.post.invite == ("2", "4", "5")  # everyone is pinged
        assert [s.pid for s in await svc.queue(GUILD)] == ["1", "3"]
        with pytest.raises(ServiceError) as e:
            await seek("1", 3)
        assert e.value.code == Code.QUEUE_ALREADY
    finally:
        await svc.close()


async def test_simultaneous_seekers_form_whole_tables_each_player_once(db: str) -> None:
    svc = await make_service(db, Clock())
    try:
        sought = await asyncio.gather(*(svc.seek(GUILD, PARENT, str(100 + i), players=3)
                                        for i in range(7)))
        tables = [s.found.pids for s in sought if s.found is not None]
        assert len(tables) == 2
        seated = list(itertools.chain.from_iterable(tables))
        assert len(seated) == len(set(seated)) == 6
        numbers = {s.found.number for s in sought if s.found is not None}
        assert len(numbers) == 2
    finally:
        await svc.close()


async def test_entries_expire_claims_that_never_opened_wait_again_computers_fill(
        db: str) -> None:
    clock = Clock()
    svc = await make_service(db, clock, computers=EngineComputers())
    try:
        await svc.seek(GUILD, PARENT, "1", players=3, fill=True)
        clock.t += FILL_AFTER - 1
        assert await svc.fill_queues(clock.t) == []  # not long enough yet
        await svc.seek(GUILD, PARENT, "2", players=3)  # does not let computers fill
        clock.t += 2
        [found] = await svc.fill_queues(clock.t)
        assert found.pids == ("1",) and found.computers == 2
        await svc.release(found.number)  # its thread was refused: waits again
        assert [s.pid for s in await svc.queue(GUILD) if not s.seating] == ["1", "2"]
        [found] = await svc.fill_queues(clock.t)
        clock.t += 11 * 60  # the process died before the game opened: waits again
        await svc.expire_queues(clock.t)
        assert not any(s.seating for s in await svc.queue(GUILD))
        clock.t += QUEUE_TTL
        assert await svc.expire_queues(clock.t) == 2
        assert await svc.queue(GUILD) == []
        assert (await svc.seek(GUILD, PARENT, "3", players=3, fill=True)).found is None
        clock.t += FILL_AFTER + 1
        [found] = await svc.fill_queues(clock.t)
        update = await svc.open_found(found, 800)
        assert len([p for p in update.view["players"] if p.startswith("ai.")]) == 2
    finally:
        await svc.close()


async def test_lobbies_and_rematches(db: str) -> None:
    clock = Clock()
    svc = await make_service(db, clock, computers=EngineComputers())
    try:
        await svc.create_lobby(GUILD, 20, PIDS[0], name="Ann", seats=4)
        await svc.create_lobby(GUILD, 30, PIDS[1], name="Bob", computers=1)
        await svc.create_lobby(2, 40, PIDS[2])  # another server
        listed = await svc.lobbies(GUILD)
        assert [(x.channel_id, x.free) for x in listed] == [(20, 3), (30, 1)]
        update = await start_game(svc, channel=50)
        with pytest.raises(ServiceError) as e:
            await svc.rematch_of(GUILD, update.game_id, PIDS[0])
        assert e.value.code == Code.NOT_OVER
        for pid in PIDS[:3]:
            await svc.vote_replace(50, pid, pid)  # everyone hands over: computers finish
        assert (await svc.status(50)).finished
        with pytest.raises(ServiceError) as e:
            await svc.rematch_of(GUILD, update.game_id, "999")
        assert e.value.code == Code.REMATCH_PLAYER
        plan = await svc.rematch_of(GUILD, update.game_id, PIDS[1])
        assert plan.invited == (PIDS[0], PIDS[2]) and plan.seats == 3
        lobby = await svc.open_rematch(GUILD, 50, PIDS[1], game_id=update.game_id, name="B")
        assert lobby.creator == PIDS[1] and lobby.invited == (PIDS[0], PIDS[2])
        post = (await svc.pending_posts(50))[-1]
        assert post.post.invite == (PIDS[0], PIDS[2])
        with pytest.raises(ServiceError) as e:
            await svc.rematch_of(GUILD, update.game_id, PIDS[0])
        assert e.value.code == Code.REMATCH_OPEN and e.value.params == {"channels": "50"}
        await svc.join(50, PIDS[0], name="Ann")
        assert (await svc.status(50)).players == (PIDS[1], PIDS[0])
    finally:
        await svc.close()


def test_settings_keep_the_threads_choice() -> None:
    assert Settings(1).threads is None and Settings(1, threads=False).threads is False


async def test_whoever_played_a_seat_may_ask_for_a_rematch_and_takes_that_seat_again(
        db: str) -> None:
    """A player who handed their seat to a substitute mid-game is listed in the history:
    they may ask for the rematch too (they were told "Only this game's players can ask").
    Each seat is one place at the table: whoever asks takes the seat they played, so the
    people who sat at the other seats at the end are asked back — not the one who took
    the asker's seat over, nor the one whose seat the asker took over."""
    clock = Clock()
    svc = await make_service(db, clock, computers=EngineComputers())
    try:
        update = await start_game(svc, channel=50)
        ann, bob, cid = PIDS[:3]
        await svc.vote_replace(50, cid, cid, by="555", by_name="Eve")  # cid's seat: Eve's
        for pid in (ann, bob, "555"):
            await svc.vote_replace(50, pid, pid)  # computers play on to the end
        assert (await svc.status(50)).finished
        played = {p for h in await svc.history(GUILD) if h.game_id == update.game_id
                  for p in (*h.players, *(q for qs in h.substitutes.values() for q in qs))}
        assert {cid, "555"} <= played  # the history lists both who played cid's seat
        for asker, invited in ((cid, (ann, bob)), ("555", (ann, bob)), (ann, (bob, "555"))):
            plan = await svc.rematch_of(GUILD, update.game_id, asker)
            assert (plan.invited, plan.seats) == (invited, 3), asker
        with pytest.raises(ServiceError) as e:
            await svc.rematch_of(GUILD, update.game_id, "999")
        assert e.value.code == Code.REMATCH_PLAYER
        lobby = await svc.open_rematch(GUILD, 50, cid, game_id=update.game_id, name="Cid")
        assert lobby.creator == cid and lobby.invited == (ann, bob)
        for pid in (ann, bob):
            await svc.join(50, pid)
        assert (await svc.status(50)).players == (cid, ann, bob)  # every seat taken
    finally:
        await svc.close()
