"""Hints under load, through the fake Discord with the real client (issue 36): a hint that
cannot start in the worker lanes within its budget is refused with the catalogue's "busy"
sentence, to its caller only, and marks nothing; a player who just had a hint is told, in
their language, to ask again in a few seconds; the bot's CPU work never ran on its loop."""

from __future__ import annotations

import asyncio

import pytest

from bot import text
from bot.i18n import translations
from bot.service.errors import Code
from bot.work import Kind
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness

from .test_discord_hints import HINT, others_since, service_of, solo
from .test_work import GATE, SLOW, blocked


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("de", "de"), ("fr", "fr")])
async def test_a_hint_refused_busy_says_so_and_a_second_hint_waits_its_cooldown(
        fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch,
        locale: str, lang: str) -> None:
    monkeypatch.setattr("bot.service.teaching.hints.HINT_JOB",
                        Kind("hint", queue=4, budget=0.05, priority=0))
    ann, service = await solo(fake, harness, locale=locale)
    service.hint_cooldown = 600.0  # a cooldown no slow machine outlives
    tr = translations(lang)
    GATE.clear()
    held = [asyncio.create_task(service.work.run(SLOW, blocked, f"b{i}")) for i in range(2)]
    try:
        for _ in range(100):
            await asyncio.sleep(0)
        rec = await fake.slash(ann, HINT)
        await harness.settle()
        assert rec.response.ephemeral and not others_since(fake, rec)
        assert rec.response.content == text.refusal(tr, Code.BUSY)
        status = await service.status(fake.channel_id)
        assert not await service.store.hinted(status.game_id)  # refused: marks nothing
    finally:
        GATE.set()
        await asyncio.gather(*held)
    # room again: the hint (a busy refusal did not start the cooldown)
    rec = await fake.slash(ann, HINT)
    await harness.settle()
    assert rec.response.content.split("\n", 1)[0] != text.refusal(tr, Code.BUSY)
    assert await service.store.hinted(status.game_id)
    # asked again at once: the cooldown, in the reader's words
    again = await fake.slash(ann, HINT)
    await harness.settle()
    assert again.response.ephemeral and not others_since(fake, again)
    said = again.response.content
    assert said == text.refusal(tr, Code.HINT_COOLDOWN, {"seconds": 600}) or \
        said == text.refusal(tr, Code.HINT_COOLDOWN, {"seconds": 599})


async def test_with_a_worker_process_the_hint_is_searched_there(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """SANMARCO_WORK_PROCESSES=1 (the default on two cores): the bot's hint comes from its
    side worker process, and answers as in the tests above."""
    ann = fake.add_user("ann")
    await harness.start(seed=20261127, work_processes=1)
    service = service_of(harness)
    assert service.work.side_processes == 1
    await fake.slash(ann, "sanmarco game new", seats=3, computers=2, level="easy")
    await fake.slash(ann, "sanmarco game start")
    await harness.settle()
    rec = await fake.slash(ann, HINT)
    await harness.settle()
    hint = await service.hint(fake.channel_id, str(ann.id))  # kept: the same search
    assert rec.response.content == text.hint_text(translations("en"), hint.advice,
                                                  hint.names, hint.drawn)
    assert service.work.done["hint"] == 1
