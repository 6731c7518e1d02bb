"""R15 through Discord: a distributor's drawn cards and split reach only that distributor's
ephemeral messages until the offers are revealed — never a channel message, a board image,
a log line, an error or another player's autocomplete."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import discord
import pytest

from engine.describe import card_label
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.harness import BotHarness, point_discord_at
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game


def _public_snapshot(msgs: list[FakeMessage]) -> list[tuple[str, str, list[bytes]]]:
    return [(m.content, repr(m.components), [data for _, data in m.files]) for m in msgs]


async def _four_player_run(tmp_path: Path, shift: dict[str, int],
                           until: str) -> tuple[list[FakeMessage], list[str]]:
    """A 4-player game (fixed seed) up to the post in which ``until`` (a regex) first
    appears; ``shift`` maps user names to a different split of their first round."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    fake = FakeDiscord()
    users = [fake.add_user(n) for n in ("ann", "bob", "cid", "dee")]
    await fake.start()
    point_discord_at(fake)
    harness = BotHarness(fake, tmp_path / "four.db")
    try:
        await harness.start(seed=11)
        lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new", seats=4))
        for u in users[1:]:
            await fake.click(u, lobby, lobby.component("join")["custom_id"])
        await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
        await harness.settle()
        table = Table(fake, users)
        table.split_shift = {u.id: shift[u.name] for u in users if u.name in shift}
        for _ in range(200):
            text = fake.last_channel_message().content
            if re.search(until.format(**{u.name: u.id for u in users}), text):
                break
            await table.step()
        await harness.settle()
        ids = [str(u.id) for u in users]
        return fake.channel_messages(), ids
    finally:
        await harness.stop()
        await fake.close()
        assert not fake.unknown and not fake.errors


async def test_a_secret_split_changes_nothing_public_until_revealed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R5/R15, differential: two 4-player games identical except for distributor II's split.
    Every channel message (text, buttons, board PNG bytes) posted before distributor II's
    offers are revealed is byte-for-byte the same in both; the reveal then differs."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    # Find distributor II of the first round in a first run.
    msgs, ids = await _four_player_run(tmp_path / "a", {}, r"distributes to .*; ")
    round_line = next(m.content for m in msgs if "distributes to" in m.content)
    second = re.findall(r"<@(\d+)> distributes to", round_line)[1]
    name = ["ann", "bob", "cid", "dee"][ids.index(second)]
    reveal = rf"<@{{{name}}}>'s offers:"
    plain, _ = await _four_player_run(tmp_path / "a2", {}, reveal)
    shifted, _ = await _four_player_run(tmp_path / "b", {name: 1}, reveal)
    assert re.search(f"<@{second}>'s offers:", plain[-1].content)
    before_plain, before_shifted = plain[:-1], shifted[:-1]
    # The window is real: the first distributor's offers were revealed and played meanwhile.
    assert sum("'s offers:" in m.content for m in before_plain) >= 1
    assert len(before_plain) == len(before_shifted) > 10
    assert _public_snapshot(before_plain) == _public_snapshot(before_shifted)
    assert plain[-1].content != shifted[-1].content  # the secret did differ


async def test_only_the_distributor_sees_the_drawn_cards(
        fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture) -> None:
    """While the split is pending: the builder is ephemeral and lists the cards; another
    player's Build click, /sanmarco hand, /sanmarco offers and autocomplete show none of
    them; the bot's log lines never hold the cards or the split."""
    caplog.set_level(logging.INFO)
    users = await open_three_player_game(fake, harness, seed=42)
    table = Table(fake, list(users))
    await table.play_until("build")
    await harness.settle()
    post = fake.last_channel_message()
    dist = table.user(awaited_ids(post)[0])
    others = [u for u in users if u is not dist]

    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    panel = (await fake.click(dist, post, build)).response
    assert panel.ephemeral
    private = await harness.bot.service.private_view(fake.channel_id, str(dist.id))
    drawn = private["private"]["drawn"]
    labels = {card_label(c) for c in drawn}
    assert all(label in panel.content for label in labels)
    assert "limit 0" in panel.content  # limit points per offer are shown

    def leaks(text: str) -> list[str]:
        return [lab for lab in labels if lab in text and lab.startswith(("District", "Limit"))]

    for u in others:
        rec = await fake.click(u, post, build)
        assert rec.ephemeral and "not your turn" in rec.response.content
        assert not leaks(rec.response.text() + repr(rec.response.components))
        for cmd in ("sanmarco hand", "sanmarco offers"):
            rec = await fake.slash(u, cmd)
            assert rec.ephemeral and not leaks(rec.response.text())
        assert await fake.autocomplete(u, "sanmarco play", "move", move="") == []
        assert await fake.autocomplete(u, "sanmarco play", "card", move="", card="") == []
    # The distributor's own autocomplete does not list splits either (the builder does).
    assert await fake.autocomplete(dist, "sanmarco play", "move", move="") == []

    await table.build_offers(dist, post)
    await harness.settle()
    for m in fake.channel_messages():
        assert "your drawn cards" not in m.content.lower()
    secret_texts = [repr(drawn), "split:"]
    for record in caplog.records:
        line = record.getMessage()
        assert not any(s in line for s in secret_texts), line
