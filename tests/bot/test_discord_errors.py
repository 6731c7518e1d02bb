"""Bad input of any kind gets one short ephemeral answer, changes nothing, and never shows a
traceback: stale buttons, clicks by non-players or players not awaited, malformed options,
forged custom_ids, and an unexpected failure inside the bot."""

from __future__ import annotations

import logging

import pytest

from bot import text
from bot.i18n import ENGLISH as EN
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game


def _prompt_version(msg: FakeMessage) -> int:
    return int(msg.custom_ids()[0].split(":")[2].split(".")[1])


def _assert_short_private(rec_msg: FakeMessage) -> None:
    assert rec_msg.ephemeral
    assert "Traceback" not in rec_msg.content and len(rec_msg.content) < 400


async def _game(fake: FakeDiscord, harness: BotHarness, steps: int = 4) -> Table:
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    for _ in range(steps):
        await table.step()
    await harness.settle()
    return table


async def test_a_stale_button_says_outdated_and_offers_the_current_prompt(
        fake: FakeDiscord, harness: BotHarness) -> None:
    table = await _game(fake, harness)
    posts = [m for m in fake.channel_messages() if any(tag_of(c) == "next"
                                                        for c in m.custom_ids())]
    current = fake.last_channel_message()
    awaited = table.user(awaited_ids(current)[0])
    old = next(m for m in posts if _prompt_version(m) < _prompt_version(current))
    version_before = (await harness.bot.service.public_view(fake.channel_id))["version"]
    old_next = next(c for c in old.custom_ids() if tag_of(c) == "next")
    rec = await table.click(awaited, old, old_next)
    answer = rec.response
    _assert_short_private(answer)
    assert answer.content.startswith("That prompt is outdated.")
    # The current prompt comes with it, at the current version, and it works.
    assert answer.custom_ids() and all(f".{version_before}:" in c for c in answer.custom_ids())
    rec = await table.click(awaited, answer, answer.custom_ids()[0])
    assert rec.updated is answer and answer.custom_ids()  # the note became the move panel
    view = await harness.bot.service.public_view(fake.channel_id)
    assert view["version"] == version_before  # nothing was applied by the stale click


async def test_a_non_player_and_a_waiting_player_are_told_it_is_not_their_turn(
        fake: FakeDiscord, harness: BotHarness) -> None:
    table = await _game(fake, harness)
    eve = fake.add_user("eve")
    current = fake.last_channel_message()
    awaited = awaited_ids(current)
    idle = next(u for u in table.users if u.id not in awaited)
    version = (await harness.bot.service.public_view(fake.channel_id))["version"]
    for user, sentence in ((eve, "not playing in this game"), (idle, "not your turn")):
        for cid in current.custom_ids():
            if user is idle and tag_of(cid) == "since":
                continue  # what happened since one's last move: any player may ask
            rec = await table.click(user, current, cid)
            _assert_short_private(rec.response)
            assert sentence in rec.response.content
    rec = await fake.slash(eve, "sanmarco play", move="district:SM")
    _assert_short_private(rec.response)
    assert await fake.autocomplete(eve, "sanmarco play", "move", move="") == []
    autocompletes = [r for r in fake.interactions.values() if r.type == 4]
    assert autocompletes and all(r.callback_type == 8 for r in autocompletes)
    assert (await harness.bot.service.public_view(fake.channel_id))["version"] == version


async def test_malformed_options_get_a_short_answer(fake: FakeDiscord,
                                                    harness: BotHarness) -> None:
    table = await _game(fake, harness)
    current = fake.last_channel_message()
    awaited = table.user(awaited_ids(current)[0])
    version = (await harness.bot.service.public_view(fake.channel_id))["version"]
    cases = [
        ("sanmarco play", {"move": "not a move"}),
        ("sanmarco play", {"move": "#0.99"}),
        ("sanmarco play", {"move": "#x"}),
        ("sanmarco play", {"move": "doge:ZZ"}),
        ("sanmarco take", {"offer": 42}),
        ("sanmarco take", {"offer": -1}),
        ("sanmarco take", {"offer": "two"}),
        ("sanmarco game rules", {"topic": "no such topic"}),
        ("sanmarco game new", {"seats": 9}),
    ]
    for path, options in cases:
        rec = await fake.slash(awaited, path, **options)
        _assert_short_private(rec.response)
        assert "Sorry" not in rec.response.content, (path, options, rec.response.content)
    # Forged components: a select value out of range, a take of a non-existent offer, a
    # prompt of another channel.
    nxt = next(c for c in current.custom_ids() if tag_of(c) == "next")
    forged = [
        nxt.replace(":next", ":take:7"),
        nxt.replace(":next", ":ok:999"),
        nxt.replace(f"sm:{fake.channel_id}:", f"sm:{fake.other_channel_id}:"),
    ]
    for cid in forged:
        current.components[0]["components"].append(
            {"type": 2, "style": 1, "label": "x", "custom_id": cid})
        rec = await table.click(awaited, current, cid)
        _assert_short_private(rec.response)
    panel = (await table.click(awaited, current, nxt)).response
    select = next(c for c in panel.all_components() if c["type"] == 3)
    rec = await table.select(awaited, panel, select["custom_id"], ["999"])
    _assert_short_private(rec.response if rec.messages else panel)
    assert (await harness.bot.service.public_view(fake.channel_id))["version"] == version
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]


