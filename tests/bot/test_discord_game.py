"""A whole San Marco game through the fake Discord: the real discord.py bot, the real cog,
service, store and engine; three fake users click the bot's own buttons and selects and use
its slash commands, reading only what the bot sent them."""

from __future__ import annotations

import json
import re

from bot import text
from bot.i18n import ENGLISH as EN
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.players import Table

PNG = b"\x89PNG\r\n\x1a\n"


async def open_three_player_game(fake: FakeDiscord, harness: BotHarness,
                                 seed: int = 42) -> tuple[FakeUser, FakeUser, FakeUser]:
    """/sanmarco game new, Join by button and by command, Start by button."""
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    await harness.start(seed=seed)
    rec = await fake.slash(ann, "sanmarco game new", seats=3)
    lobby = fake.public_answer(rec)
    assert rec.response.ephemeral  # the command's own answer: "posted"
    assert not lobby.ephemeral and "1/3" in lobby.content
    assert [c["label"] for c in lobby.all_components()] == ["Join", "Leave", "Add computer",
                                                           "Start"]
    join = await fake.click(bob, lobby, lobby.component("join")["custom_id"])
    # deferred first (before any store work), then the lobby message is updated
    assert join.callback_type == 6 and "2/3" in lobby.content
    rec = await fake.slash(cid, "sanmarco game join")
    assert rec.response.ephemeral and "3/3" in lobby.content  # the lobby post, edited
    start = await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    assert start.callback_type == 6 and lobby.components == []  # lobby buttons retired
    post = fake.last_channel_message()
    assert "San Marco begins" in post.content
    assert post.files and post.files[0][1].startswith(PNG)
    return ann, bob, cid


