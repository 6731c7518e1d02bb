"""A server's memory through the fake Discord with the real client: the final
post's summary picture, revealed seed and buttons; the replay and the game file; stats,
leaderboard and history; and no command giving the seed away before the end (R15)."""

from __future__ import annotations

import io
import json

from PIL import Image

from engine.replay import verify
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness

from .test_discord_game import PNG

SEED = 987654321987  # digits that appear nowhere else
NOT_OVER = "That game is not over yet"


def secret_in(fake: FakeDiscord) -> list[str]:
    """Every message (channel posts and ephemeral answers) or attachment showing the seed."""
    found = []
    for m in fake.messages.values():
        if str(SEED) in m.content or any(str(SEED).encode() in data for _, data in m.files):
            found.append(m.content[:80])
    return found


async def play_to_the_end(fake: FakeDiscord, harness: BotHarness, ann: FakeUser) -> None:
    """Ann hands her seat to a computer: the computers play the game to its end."""
    await fake.slash(ann, "sanmarco seat replace", player=str(ann.id))
    await harness.settle()


async def open_game(fake: FakeDiscord, harness: BotHarness) -> FakeUser:
    ann = fake.add_user("ann")
    await harness.start(seed=SEED)
    await fake.slash(ann, "sanmarco game new", seats=3, computers=2, level="easy")
    await fake.slash(ann, "sanmarco game start")
    await harness.settle()
    return ann


async def test_no_command_reveals_the_seed_before_the_end(fake: FakeDiscord,
                                                          harness: BotHarness) -> None:
    ann = await open_game(fake, harness)
    bob = fake.add_user("bob")
    for user in (ann, bob):
        for command in ("sanmarco-server replay", "sanmarco-server gamefile"):
            rec = await fake.slash(user, command)
            assert rec.ephemeral and NOT_OVER in rec.response.content
            assert not rec.response.files
        for command in ("sanmarco-server history", "sanmarco-server leaderboard",
                        "sanmarco-server stats", "sanmarco status", "sanmarco game log",
                        "sanmarco board"):
            rec = await fake.slash(user, command)
            assert rec.ephemeral, command
    await harness.settle()
    assert not secret_in(fake)
    # once the game is over, the seed is told on the final post
    await play_to_the_end(fake, harness, ann)
    final = fake.last_channel_message()
    assert "Game over!" in final.content and f"Seed `{SEED}`" in final.content


async def test_the_final_post_has_the_summary_the_seed_and_its_buttons(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann = await open_game(fake, harness)
    await play_to_the_end(fake, harness, ann)
    final = fake.last_channel_message()
    assert [name for name, _ in final.files] == ["board.png", "summary.png"]
    assert all(data.startswith(PNG) for _, data in final.files)
    summary = Image.open(io.BytesIO(final.files[1][1]))
    assert summary.width == 1000 and summary.height > 1000
    assert "python -m engine.replay" in final.content and len(final.content) <= 2000
    assert [c["label"] for c in final.all_components()] == ["Rematch", "Replay",
                                                            "Game file", "My review"]

    # the Game file button: a JSON file the open checker confirms
    bob = fake.add_user("bob")  # anyone may check a finished game
    rec = await fake.click(bob, final, final.component("Game file")["custom_id"])
    await harness.settle()
    answer = rec.response
    assert answer.ephemeral and str(SEED) in answer.content
    [(name, data)] = answer.files
    assert name.endswith(".json")
    game = json.loads(data)
    assert game["seed"] == SEED and {"players", "actions", "events"} <= set(game)
    verdict = verify(game)
    assert verdict.ok, verdict.problem

    # the Replay button: one frame per public step (the set-up and every action)
    rec = await fake.click(bob, final, final.component("Replay")["custom_id"])
    await harness.settle()
    [(name, gif)] = rec.response.files
    assert rec.response.ephemeral and name.endswith(".gif") and gif.startswith(b"GIF89a")
    assert Image.open(io.BytesIO(gif)).n_frames == len(game["actions"]) + 1
    assert len(gif) < 8 * 1024 * 1024

    # history links the final post; a new game in the channel does not hide the old one
    rec = await fake.slash(bob, "sanmarco-server history")
    url = f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{final.id}"
    assert rec.ephemeral and url in rec.response.content
    assert f"#{game['game']}" in rec.response.content
    await fake.slash(ann, "sanmarco game new", seats=3)
    rec = await fake.slash(bob, "sanmarco-server replay", channel_id=fake.other_channel_id,
                           game=game["game"])
    await harness.settle()
    assert rec.response.files[0][1] == gif  # by number, from another channel too
    rec = await fake.click(bob, final, final.component("Game file")["custom_id"])
    await harness.settle()
    assert json.loads(rec.response.files[0][1])["seed"] == SEED  # still that game's
    rec = await fake.slash(bob, "sanmarco-server replay", game=424242)
    assert rec.ephemeral and "no finished game by that number" in rec.response.content
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]


async def test_stats_leaderboard_and_history_through_discord(fake: FakeDiscord,
                                                             harness: BotHarness) -> None:
    ann = fake.add_user("ann")
    await harness.start(seed=5)
    rec = await fake.slash(ann, "sanmarco-server stats")
    assert rec.ephemeral and "has not finished a game" in rec.response.content
    for command in ("sanmarco-server leaderboard", "sanmarco-server history"):
        rec = await fake.slash(ann, command)
        assert rec.ephemeral and "No game has been finished" in rec.response.content
    await fake.slash(ann, "sanmarco game new", seats=3, computers=2, level="easy")
    await fake.slash(ann, "sanmarco game start")
    await harness.settle()
    await play_to_the_end(fake, harness, ann)
    rec = await fake.slash(ann, "sanmarco-server stats")
    text = rec.response.content
    assert rec.ephemeral and f"<@{ann.id}>" in text
    assert "3 players: 1 game" in text and "4 players: no games yet" in text
    assert "best" in text and "All games: 1 game" in text
    choices = await fake.autocomplete(ann, "sanmarco-server stats", "player", player="comp")
    assert {c["value"] for c in choices} == {"ai.easy.1", "ai.easy.2"}
    rec = await fake.slash(ann, "sanmarco-server stats", player="ai.easy.1")
    assert "**Computer 1 (easy)** in this server" in rec.response.content
    assert "3 players: 1 game" in rec.response.content
    rec = await fake.slash(ann, "sanmarco-server leaderboard")
    board = rec.response.content
    assert rec.ephemeral and "**Leaderboard**" in board
    assert f"<@{ann.id}>" in board and "Computer (easy)" in board
    assert board.count("(1 game)") == 2  # two easy seats: one level, one game
    rec = await fake.slash(ann, "sanmarco-server replay", game=0)
    assert rec.ephemeral and "not valid" in rec.response.content


async def test_the_final_posts_buttons_work_after_a_restart(fake: FakeDiscord,
                                                            harness: BotHarness) -> None:
    ann = await open_game(fake, harness)
    await play_to_the_end(fake, harness, ann)
    final = fake.last_channel_message()
    await harness.stop()
    await harness.start(seed=1)  # a new bot process on the same database
    rec = await fake.click(ann, final, final.component("Game file")["custom_id"])
    await harness.settle()
    assert rec.ephemeral and verify(json.loads(rec.response.files[0][1])).ok