async def test_no_game_here_and_lobby_mistakes(fake: FakeDiscord, harness: BotHarness) -> None:
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await harness.start(seed=1)
    assert await fake.autocomplete(ann, "sanmarco play", "move", move="") == []
    assert await fake.autocomplete(ann, "sanmarco take", "offer", offer=0) == []
    for cmd in ("sanmarco status", "sanmarco board", "sanmarco hand", "sanmarco game start",
                "sanmarco game log", "sanmarco game abandon", "sanmarco game join"):
        rec = await fake.slash(ann, cmd)
        _assert_short_private(rec.response)
        assert "no game" in rec.response.content.lower()
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new"))
    again = await fake.slash(bob, "sanmarco game new")
    _assert_short_private(again.response)
    assert "already has a game" in again.response.content
    rec = await fake.click(ann, lobby, lobby.component("join")["custom_id"])
    _assert_short_private(rec.response)
    rec = await fake.click(bob, lobby, lobby.component("start")["custom_id"])
    _assert_short_private(rec.response)
    rec = await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    _assert_short_private(rec.response)
    assert "3 players" in rec.response.content
    rec = await fake.slash(bob, "sanmarco game abandon")
    _assert_short_private(rec.response)
    assert "Manage Channel" in rec.response.content
    admin = fake.add_user("mod", manage_channels=True)
    rec = await fake.slash(admin, "sanmarco game abandon")
    assert "abandoned" in fake.public_answer(rec).content


