"""When Discord fails, no game stalls: every committed change reaches the channel (or its
player is told the truth), nothing is posted twice, whoever is awaited is pinged, other
channels play on. One test per failure a player meets, through the real discord.py client
against the fake Discord failing as Discord does (``tests/fakediscord/faults.py``); after
each, one checker (``tests/fakediscord/invariants.py``) compares every channel with the
game the service stores.

The tests assert what players and the operator see, never how the bot does it (the
outbox, docs/OUTBOX.md): a post may arrive after the interaction is answered (``until``),
as a channel message with a nonce or otherwise.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import pytest

from bot import i18n
from bot.cogs.sanmarco.delivery.worker import Deliverer
from bot.service.errors import Code, StorageFailed
from bot.service.posts import Post, SettingsChanged
from tests.fakediscord import CHANNEL_POST, FakeDiscord
from tests.fakediscord import scenarios as sc
from tests.fakediscord.faults import FOLLOWUP
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import check_invariants, is_apology, said
from tests.fakediscord.messages import InteractionRecord
from tests.fakediscord.players import awaited_ids, tag_of


def told_the_truth(recs: list[InteractionRecord]) -> None:
    """No private answer to a saved change is an apology; a command's is there."""
    for rec in recs:
        assert said(rec) or rec.type != 2, f"{rec.user.name} was told nothing"
        assert not [m.content for m in said(rec) if is_apology(m)], \
            [m.content for m in said(rec)]


async def settled(run: sc.Run) -> None:
    """Discord answers again: the channels catch up, the others play on, and everything
    the checker asks holds; the catch-up stays within 5 posts per 5 seconds."""
    assert await run.until_caught_up() is not None, "the channels never caught up"
    await run.others_play()
    await check_invariants(run.fake, run.service, run.channels, acts=run.acts,
                           expected=run.expected)
    for channel in run.channels:
        assert run.fake.most_posts_in(channel, 5.0, since=run.recovered) <= 5


# ---------------------------------------------------------------------- 1. lost posts
async def test_moves_during_an_outage_on_posts_reach_the_channel_once_it_ends(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Two moves (a button, a command) while every post fails for 20 s (on the fake's
    clock): both count; afterwards the channel gets them, the current board and
    prompt, and a ping for whoever is awaited now."""
    run = await sc.outage_on_posts(fake, harness)
    told_the_truth(run.acts[-1:])
    await settled(run)


async def test_a_503_on_a_commands_post_still_posts_the_move(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sc.post_503_on_a_command(fake, harness)
    told_the_truth(run.acts)
    await settled(run)


# ---------------------------------------------------------------------- 2. saved, unseen
async def test_a_lobby_opened_during_an_outage_is_shown_once_it_ends(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sc.new_in_outage(fake, harness)
    told_the_truth(run.acts)
    await settled(run)
    lobby = next(m for m in fake.channel_messages() if "join" in str(m.custom_ids()))
    bob, cid, ann = (fake.users[n] for n in ("bob", "cid", "ann"))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    await until(lambda: sc.caught_up(fake, run.service, fake.channel_id), sc.CATCH_UP)
    await check_invariants(fake, run.service, run.channels, acts=run.acts)


# ---------------------------------------------------------------------- 3. apologies
async def test_settings_saved_under_a_503_are_told_as_saved_and_posted(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sc.settings_503(fake, harness)
    told_the_truth(run.acts)
    assert (await run.service.settings(fake.channel_id)).turn_timer_hours == 24
    await until(lambda: "24 hours" in "\n".join(
        m.content for m in fake.channel_messages() if m.id > run.acts[0].since_id),
        sc.CATCH_UP, what="the settings post")
    await settled(run)


async def test_start_on_a_deleted_lobby_post_starts_and_says_so(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sc.start_on_deleted_lobby(fake, harness)
    told_the_truth(run.acts)
    assert (await run.service.status(fake.channel_id)).status == "running"
    await settled(run)


async def test_an_outage_that_swallows_the_answer_to_a_saved_move_is_no_apology(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """The private answer to a saved move fails at each of discord.py's tries (16 s):
    the player is never told "something went wrong" about a move that counted (Discord
    answers again right after, so an apology would be read); the operator reads one
    WARNING line with the 503 and no traceback; the channel's post tells the truth."""
    caplog.set_level(logging.WARNING)
    run = await sc.swallowed_answer(fake, harness)
    here = run.channels[0]
    assert fake.faults.count(status=503, injected=True) >= 5
    assert (await run.service.status(here)).version > run.before[here]
    told_the_truth(run.acts)
    traces = [r for r in caplog.records if r.exc_info and r.levelno >= logging.WARNING]
    assert not traces, [r.getMessage() for r in traces]
    answering = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING
                 and "/webhooks/" in r.getMessage()]
    assert len(answering) == 1 and "503" in answering[0], answering
    await settled(run)


