"""SIGKILL of the whole bot process — Discord layer included — in the middle of interactions (a
committed move is never lost): the bot runs as ``python -m bot`` in its own process against the
fake Discord, fake players click through several games at once, and the process is killed at
random moments, then started again on the same file. Every move the bot reported in the channel
is in the database afterwards, every game replays from its log, and play goes on with the
buttons already posted."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.service.errors import Code
from bot.store import SQLiteStore
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.players import Table
from tests.fakediscord.process import kill_bot_process, start_bot_process, stop_bot_process

CUSTOM_ID = re.compile(r"^sm:(\d+):(\d+)\.(\d+)(?:\.[of]\d+)?:")


@dataclass
class CrashRun:
    """What a run of kills saw: the moves the channel posts reported, per game."""

    kills: int = 0
    cut_short: int = 0  # interactions the bot had begun but not finished when killed
    posts: int = 0
    reported: dict[int, int] = field(default_factory=dict)  # game id -> highest version
    over: set[int] = field(default_factory=set)  # channels whose last post says game over
    missing: list[str] = field(default_factory=list)
    not_replaying: list[int] = field(default_factory=list)


def reported_moves(fake: FakeDiscord, run: CrashRun) -> None:
    """The game versions the channel posts announced (their prompts carry them)."""
    run.posts = 0
    for m in fake.messages.values():
        if m.ephemeral or m.deleted or not ("**Now**" in m.content or "Game over" in m.content):
            continue
        run.posts += 1
        if "Game over" in m.content:
            run.over.add(m.channel_id)
        for cid in m.custom_ids():
            match = CUSTOM_ID.match(cid)
            if match:
                game, version = int(match[2]), int(match[3])
                run.reported[game] = max(run.reported.get(game, -1), version)


def _stored(db: Path) -> dict[int, tuple[int, str, int]]:
    """game id -> (game version, status, channel) as the file holds them."""
    conn = sqlite3.connect(db)
    try:
        return {gid: (int(v or 0), status, ch) for gid, v, status, ch in conn.execute(
            "SELECT id, json_extract(state, '$.version'), status, channel_id FROM games")}
    finally:
        conn.close()


def _posts(fake: FakeDiscord) -> int:
    """The game posts in the channels so far (as ``reported_moves`` counts them)."""
    return sum(1 for m in fake.messages.values() if not m.ephemeral and not m.deleted
               and ("**Now**" in m.content or "Game over" in m.content))


async def _posted(fake: FakeDiscord, count: int, seconds: float = 120.0) -> None:
    """Wait until the channels hold ``count`` game posts (a restarted bot on a loaded
    machine takes a while to play again), or ``seconds`` have passed."""
    for _ in range(int(seconds / 0.05)):
        if _posts(fake) >= count:
            return
        await asyncio.sleep(0.05)


async def check_after_kill(fake: FakeDiscord, db: Path, run: CrashRun) -> None:
    reported_moves(fake, run)
    stored = _stored(db)
    for game, version in run.reported.items():
        if game not in stored or stored[game][0] < version:
            run.missing.append(f"game {game}: reported v{version}, stored {stored.get(game)}")
    finished = {ch for _, status, ch in stored.values() if status == "finished"}
    run.missing += [f"channel {ch}: game over reported, not stored"
                    for ch in run.over - finished]
    service = GameService(await SQLiteStore.open(db))
    try:
        for game, (_, _, channel) in stored.items():
            if game in run.reported and not (await service.audit(channel,
                                                                 game_id=game)).ok:
                run.not_replaying.append(game)
    finally:
        await service.close()


def _game_version(db: Path, channel: int) -> int | None:
    conn = sqlite3.connect(db)
    try:
        row = conn.execute("SELECT json_extract(state, '$.version') FROM games WHERE "
                           "channel_id = ? ORDER BY id DESC LIMIT 1", (channel,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])
    finally:
        conn.close()


VersionOf = Callable[[int], Awaitable["int | None"]]  # channel -> its game's stored version


Finished = Callable[[int], Awaitable[bool]]  # channel -> whether its game is over


def sqlite_versions(db: Path) -> VersionOf:
    async def version_of(channel: int) -> int | None:
        return _game_version(db, channel)
    return version_of


def sqlite_finished(db: Path) -> Finished:
    async def finished(channel: int) -> bool:
        conn = sqlite3.connect(db)
        try:
            row = conn.execute("SELECT status FROM games WHERE channel_id = ? "
                               "ORDER BY id DESC LIMIT 1", (channel,)).fetchone()
        finally:
            conn.close()
        return row is not None and row[0] == "finished"
    return finished


def last_prompt(fake: FakeDiscord, channel: int) -> FakeMessage:
    """The channel's newest post with buttons, or its game-over post (not a reminder)."""
    return next(m for m in reversed(fake.channel_messages(channel))
                if m.custom_ids() or "Game over" in m.content)


