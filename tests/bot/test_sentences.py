"""One sentence per refusal: every code that can be raised (engine, service, adapter) has
exactly one sentence in ``bot.text.REFUSALS``, and it is what the player reads — in the
player's own Discord language (English, German, French), the refused move
described in it too.

Regression: five sentences never reached the player, who read "That option is not valid."
instead (the adapter kept a specific message only for ``action.*`` codes).
"""

from __future__ import annotations

import string

import pytest

import engine
from bot import text
from bot.i18n import ENGLISH as EN
from bot.i18n import translations
from bot.service.errors import PARAMS, Code, ServiceError
from engine import PlaceBridge
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import open_three_player_game
from .test_discord_languages import leaks

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
    assert said.startswith(text.refusal(EN, code, params)), (code, said)
    assert not said.startswith(text.apology(EN)) or code == Code.INTERNAL


@pytest.mark.parametrize("language", ["de", "fr"])
async def test_the_sentence_of_every_code_reaches_the_player_in_their_language(
        fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch,
        language: str) -> None:
    """The same real error path for a German and a French user (one bot, every code):
    the table's sentence in their language, with its facts, and no English in it."""
    tr = translations(language)
    ann = fake.add_user("ann", locale=language)
    await harness.start(seed=1)
    for code in ALL_CODES:
        params = {name: "x" for name in PARAMS.get(code, ())}

        async def refuse(*args: object, code: str = code, **kwargs: object) -> None:
            raise ServiceError(code, **{name: "x" for name in PARAMS.get(code, ())})

        monkeypatch.setattr(harness.bot.service, "status", refuse)
        said = await _answer(fake, ann, "sanmarco status")
        own = text.refusal(tr, code, params)
        assert said.startswith(own), (code, said)
        assert own != text.refusal(EN, code, params), code  # translated, not the English
        assert not leaks(said, language), (code, said)


@pytest.mark.parametrize("language", ["en", "de", "fr"])
async def test_a_refused_move_is_described_in_the_players_language(
        fake: FakeDiscord, harness: BotHarness, language: str) -> None:
    """``action.illegal`` names the refused move ({move}): the engine describes it in
    English, the player reads it in their own words (bot.text.describe)."""
    users = await open_three_player_game(fake, harness)
    service = harness.bot.game_service  # type: ignore[union-attr]
    post = fake.last_channel_message()
    user = next(u for u in users if u.id == awaited_ids(post)[0])
    snap = await service.snapshot(fake.channel_id, str(user.id))
    if not isinstance(snap.legal[0], PlaceBridge):
        pytest.skip("this seed starts with a set-up reroll")
    user.locale = language
    bridge = snap.legal[0]
    taken = PlaceBridge(bridge.a, bridge.b, source="Castello")  # the reserve is not empty
    said = await _answer(fake, user, "sanmarco play", move=taken.encode())
    tr = translations(language)
    assert said == text.refusal(tr, "action.illegal", {"move": "?"}, action=taken)
    assert text.describe(tr, taken) in said and "Castello" in said
    if language != "en":
        assert not leaks(said, language), said


@pytest.mark.parametrize("language", ["en", "de", "fr"])
async def test_the_five_lost_sentences_reach_the_player(fake: FakeDiscord,
                                                         harness: BotHarness,
                                                         language: str) -> None:
    """Each of the five cases through real commands and clicks, in the player's
    language."""
    users = await open_three_player_game(fake, harness)
    for user in users:
        user.locale = language
    tr = translations(language)
    ann = users[0]
    table = Table(fake, list(users))
    other = fake.add_channel()
    # "Leave at least one seat for a person."
    said = await _answer(fake, ann, "sanmarco game new", channel_id=other, seats=3, computers=3)
    assert said == text.refusal(tr, Code.COMPUTER_SEATS)
    # "There is no such computer player in the lobby."
    await fake.slash(ann, "sanmarco game new", channel_id=other, seats=4)
    said = await _answer(fake, ann, "sanmarco game computer", channel_id=other,
                         remove="ai.normal.9")
    assert said == text.refusal(tr, Code.COMPUTER_UNKNOWN)
    # "Choose an offer by its number."
    await table.play_until("build")
    await harness.settle()
    said = await _answer(fake, ann, "sanmarco take", offer=42)
    assert said == text.refusal(tr, Code.OFFER_NUMBER)
    # "Assign every card to an offer first." (the commit pressed before every card has one)
    post = fake.last_channel_message()
    dist = table.user(awaited_ids(post)[0])
    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    panel = (await table.click(dist, post, build)).response
    commit = next(c for c in panel.custom_ids() if tag_of(c) == "commit")
    rec = await table.click(dist, panel, commit)
    assert rec.response.ephemeral and rec.response.content == text.refusal(tr,
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
        assert text.refusal(EN, e.value.code) == text.REFUSALS["computer.level"]
    finally:
        await svc.close()
