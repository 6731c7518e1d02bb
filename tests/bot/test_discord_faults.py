"""Faults through the real bot and the fake Discord: a database locked by another
process, a board post Discord refuses, hostile names; each told truthfully, none holding up
another channel."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import text
from bot.computers import EngineComputers
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.store import SQLiteStore
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids
from tests.fakediscord.scenarios import open_move_select

from .test_discord_game import open_three_player_game
from .test_store_busy import held_by_another_process


def _service(tmp_path: Path, busy_timeout: float) -> Awaitable[GameService]:
    """The bot's service on the harness's file, giving up on a locked file after
    ``busy_timeout`` seconds."""
    async def opened() -> GameService:
        store = await SQLiteStore.open(tmp_path / "sanmarco.db", busy_timeout=busy_timeout)
        return GameService(store, seeds=lambda: 42, computers=EngineComputers())
    return opened()


async def _game(fake: FakeDiscord, harness: BotHarness,
                service: GameService) -> tuple[Table, FakeUser]:
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    await harness.start(service=service)
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new"))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, [ann, bob, cid])
    return table, table.user(awaited_ids(fake.last_channel_message())[0])


@dataclass(frozen=True)
class _Asked:
    """The awaited player's move asked twice while another process holds the file: by the
    move chooser's select (``click``) and by ``/sanmarco play`` (``slash``)."""

    click: InteractionRecord
    slash: InteractionRecord
    awaited: FakeUser
    move: str  # the move's text
    version: int  # the game's version before


@asynccontextmanager
async def _asked_while_locked(fake: FakeDiscord, harness: BotHarness, service: GameService,
                              tmp_path: Path) -> AsyncIterator[_Asked]:
    """A game started, then its awaited player's move asked twice, while (inside the block)
    another process holds a write transaction on the file."""
    table, awaited = await _game(fake, harness, service)
    version = (await service.status(fake.channel_id)).version
    move = (await service.legal_actions(fake.channel_id, str(awaited.id)))[0].encode()
    panel, pick = await open_move_select(table, awaited)
    with held_by_another_process(tmp_path / "sanmarco.db"):
        click = await fake.select(awaited, panel, pick["custom_id"],
                                  [pick["options"][0]["value"]], wait=False)
        slash = await fake.slash(awaited, "sanmarco play", move=move, wait=False)
        yield _Asked(click, slash, awaited, move, version)


async def test_a_locked_database_is_waited_for_and_blocks_no_other_channel(
        fake: FakeDiscord, harness: BotHarness, tmp_path: Path) -> None:
    """Another process holds a write transaction: a click and a command of the same move
    are deferred at once (before any store work); a command in another channel is answered
    in full meanwhile, while those two still wait for the file (their wait, a minute, is
    far longer than this test: no timing margin); once the file is free, the move counts
    once, and the second asking of it is told it came too late."""
    service = await _service(tmp_path, busy_timeout=60.0)
    try:
        async with _asked_while_locked(fake, harness, service, tmp_path) as asked:
            click, slash = asked.click, asked.slash
            for rec in (click, slash):
                await asyncio.wait_for(rec.answered.wait(), 10)
                assert not rec.completed.is_set()  # only deferred: the store is waiting
            assert click.callback_type == 6  # a deferred update of the panel
            assert slash.callback_type == 5 and slash.callback["data"]["flags"] == 64
            # Another channel is answered in full while these still wait for the file.
            other = await fake.slash(asked.awaited, "sanmarco status",
                                     channel_id=fake.other_channel_id)
            assert "no game" in other.response.content.lower()
            assert not click.completed.is_set() and not slash.completed.is_set()
        await asyncio.wait_for(click.handled.wait(), 30)
        await asyncio.wait_for(slash.completed.wait(), 30)
        await harness.settle()
        assert (await service.status(fake.channel_id)).version == asked.version + 1  # once
        said = [m.content for r in (click, slash) for m in r.private]
        refusals = {text.refusal(EN, c) for c in ("state.stale", "action.not_your_turn")}
        assert any(r in m for m in said for r in refusals), said  # the other: too late
    finally:
        await service.close()