# ---------------------------------------------------------------------- 4. doubled posts
async def test_a_post_stored_then_answered_502_appears_once(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sc.stored_then_502(fake, harness)
    assert fake.faults.count(status=502, injected=True) == 1
    await settled(run)


# ---------------------------------------------------------------------- 5. expired token
async def test_a_move_that_outlives_its_token_is_still_posted(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sc.token_outlived(fake, harness)
    assert fake.faults.count(status=502, injected=True) == 2
    await settled(run)


# ---------------------------------------------------------------------- 6. gone places
@pytest.mark.parametrize("permission,code", [("view_channel", 50001),
                                             ("send_messages", 50013)])
async def test_a_lost_permission_is_not_retried_every_pass(
        fake: FakeDiscord, harness: BotHarness, permission: str, code: int) -> None:
    passes = 12
    run = await sc.lost_permission(fake, harness, permission, passes=passes)
    here = run.channels[0]
    refused = fake.faults.count(status=403, code=code, channel=here)
    assert 1 <= refused, "the bot never tried"
    assert refused <= passes // 2, f"{refused} refusals in {passes} passes"
    # The other channel was reminded as usual, and both still show their games.
    assert any(m.content.startswith("Reminder") for m in fake.channel_messages(run.channels[1]))
    await check_invariants(fake, run.service, run.channels)


async def test_a_deleted_channel_suspends_its_game(fake: FakeDiscord,
                                                   harness: BotHarness) -> None:
    """Turn timers of 2 hours, three passes 3 hours apart after the channel is deleted:
    its game makes no move and nothing is sent there again after Discord said it is gone;
    the other channel's timer plays on, every move shown."""
    run = await sc.deleted_channel(fake, harness)
    here, there = run.channels
    assert (await run.service.status(here)).version == run.before[here], \
        "moves made into a deleted channel"
    touched = [r for r in fake.requests[run.asked:] if r.channel == here]
    assert len(touched) <= 1, [(r.method, r.path, r.status) for r in touched]
    assert (await run.service.status(there)).version > run.before[there]
    await check_invariants(fake, run.service, [there])


# ---------------------------------------------------------------------- 7. late clicks
async def test_a_click_delivered_too_late_changes_nothing(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A zombie gateway connection: the choice reaches the bot after Discord's 3 s, its
    callback is refused (10062); the game is as it was, and the player's next try works."""
    run, late = await sc.late_click(fake, harness)
    assert late.callback_type is None and fake.faults.count(code=10062) >= 1
    version = (await run.service.status(fake.channel_id)).version
    assert not [m for m in fake.channel_messages() if m.id > late.since_id]
    assert run.tables[fake.channel_id].interactions  # the panel was open before
    assert await run.here.step()
    assert (await run.service.status(fake.channel_id)).version > version
    await check_invariants(fake, run.service, run.channels)


# ---------------------------------------------------------------------- 7. the log
def _expected_condition_logged(caplog: pytest.LogCaptureFixture, code: int,
                               channel: int) -> None:
    """One WARNING line names the code, the route and the channel; no traceback."""
    traces = [r for r in caplog.records if r.exc_info and r.levelno >= logging.WARNING]
    assert not traces, [r.getMessage() for r in traces]
    lines = [r.getMessage() for r in caplog.records
             if r.levelno == logging.WARNING and str(code) in r.getMessage()]
    assert any(str(channel) in line and ("/channels/" in line or "/webhooks/" in line
                                         or "/interactions/" in line) for line in lines), lines


CONDITIONS = {
    10062: sc.late_click,
    10008: sc.start_on_deleted_lobby,
    10003: functools.partial(sc.deleted_channel, tell=False),  # it missed CHANNEL_DELETE
    50027: sc.token_outlived,
    503: sc.new_in_outage,
}


@pytest.mark.parametrize("code", list(CONDITIONS))
async def test_an_expected_discord_condition_is_one_warning_without_traceback(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture,
        code: int) -> None:
    caplog.set_level(logging.WARNING)
    await CONDITIONS[code](fake, harness)
    await harness.settle()
    _expected_condition_logged(caplog, code, fake.channel_id)


async def test_discord_unreachable_mid_answer_is_one_warning_without_traceback(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """The connection to Discord ends with no answer while the bot answers a click (a
    network failure, not an HTTP error, so no code): one WARNING line each, no traceback,
    the game as it was; the same click works once Discord answers again."""
    run = await sc.two_games(fake, harness)
    table = run.tables[fake.channel_id]
    post = fake.last_channel_message(fake.channel_id)
    user = table.user(awaited_ids(post)[0])
    nxt = next(c for c in post.custom_ids() if tag_of(c) == "next")
    version = (await run.service.status(fake.channel_id)).version
    caplog.set_level(logging.WARNING)
    with fake.faults.drop(FOLLOWUP, times=None):  # the panel, then the apology: no answer
        await table.click(user, post, nxt)
    assert fake.faults.count(route=FOLLOWUP, status=0) >= 1
    traces = [r for r in caplog.records if r.exc_info and r.levelno >= logging.WARNING]
    assert not traces, [r.getMessage() for r in traces]
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("no answer" in line and str(fake.channel_id) in line for line in lines), lines
    assert (await run.service.status(fake.channel_id)).version == version
    panel = (await table.click(user, post, nxt)).response
    assert panel is not None and panel.all_components()
    await check_invariants(fake, run.service, run.channels)


async def test_a_bug_still_logs_an_error_with_its_traceback(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    run = await sc.two_games(fake, harness)

    async def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug of ours")

    monkeypatch.setattr(run.service, "status", broken)
    caplog.set_level(logging.WARNING)
    rec = await fake.slash(fake.users["ann"], sc.STATUS)
    assert is_apology(rec.response)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and all(r.exc_info for r in errors), [r.getMessage() for r in errors]
    assert any(r.exc_info[0] is ZeroDivisionError for r in errors if r.exc_info)


# ---------------------------------------------------------------------- gateway faults
@pytest.mark.parametrize("kind", sc.GATEWAY_FAULTS)
async def test_the_game_goes_on_after_a_gateway_fault(
        fake: FakeDiscord, harness: BotHarness, kind: str) -> None:
    """Op 7, op 9 (resumable or not), closes (4000, 4009, 1006) and a zombie connection
    mid-game: the bot comes back (resumes, or identifies anew) and the game goes on."""
    run = await sc.gateway_fault(fake, harness, kind)
    if kind in ("op 9 not resumable", "close 4009"):
        assert fake.identifies >= 2
    else:
        assert fake.resumes >= 1
    await check_invariants(fake, run.service, run.channels, acts=run.acts)


# ---------------------------------------------------------------------- threads
async def test_an_archived_thread_gets_its_post(fake: FakeDiscord,
                                                harness: BotHarness) -> None:
    run = await sc.archived_thread(fake, harness)
    thread = run.channels[0]
    await settled(run)
    assert not fake.threads[thread].archived


# ---------------------------------------------------------------------- 429s
async def test_a_429_with_discords_headers_is_waited_out_and_posts_once(
        fake: FakeDiscord, harness: BotHarness) -> None:
    run = await sc.two_games(fake, harness)
    fake.faults.rate_limit(CHANNEL_POST, retry_after=0.3, channel=fake.channel_id)
    user = await run.awaited()
    rec = await run.here.slash_play(user)
    await harness.settle()
    assert fake.faults.count(status=429) == 1 and fake.faults.invalid_requests == 1
    assert not is_apology(rec.response)
    await check_invariants(fake, run.service, run.channels, acts=[rec])


async def test_the_checker_sees_a_lost_post_and_a_doubled_one(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The checker itself: a post a user deleted reads as a lost move and a stale channel;
    the same prompt twice reads as a duplicate."""
    run = await sc.two_games(fake, harness)
    newest = fake.last_channel_message()
    await fake.delete_message(newest)
    problems = [p for f in await run.findings() for p in f.problems()]
    assert any("lost" in p for p in problems) and any("stale" in p for p in problems)
    newest.deleted = False
    twin = fake._new_message({"content": newest.content, "components": newest.components},
                             {}, None, channel_id=fake.channel_id)
    assert twin.custom_ids() == newest.custom_ids()
    problems = [p for f in await run.findings() for p in f.problems()]
    assert any("duplicates" in p for p in problems), problems


async def test_a_permission_lost_again_a_month_later_waits_a_minute_again(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Lost, restored (posts go through again), lost a month later: the second refusal
    holds the channel's posts for a minute, as the first did, not twice as long."""
    waits: list[float] = []
    run = await sc.permission_lost_twice(fake, harness, waits=waits)
    assert waits == [60.0, 60.0]
    assert await run.service.place(run.channels[0]) is None  # posts go through again
    await settled(run)


async def test_a_poison_post_between_two_good_ones_takes_neither_with_it(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """A settings post Discord refuses every time (400) waits between two moves: both
    moves reach the channel, the settings post is replaced by its minimal post (the Now
    line with its buttons), nobody is told an untruth, and the refusal is logged once
    with its traceback."""
    caplog.set_level(logging.WARNING)
    run = await sc.poison_between_good(fake, harness)
    told_the_truth(run.acts)
    await settled(run)
    here = run.channels[0]
    assert fake.faults.count(code=50035, channel=here) >= 1
    posts = fake.channel_messages(here)
    assert not [m for m in posts if sc.POISON in m.content]
    minimal = [m for m in posts if m.custom_ids() and len(m.content.splitlines()) == 1
               and not m.files]
    assert minimal, [m.content for m in posts]
    assert (await run.service.pending_posts(here)) == []
    traces = [r for r in caplog.records if r.exc_info]
    assert len(traces) == 1 and "minimal post" in traces[0].getMessage(), \
        [r.getMessage() for r in traces]


def _deliverer(harness: BotHarness) -> Deliverer:
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    return cog.deliverer  # type: ignore[no-any-return]


async def test_a_post_whose_words_fail_is_replaced_and_the_channel_goes_on(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug of ours: the words of the settings post raise, at every try (also while the
    deliverer measures the waiting posts for a catch-up). The channel's worker does not
    stop: the moves around it go out, it is replaced by its minimal post, one traceback."""
    caplog.set_level(logging.WARNING)
    run = await sc.poison_between_good(fake, harness, refused=False)
    composer = _deliverer(harness).composer
    words = composer.told

    def told(tr: i18n.Tr, post: Post, language: str) -> list[str]:
        if any(isinstance(line, SettingsChanged) for line in post.lines):
            raise KeyError("a bug of ours: no words")
        return words(tr, post, language)

    monkeypatch.setattr(composer, "told", told)
    await settled(run)
    here = run.channels[0]
    assert await run.service.pending_posts(here) == []
    posts = fake.channel_messages(here)
    assert [m for m in posts if m.custom_ids() and len(m.content.splitlines()) == 1]
    traces = [r for r in caplog.records if r.exc_info]
    assert len(traces) == 1 and traces[0].exc_info and traces[0].exc_info[0] is KeyError


async def test_a_storage_error_while_delivering_is_retried_not_given_up(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The store fails (StorageFailed) as the deliverer records a post Discord took: the
    post is kept and tried again under its nonce, shown once, never dropped; no
    traceback (the store's condition is one WARNING line)."""
    run = await sc.two_games(fake, harness)
    service = _deliverer(harness).service
    record = service.posts_sent
    failures = [StorageFailed(Code.STORE_BUSY)] * 2

    async def flaky(*args: Any, **kwargs: Any) -> None:
        if failures:
            raise failures.pop()
        await record(*args, **kwargs)

    monkeypatch.setattr(service, "posts_sent", flaky)
    caplog.set_level(logging.WARNING)
    user = await run.awaited()
    run.acts.append(await run.here.slash_play(user))
    await settled(run)

    async def recorded() -> bool:
        return all([not await run.service.pending_posts(c) for c in run.channels])

    await until(recorded, sc.CATCH_UP, what="the posts recorded as sent")
    assert not failures
    await check_invariants(fake, run.service, run.channels, acts=run.acts)
    assert not [r for r in caplog.records if r.exc_info]
    assert any("store failed" in r.getMessage() for r in caplog.records)


async def test_a_post_that_failed_often_is_tried_again_soon_after_a_restart(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A post's stored tries count its failures (a bug of ours is given up after a few,
    across restarts), not the wait while Discord is down: that doubles with the worker's
    failures in a row. A bot started again during a long outage fails on its first try,
    then tries again within a second or two — not after the minute that the post's eight
    earlier tries would make — and the channel catches up as soon as Discord answers."""
    run = await sc.two_games(fake, harness)
    here = run.channels[0]
    outage = fake.faults.outage(CHANNEL_POST, channel=here)
    user = await run.awaited()
    run.acts.append(await run.here.slash_play(user))
    await harness.settle()
    waiting = [p.id for p in await run.service.pending_posts(here)]
    assert waiting
    await run.service.post_failed(waiting, at_least=8)  # as after eight failed tries
    await harness.stop()
    sent = len(fake.requests)
    await harness.start(seed=42)

    def tried_again() -> bool:
        return any(r.route == CHANNEL_POST and r.channel == here
                   for r in fake.requests[sent:])

    await until(tried_again, what="the restarted bot's first try")
    outage.stop()
    run.recovered = fake.clock.now()
    assert await run.until_caught_up(20) is not None, "the post waited for its old tries"
    await check_invariants(fake, run.service, run.channels, acts=run.acts)