async def test_three_players_play_a_whole_game_with_buttons_and_commands(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Lobby, set-up bridges, rounds of splits, offers and card play, three passages, the
    final scoring: everything through Discord, about a third of it with slash commands."""
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users), commands=0.35)
    steps = 0
    while await table.step():
        steps += 1
        assert steps < 600, "the game did not end"
    await harness.settle()
    final = fake.last_channel_message()
    assert "Game over! Winner:" in final.content
    # no move left to press: only the finished game's rematch, replay and file
    assert [c["label"] for c in final.all_components()] == ["Rematch", "Replay",
                                                            "Game file", "My review"]

    # Every step of the panels was used: cards, targets, the Doge's route confirmation.
    assert {"build", "asg", "commit", "take", "next", "card", "grp", "pick",
            "ok"} <= set(table.pressed)
    # R11: a Doge route is confirmed only after its toll is shown.
    assert table.confirmations
    assert all(re.search(r"costs you \d+ prestige|free", t) for t in table.confirmations), \
        table.confirmations
    # Both kinds of input were really used.
    kinds = {(r.type, r.callback_type) for r in table.interactions}
    assert (2, 5) in kinds and (3, 6) in kinds

    # Every action post carries the board, every answer came exactly once, nothing broke.
    posts = [m for m in fake.channel_messages() if "**Now**" in m.content
             or "Game over" in m.content]
    assert len(posts) > 60
    # Every public post of the running game ends by saying who acts next.
    for m in fake.channel_messages():
        if m.files and "Game over" not in m.content:
            assert m.content.splitlines()[-1].startswith("**Now** — "), m.content
    assert all(m.files and m.files[0][0] == "board.png" and m.files[0][1].startswith(PNG)
               for m in posts)
    callbacks = [r for r in fake.requests if r.path.endswith("/callback")]
    assert all(r.status == 200 for r in callbacks)  # a second response would be a 400
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]
    assert not fake.unknown and not fake.errors

    # Old prompts say the game is over; finished games stay readable.
    ann = users[0]
    old = next(m for m in fake.channel_messages() if m.custom_ids())
    rec = await fake.click(ann, old, old.custom_ids()[0])
    assert rec.ephemeral and "over" in rec.response.content
    status = await fake.slash(ann, "sanmarco status")
    assert status.ephemeral and "The game is over" in status.response.content
    log = await fake.slash(ann, "sanmarco game log")
    assert log.ephemeral and "Game over" in log.response.content


async def test_one_post_per_action_and_pings_only_for_who_must_decide(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Each action posts one line block + one board; the newly awaited human is pinged in
    that post and nobody else is (allowed_mentions), so a player is mentioned once."""
    users = await open_three_player_game(fake, harness, seed=7)
    table = Table(fake, list(users))
    for _ in range(25):
        await table.step()
    await harness.settle()
    for rec in table.interactions:
        posts = [m for m in rec.messages if not m.ephemeral and m.files]
        assert len(posts) <= 1
    bodies = [r.json for r in fake.requests if r.method == "POST"
              and r.path == f"/channels/{fake.channel_id}/messages" and isinstance(r.json, dict)
              and r.json.get("attachments")]
    assert bodies
    for body in bodies:
        allowed = body.get("allowed_mentions") or {}
        assert allowed.get("parse") == [] or "parse" not in allowed or \
            "everyone" not in allowed.get("parse", [])
        pinged = set(allowed.get("users") or [])
        content = body.get("content") or ""
        now_line = content.split("**Now** —", 1)[-1] if "**Now**" in content else ""
        assert all(f"<@{u}>" in now_line for u in pinged), json.dumps(body)[:300]
    # The same player playing several cards in a row is pinged once, not at every card.
    per_post_pings = [set(b.get("allowed_mentions", {}).get("users") or []) for b in bodies]
    assert any(not p for p in per_post_pings)


async def test_board_rules_status_and_hand_answer_privately(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, bob, cid = await open_three_player_game(fake, harness)
    board = await fake.slash(bob, "sanmarco board")
    assert board.ephemeral and board.response.files[0][1].startswith(PNG)
    rules = await fake.slash(bob, "sanmarco game rules", topic="doge")
    assert rules.ephemeral and "Doge" in rules.response.content
    status = await fake.slash(bob, "sanmarco status")
    assert status.ephemeral and "since <t:" in status.response.content
    waiting = fake.last_channel_message().content.split("**Now** —", 1)[1]
    awaited = next(u for u in (ann, bob, cid) if f"<@{u.id}>" in waiting)
    idle = next(u for u in (ann, bob, cid) if u is not awaited)
    hand = await fake.slash(awaited, "sanmarco hand")
    assert hand.ephemeral and hand.response.custom_ids()
    other = await fake.slash(idle, "sanmarco hand")
    assert other.ephemeral and "not your turn" in other.response.content
    assert "prestige" in other.response.content and "in reserve" in other.response.content
    assert not other.response.custom_ids() or all(":next" in c for c in
                                                 other.response.custom_ids())


async def test_boards_drawn_in_a_worker_process(fake: FakeDiscord, harness: BotHarness) -> None:
    """SANMARCO_RENDER_PROCESSES=1: the same PNG comes back from a worker process."""
    ann = fake.add_user("ann")
    bob, cid = fake.add_user("bob"), fake.add_user("cid")
    await harness.start(seed=42, render_processes=1)
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new"))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    # The click waits 10 s for its post; a cold worker process on a loaded machine may draw
    # the first board later (the post follows): wait for the post, not the clock.
    await until(lambda: bool(fake.last_channel_message().files), 60,
                what="the first board post")
    post = fake.last_channel_message()
    assert post.files[0][1].startswith(PNG)
    board = await fake.slash(bob, "sanmarco board")
    assert board.response.files[0][1].startswith(PNG)


async def test_four_players_play_a_whole_game(fake: FakeDiscord, harness: BotHarness) -> None:
    """Four seats: two distributors split at once each round (R5), extra rounds (R6)."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cid", "dee")]
    await harness.start(seed=9)
    lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new", seats=4))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, users, commands=0.2)
    steps = 0
    while await table.step():
        steps += 1
        assert steps < 800, "the game did not end"
    assert "Game over! Winner:" in fake.last_channel_message().content
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]


async def test_take_offer_counts_from_one_like_the_buttons_and_the_reveal_bug(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """`/sanmarco take offer:1` typed by hand takes the offer shown as "1" (the reveal line
    and the buttons count from 1); its autocomplete carries the same numbers."""
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    while not any(c.split(":")[3] == "take" for c in fake.last_channel_message().custom_ids()):
        await table.step()
    await harness.settle()
    post = fake.last_channel_message()
    user = table.user(int(re.findall(r"<@(\d+)>", post.content.split("**Now**")[1])[0]))
    choices = await fake.autocomplete(user, "sanmarco take", "offer", offer=1)
    assert choices and all(c["name"].startswith(f"Offer {c['value']}:") for c in choices)
    rec = await fake.slash(user, "sanmarco take", offer=1)
    await harness.settle()
    assert rec.response.content == text.posted(EN)
    assert "takes offer 1 " in fake.public_answer(rec).content
    rec = await fake.slash(user, "sanmarco take", offer=0)
    assert rec.ephemeral


async def test_the_start_post_and_the_log_begin_with_the_seats_and_the_set_up_rolls(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The game's first events (engine.start_game): the start post says the seat order and
    everyone's set-up rolls, and /sanmarco game log begins with them (the log began empty)."""
    users = await open_three_player_game(fake, harness)
    post = next(m for m in fake.channel_messages() if "San Marco begins" in m.content)
    lines = post.content.splitlines()
    assert lines[1].startswith("The game begins. Seats: ")
    assert all(f"<@{u.id}>" in lines[1] for u in users)
    rolls = [line for line in lines if re.fullmatch(r"<@\d+> rolls \d, \d, \d, \d\.", line)]
    assert len(rolls) == 3
    log = (await fake.slash(users[0], "sanmarco game log")).response.content.splitlines()
    assert log[0] == lines[1] and log[1:4] == rolls