async def test_a_database_locked_past_the_wait_is_busy_and_changes_nothing(
        fake: FakeDiscord, harness: BotHarness, tmp_path: Path) -> None:
    """Locked longer than the store waits: the player reads, privately, that the game is
    busy and nothing changed; no post; once the file is free the same command works."""
    service = await _service(tmp_path, busy_timeout=0.3)
    try:
        async with _asked_while_locked(fake, harness, service, tmp_path) as asked:
            click, slash = asked.click, asked.slash
            await asyncio.wait_for(click.handled.wait(), 30)
            await asyncio.wait_for(slash.completed.wait(), 30)
        for rec in (click, slash):
            assert rec.response.ephemeral
            assert rec.response.content == text.refusal(EN, "store.busy"), \
                rec.response.content
        assert (await service.status(fake.channel_id)).version == asked.version
        assert not [m for m in fake.channel_messages() if m.id > click.since_id]  # no post
        rec = await fake.slash(asked.awaited, "sanmarco play", move=asked.move)
        assert rec.response.content == text.posted(EN)
        assert (await service.status(fake.channel_id)).version == asked.version + 1
    finally:
        await service.close()


async def test_a_board_post_refused_for_attach_files_keeps_the_game_going(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """Attach Files is taken from the bot mid-game: Discord refuses the board post (403).
    The move counts; the post goes out as text (the next player is pinged and can press
    its buttons); the player reads what the bot lacks; the admin finds it in the log."""
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    await table.step()
    await harness.settle()
    fake.deny(fake.channel_id, "attach_files")
    caplog.set_level(logging.WARNING)
    version = (await harness.bot.service.status(fake.channel_id)).version
    before = fake.last_channel_message()
    await table.step()  # by button (a follow-up post)
    await harness.settle()
    assert (await harness.bot.service.status(fake.channel_id)).version > version
    post = fake.last_channel_message()
    assert post is not before and not post.files and "**Now**" in post.content
    assert post.custom_ids()  # the next prompt's buttons are there
    told = [m for r in table.interactions[-3:] for m in r.private]
    assert any("Attach Files" in m.content and "counts" in m.content for m in told), \
        [m.content for m in told]
    assert any("Attach Files" in r.getMessage() and str(fake.channel_id) in r.getMessage()
               for r in caplog.records)
    # The next player was pinged by the text post, and the game goes on from it.
    body = next(r.json for r in reversed(fake.requests) if r.status == 200
                and isinstance(r.json, dict) and r.json.get("content") == post.content)
    assert [str(u) for u in body["allowed_mentions"].get("users", [])] or \
        not awaited_ids(post)
    # By slash command (a channel post) too.
    awaited = table.user(awaited_ids(post)[0])
    move = (await harness.bot.service.legal_actions(fake.channel_id,
                                                    str(awaited.id)))[0].encode()
    rec = await fake.slash(awaited, "sanmarco play", move=move)
    assert "Attach Files" in rec.response.content and rec.response.ephemeral
    assert not fake.public_answer(rec).files
    for _ in range(6):
        assert await table.step()
    assert not [m for m in fake.messages.values() if m.content.startswith("Sorry")]


async def test_no_send_messages_the_move_still_counts_and_the_player_is_told(
        fake: FakeDiscord, harness: BotHarness) -> None:
    users = await open_three_player_game(fake, harness)
    await harness.settle()
    fake.deny(fake.channel_id, "send_messages")
    post = fake.last_channel_message()
    awaited = next(u for u in users if u.id == awaited_ids(post)[0])
    version = (await harness.bot.service.status(fake.channel_id)).version
    move = (await harness.bot.service.legal_actions(fake.channel_id,
                                                    str(awaited.id)))[0].encode()
    rec = await fake.slash(awaited, "sanmarco play", move=move)
    assert rec.response.ephemeral and "Send Messages" in rec.response.content
    assert "counts" in rec.response.content
    assert (await harness.bot.service.status(fake.channel_id)).version == version + 1
    assert fake.last_channel_message() is post  # nothing could be posted
    # Another public command: saved, and the player hears why nobody sees it.
    rec = await fake.slash(awaited, "sanmarco game abandon")
    assert rec.response.ephemeral and "Send Messages" in rec.response.content
    assert (await harness.bot.service.status(fake.channel_id)).status == "abandoned"
    assert not [m for m in fake.messages.values() if m.content.startswith("Sorry")]


async def test_a_reminder_failing_in_one_channel_does_not_stop_the_others(
        fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_700_000_000.0]
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    await harness.start(seed=42, clock=lambda: now[0])
    service = harness.bot.service
    for channel in (fake.channel_id, fake.other_channel_id):
        await service.create_lobby(fake.guild_id, channel, str(users[0].id))
        for u in users[1:]:
            await service.join(channel, str(u.id))
        await service.start(channel, str(users[0].id))
    real = service.mark_reminded

    async def failing(channel: int, version: int) -> bool:
        if channel == fake.channel_id:
            raise ServiceError("store.busy")
        return await real(channel, version)

    monkeypatch.setattr(service, "mark_reminded", failing)
    now[0] += 13 * 3600
    await harness.bot.get_cog("SanMarco").reminders.run_once()
    reminded = {m.channel_id for m in fake.messages.values()
                if m.content.startswith("Reminder")}
    assert reminded == {fake.channel_id, fake.other_channel_id}


async def test_a_fourth_open_lobby_is_refused_naming_the_three(
        fake: FakeDiscord, harness: BotHarness) -> None:
    channels = [fake.add_channel() for _ in range(4)]
    ann = fake.add_user("ann")
    await harness.start(seed=1)
    for channel in channels[:3]:
        rec = await fake.slash(ann, "sanmarco game new", channel_id=channel)
        assert rec.response.content == text.posted(EN)
    rec = await fake.slash(ann, "sanmarco game new", channel_id=channels[3])
    assert rec.response.ephemeral
    assert all(f"<#{c}>" in rec.response.content for c in channels[:3])
    assert "open lobbies" in rec.response.content
    assert not fake.channel_messages(channels[3])


def _message_bodies(fake: FakeDiscord) -> list[dict]:
    """Every request that carried message content (posts, follow-ups, edits, answers)."""
    out = []
    for r in fake.requests:
        body = r.json if isinstance(r.json, dict) else {}
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        if r.method in ("POST", "PATCH") and isinstance(data, dict) and "content" in data:
            out.append(data)
    return out


async def test_only_users_can_ever_be_pinged_whatever_a_name_says(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Every message the bot sends carries allowed_mentions that permit no @everyone,
    @here or role ping (the client had no default: panel edits and some answers went out
    without any)."""
    ann = fake.add_user("@everyone @here <@&1>")
    bob, cid = fake.add_user("bob"), fake.add_user("<@&2> @everyone")
    await harness.start(seed=42)
    assert harness.bot.allowed_mentions is not None
    assert harness.bot.allowed_mentions.to_dict()["parse"] == ["users"]
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new"))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, [ann, bob, cid])
    for _ in range(12):
        await table.step()
    await fake.slash(bob, "sanmarco game rules")
    await fake.slash(bob, "sanmarco status")
    bodies = _message_bodies(fake)
    assert len(bodies) > 30
    for body in bodies:
        allowed = body.get("allowed_mentions")
        assert allowed is not None, body.get("content", "")[:80]
        assert not {"everyone", "roles"} & set(allowed.get("parse", [])), allowed
        assert not allowed.get("roles"), allowed
