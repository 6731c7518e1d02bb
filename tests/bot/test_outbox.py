"""The outbox through the service, on both stores: every change others must see is committed
with its post in one transaction (or neither is), posts wait in order until the adapter says
Discord took them, and a channel Discord refuses is held (a permission: a doubling wait) or
given up (gone: its games are suspended, no timer, no reminder). Posts hold public facts
only."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.service import GameService, ServiceError
from bot.service.posts import (
    AbandonedBy,
    GameBegins,
    Post,
    PostKind,
    ReplaceVote,
    SettingsChanged,
    TookBack,
)
from bot.store import PostedLink

from .test_service import PIDS, Clock, make_service, start_game

HOUR = 3600.0


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def svc(db: str, clock: Clock) -> AsyncIterator[GameService]:
    from bot.computers import EngineComputers

    service = await make_service(db, clock, computers=EngineComputers())
    yield service
    await service.close()


async def kinds(svc: GameService, channel: int = 10) -> list[PostKind]:
    return [p.post.kind for p in await svc.pending_posts(channel)]


async def test_a_lobby_and_each_change_of_it_wait_as_posts_in_order(svc: GameService) -> None:
    await svc.create_lobby(1, 10, PIDS[0], seats=3, name="Ann")
    await svc.join(10, PIDS[1], name="Bo")
    await svc.leave(10, PIDS[1])
    pending = await svc.pending_posts(10)
    assert [p.post.kind for p in pending] == [PostKind.LOBBY] * 3
    assert [p.id for p in pending] == sorted(p.id for p in pending)
    lobbies = [p.post.lobby for p in pending]
    assert [lob.players if lob else None for lob in lobbies] == [
        (PIDS[0],), (PIDS[0], PIDS[1]), (PIDS[0],)]
    assert [lob.version if lob else None for lob in lobbies] == [0, 1, 2]
    assert all(p.post.guild_id == 1 and p.post.channel_id == 10 for p in pending)
    assert await svc.outbox_channels() == [10]


async def test_the_start_closes_the_lobby_and_posts_the_board(svc: GameService) -> None:
    update = await start_game(svc)
    start = (await svc.pending_posts(10))[-1].post
    assert start.kind is PostKind.MOVE and start.lines == (GameBegins(),)
    assert start.lobby is not None and start.lobby.status == "running"
    assert start.view == update.view and start.version == update.version
    assert start.mention == update.mention and start.awaiting == update.awaiting
    assert [e.type for e in start.events][:2] == [e.type for e in update.events][:2]


async def test_posts_leave_the_outbox_only_when_sent_and_remember_the_latest_post(
        svc: GameService) -> None:
    await start_game(svc)
    pending = await svc.pending_posts(10)
    await svc.post_failed([pending[0].id])
    again = await svc.pending_posts(10)
    assert again[0].attempts == 1 and again[0].batch is None
    await svc.post_failed([p.id for p in again[1:3]], batch=again[2].id)
    again = await svc.pending_posts(10)
    assert [p.batch for p in again[1:3]] == [again[2].id] * 2
    game = again[-1].post.game_id
    assert game is not None
    link = PostedLink(game, 555, "https://discord.com/channels/1/10/555")
    await svc.posts_sent([p.id for p in again], link=link)
    assert await svc.pending_posts(10) == [] and await svc.outbox_channels() == []
    assert await svc.latest_message(game) == link
    assert await svc.latest_post(game) == link.url


async def test_a_refused_change_writes_no_post(svc: GameService) -> None:
    update = await start_game(svc)
    before = await svc.pending_posts(10)
    awaited = next(iter(update.awaiting))
    move = (await svc.legal_actions(10, awaited))[0]
    other = next(p for p in PIDS[:3] if p not in update.awaiting)
    with pytest.raises(ServiceError):
        await svc.act(10, other, move)
    with pytest.raises(ServiceError):  # a stale prompt
        await svc.act(10, awaited, move, expected_version=update.version - 1)
    with pytest.raises(ServiceError):
        await svc.create_lobby(1, 10, PIDS[3])  # the channel has a game
    assert await svc.pending_posts(10) == before


async def test_every_move_waits_with_its_public_facts_and_never_a_secret(
        svc: GameService) -> None:
    """A whole game's posts, round-tripped through the store: events are the public ones
    (no drawn cards, no split), the views are public views (no hand), and each post's
    version is the one the prompts after it carry."""
    update = await start_game(svc)
    rng = random.Random(3)
    seen = {p.id for p in await svc.pending_posts(10)}
    private_types: set[str] = set()
    while not update.finished:
        pid = next(iter(update.awaiting))
        legal = await svc.legal_actions(10, pid)
        update = await svc.act(10, pid, rng.choice(legal))
        for events in update.private_events.values():
            private_types |= {e.type for e in events}
        posts = [p for p in await svc.pending_posts(10) if p.id not in seen]
        assert [p.post.kind for p in posts] == [PostKind.MOVE]
        post = posts[0].post
        seen.add(posts[0].id)
        assert post.version == update.version and post.finished == update.finished
        assert post.events == update.events  # the public ones, in order
        assert all(e.visible_to is None for e in post.events)
        assert post.view == update.view  # the public view (R15)
        payload = post.to_json()
        assert Post.from_json(payload) == post
        assert not any(f'"type":"{t}"' in payload for t in private_types)
        if len(seen) > 400:
            break
    assert private_types  # the game drew cards only their distributors saw


async def test_settings_votes_and_an_end_are_notes_with_who_acts_next(
        svc: GameService, clock: Clock) -> None:
    update = await start_game(svc)
    await svc.set_settings(10, reminder_hours=1, guild=1, by=PIDS[1])
    note = (await svc.pending_posts(10))[-1].post
    assert note.kind is PostKind.NOTE and isinstance(note.lines[0], SettingsChanged)
    assert note.lines[0].settings.reminder_hours == 1.0
    assert note.awaiting == update.awaiting and note.version == update.version
    await svc.set_settings(10, reminder_hours=2)  # no one named: nothing to post
    assert (await svc.pending_posts(10))[-1].post == note
    clock.t += 2 * HOUR
    target = next(iter(update.awaiting))
    voter = next(p for p in PIDS[:3] if p != target)
    await svc.vote_replace(10, voter, target)
    vote = (await svc.pending_posts(10))[-1].post
    assert vote.lines == (ReplaceVote(voter, target, 1, 2),) and vote.awaiting
    await svc.abandon(10, PIDS[0])
    end = (await svc.pending_posts(10))[-1].post
    assert end.lines == (AbandonedBy(PIDS[0]),) and end.view is None and end.lobby is None
    await svc.set_settings(20, language="fr", guild=1, by=PIDS[1])  # no game there
    assert [p.post.game_id for p in await svc.pending_posts(20)] == [None]


async def test_a_taken_back_move_is_posted_with_the_game_as_before(svc: GameService) -> None:
    update = await start_game(svc)
    pid = next(iter(update.awaiting))
    legal = await svc.legal_actions(10, pid)
    await svc.act(10, pid, legal[0])
    undone = await svc.undo(10, pid)
    post = (await svc.pending_posts(10))[-1].post
    assert post.lines == (TookBack(pid, legal[0]),) and post.events == ()
    assert post.view == undone.update.view and post.version == undone.update.version


async def test_a_reminder_is_recorded_with_its_post(svc: GameService,
                                                         clock: Clock) -> None:
    update = await start_game(svc)
    clock.t += 13 * HOUR
    [item] = await svc.due_reminders(clock.t)
    assert await svc.remind(item)
    post = (await svc.pending_posts(10))[-1].post
    assert post.kind is PostKind.REMINDER and post.mention == tuple(update.awaiting)
    assert post.since == item.since
    assert not await svc.due_reminders(clock.t)  # recorded


async def test_a_refused_permission_holds_the_channel_for_a_doubling_wait(
        svc: GameService, clock: Clock) -> None:
    await start_game(svc)
    first = await svc.place_blocked(10, 1, "send_messages")
    assert first.blocked_until == clock.t + 60 and first.permission == "send_messages"
    second = await svc.place_blocked(10, 1, "send_messages")
    assert second.backoff == 120
    for _ in range(20):
        last = await svc.place_blocked(10, 1, "view_channel")
    assert last.backoff == 24 * HOUR and last.permission == "view_channel"
    clock.t += 13 * HOUR
    assert await svc.due_reminders(clock.t) == []  # no reminder where nobody may read it
    assert await svc.place_open(10)
    assert await svc.place(10) is None
    assert [r.channel for r in await svc.due_reminders(clock.t)] == [10]
    assert await svc.pending_posts(10)  # nothing was dropped meanwhile


async def test_a_gone_channel_drops_its_posts_and_suspends_its_games(
        svc: GameService, clock: Clock) -> None:
    update = await start_game(svc)
    await svc.set_settings(10, turn_timer_hours=1)
    await svc.place_gone(10, 1)
    assert await svc.pending_posts(10) == [] and await svc.outbox_channels() == []
    place = await svc.place(10)
    assert place is not None and place.gone
    clock.t += 13 * HOUR
    assert await svc.due_timers(clock.t) == [] and await svc.due_reminders(clock.t) == []
    [mine] = await svc.my_games(1, next(iter(update.awaiting)))
    assert mine.suspended and mine.game_id == update.game_id


async def test_a_suspended_game_is_ended_from_elsewhere_by_its_opener_or_a_manager(
        svc: GameService) -> None:
    update = await start_game(svc)
    with pytest.raises(ServiceError) as e:  # its channel is there: end it there
        await svc.end_suspended(1, PIDS[0], update.game_id)
    assert e.value.code == "game.not_suspended"
    await svc.place_gone(10, 1)
    [listed] = await svc.suspended_games(1)
    assert listed.game_id == update.game_id and listed.suspended
    assert await svc.suspended_games(2) == []  # another server's
    with pytest.raises(ServiceError) as e:
        await svc.end_suspended(1, PIDS[1], update.game_id)  # not its opener
    assert e.value.code == "permission.denied"
    with pytest.raises(ServiceError) as e:
        await svc.end_suspended(2, PIDS[0], update.game_id)  # from another server
    assert e.value.code == "game.none"
    ended = await svc.end_suspended(1, PIDS[1], update.game_id, is_admin=True)
    assert ended.status == "abandoned"
    assert await svc.suspended_games(1) == [] and await svc.pending_posts(10) == []
    assert await svc.history(1) == []  # an ended game has no result


async def test_a_post_discord_took_ends_a_permissions_back_off(
        svc: GameService, clock: Clock) -> None:
    """Refused twice, then a post goes through: the next refusal, a month later, waits a
    minute again (not twice the old wait); a gone channel stays gone."""
    await start_game(svc)
    await svc.place_blocked(10, 1, "send_messages")
    assert (await svc.place_blocked(10, 1, "send_messages")).backoff == 120
    first, *_ = await svc.pending_posts(10)
    await svc.posts_sent([first.id], channel=10, took=True)
    assert await svc.place(10) is None
    clock.t += 30 * 24 * HOUR
    assert (await svc.place_blocked(10, 1, "send_messages")).backoff == 60
    await svc.place_gone(20, 1)
    await svc.posts_sent([], channel=20, took=True)
    gone = await svc.place(20)
    assert gone is not None and gone.gone


async def test_pings_a_catch_up_owes_wait_on_the_next_post_and_survive_a_reopen(
        db: str, clock: Clock) -> None:
    """The told posts leave with the pings they owe written on the channel's next waiting
    post, in one transaction: a new process reads them there; a post that passes them on
    (a skipped one) adds them to the next post's own."""
    # (the caller passes on what the posts it lets go owed, with their own pings)
    from bot.computers import EngineComputers

    svc = await make_service(db, clock, computers=EngineComputers())
    try:
        await start_game(svc)
        await svc.set_settings(10, turn_timer_hours=1)
        await svc.set_settings(10, turn_timer_hours=2)
        *before, told, _, _ = await svc.pending_posts(10)
        await svc.posts_sent([p.id for p in before])
        await svc.posts_sent([told.id], channel=10, owed=["111", "222"])
        [skipped, last] = await svc.pending_posts(10)
        assert skipped.owed == ("111", "222") and not last.owed
        await svc.posts_sent([skipped.id], channel=10, owed=[*skipped.owed, "222", "333"])
    finally:
        await svc.close()
    again = await make_service(db, clock, computers=EngineComputers())
    try:
        [waiting] = [p for p in await again.pending_posts(10) if p.id >= last.id]
        assert waiting.id == last.id and waiting.owed == ("111", "222", "333")
    finally:
        await again.close()


async def test_a_posts_tries_are_its_own_and_outlive_the_process(db: str, clock: Clock) -> None:
    """Each failed send counts on its own post (the next post starts at none), ``at_least``
    marks a post Discord will never take as it is, and a new process reads the counts."""
    from bot.computers import EngineComputers

    svc = await make_service(db, clock, computers=EngineComputers())
    try:
        await start_game(svc)
        await svc.set_settings(10, turn_timer_hours=1)
        *_, bad, good = await svc.pending_posts(10)
        await svc.post_failed([bad.id])
        await svc.post_failed([bad.id])
        await svc.post_failed([good.id], at_least=1000)
        await svc.post_failed([good.id], at_least=1000)
    finally:
        await svc.close()
    again = await make_service(db, clock, computers=EngineComputers())
    try:
        tries = {p.id: p.attempts for p in await again.pending_posts(10)}
        assert tries[bad.id] == 2 and tries[good.id] == 1001
    finally:
        await again.close()
