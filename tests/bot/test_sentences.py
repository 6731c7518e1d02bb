"""One sentence per refusal: every code that can be raised (engine, service, adapter) has
exactly one sentence in ``bot.text.REFUSALS``, and it is what the player reads.

Regression: five sentences never reached the player, who read "That option is not valid."
instead (the adapter kept a specific message only for ``action.*`` codes).
"""

from __future__ import annotations

import string

import pytest

import engine
from bot import text
from bot.errors import PARAMS, Code, ServiceError
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game

ALL_CODES = sorted(set(Code) | set(engine.ERROR_CODES))


def test_every_code_has_exactly_one_sentence_and_no_sentence_is_orphaned() -> None:
    assert set(text.REFUSALS) == set(ALL_CODES)
    for code, sentence in text.REFUSALS.items():
        assert sentence.strip() and len(sentence) < 300, code
        assert "Traceback" not in sentence


def test_every_placeholder_of_a_sentence_is_a_fact_the_raiser_gives() -> None:
    """A template's {fields} are exactly the params its raiser passes (engine: documented
    per code), so no sentence is cut short at run time."""
    for code, sentence in text.REFUSALS.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(sentence) if f}
        assert fields <= set(PARAMS.get(code, ())), (code, fields)


async def _answer(fake: FakeDiscord, user: object, command: str, **options: object) -> str:
    rec = await fake.slash(user, command, **options)  # type: ignore[arg-type]
    assert rec.response.ephemeral, (command, rec.response.content)
    return rec.response.content


@pytest.mark.parametrize("code", ALL_CODES)
async def test_the_sentence_of_every_code_is_what_the_player_reads(
        fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch,
        code: str) -> None:
    """The real error path of the real cog, for every code: a refusal raised with that code
    inside a command reaches the player as the table's sentence."""
    ann = fake.add_user("ann")
    await harness.start(seed=1)
    params = {name: "x" for name in PARAMS.get(code, ())}

    async def refuse(*args: object, **kwargs: object) -> None:
        raise ServiceError(code, **params)

    monkeypatch.setattr(harness.bot.service, "status", refuse)
    said = await _answer(fake, ann, "sanmarco status")
    assert said.startswith(text.refusal(code, params)), (code, said)
    assert not said.startswith(text.APOLOGY) or code == Code.INTERNAL


async def test_the_five_lost_sentences_reach_the_player(fake: FakeDiscord,
                                                         harness: BotHarness) -> None:
    """Each of the five cases through real commands and clicks."""
    users = await open_three_player_game(fake, harness)
    ann = users[0]
    table = Table(fake, list(users))
    other = fake.add_channel()
    # "Leave at least one seat for a person."
    said = await _answer(fake, ann, "sanmarco new", channel_id=other, seats=3, computers=3)
    assert said == text.refusal(Code.COMPUTER_SEATS)
    # "There is no such computer player in the lobby."
    await fake.slash(ann, "sanmarco new", channel_id=other, seats=4)
    said = await _answer(fake, ann, "sanmarco computer", channel_id=other,
                         remove="ai.normal.9")
    assert said == text.refusal(Code.COMPUTER_UNKNOWN)
    # "Choose an offer by its number."
    await table.play_until("build")
    await harness.settle()
    said = await _answer(fake, ann, "sanmarco take", offer=42)
    assert said == text.refusal(Code.OFFER_NUMBER)
    # "Assign every card to an offer first." (the commit pressed before every card has one)
    post = fake.last_channel_message()
    dist = table.user(awaited_ids(post)[0])
    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    panel = (await table.click(dist, post, build)).response
    commit = next(c for c in panel.custom_ids() if tag_of(c) == "commit")
    rec = await table.click(dist, panel, commit)
    assert rec.response.ephemeral and rec.response.content == text.refusal(
        Code.SPLIT_INCOMPLETE)


async def test_an_unknown_computer_level_is_named(tmp_path: object) -> None:
    """"Computer players are 'easy' or 'normal'." — the service's own code for it."""
    from pathlib import Path

    from bot.computers import EngineComputers
    from bot.service import open_service

    svc = await open_service(str(Path(str(tmp_path)) / "g.db"), computers=EngineComputers())
    try:
        await svc.create_lobby(1, 10, "111")
        with pytest.raises(ServiceError) as e:
            await svc.add_computer(10, "111", level="grandmaster")
        assert e.value.code == Code.COMPUTER_LEVEL
        assert text.refusal(e.value.code) == text.REFUSALS["computer.level"]
    finally:
        await svc.close()
