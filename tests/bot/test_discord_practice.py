"""The guided practice game through Discord (``/sanmarco game learn``, issue 32): a private
thread with the learner alone, the lessons in its posts before the Now line, Skip
explanations and End practice under each post, a wrong click refused as in any game, a
restart that repeats and loses no lesson, the learner's language, and the newcomer's pointer
to it. Through the real discord.py client against the fake Discord, which makes private
threads as Discord does (``tests/fakediscord/threads.py``: only members may use one); every
test also checks at teardown that each post naming who acts next ends with it and carries
its decision's buttons (``invariants.all_prompt_problems``)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot import i18n, text
from bot.computers import EngineComputers
from bot.service import GameService
from bot.service.errors import Code
from bot.service.teaching.lessons import TOPICS, Taught, Topic
from bot.service.teaching.practice import PRACTICE_LEVEL
from bot.text.lessons import COME_BACK
from engine import GameState
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import prompt_problems
from tests.fakediscord.players import Advice, Advised, game_over_words, tag_of

LEARN = "sanmarco game learn"
PRIVATE_THREAD = 12


def service_of(harness: BotHarness) -> GameService:
    service = harness.bot.service  # type: ignore[union-attr]
    assert isinstance(service, GameService)
    return service


def thread_of(rec: InteractionRecord) -> int:
    """The thread the private answer to ``learn`` links."""
    found = re.search(r"<#(\d+)>", rec.response.content)
    assert found, rec.response.content
    return int(found[1])


async def learn(fake: FakeDiscord, user: FakeUser, **where: Any) -> tuple[int, FakeMessage]:
    """``/sanmarco game learn``: the practice thread and its first post."""
    rec = await fake.slash(user, LEARN, **where)
    thread = thread_of(rec)
    await until(lambda: bool(fake.channel_messages(thread)), what="the first practice post")
    return thread, fake.channel_messages(thread)[0]


def lessons_in(posts: list[FakeMessage], tr: i18n.Tr) -> list[Topic]:
    """The lessons the posts say, in the order they say them (each post's in its order)."""
    found: list[Topic] = []
    for post in posts:
        found += sorted((t for t in TOPICS if text.lesson_text(tr, t) in post.content),
                        key=lambda t: post.content.index(text.lesson_text(tr, t)))
    return found


async def taught(service: GameService, thread: int) -> Taught:
    row = await service.store.active_game(thread) or await service.store.latest_game(thread)
    assert row is not None
    return Taught.decode(row.lessons)


# What a newcomer must have read to weigh a card (by its kind) or a decision (its phase):
# the list, written out here rather than taken from the code under test.
CARD_LESSONS = {"district": {"aristocrats"}, "transfer": {"aristocrats"},
                "bridge": {"bridges"}, "doge": {"doge", "scoring"},
                "banishment": {"banishment"}, "limit": {"limit"}}
PHASE_LESSONS = {"setup_bridges": {"bridges"}, "split": {"distributor"},
                 "choose": {"chooser"}, "banish": {"banishment", "passage"},
                 "banish_victims": {"banishment"}}


def must_know(snap: Any) -> tuple[list[str], set[str]]:
    """The cards the learner's decision shows them (what they drew to split, the offers
    still to take, the hand to play) and the lessons they must have read first."""
    view = snap.view
    phase = view["phase"]
    cards: list[str] = []
    if phase == "split":
        cards = list(snap.private["drawn"])
    elif phase == "choose":
        offers = view["offers"][view["choosing"]["column"]]["offers"]
        cards = [c for o in offers if o["taken_by"] is None for c in o["cards"]]
    elif phase == "play":
        cards = list(view["hand"]["cards"])
    kinds = {c.split(":")[0] for c in cards}
    return cards, PHASE_LESSONS.get(phase, set()) | {t for k in kinds for t in CARD_LESSONS[k]}


def learner_table(fake: FakeDiscord, harness: BotHarness, user: FakeUser, thread: int,
                  tr: i18n.Tr = i18n.ENGLISH) -> Advised:
    """The learner, following the explanations: each decision the normal computer's
    choice for them, made through the buttons, the offer builder and the move chooser.
    Before each, every lesson that decision needs is in a post of the thread already."""
    computers = EngineComputers()

    async def advice(who: FakeUser) -> Advice:
        service = service_of(harness)
        row = await service.store.active_game(thread)
        assert row is not None and row.state is not None
        state = GameState.from_json(row.state)
        snap = await service.snapshot(thread, str(who.id))
        if not Taught.decode(row.lessons).off:
            said = "\n".join(m.content for m in fake.channel_messages(thread))
            cards, needed = must_know(snap)
            missing = [t for t in needed if text.lesson_text(tr, t) not in said]
            assert not missing, f"a decision showing {cards} before the lessons {missing}"
        action = computers.choose(state, str(who.id), PRACTICE_LEVEL)
        return action, list(snap.legal), dict(snap.names)

    return Advised(fake, [user], channel_id=thread, advice=advice, public=tr, private=tr)


async def play_to_the_end(table: Advised, harness: BotHarness) -> None:
    """The learner's table plays the practice game to its end (at most 400 decisions), then
    the bot settles."""
    for _ in range(400):
        if not await table.step():
            break
    else:
        raise AssertionError("the practice game did not end")
    await harness.settle()


# ---------------------------------------------------------------------------- a whole game
async def test_a_learner_who_follows_the_explanations_finishes_the_practice_game(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """``learn`` in a channel: a private thread (type 12, not invitable) named after the
    learner, who is its one member added (nobody else can use it); they follow the
    explanations to the end: each lesson once, in the order the game stored them, each in
    a post before the first decision that needs it; no Rematch under the final post; the
    thread archived under its name; the game in none of the server's records."""
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await harness.start(game_threads=True)
    service = service_of(harness)
    rec = await fake.slash(ann, LEARN)
    assert rec.response.ephemeral
    thread = thread_of(rec)
    assert rec.response.content.startswith(text.practice_opened(i18n.ENGLISH, thread))
    made = fake.made_threads[-1]
    assert made["type"] == PRIVATE_THREAD and made["invitable"] is False
    assert made["parent"] == fake.channel_id
    assert fake.threads[thread].name == "Practice — ann"
    assert fake.thread_member_adds == [(thread, ann.id)]
    with pytest.raises(AssertionError, match="not a member"):
        await fake.slash(bob, "sanmarco status", channel_id=thread)
    assert not fake.channel_messages(fake.channel_id)  # no pointer in the channel
    table = learner_table(fake, harness, ann, thread)
    await play_to_the_end(table, harness)
    posts = fake.channel_messages(thread)
    final = posts[-1]
    assert game_over_words() in final.content
    assert "again" not in {tag_of(c) for c in final.custom_ids()}  # no Rematch
    assert not {"skip", "endp"} & {tag_of(c) for c in final.custom_ids()}
    stored = await taught(service, thread)
    shown = lessons_in(posts, i18n.ENGLISH)
    assert shown == list(stored.shown) and len(shown) == len(set(shown)), shown
    assert set(shown) == set(TOPICS), shown  # the seed shows every idea to a follower
    assert text.lesson_text(i18n.ENGLISH, "goal") in posts[0].content
    assert COME_BACK in posts[0].content  # how to stop and come back, with the first
    assert not prompt_problems(posts)
    await until(lambda: fake.threads[thread].archived, what="the practice thread archived")
    assert fake.threads[thread].name == "Practice — ann"
    number = (await service.status(thread)).game_id
    stats = (await fake.slash(ann, "sanmarco-server stats")).response.content
    assert "has not finished a game" in stats, stats
    for command in ("sanmarco-server leaderboard", "sanmarco-server history"):
        answer = (await fake.slash(ann, command)).response.content
        assert f"#{number}" not in answer and f"<@{ann.id}>" not in answer, (command, answer)


@pytest.mark.parametrize("language", ["de", "fr"])
async def test_a_learner_reads_every_lesson_before_the_cards_it_explains_in_german_and_french(
        fake: FakeDiscord, harness: BotHarness, language: str) -> None:
    """The whole practice game as a German or French learner who follows every lesson:
    before each decision, the lesson of every card and option it shows is in a post of the
    thread in their language (``learner_table`` checks), and every lesson comes once."""
    tr = i18n.translations(language)
    user = fake.add_user("anja", locale=language)
    await harness.start(game_threads=True)
    thread, _ = await learn(fake, user)
    table = learner_table(fake, harness, user, thread, tr)
    await play_to_the_end(table, harness)
    posts = fake.channel_messages(thread)
    shown = lessons_in(posts, tr)
    assert sorted(shown) == sorted(TOPICS) and len(shown) == len(set(shown)), shown
    assert max(len(p.content) for p in posts) <= 2000
    said = "\n".join(p.content for p in posts)
    if language == "fr":  # French elides before a name: "d'Ordinateur 1", never "de O…"
        assert "de Ordinateur" not in said and "d'Ordinateur" in said


# ---------------------------------------------------------------------------- wrong clicks
async def test_wrong_clicks_are_refused_with_the_reason_and_the_practice_goes_on(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A stale button (an earlier post's decision) and a move that is not the one awaited
    are each refused with the catalogue's sentence (the stale one with the current
    prompt); the game goes on. (Another person's click cannot happen: the thread is
    private, and the fake refuses a non-member's click as Discord shows them nothing.) The
    channel keeps its games in itself: practice still gets a private thread."""
    ann = fake.add_user("ann")
    await harness.start(game_threads=False)
    thread, first = await learn(fake, ann)
    assert fake.made_threads[-1]["type"] == PRIVATE_THREAD
    table = learner_table(fake, harness, ann, thread)
    assert await table.step()
    await harness.settle()
    stale = next(c for c in first.custom_ids() if tag_of(c) in ("take", "build", "next"))
    answer = (await fake.click(ann, first, stale)).private[-1].content
    assert answer.startswith(text.refusal(i18n.ENGLISH, Code.STALE)), answer
    await table.play_until("next")  # a card to play: taking an offer is no move now
    refused = (await fake.slash(ann, "sanmarco take", channel_id=thread, offer=1)).response
    assert refused.content.startswith(text.refusal(i18n.ENGLISH, "action.wrong_phase")), \
        refused.content
    before = len(fake.channel_messages(thread))
    assert await table.step()  # the game goes on
    await until(lambda: len(fake.channel_messages(thread)) > before, what="the next post")
    assert (await service_of(harness).status(thread)).status == "running"


# ---------------------------------------------------------------------------- a restart
async def test_stopped_and_resumed_after_a_restart_no_lesson_repeated_or_lost(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The learner plays a few moves, the bot restarts, they play on: every lesson the
    game stored is in the thread once; ``learn`` again points back to the thread (and
    how to end it) and opens nothing."""
    ann = fake.add_user("ann")
    await harness.start(game_threads=True)
    thread, _ = await learn(fake, ann)
    table = learner_table(fake, harness, ann, thread)
    for _ in range(3):
        assert await table.step()
    await harness.stop()
    await harness.start(game_threads=True)
    for k in range(3):
        assert await table.step(), (k, fake.channel_messages(thread)[-1].content)
    await harness.settle()
    stored = await taught(service_of(harness), thread)
    shown = lessons_in(fake.channel_messages(thread), i18n.ENGLISH)
    assert shown == list(stored.shown) and len(shown) == len(set(shown)) >= 3, shown
    threads = len(fake.made_threads)
    again = (await fake.slash(ann, LEARN)).response.content
    assert again == text.refusal(i18n.ENGLISH, Code.PRACTICE_OPEN, {"channels": thread})
    assert f"<#{thread}>" in again and "abandon" in again
    assert len(fake.made_threads) == threads


async def test_a_practice_game_whose_thread_was_deleted_ends_and_learn_opens_another(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A learner (or a moderator) deleted the practice thread: ``learn`` does not point at
    the missing thread for good; the old game ends and a new thread opens."""
    ann = fake.add_user("ann")
    await harness.start(game_threads=True)
    thread, _ = await learn(fake, ann)
    await fake.delete_channel(thread)
    second, first = await learn(fake, ann)
    assert second != thread and fake.threads[second].private
    assert text.lesson_text(i18n.ENGLISH, "goal") in first.content
    service = service_of(harness)
    assert (await service.status(thread)).status == "abandoned"
    assert await service.practice_of(fake.guild_id, str(ann.id)) == second


# ---------------------------------------------------------------------------- languages
@pytest.mark.parametrize(("locale", "language"), [("de", "de"), ("fr", "fr")])
async def test_a_learner_reads_the_practice_game_in_their_discord_language(
        fake: FakeDiscord, harness: BotHarness, locale: str, language: str) -> None:
    """A learner whose Discord speaks German or French (on an English server) gets the
    thread's name, its posts, its buttons and the lessons in their language. Used inside
    a thread, the practice thread opens in its channel."""
    tr = i18n.translations(language)
    user = fake.add_user("anja", locale=locale)
    inside = fake.add_thread()
    await harness.start(game_threads=True)
    rec = await fake.slash(user, LEARN, channel_id=inside)
    thread = thread_of(rec)
    assert fake.threads[thread].parent_id == fake.channel_id
    assert rec.response.content.startswith(text.practice_opened(tr, thread))
    assert fake.threads[thread].name == text.practice_thread_name(tr, "anja") != \
        text.practice_thread_name(i18n.ENGLISH, "anja")
    await until(lambda: bool(fake.channel_messages(thread)), what="the first post")
    table = learner_table(fake, harness, user, thread, tr)
    for _ in range(3):
        assert await table.step()
    await harness.settle()
    posts = fake.channel_messages(thread)
    assert text.lesson_text(tr, "goal") in posts[0].content
    assert text.lesson_text(tr, "goal") != text.lesson_text(i18n.ENGLISH, "goal")
    assert lessons_in(posts, tr) == list((await taught(service_of(harness), thread)).shown)
    labels = {c.get("label") for c in posts[-1].all_components()}
    assert {text.label(tr, "skip_lessons"), text.label(tr, "end_practice")} <= labels


# ---------------------------------------------------------------------------- skip and end
async def test_skip_stops_the_explanations_and_end_practice_ends_the_game(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Skip explanations: no lesson in any later post (a second press says they are off
    already); End practice: the game is abandoned, its thread archived, and a new ``learn``
    may open another."""
    ann = fake.add_user("ann")
    await harness.start(game_threads=True)
    thread, first = await learn(fake, ann)
    answer = (await fake.click(ann, first, first.component("skip")["custom_id"])).private
    assert answer[-1].content == text.lessons_skipped(i18n.ENGLISH, True)
    again = (await fake.click(ann, first, first.component("skip")["custom_id"])).private
    assert again[-1].content == text.lessons_skipped(i18n.ENGLISH, False)
    before = len(fake.channel_messages(thread))
    table = learner_table(fake, harness, ann, thread)
    for _ in range(6):
        assert await table.step()
    await harness.settle()
    assert not lessons_in(fake.channel_messages(thread)[before:], i18n.ENGLISH)
    post = fake.channel_messages(thread)[-1]
    await fake.click(ann, post, post.component("endp")["custom_id"])
    service = service_of(harness)
    assert (await service.status(thread)).status == "abandoned"
    assert await service.practice_of(fake.guild_id, str(ann.id)) is None
    await until(lambda: fake.threads[thread].archived, what="the ended practice archived")
    second, _ = await learn(fake, ann)
    assert second != thread


async def test_two_learns_at_once_open_one_practice_game(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A learner who clicks ``learn`` twice at once gets one practice game and one thread:
    one answer links it as opened, the other points back to it."""
    ann = fake.add_user("ann")
    await harness.start(game_threads=True)
    first, second = await asyncio.gather(fake.slash(ann, LEARN), fake.slash(ann, LEARN))
    await harness.settle()
    assert len(fake.made_threads) == 1, fake.made_threads
    thread = next(iter(fake.threads))
    answers = sorted([first.response.content, second.response.content])
    opened = text.practice_opened(i18n.ENGLISH, thread)
    again = text.refusal(i18n.ENGLISH, Code.PRACTICE_OPEN, {"channels": thread})
    assert [a.startswith(opened) for a in answers].count(True) == 1, answers
    assert again in answers, answers
    assert await service_of(harness).practice_of(fake.guild_id, str(ann.id)) == thread


async def test_the_first_post_comes_before_the_answer_even_when_its_board_is_slow(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A busy machine draws the first board slowly (longer than a move's answer waits):
    ``learn`` still answers after the first post is in the thread, and never says Discord
    has not taken the post (Discord did nothing wrong)."""
    ann = fake.add_user("ann")
    await harness.start(game_threads=True, outbox_wait_seconds=1.0)  # a move's wait
    drawer = harness.bot.get_cog("SanMarco").drawer  # type: ignore[union-attr]
    draw = drawer.board_png

    async def slow(*args: Any, **kwargs: Any) -> bytes:
        await asyncio.sleep(1.5)  # longer than a move's answer waits for its post (1 s)
        return await draw(*args, **kwargs)

    drawer.board_png = slow
    rec = await fake.slash(ann, LEARN)
    thread = thread_of(rec)
    assert fake.channel_messages(thread), "the answer came before the first post"
    assert text.post_pending(i18n.ENGLISH) not in rec.response.content
    assert "Discord" not in rec.response.content
    assert rec.response.content == text.practice_opened(i18n.ENGLISH, thread)


# ---------------------------------------------------------------------------- the pointer
async def test_a_newcomers_first_answer_names_learn_once_in_their_language(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Someone who never played on the server: their first command's answer ends with the
    pointer to ``learn`` in their language, and no later one; a player who played before
    never reads it."""
    anja, tom, old = (fake.add_user("anja", locale="de"), fake.add_user("tom"),
                      fake.add_user("old"))
    await harness.start(learn_pointer=True)
    de = i18n.translations("de")
    await fake.slash(old, "sanmarco game new")  # old has sat in a game (a lobby) here
    first = (await fake.slash(anja, "sanmarco-server stats")).response.content
    assert first.endswith("\n\n" + text.learn_pointer(de))
    assert text.learn_pointer(de) != text.learn_pointer(i18n.ENGLISH)
    second = (await fake.slash(anja, "sanmarco-server stats")).response.content
    assert text.learn_pointer(de) not in second
    refused = (await fake.slash(tom, "sanmarco take", offer=1)).response.content  # a refusal
    assert refused.count(text.learn_pointer(i18n.ENGLISH)) == 1
    assert text.learn_pointer(i18n.ENGLISH) not in (
        await fake.slash(old, "sanmarco-server stats")).response.content


async def test_a_newcomers_first_click_names_learn_once(fake: FakeDiscord,
                                                       harness: BotHarness) -> None:
    """A newcomer whose first interaction is a click (Join on someone's lobby) reads the
    pointer once, privately, after the click did its work; their next click does not."""
    old, bea = fake.add_user("old"), fake.add_user("bea")
    await harness.start(learn_pointer=True)
    await fake.slash(old, "sanmarco game new")
    await harness.settle()
    lobby = fake.channel_messages(fake.channel_id)[-1]
    joined = await fake.click(bea, lobby, lobby.component("join")["custom_id"])
    said = [m.content for m in joined.private]
    assert said.count(text.learn_pointer(i18n.ENGLISH)) == 1, said
    await harness.settle()
    lobby = fake.channel_messages(fake.channel_id)[-1]
    left = await fake.click(bea, lobby, lobby.component("leave")["custom_id"])
    assert all(text.learn_pointer(i18n.ENGLISH) not in m.content for m in left.private)


# ---------------------------------------------------------------------------- permissions
async def test_missing_create_private_threads_is_named_and_nothing_is_stored(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Without Create Private Threads in the channel the learner reads which permission
    the bot lacks; no thread is made and no practice game stored."""
    ann = fake.add_user("ann")
    fake.deny(fake.channel_id, "create_private_threads")
    await harness.start(game_threads=True)
    answer = (await fake.slash(ann, LEARN)).response.content
    assert answer == text.refusal(i18n.ENGLISH, Code.PRACTICE_PERMISSION,
                                  {"permission": "create_private_threads"})
    assert "**Create Private Threads**" in answer
    assert not fake.made_threads
    assert await service_of(harness).practice_of(fake.guild_id, str(ann.id)) is None
