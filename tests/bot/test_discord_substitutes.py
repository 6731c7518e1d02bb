"""Substitutes through the fake Discord: `/sanmarco seat replace player: by:` hands a seat to
a person who plays on under the seat's pid.

A distributor leaves mid-split: the substitute is pinged, sees the drawn cards at once in
their private panel and commits the split; nobody else ever sees those cards (every
message, picture alt text, autocomplete answer and log line the others got is searched),
and the old player's builder is refused. A computer's seat goes to a person who plays it to
the end; the leaderboard then rates only the seats one person played throughout, and the
server's history names everyone who played. Refusals are private and change nothing."""

from __future__ import annotations

import logging

import pytest

from bot import text
from bot.i18n import ENGLISH as EN
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game


def _words(m: FakeMessage) -> str:
    """Everything a reader of the message sees, in every version it showed."""
    return "\n".join([*m.versions, m.words(), repr(m.components)])


def _refusal_of(rec: object) -> str:
    return "\n".join(m.content for m in rec.private)  # type: ignore[attr-defined]


async def test_a_substitute_takes_a_distributors_seat_mid_split_and_only_they_see_the_cards(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    users = await open_three_player_game(fake, harness, seed=42)
    eve = fake.add_user("eve")
    table = Table(fake, list(users))
    await table.play_until("build")
    await harness.settle()
    post = fake.last_channel_message()
    dist = table.user(awaited_ids(post)[0])
    others = [u for u in users if u is not dist]
    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    old_panel = (await fake.click(dist, post, build)).response  # opened before leaving
    service = harness.bot.service
    drawn = (await service.private_view(fake.channel_id, str(dist.id)))["private"]["drawn"]
    labels = {text.card_label(EN, c) for c in drawn}
    assert labels and all(label in old_panel.content for label in labels)
    left = fake.new_id()  # every message made from here on was made after the hand-over

    # The distributor hands their seat to Eve (their own seat: no vote, no wait).
    rec = await fake.slash(dist, "sanmarco seat replace", player=str(dist.id), by=eve)
    await harness.settle()
    assert rec.ephemeral
    note = fake.last_channel_message()
    assert f"<@{eve.id}> takes over <@{dist.id}>'s seat" in note.content
    assert awaited_ids(note) == [eve.id] and eve.id in note.pinged()
    assert dist.id not in note.pinged()
    assert "build" in {tag_of(c) for c in note.custom_ids()}  # the decision's buttons
    build = next(c for c in note.custom_ids() if tag_of(c) == "build")  # the note's own

    # Eve sees the cards at once: her private panel is the offer builder with them.
    hand = await fake.slash(eve, "sanmarco hand")
    assert hand.ephemeral and all(label in hand.response.content for label in labels)

    # The old player's builder and buttons are refused; nothing of the hand reaches them.
    select = next(c for c in old_panel.custom_ids() if tag_of(c) == "asg")
    rec = await fake.select(dist, old_panel, select, ["0"])
    assert "You no longer play this seat" in _refusal_of(rec)
    rec = await fake.click(dist, note, build)
    assert "You no longer play this seat" in _refusal_of(rec)
    for cmd in ("sanmarco hand", "sanmarco offers"):
        rec = await fake.slash(dist, cmd)
        assert rec.ephemeral and "You no longer play this seat" in rec.response.content
    # ... nor the others (their clicks, commands and autocomplete)
    for u in [*others, dist]:
        rec = await fake.click(u, note, build)
        assert rec.ephemeral
        await fake.slash(u, "sanmarco hand")
        for focused, opts in (("move", {"move": ""}), ("card", {"move": "", "card": ""})):
            assert await fake.autocomplete(u, "sanmarco play", focused, **opts) == []
    await fake.autocomplete(dist, "sanmarco seat replace", "player", player="")

    # Everything anyone but Eve received, before her split revealed the offers: not one
    # of the cards (channel posts and DMs with their pictures' alt text, private answers
    # and panels after the hand-over, autocomplete answers).
    # (the cards' names that cannot be read anywhere else: "District: Castello", "Limit 2";
    # "Doge" or "Bridge" also name the board's pieces) and the cards' codes
    telling = {lab for lab in labels if lab.startswith(("District", "Limit"))}
    telling |= {c for c in drawn if ":" in c}
    assert len(telling) >= 3  # the limit cards at least: the search means something

    def leaks(words: str) -> list[str]:
        return [secret for secret in telling if secret in words]

    seen: list[str] = [_words(m) for m in fake.messages.values() if not m.ephemeral]
    for r in fake.interactions.values():
        if r.user is eve:
            continue
        seen += [_words(m) for m in r.messages
                 if r.user is not dist or m.id > left]
        seen += [repr(r.choices or [])]
    assert not [leaks(w) for w in seen if leaks(w)]

    # Eve splits with the seat's buttons: the game goes on.
    table.users.append(eve)
    await table.build_offers(eve, note)
    await harness.settle()
    assert (await service.status(fake.channel_id)).phase != "split"
    assert any(r.pid == str(dist.id) for r in await service.store.actions(
        (await service.status(fake.channel_id)).game_id))
    secrets = [repr(drawn), "split:", *telling]
    for record in caplog.records:
        line = record.getMessage()
        assert not any(s in line for s in secrets), line
    assert (await service.audit(fake.channel_id)).ok


async def test_a_computers_seat_goes_to_a_person_who_plays_it_to_the_end(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann = fake.add_user("ann")
    eve = fake.add_user("eve")
    await harness.start(seed=11)
    await fake.slash(ann, "sanmarco game new", seats=3, computers=2, level="easy")
    await fake.slash(ann, "sanmarco game start")
    await harness.settle()
    # With by: named, the autocomplete offers the computers' seats too.
    plain = await fake.autocomplete(ann, "sanmarco seat replace", "player", player="")
    assert [c["value"] for c in plain] == [str(ann.id)]
    choices = await fake.autocomplete(ann, "sanmarco seat replace", "player", player="",
                                      by=eve)
    computer = next(c["value"] for c in choices if c["name"] == "Computer 1 (easy)")
    # Ann is the only person playing: her vote is the majority.
    rec = await fake.slash(ann, "sanmarco seat replace", player=computer, by=eve)
    await harness.settle()
    assert rec.ephemeral
    note = fake.last_channel_message()
    assert f"<@{eve.id}> takes over Computer 1 (easy)'s seat" in note.content
    assert note.content.splitlines()[-1].startswith("**Now** — ")
    status = await harness.bot.service.status(fake.channel_id)
    assert computer not in status.computers
    table = Table(fake, [ann, eve])
    eve_moved = False
    for _ in range(600):
        post = fake.last_channel_message()
        eve_moved |= eve.id in awaited_ids(post)
        if not await table.step():
            break
    await harness.settle()
    assert "Game over" in fake.last_channel_message().content and eve_moved
    assert any(r.user is eve and r.type == 3 for r in fake.interactions.values())
    # The leaderboard rates Ann and the other computer's level; the substituted seat
    # counts for nobody (neither Eve nor the computer level it started with twice).
    board = (await fake.slash(ann, "sanmarco-server leaderboard")).response.content
    assert f"<@{ann.id}>" in board and "Computer (easy)" in board
    assert f"<@{eve.id}>" not in board
    rated = await harness.bot.service.leaderboard(fake.guild_id)
    assert {r.player: r.games for r in rated} == {str(ann.id): 1, "ai.easy": 1}
    # The history and Eve's stats list the game for her.
    history = (await fake.slash(eve, "sanmarco-server history")).response.content
    assert f"Computer 1 (easy) → <@{eve.id}>" in history
    stats = (await fake.slash(eve, "sanmarco-server stats")).response.content
    assert "has not finished a game" not in stats
    assert (await harness.bot.service.audit(fake.channel_id)).ok


async def test_refusals_are_private_and_change_nothing(
        fake: FakeDiscord, harness: BotHarness) -> None:
    users = await open_three_player_game(fake, harness)
    ann, bob = users[0], users[1]
    robot = fake.add_user("robot", bot=True)
    zed = fake.add_user("zed")
    service = harness.bot.service
    before = await service.status(fake.channel_id)
    posts = len(fake.channel_messages())
    cases: list[tuple[FakeUser, dict[str, object], str]] = [
        (ann, {"player": str(ann.id), "by": bob}, "already plays in this game"),
        (ann, {"player": str(ann.id), "by": robot}, "A bot cannot take a seat over"),
        (ann, {"player": "zed", "by": zed}, "That player is not in this game"),
        (zed, {"player": str(ann.id), "by": fake.add_user("kim")},
         "You are not playing in this game"),
    ]
    for user, options, words in cases:
        rec = await fake.slash(user, "sanmarco seat replace", **options)
        assert rec.ephemeral and words in rec.response.content, rec.response.content
    assert await service.status(fake.channel_id) == before
    assert len(fake.channel_messages()) == posts
