"""A game's thread renamed after its seats never holds the game's posts: Discord allows two
renames of a channel per ten minutes, so in a four-seat lobby filled, changed and started
within ten minutes most renames wait (or are made moot by a later one), while every lobby
edit, Start and move goes out at once and nobody is told their post "will follow"; no rename
is ever sent into a window Discord closed (the fake keeps Discord's limit and records each
refusal: ``rename_refusals``). Through the real discord.py client against the fake Discord."""

from __future__ import annotations

import re

import pytest

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service.posts import PostKind
from tests.fakediscord import FakeDiscord, InteractionRecord
from tests.fakediscord import scenarios as sc
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import check_invariants
from tests.fakediscord.players import Table, awaited_ids


def told_pending(recs: list[InteractionRecord]) -> list[str]:
    """The private answers that say a post has not reached the channel yet."""
    pending = text.post_pending(EN)
    return [m.content for rec in recs for m in rec.private if pending in m.content]


@pytest.mark.parametrize("fill", [False, True], ids=["add computer", "start fill"])
async def test_a_four_seat_lobby_changed_and_started_within_ten_minutes_never_waits(
        fake: FakeDiscord, harness: BotHarness, fill: bool) -> None:
    """ann opens, bob, cid and dan join (the third rename waits for Discord's window), dan
    leaves, ann adds a computer and starts (or starts with ``fill:True``), three moves are
    made: each click's post is there at once, no rename is refused; once the window is
    over the thread is named after the seats that play."""
    run = await sc.renamed_lobby(fake, harness, fill=fill)
    assert told_pending(run.acts) == []
    assert fake.rename_refusals == []
    thread = run.channels[0]
    await check_invariants(fake, run.service, [thread], acts=run.acts)
    assert len(fake.renames[thread]) == 2
    # only the rename waits for Discord's window: every message went
    held = await run.service.pending_posts(thread)
    assert [p.post.kind for p in held] == [PostKind.THREAD]
    fake.clock.advance(601)  # Discord's ten minutes are over
    await run.passes(1, every=601.0)
    await until(lambda: len(fake.renames[thread]) == 3, what="the held rename is made")
    assert fake.threads[thread].name.endswith("ann, bob, cid, Computer 1 (normal)"), \
        fake.threads[thread].name
    assert fake.rename_refusals == [] and len(fake.renames[thread]) == 3


async def test_a_seat_handed_over_twice_within_ten_minutes_never_holds_a_move(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Two hand-overs a move apart after the lobby's two renames: both renames wait for
    Discord's window (the first made moot by the second, never sent); each hand-over's note
    and each move are there at once; after the window the thread names eve and fay."""
    run = await sc.handed_over_twice(fake, harness)
    thread = run.channels[0]
    assert told_pending(run.acts) == []
    assert fake.rename_refusals == [] and len(fake.renames[thread]) == 2
    # (the invariants' checker knows no substitutes: the stored game awaits the seat's pid)
    status = await run.service.status(thread)
    assert awaited_ids(fake.last_channel_message(thread)) == [
        fake.users[status.names[p]].id for p in status.awaiting]
    fake.clock.advance(601)  # Discord's ten minutes are over
    await run.passes(1, every=601.0)
    await until(lambda: len(fake.renames[thread]) == 3, what="the held rename is made")
    name = fake.threads[thread].name
    assert "eve" in name and "fay" in name and "ann" not in name, name
    assert fake.rename_refusals == []


async def test_a_rematch_lobby_abandoned_right_after_three_joins_is_archived_at_once(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Three joins to a rematch's lobby (the third rename held), then its opener abandons
    it: the lobby loses its buttons and the thread is archived at once, under the name it
    has (a rename now would be Discord's third); no rename is refused, in the rematch's
    thread or in the finished game's (four hand-overs to the computer renamed it)."""
    run = await sc.rematch_abandoned(fake, harness)
    first, again = run.channels
    assert told_pending(run.acts) == []
    await until(lambda: fake.threads[again].archived and fake.threads[first].archived,
                what="both threads archived")
    rematch = fake.channel_messages(again)[0]
    assert rematch.custom_ids() == [] and "abandoned" in rematch.content
    assert fake.rename_refusals == []
    assert len(fake.renames[again]) == 2 and len(fake.renames[first]) == 2


async def test_after_a_restart_no_rename_is_sent_into_discords_window(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The bot restarts after a lobby's two renames (stored: it remembers them): no rename
    is sent until Discord's window is over, however the seats change meanwhile (no 429);
    the lobby, Start and the moves go on; after the window the thread is named after the
    seats that play."""
    now = [sc.T0]
    ann, bob, cid, dan, eve = (fake.add_user(n) for n in ("ann", "bob", "cid", "dan", "eve"))
    await harness.start(seed=42, game_threads=True, clock=lambda: now[0])
    rec = await fake.slash(ann, "sanmarco game new", seats=4)
    found = re.search(r"<#(\d+)>", rec.response.content)
    assert found
    thread = int(found[1])
    await until(lambda: bool(fake.channel_messages(thread)), what="the lobby")
    lobby = fake.channel_messages(thread)[0]
    for n, user in enumerate((bob, cid), 1):  # each rename made before the next join
        await fake.click(user, lobby, lobby.component("join")["custom_id"])
        await until(lambda n=n: len(fake.renames.get(thread, [])) == n,  # type: ignore[misc]
                    20, what="the thread renamed after the join")
    await harness.stop()
    await harness.start(seed=42, game_threads=True, clock=lambda: now[0])
    await fake.click(dan, lobby, lobby.component("join")["custom_id"])
    await harness.settle()
    assert fake.rename_refusals == [] and "4/4" in lobby.content
    acts = [await fake.click(user, lobby, lobby.component(tag)["custom_id"])
            for user, tag in ((dan, "leave"), (eve, "join"), (ann, "start"))]
    table = Table(fake, [ann, bob, cid, eve], channel_id=thread)
    for _ in range(3):
        assert await table.step()
    await harness.settle()
    assert told_pending(acts + table.interactions) == []
    assert fake.rename_refusals == []  # never into the window Discord closed
    fake.clock.advance(601)
    now[0] += 601
    await harness.bot.get_cog("SanMarco").reminders.run_once()  # type: ignore[union-attr]
    await until(lambda: fake.threads[thread].name.endswith("ann, bob, cid, eve"),
                what="the thread named after its seats")
    assert fake.rename_refusals == []
