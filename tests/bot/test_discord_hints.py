"""Hints and reviews through the fake Discord with the real client (issue 32): ``/sanmarco
hint`` answers only its caller, in their language, with the hard computer's choice and its
reason; refused as every command is (not your turn, not seated, hints off); a hinted game's
final post says so and it is not rated; the **My review** button (on the final post and on
``/sanmarco-server replay``'s answer) gives a player their own review and refuses anyone who
did not play.

One person plays against computers, so a whole game takes seconds; the search's budgets are
tiny and uncapped (the same advice whatever the machine's load)."""

from __future__ import annotations

import pytest

from bot import text
from bot.i18n import Tr, translations
from bot.service import GameService
from bot.service.errors import Code
from engine.ai import Budget
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.invariants import all_prompt_problems, check_invariants
from tests.fakediscord.messages import FakeMessage, InteractionRecord
from tests.fakediscord.players import Table, awaited_ids

from .test_discord_memory import play_to_the_end

EN = translations("en")
TINY = Budget(playouts=4, max_seconds=None, candidates=3)
SEED = 20261127
HINT = "sanmarco hint"
SETTINGS = "sanmarco-server settings"
REVIEW = "My review"


def service_of(harness: BotHarness) -> GameService:
    """The bot's own service, its search budgets made tiny and uncapped."""
    assert harness.bot is not None
    service: GameService = harness.bot.get_cog("SanMarco").service  # type: ignore[attr-defined]
    service.hint_budget = TINY
    service.review_budget = TINY
    service.review_worlds = 2
    service.hint_cooldown = 0  # these tests ask again at once (the cooldown has its own)
    return service


async def solo(fake: FakeDiscord, harness: BotHarness, *, locale: str = "en-US"
               ) -> tuple[FakeUser, GameService]:
    """Ann against two easy computers; the computers have moved: the game awaits Ann."""
    ann = fake.add_user("ann", locale=locale)
    await harness.start(seed=SEED)
    service = service_of(harness)
    await fake.slash(ann, "sanmarco game new", seats=3, computers=2, level="easy")
    await fake.slash(ann, "sanmarco game start")
    await harness.settle()
    assert awaited_ids(fake.last_channel_message()) == [ann.id]
    return ann, service


def others_since(fake: FakeDiscord, rec: InteractionRecord) -> list[FakeMessage]:
    """Every message made since ``rec`` that is not its own answer (posts, DMs, others')."""
    return [m for m in fake.messages.values()
            if m.id > rec.since_id and m not in rec.messages]


def first_line(rec: InteractionRecord) -> str:
    return rec.response.content.split("\n", 1)[0]


async def play_some(fake: FakeDiscord, harness: BotHarness, ann: FakeUser, moves: int) -> None:
    """Ann makes ``moves`` decisions herself (random among what the bot offers)."""
    table = Table(fake, [ann], channel_id=fake.channel_id)
    for _ in range(moves):
        assert await table.step()
        await harness.settle()


@pytest.mark.parametrize(("locale", "lang", "word"), [("en-US", "en", "Hard computer"),
                                                      ("de", "de", "Schwerer Computer"),
                                                      ("fr", "fr", "Ordinateur difficile")])
async def test_a_hint_answers_only_its_caller_in_their_language(
        fake: FakeDiscord, harness: BotHarness, locale: str, lang: str, word: str) -> None:
    ann, service = await solo(fake, harness, locale=locale)
    rec = await fake.slash(ann, HINT)
    await harness.settle()
    answer = rec.response
    assert answer.ephemeral and [m for m in rec.messages if not m.loading or m.edits] == [answer]
    assert not others_since(fake, rec)  # no channel post, no DM, nobody else
    # what the service advises (the same again: same view, same budget), in Ann's words
    hint = await service.hint(fake.channel_id, str(ann.id))
    tr: Tr = translations(lang)
    assert answer.content == text.hint_text(tr, hint.advice, hint.names, hint.drawn)
    assert word in answer.content
    assert text.reason_text(tr, hint.advice.best.reason, hint.names) in answer.content
    assert hint.advice.best.action in await service.legal_actions(fake.channel_id,
                                                                  str(ann.id))
    first = answer.content.split("\n", 1)[0]
    assert not [m for m in fake.channel_messages() if first in m.content]
    await check_invariants(fake, service, [fake.channel_id])
    assert not all_prompt_problems(fake)


