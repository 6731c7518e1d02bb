"""One snapshot read per click: a click reads the game once to see what it may do, and an
action reads it once more, under the channel lock, to apply it (it was read three or four
times per click before)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game

READS = ("game", "active_game", "latest_game", "actions")


def count_reads(harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    store = harness.bot.service.store  # type: ignore[union-attr]
    counts: Counter[str] = Counter()
    for name in READS:
        original: Callable[..., Awaitable[Any]] = getattr(store, name)

        async def counted(*args: Any, _name: str = name, _f: Any = original,
                          **kwargs: Any) -> Any:
            counts[_name] += 1
            return await _f(*args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    return counts


async def test_a_click_reads_the_game_once_and_an_action_once_more(
        fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    post = await table.play_until("next")
    await harness.settle()
    user = table.user(awaited_ids(post)[0])
    counts = count_reads(harness, monkeypatch)

    nxt = next(c for c in post.custom_ids() if tag_of(c) == "next")
    panel = (await table.click(user, post, nxt)).response  # opens the chooser
    assert sum(counts.values()) == 1, counts

    counts.clear()
    for _ in range(5):  # card, target group... until a move is picked and applied
        comps = {tag_of(c.get("custom_id", "")): c for c in panel.all_components()}
        tag = next(t for t in ("card", "grp", "pick") if t in comps)
        before = sum(counts.values())
        await table.select(user, panel, comps[tag]["custom_id"],
                           [comps[tag]["options"][0]["value"]])
        reads = sum(counts.values()) - before
        if tag == "pick" and "ok" not in {tag_of(c) for c in panel.custom_ids()}:
            assert reads == 2, counts  # what the option stands for, then the action
            return
        assert reads == 1, (tag, counts)
        if "ok" in {tag_of(c) for c in panel.custom_ids()}:  # a Doge route to confirm
            ok = next(c for c in panel.custom_ids() if tag_of(c) == "ok")
            before = sum(counts.values())
            await table.click(user, panel, ok)
            assert sum(counts.values()) - before == 2, counts
            return
    raise AssertionError("no move was picked")