# What a click on an outdated prompt may be answered with, besides the current prompt, while
# the game goes on: the store or the worker lanes too busy for that one click (a loaded
# machine, a process just restarted), or nothing awaiting yet. A player clicks again.
TRANSIENT = {text.refusal(EN, code) for code in (Code.STORE_BUSY, Code.BUSY, Code.STORE_FAILED,
                                                 Code.STALE)}


async def play(table: Table, version_of: VersionOf, finished: Finished) -> None:
    """Play on from the channel's newest prompt to the end of the game. A kill between a
    commit and its post leaves that post out: then, as a player would, press a button of the
    last post and go on from the current prompt that comes with the "outdated" answer. A
    click answered with only a sentence while the game runs is tried again (a player would),
    if the sentence says to; any other answer fails the test, saying it."""
    channel = table.channel_id
    assert channel is not None
    refused: list[str] = []
    while True:
        post = last_prompt(table.fake, channel)
        versions = {int(m[3]) for c in post.custom_ids() if (m := CUSTOM_ID.match(c))}
        if versions and versions != {await version_of(channel)}:
            rec = await table.click(table.users[0], post, post.custom_ids()[0])
            # (the fake counts a deferred click done when a post lands in its channel: a
            # post the restarted process caught up with may land before the click's answer)
            for _ in range(100):
                if any(not m.loading or m.edits for m in rec.messages):
                    break
                await asyncio.sleep(0.1)
            answer = rec.response if rec.messages else None
            if answer is not None and answer.ephemeral and answer.custom_ids():
                if not await table.step(answer):
                    return
                continue
            if await finished(channel):
                return
            said = answer.content if answer is not None else "(no answer)"
            assert said in TRANSIENT and len(refused) < 40, (said, refused)
            refused.append(said)
            await asyncio.sleep(0.5)
        elif not await table.step(post):
            return


async def open_games(fake: FakeDiscord, tables: list[Table]) -> None:
    for table in tables:
        a, b, c = table.users
        rec = await fake.slash(a, "sanmarco game new", channel_id=table.channel_id)
        lobby = await fake.public_post(rec)
        for user in (b, c):
            await table.click(user, lobby, lobby.component("join")["custom_id"])
        await table.click(a, lobby, lobby.component("start")["custom_id"])


async def crash_run(fake: FakeDiscord, db: Path, *, games: int, kills: int, seed: int,
                    log: Path | None = None, **env: str) -> CrashRun:
    """Open ``games`` games, then ``kills`` times: play for a random moment, SIGKILL the
    bot, check the file, start the bot again. ``env``: the bot's settings."""
    rng = random.Random(seed)
    tables = [Table(fake, [fake.add_user(f"g{i}p{k}") for k in range(3)],
                    channel_id=fake.add_channel(), wait_for="finished",
                    rng=random.Random(seed + i)) for i in range(games)]
    run = CrashRun()
    seen: set[int] = set()
    proc = await start_bot_process(fake, db, log=log, **env)
    try:
        await open_games(fake, tables)
        for _ in range(kills):
            tasks = [asyncio.create_task(play(t, sqlite_versions(db), sqlite_finished(db)))
                     for t in tables]
            await _posted(fake, _posts(fake) + 3)  # playing (however slow the machine) ...
            await asyncio.sleep(rng.uniform(0.3, 2.0))  # ... then a random moment
            # (what went wrong while the bot was up; a task cut short by the kill is not)
            failed = [t.exception() for t in tasks if t.done() and not t.cancelled()]
            assert not any(failed), failed
            kill_bot_process(proc)
            run.kills += 1
            unfinished = {r.id for r in fake.interactions.values()  # begun, not finished
                          if r.answered.is_set() and not r.finished.is_set()}
            run.cut_short += len(unfinished - seen)
            seen |= unfinished
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await check_after_kill(fake, db, run)
            proc = await start_bot_process(fake, db, log=log, **env)
        for table in tables:  # the restarted bot answers in every channel
            rec = await fake.slash(table.users[0], "sanmarco status",
                                   channel_id=table.channel_id)
            assert rec.response.ephemeral and not rec.response.content.startswith("Sorry")
    finally:
        stop_bot_process(proc)
    return run


async def test_sigkill_of_the_whole_bot_loses_no_reported_move(
        fake: FakeDiscord, tmp_path: Path) -> None:
    # (the restarted bot takes the killed one's channels over when their leases run out:
    # after 2 s here, not 10)
    run = await crash_run(fake, tmp_path / "sanmarco.db", games=3, kills=4, seed=11,
                          log=tmp_path / "bot.log", SANMARCO_LEASE_SECONDS="2")
    assert run.kills == 4 and run.posts > 12  # the kills hit a bot that was playing
    assert run.cut_short >= 1  # ... in the middle of interactions
    assert run.missing == [], run.missing
    assert run.not_replaying == []
    log = (tmp_path / "bot.log").read_text()
    assert "Traceback" not in log, log[-2000:]
    assert not json.dumps([r.path for r in fake.unknown]).count("/")