async def test_hints_in_two_games_in_threads_of_one_channel(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The default set-up: each ``game new`` opens a thread of the channel. A hint in a
    thread is about that thread's game only, marks only that game, and reaches no
    channel or thread; someone not in a thread's game is refused there."""
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await harness.start(seed=SEED, game_threads=True)
    service = service_of(harness)
    threads: list[int] = []
    for who in (ann, bob):  # each alone against two computers: always the one awaited
        await fake.slash(who, "sanmarco game new", seats=3, computers=2, level="easy")
        threads.append(int(fake.made_threads[-1]["id"]))
        await fake.slash(who, "sanmarco game start", channel_id=threads[-1])
    await harness.settle()
    rec = await fake.slash(ann, HINT, channel_id=threads[0])
    await harness.settle()
    hint = await service.hint(threads[0], str(ann.id))
    assert rec.response.ephemeral
    assert rec.response.content == text.hint_text(EN, hint.advice, hint.names, hint.drawn)
    assert not others_since(fake, rec)
    refused = await fake.slash(ann, HINT, channel_id=threads[1])
    assert refused.response.content == text.refusal(EN, Code.NOT_IN_GAME)
    games = [(await service.status(t)).game_id for t in threads]
    assert await service.store.hinted(games[0]) and not await service.store.hinted(games[1])
    await check_invariants(fake, service, threads)
    assert not all_prompt_problems(fake)


async def test_hints_are_refused_off_turn_to_outsiders_and_when_turned_off(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
    mod = fake.add_user("mod", manage_channels=True)
    await harness.start(seed=SEED)
    service = service_of(harness)
    await fake.slash(ann, "sanmarco game new", seats=3, computers=1, level="easy")
    await fake.slash(bob, "sanmarco game join")
    await fake.slash(ann, "sanmarco game start")
    await harness.settle()
    table = Table(fake, [ann, bob], channel_id=fake.channel_id)
    while len(waiting := awaited_ids(fake.last_channel_message())) != 1:
        assert await table.step()  # both distributors split at once: on to one decision
        await harness.settle()
    busy = table.user(waiting[0])
    idle = bob if busy is ann else ann
    rec = await fake.slash(idle, HINT)
    assert rec.response.ephemeral
    assert first_line(rec) == text.refusal(EN, Code.NOT_YOUR_TURN)
    rec = await fake.slash(cid, HINT)
    assert rec.response.content == text.refusal(EN, Code.NOT_IN_GAME)
    # only a manager turns hints off; the channel is told, and the settings show it
    rec = await fake.slash(busy, SETTINGS, hints=False)
    assert rec.response.content == text.refusal(EN, Code.SETTINGS_PERMISSION)
    await fake.slash(mod, SETTINGS, hints=False)
    await harness.settle()
    off = text.hints_setting_line(EN, False)
    assert any(off in m.content for m in fake.channel_messages())
    rec = await fake.slash(busy, SETTINGS)
    assert off in rec.response.content
    rec = await fake.slash(busy, HINT)
    assert rec.response.ephemeral
    assert rec.response.content == text.refusal(EN, Code.HINTS_OFF)
    status = await service.status(fake.channel_id)
    assert not await service.store.hinted(status.game_id)  # a refusal marks nothing
    await fake.slash(mod, SETTINGS, hints=True)
    await harness.settle()
    rec = await fake.slash(busy, HINT)  # on again: the hint, to its caller only
    hint = await service.hint(fake.channel_id, str(busy.id))
    assert rec.response.ephemeral and not others_since(fake, rec)
    assert rec.response.content == text.hint_text(EN, hint.advice, hint.names, hint.drawn)
    await check_invariants(fake, service, [fake.channel_id])
    assert not all_prompt_problems(fake)


async def test_a_hinted_game_says_so_at_the_end_is_not_rated_and_reviews_each_player(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, service = await solo(fake, harness)
    await fake.slash(ann, HINT)
    await play_some(fake, harness, ann, 6)
    await play_to_the_end(fake, harness, ann)
    final = fake.last_channel_message()
    assert "Game over!" in final.content
    assert text.hints_used(EN) in final.content
    labels = [c.get("label") for c in final.all_components()]
    assert labels[:4] == ["Rematch", "Replay", "Game file", REVIEW]
    assert all(len(row["components"]) <= 5 for row in final.components)
    # not rated: nobody on the leaderboard, and the history marks it
    assert not await service.leaderboard(fake.guild_id)
    rec = await fake.slash(ann, "sanmarco-server leaderboard")
    assert rec.response.content == text.leaderboard_text(EN, [], str(ann.id))
    rec = await fake.slash(ann, "sanmarco-server history")
    assert text.hinted_tag(EN) in rec.response.content

    # Ann's review from the final post: her own decisions of that game
    rec = await fake.click(ann, final, final.component(REVIEW)["custom_id"])
    await harness.settle()
    answer = rec.response
    assert answer.ephemeral and not others_since(fake, rec)
    review = await service.review(fake.channel_id, str(ann.id))
    assert answer.content == text.review_text(EN, review.game_id, review.review, review.names)
    assert review.review.decisions > 0 and review.review.mistakes
    log = await service.store.actions(review.game_id)
    for m in review.review.mistakes:
        made = log[m.seq - 1]
        assert made.pid == str(ann.id) and not made.computer
        assert text.describe(EN, m.played, review.names) in answer.content
    # someone who did not play is refused with the service's words
    bob = fake.add_user("bob", locale="de")
    rec = await fake.click(bob, final, final.component(REVIEW)["custom_id"])
    await harness.settle()
    assert rec.response.ephemeral
    assert rec.response.content == text.refusal(translations("de"), Code.NOT_IN_GAME)

    # the same button under /sanmarco-server replay's answer, the same review
    rec = await fake.slash(ann, "sanmarco-server replay")
    await harness.settle()
    shown = rec.response
    assert shown.files and [c.get("label") for c in shown.all_components()] == [REVIEW]
    rec = await fake.click(ann, shown, shown.component(REVIEW)["custom_id"])
    await harness.settle()
    assert rec.response.content == answer.content
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]
    # every post ended with who acts next and its buttons (a computer's long run of moves
    # is told cut, with how many lines were left out: check_invariants is for short games)
    assert not all_prompt_problems(fake)


async def test_a_game_without_a_hint_is_rated_and_its_final_post_says_nothing_of_hints(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, service = await solo(fake, harness)
    await play_to_the_end(fake, harness, ann)
    final = fake.last_channel_message()
    assert "Game over!" in final.content
    assert text.hints_used(EN) not in final.content
    assert str(ann.id) in {r.player for r in await service.leaderboard(fake.guild_id)}
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]
    assert not all_prompt_problems(fake)