async def test_an_unexpected_failure_is_an_apology_and_a_log_line(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = await _game(fake, harness, steps=2)
    current = fake.last_channel_message()
    awaited = table.user(awaited_ids(current)[0])

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire: secret internals")

    monkeypatch.setattr(harness.bot.service, "snapshot", broken)
    caplog.set_level(logging.ERROR)
    rec = await table.click(awaited, current, current.custom_ids()[0])
    slash = await fake.slash(awaited, "sanmarco status")
    slash_board = await fake.slash(awaited, "sanmarco board")
    for r in (rec, slash_board):
        _assert_short_private(r.response)
        assert r.response.content.startswith("Sorry")
        assert "disk on fire" not in r.response.content
    _assert_short_private(slash.response)
    assert any("unexpected error" in r.getMessage() for r in caplog.records)


async def test_leave_and_test_guild_sync(fake: FakeDiscord, harness: BotHarness) -> None:
    """SANMARCO_TEST_GUILD syncs the commands to that guild only; Leave frees the seat."""
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await harness.start(seed=1, test_guild=fake.guild_id)
    assert list(fake.commands) == [f"guild:{fake.guild_id}"]
    assert [c["name"] for c in fake.commands[f"guild:{fake.guild_id}"]] == [
        "sanmarco", "sanmarco-server"]
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new", seats=4))
    await fake.click(bob, lobby, lobby.component("join")["custom_id"])
    assert "2/4" in lobby.content
    await fake.click(bob, lobby, lobby.component("leave")["custom_id"])
    assert "1/4" in lobby.content and f"<@{bob.id}>" not in lobby.content
    rec = await fake.click(bob, lobby, lobby.component("leave")["custom_id"])
    _assert_short_private(rec.response)
    assert "not joined" in rec.response.content


async def test_a_button_of_an_earlier_game_in_the_channel_is_outdated(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Same channel, same players, same seed: the new game passes through the very same
    versions, yet the old game's buttons do not act on it (the game id is in custom_id)."""
    ann, bob, cid = await open_three_player_game(fake, harness, seed=42)
    old_prompt = fake.last_channel_message()
    mod = fake.add_user("mod", manage_channels=True)
    await fake.slash(mod, "sanmarco game abandon")
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new"))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    new_prompt = fake.last_channel_message()
    assert [c.split(":")[2].split(".")[1] for c in old_prompt.custom_ids()] == \
        [c.split(":")[2].split(".")[1] for c in new_prompt.custom_ids()]  # same version
    assert old_prompt.custom_ids() != new_prompt.custom_ids()
    awaited = next(u for u in (ann, bob, cid) if u.id == awaited_ids(new_prompt)[0])
    rec = await fake.click(awaited, old_prompt, old_prompt.custom_ids()[0])
    _assert_short_private(rec.response)
    assert rec.response.content.startswith("That prompt is outdated.")


async def test_fuzzed_moves_and_custom_ids_change_nothing(fake: FakeDiscord,
                                                          harness: BotHarness) -> None:
    """Random option text and forged custom_ids in the bot's own format: each gets a short
    private answer, never an apology; one that happens to name a legal move at the current
    version acts like the real button; the stored game still replays from its log."""
    import random

    table = await _game(fake, harness, steps=6)
    current = fake.last_channel_message()
    awaited = table.user(awaited_ids(current)[0])
    version = (await harness.bot.service.public_view(fake.channel_id))["version"]
    rng = random.Random(3)
    alphabet = "abcdefghijklmnopqrstuvwxyz:/>-~@=,.#0123456789 SMCNPDO"
    game_version = current.custom_ids()[0].split(":")[2]
    for _ in range(40):
        move = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        rec = await fake.slash(awaited, "sanmarco play", move=move)
        _assert_short_private(rec.response)
        assert not rec.response.content.startswith("Sorry"), move
    for _ in range(40):
        tag = rng.choice(["take", "next", "card", "grp", "pick", "ok", "more", "build",
                          "asg", "commit", "reset", "back", "join", "start"])
        arg = "".join(rng.choice("0123456789.,-") for _ in range(rng.randint(0, 12)))
        cid = f"sm:{fake.channel_id}:{game_version}:{tag}" + (f":{arg}" if arg else "")
        kind = 3 if tag in ("card", "grp", "pick", "asg") else 2
        current.components.append({"type": 1, "components": [
            {"type": kind, "custom_id": cid, "label": "x", "style": 1,
             **({"options": [{"label": "x", "value": "0"}]} if kind == 3 else {})}]})
        if kind == 3:
            values = [str(rng.randint(0, 40)) for _ in range(rng.randint(0, 3))]
            rec = await table.select(awaited, current, cid, values)
        else:
            rec = await table.click(awaited, current, cid)
        current.components.pop()
        answer = rec.response if rec.messages else rec.updated
        assert answer is not None and not answer.content.startswith("Sorry"), cid
    audit = await harness.bot.service.audit(fake.channel_id)
    assert audit.ok, audit.problem
    assert (await harness.bot.service.public_view(fake.channel_id))["version"] >= version


async def test_an_abandoned_game_opens_no_panel_and_awaits_nobody_bug(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """After /sanmarco game abandon, the stored state still names who it was waiting for:
    /sanmarco hand and /sanmarco offers opened that player's panel (the offer builder),
    and /sanmarco board said whose move it was. They say the game was abandoned."""
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    await table.play_until("build")
    await harness.settle()
    dist = table.user(awaited_ids(fake.last_channel_message())[0])
    rec = await fake.slash(users[0], "sanmarco game abandon")
    assert "abandoned" in fake.public_answer(rec).content
    for cmd in ("sanmarco hand", "sanmarco offers"):
        rec = await fake.slash(dist, cmd)
        _assert_short_private(rec.response)
        assert "abandoned" in rec.response.content and not rec.response.custom_ids(), cmd
    rec = await fake.slash(dist, "sanmarco board")
    await harness.settle()
    assert rec.ephemeral and "abandoned" in rec.response.content
    assert text.awaited_words(EN, "split") not in rec.response.content


async def test_a_forged_offer_number_in_the_builder_is_outdated_not_an_apology_bug(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """An offer-builder select whose custom_id names an offer the split does not have
    (forged) gets a short answer; the builder was redrawn with cards in that offer."""
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    await table.play_until("build")
    await harness.settle()
    post = fake.last_channel_message()
    dist = table.user(awaited_ids(post)[0])
    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    panel = (await table.click(dist, post, build)).response
    asg = next(c for c in panel.custom_ids() if tag_of(c) == "asg")
    head, rkey, _, code = asg.rsplit(":", 1)[0], *asg.rsplit(":", 1)[1].split(",")
    for k in ("7", "12345678"):
        cid = f"{head}:{rkey},{k},{code}"
        panel.components.append({"type": 1, "components": [
            {"type": 3, "custom_id": cid, "options": [{"label": "x", "value": "0"}]}]})
        rec = await table.select(dist, panel, cid, ["0", "1"])
        panel.components.pop()
        answer = rec.response
        _assert_short_private(answer)
        assert not answer.content.startswith("Sorry"), k
    assert not [m for m in fake.messages.values() if m.content.startswith("Sorry")]
