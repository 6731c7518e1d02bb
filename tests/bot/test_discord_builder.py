"""The distributor's ephemeral offer builder, and reminders from stored timestamps."""

from __future__ import annotations

import re

from bot import text
from bot.i18n import ENGLISH as EN
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game


def _asg(panel: FakeMessage, k: int) -> str:
    return [c for c in panel.custom_ids() if tag_of(c) == "asg"][k]


def _commit(panel: FakeMessage) -> dict:
    return next(c for c in panel.all_components()
                if tag_of(c.get("custom_id", "")) == "commit")


async def _to_split(fake: FakeDiscord, table: Table) -> FakeMessage:
    await table.play_until("build")
    return fake.last_channel_message()


async def test_builder_assigns_cards_shows_limits_and_commits(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """RULES §4: the distributor assigns every drawn card to an offer (3 offers with three
    players), sees each offer's limit points, and commits; the offers are then revealed."""
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    post = await _to_split(fake, table)
    dist = table.user(awaited_ids(post)[0])
    # /sanmarco offers opens the same private builder as the button.
    panel = (await fake.slash(dist, "sanmarco offers")).response
    assert panel.ephemeral and panel.content.startswith("**Your drawn cards**")
    options = panel.all_components()[0]["options"]
    assert len(options) == 10  # 6 action + 4 limit cards (RULES §4, three players)
    assert len([c for c in panel.custom_ids() if tag_of(c) == "asg"]) == 3
    assert _commit(panel).get("disabled")  # not every card has an offer yet

    # Put every card in offer 1, then move two of them to offers 2 and 3.
    all_cards = [o["value"] for o in options]
    await table.select(dist, panel, _asg(panel, 0), all_cards)
    assert "Not yet assigned" not in panel.content
    await table.select(dist, panel, _asg(panel, 1), ["0"])  # card 1 moves to offer 2
    assert "Not yet assigned" not in panel.content and "Offer 2: nothing" not in panel.content
    await table.select(dist, panel, _asg(panel, 0), all_cards[1:-1])  # last card out
    assert "Not yet assigned: " in panel.content and _commit(panel).get("disabled")
    await table.select(dist, panel, _asg(panel, 2), [all_cards[-1]])
    limits = [int(x) for x in re.findall(r"— limit (\d+)", panel.content)]
    assert len(limits) == 3 and sum(limits) > 0
    assert not _commit(panel).get("disabled")

    # Reset empties it again; then assign and commit.
    await table.click(dist, panel, next(c for c in panel.custom_ids() if tag_of(c) == "reset"))
    assert _commit(panel).get("disabled")
    for k in range(3):
        await table.select(dist, panel, _asg(panel, k),
                           [v for v in all_cards if int(v) % 3 == k])
    await table.click(dist, panel, _commit(panel)["custom_id"])
    assert panel.content == text.done(EN)
    reveal = fake.last_channel_message()
    assert "has split their cards" in reveal.content and "'s offers: 1:" in reveal.content
    takes = [c for c in reveal.custom_ids() if tag_of(c) == "take"]
    assert len(takes) == 3 and all("limit" in c["label"] for c in reveal.all_components()
                                   if tag_of(c["custom_id"]) == "take")


async def test_two_distributors_build_at_once_in_a_four_player_game(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """R5: both distributors split at the same time; the first one's commit does not make
    the other's open builder outdated; offers are revealed when both have committed."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cid", "dee")]
    await harness.start(seed=5)
    lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new", seats=4))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, users)
    post = await _to_split(fake, table)
    first, second = (table.user(i) for i in awaited_ids(post))
    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    panels: dict[int, FakeMessage] = {}
    for d in (first, second):
        panels[d.id] = (await table.click(d, post, build)).response
        assert panels[d.id].ephemeral

    async def fill_and_commit(d: FakeUser) -> None:
        panel = panels[d.id]
        cards = [o["value"] for o in panel.all_components()[0]["options"]]
        await table.select(d, panel, _asg(panel, 0), cards[:3])
        await table.select(d, panel, _asg(panel, 1), cards[3:])
        await table.click(d, panel, _commit(panel)["custom_id"])

    await fill_and_commit(first)
    after_first = fake.last_channel_message()
    assert "has split their cards" in after_first.content and "'s offers" not in \
        after_first.content
    await fill_and_commit(second)  # its builder was opened before the first commit
    reveal = fake.last_channel_message()
    assert f"<@{first.id}>'s offers:" in reveal.content or "'s offers:" in reveal.content
    assert panels[first.id].content == text.done(EN) and panels[second.id].content == text.done(EN)


async def test_reminders_come_from_stored_times(fake: FakeDiscord,
                                                harness: BotHarness) -> None:
    """A player awaited longer than the channel's interval (12 h by default) is reminded
    once by the periodic task, which reads the stored times; nothing before that."""
    now = [1_700_000_000.0]
    ann, bob, cid = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("cid")
    await harness.start(seed=42, clock=lambda: now[0])
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new"))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    awaited = awaited_ids(fake.last_channel_message())
    cog = harness.bot.get_cog("SanMarco")

    def reminders() -> list:
        return [r for r in fake.requests if r.method == "POST"
                and r.path == f"/channels/{fake.channel_id}/messages"
                and (r.json or {}).get("content", "").startswith("Reminder")]

    now[0] += 6 * 3600
    await cog.reminders.run_once()
    assert reminders() == []
    now[0] += 7 * 3600
    await cog.reminders.run_once()
    sent = reminders()
    assert len(sent) == 1
    body = sent[0].json
    assert body["content"].startswith("Reminder") and f"<@{awaited[0]}>" in body["content"]
    assert body["content"].splitlines()[-1].startswith("**Now** — ")  # who acts next
    assert [str(u) for u in body["allowed_mentions"]["users"]] == [str(awaited[0])]
    await cog.reminders.run_once()  # already reminded for this wait
    assert len(reminders()) == 1
    # After a restart the stored times still count.
    await harness.stop()
    now[0] += 13 * 3600
    await harness.start(seed=42, clock=lambda: now[0])
    await harness.bot.get_cog("SanMarco").reminders.run_once()
    assert len(reminders()) == 2
