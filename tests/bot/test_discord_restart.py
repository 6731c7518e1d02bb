"""A restart mid-game: a new bot object on the same database file; the buttons and selects
posted by the old one still work, because they carry only channel, version and action
(STYLE.md §1.5: views keep no game state)."""

from __future__ import annotations

from bot import text
from bot.i18n import ENGLISH as EN
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game


async def _restart(harness: BotHarness, fake: FakeDiscord) -> None:
    old = harness.bot
    await harness.stop()
    await harness.start(seed=42)
    assert harness.bot is not old and old is not None and old.is_closed()


async def test_old_buttons_work_after_a_restart(fake: FakeDiscord,
                                                harness: BotHarness) -> None:
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))

    # A distributor starts building offers in the ephemeral panel ...
    await table.play_until("build")
    await harness.settle()
    post = fake.last_channel_message()
    dist = table.user(awaited_ids(post)[0])
    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    panel = (await table.click(dist, post, build)).response
    first = next(c for c in panel.custom_ids() if tag_of(c) == "asg")
    await table.select(dist, panel, first, ["0", "1", "2"])
    assert "Offer 1: " in panel.content and "Not yet assigned" in panel.content

    # ... the bot restarts ...
    await _restart(harness, fake)
    assert fake.identifies == 2

    # ... and the old panel goes on: the rest of the cards, then Commit.
    n_cards = len(panel.all_components()[0]["options"])
    rest = [str(i) for i in range(3, n_cards)]
    half = len(rest) // 2
    for k, values in ((1, rest[:half]), (2, rest[half:])):
        # The assignment so far rides in the custom_ids, so read them afresh each time.
        cid = [c for c in panel.custom_ids() if tag_of(c) == "asg"][k]
        await table.select(dist, panel, cid, values)
    commit = next(c for c in panel.all_components() if tag_of(c.get("custom_id", "")) ==
                  "commit")
    assert not commit.get("disabled")
    rec = await table.click(dist, panel, commit["custom_id"])
    assert rec.callback_type == 6 and panel.content == text.done(EN) and panel.custom_ids() == []
    reveal = fake.last_channel_message()
    assert "'s offers:" in reveal.content and "take" in {tag_of(c) for c in
                                                         reveal.custom_ids()}

    # An offer button posted before the next restart is pressed after it.
    await _restart(harness, fake)
    chooser = table.user(awaited_ids(reveal)[0])
    take = next(c for c in reveal.custom_ids() if tag_of(c) == "take")
    rec = await table.click(chooser, reveal, take)
    assert rec.callback_type == 6 and all(m.ephemeral for m in rec.messages)
    after = fake.last_channel_message()
    assert "takes offer" in after.content and after.files

    # And the game simply goes on.
    for _ in range(10):
        assert await table.step()
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]
