"""Scenarios of issue 37 (a post known by its id, owed pings, renames remembered, reads,
long backlogs), played through the real bot against the fake Discord; shared by
tests/bot/test_discord_posts.py and the figures (``python benchmarks/faults_bench.py discord``).
Each returns a ``scenarios.Run`` as the others of ``scenarios`` do."""

from __future__ import annotations

import random

from . import scenarios as sc
from .faults import CHANNEL_POST, POSTS
from .harness import BotHarness, until
from .messages import FakeMessage
from .players import Table
from .server import FakeDiscord

HISTORY = "GET /channels/{channel_id}/messages"


async def _thread_game(fake: FakeDiscord, harness: BotHarness, seats: int = 3) -> sc.Run:
    """A game in a thread of its own (the default), started, every post delivered."""
    run = await sc._in_thread(fake, harness)
    users = [fake.users[n] for n in ("ann", "bob", "cid", "dan")[:seats]]
    thread, lobby = await sc._lobby_thread(run, users[0], seats)
    for user in users[1:]:
        run.acts.append(await fake.click(user, lobby, lobby.component("join")["custom_id"]))
    run.acts.append(await fake.click(users[0], lobby, lobby.component("start")["custom_id"]))
    await harness.settle()
    run.tables[thread] = Table(fake, [*users, fake.users["eve"], fake.users["fay"]],
                               channel_id=thread)
    run.began = run.recovered = fake.clock.now()
    return run


async def _restart(run: sc.Run) -> None:
    """The bot process stops and a new one starts on the same database."""
    await run.harness.stop()
    await run.harness.start(seed=42, game_threads=True, clock=lambda: run.now[0])


# ---------------------------------------------------------------------- item 5: renames
async def _renamed_twice_then_restarted(run: sc.Run, fake: FakeDiscord
                                        ) -> tuple[int, FakeMessage]:
    """ann's four-seat lobby in a thread, renamed twice (bob's and cid's joins, each rename
    made before the next join), then the bot restarted: the thread and its lobby message."""
    ann, bob, cid = (fake.users[n] for n in ("ann", "bob", "cid"))
    thread, lobby = await sc._lobby_thread(run, ann, 4)
    for n, user in enumerate((bob, cid), 1):
        run.acts.append(await fake.click(user, lobby, lobby.component("join")["custom_id"]))
        await until(lambda n=n: len(fake.renames.get(thread, [])) == n,  # type: ignore[misc]
                    20, what="the thread renamed after the join")
    await _restart(run)
    return thread, lobby


async def restart_between_renames(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
    """A four-seat lobby in a thread renamed twice (bob's and cid's joins), the bot
    restarted, then dan joins within the ten minutes: a third rename Discord would refuse."""
    run = await sc._in_thread(fake, harness)
    dan = fake.users["dan"]
    _, lobby = await _renamed_twice_then_restarted(run, fake)
    run.began = run.recovered = fake.clock.now()
    run.acts.append(await fake.click(dan, lobby, lobby.component("join")["custom_id"]))
    await harness.settle()
    await until(lambda: "4/4" in lobby.content, what="the lobby shows dan")
    return run


async def rename_refused_by_discord(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
    """A thread game whose thread a moderator renamed twice (the bot cannot know), then a
    seat handed over (a rename Discord refuses, 429 for ~600 s) and a move."""
    run = await _thread_game(fake, harness)
    thread = run.channels[0]
    table = run.tables[thread]
    run.now[0] += 601
    fake.clock.advance(601)
    fake.renames[thread] = [fake.clock.now(), fake.clock.now()]  # the moderator's
    run.began = run.recovered = fake.clock.now()
    old = await run.awaited()
    run.acts.append(await fake.slash(old, "sanmarco seat replace", channel_id=thread,
                                     player=str(old.id), by=fake.users["eve"]))
    await harness.settle()
    await sc._acting(run, table, table.step)
    return run


# ---------------------------------------------------------------------- item 4: owed pings
async def _two_awaited(run: sc.Run, channel: int, rng: random.Random) -> None:
    """Moves (through the service, delivered) until two players' decisions run at once."""
    cog = run.harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    for _ in range(200):
        status = await run.service.status(channel)
        if sum(p.isdigit() for p in status.awaiting) >= 2:
            return
        if not any(p.isdigit() for p in status.awaiting):
            break
        await sc._move(run, channel, rng)
        await cog.deliverer.flush(channel, run.fake.guild_id)
    raise AssertionError("no two decisions at once")


async def handed_over_in_outage(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
    """A thread game at a moment two players decide at once; Discord fails every post; one
    of them hands the seat to eve (her decision starts: a ping owed, and a rename) and the
    other decides; Discord answers again: eve must be pinged by the catch-up's board."""
    run = await _thread_game(fake, harness, seats=4)
    thread = run.channels[0]
    await _two_awaited(run, thread, random.Random(3))
    status = await run.service.status(thread)
    first, second = (p for p in status.awaiting if p.isdigit())
    table = run.tables[thread]
    outage = fake.faults.outage(*POSTS, channel=thread)
    run.acts.append(await fake.slash(table.user(int(first)), "sanmarco seat replace",
                                     channel_id=thread, player=first, by=fake.users["eve"]))
    await harness.settle()
    snap = await run.service.snapshot(thread, second, turn=True)
    await run.service.act(thread, second, random.Random(5).choice(snap.legal))
    run.recovered = fake.clock.now()
    outage.stop()
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    cog.deliverer.wake(thread, fake.guild_id)
    await cog.deliverer.idle()
    return run


# ---------------------------------------------------------------------- item 2: known by id
REMINDER = "Reminder — the game has been waiting since"
HOUR = sc.HOUR


def reminders_shown(fake: FakeDiscord, channel: int, since: float) -> int:
    """The reminder posts the channel shows, made since ``since`` (the fake's clock)."""
    return sum(REMINDER in m.content for m in fake.channel_messages(channel)
               if m.t_made >= since)


async def _sent(run: sc.Run, channel: int) -> None:
    """The channel's worker woken (as a new change there or the pass would) until its
    posts left the outbox."""
    cog = run.harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    cog.deliverer.wake(channel, run.fake.guild_id)

    async def sent() -> bool:
        return not await run.service.pending_posts(channel)

    await until(sent, sc.CATCH_UP, what="the posts tried again leave the outbox")


async def _past_the_window(run: sc.Run, channel: int, outage: object) -> None:
    """Ten minutes on both clocks (Discord forgot the nonces), then Discord answers."""
    run.fake.clock.advance(600.0)
    run.now[0] += 600.0
    outage.stop()  # type: ignore[attr-defined]
    run.recovered = run.fake.clock.now()


async def reminder_refused_in_outage(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
    """A turn that lasts two days, a reminder every 12 hours; the second meets a 503
    outage of ten minutes (past Discord's nonce window): every reminder is shown (none is
    taken for the one before it, which has the same words and buttons)."""
    fake.nonce_window = sc.NONCE_WINDOW
    run = await sc.two_games(fake, harness, clock=True, settings={"reminder_hours": 12.0})
    here = run.channels[0]
    await run.passes(1, every=12 * HOUR + 60.0)
    outage = fake.faults.outage(CHANNEL_POST, channel=here)
    await run.passes(1, every=12 * HOUR)
    await until(lambda: fake.faults.count(route=CHANNEL_POST, status=503, channel=here,
                                          injected=True) >= 1, what="the reminder refused")
    await _past_the_window(run, here, outage)
    await _sent(run, here)
    await run.passes(2, every=12 * HOUR)
    return run


async def reminders_every_half_second(fake: FakeDiscord, harness: BotHarness, *,
                                      reminders: int = 12) -> tuple[sc.Run, int]:
    """Discord's channel limit (5 posts per 5 s) kept by the fake, and a reminder due every
    half second (the service's clock 12 hours on each time): each reminder is shown, or
    superseded by a later one that pings. Returns the run and how many were due."""
    import asyncio

    fake.faults.limit_posts()
    run = await sc.two_games(fake, harness, clock=True, settings={"reminder_hours": 12.0})
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    for _ in range(reminders):
        run.now[0] += 12 * HOUR + 1.0
        await cog.reminders.run_once()
        await asyncio.sleep(0.5)
    run.recovered = fake.clock.now()
    for channel in run.channels:
        await _sent(run, channel)
    return run, reminders


async def history_read(fake: FakeDiscord, harness: BotHarness, how: str) -> sc.Run:
    """A move's post Discord stores and answers 503, then ten minutes of outage (past the
    nonce window); the read of the channel's messages that looks for it first fails once
    (``how`` "5xx": 503) or comes back empty (``how`` "empty": the bot lacks Read Message
    History there, which Discord answers with an empty list)."""
    fake.nonce_window = sc.NONCE_WINDOW
    run = await sc.two_games(fake, harness, clock=True)
    here = run.channels[0]
    if how == "empty":
        fake.deny(here, "read_message_history")
        await fake.announce(here)
    panel, pick = await sc.open_move_select(run.here, await run.awaited())
    fake.faults.stored_then(CHANNEL_POST, status=503, channel=here)
    outage = fake.faults.outage(CHANNEL_POST, channel=here)
    await sc._acting(run, run.here, lambda: sc.choose(run.here, panel, pick))
    await _past_the_window(run, here, outage)
    if how == "5xx":
        fake.faults.fail(HISTORY, status=503, channel=here)
    await _sent(run, here)
    return run


async def stored_then_told_as_text(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
    """A move's post Discord stores and answers 502 (and 503 at discord.py's retry: an
    outage of ten minutes, past the nonce window), and another move meanwhile: the first
    goes again as a catch-up's text. Discord has it whole already: not shown twice."""
    fake.nonce_window = sc.NONCE_WINDOW
    run = await sc.two_games(fake, harness, clock=True)
    here = run.channels[0]
    panel, pick = await sc.open_move_select(run.here, await run.awaited())
    fake.faults.stored_then(CHANNEL_POST, status=502, channel=here)
    outage = fake.faults.outage(CHANNEL_POST, channel=here)
    await sc._acting(run, run.here, lambda: sc.choose(run.here, panel, pick))
    await sc._move(run, here, random.Random(7))
    await _past_the_window(run, here, outage)
    await _sent(run, here)
    return run


# ---------------------------------------------------------------------- item 7: backlogs
async def long_backlog(fake: FakeDiscord, harness: BotHarness, *, posts: int = 150,
                       deliver: bool = True) -> tuple[sc.Run, int]:
    """``posts`` posts committed in one channel while no deliverer ran (more than the 100
    read at a time): 60 moves, then settings changes by a manager (notes: a game lasts
    fewer moves), then (``deliver``) the start-up pass. Returns the run and how many wait."""
    run, _ = await sc.backlog(fake, harness, moves=60, deliver=False)
    here = run.channels[0]
    assert run.mod is not None
    for i in range(posts - 60):
        await run.service.set_settings(here, reminder_hours=12.0 + i % 2, guild=fake.guild_id,
                                       by=str(run.mod.id))
    waiting = await run.service.waiting_beyond(here, 100) + 100
    run.expected[here] = ["13 hours" if (posts - 61) % 2 else "12 hours"]
    if deliver:
        cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
        await cog.deliverer.resume()
    return run, waiting


# ---------------------------------------------------------------------- whole games
async def whole_game_with_restart(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
    """A four-seat game in a thread (the default) on the harness's database: bob and cid
    join (two renames), the bot restarts, dan joins (a third rename: held for Discord's
    window), ann starts, the others hand their seats to the computer, and ann plays to the
    end (each move posted; the thread archived). Discord should refuse nothing (no 429 on
    a rename). The channel's post limit is Discord's 5 posts, per second instead of per
    5 s: the bot keeps to the bucket's headers either way, and the game's ~40 posts wait
    8 s for it, not 40."""
    fake.faults.limit_posts(5, 1.0)
    run = await sc._in_thread(fake, harness)
    ann, bob, cid, dan = (fake.users[n] for n in ("ann", "bob", "cid", "dan"))
    thread, lobby = await _renamed_twice_then_restarted(run, fake)
    for user, tag in ((dan, "join"), (ann, "start")):
        run.acts.append(await fake.click(user, lobby, lobby.component(tag)["custom_id"]))
    await harness.settle()
    run.began = fake.clock.now()
    for user in (bob, cid, dan):
        await fake.slash(user, "sanmarco seat replace", channel_id=thread, player=str(user.id))
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    rng = random.Random(11)
    while not (await run.service.status(thread)).finished:  # ann plays on, each move posted
        await sc._move(run, thread, rng)
        await cog.deliverer.flush(thread, fake.guild_id)
    await until(lambda: any("Game over!" in m.content for m in fake.channel_messages(thread)),
                60, what="the game's end posted")
    run.now[0] += 601  # Discord's window is over: the held rename is moot, the archive goes
    fake.clock.advance(601)
    await run.passes(1, every=0.0)
    await until(lambda: fake.threads[thread].archived, 20, what="the thread archived")
    run.tables[thread] = Table(fake, [ann, bob, cid, dan], channel_id=thread)
    run.recovered = fake.clock.now()
    return run


def refused(fake: FakeDiscord) -> int:
    """Requests Discord refused on its own (not faults a scenario injected): a 4xx, a 429."""
    return sum(1 for a in fake.faults.answered if not a.injected)


def pinged_since(fake: FakeDiscord, channel: int, user: int, since: float) -> bool:
    """Whether a post made since ``since`` (the fake's clock) pings ``user``."""
    return any(user in m.pinged() for m in fake.channel_messages(channel) if m.t_made >= since)


__all__ = ["CHANNEL_POST", "HISTORY", "handed_over_in_outage", "history_read", "long_backlog",
           "pinged_since", "reminder_refused_in_outage", "reminders_every_half_second",
           "reminders_shown", "rename_refused_by_discord", "restart_between_renames",
           "refused", "stored_then_told_as_text", "whole_game_with_restart"]
