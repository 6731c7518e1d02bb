"""The guided practice game through the service (a real store, SQLite and PostgreSQL; the
real engine.ai): its move posts carry each lesson once, at its idea's first appearance and
before the learner's first decision that needs it; wrong moves are refused as in any game;
a restart neither repeats nor loses a lesson; skipping stops them; the game is unrated and
in no list of the server's games."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

import pytest

import engine
from bot import i18n, text
from bot.cogs.sanmarco.delivery.compose import line_text
from bot.computers import EngineComputers
from bot.service import GameService, ServiceError
from bot.service.posts import Post, PostKind
from bot.service.teaching.lessons import TOPICS, Taught, Topic, decision_topics, step
from bot.store import open_store
from bot.text.markup import MAX_CONTENT
from engine import Action, GameState
from engine.ai import Budget

pytestmark = pytest.mark.asyncio

GUILD, CHANNEL, PARENT = 1, 500, 50
LEARNER = "100000000000000001"
CLOCK = [1_700_000_000.0]


async def make(db: str) -> GameService:
    return GameService(await open_store(db), lambda: CLOCK[0], computers=EngineComputers())


@dataclass
class Learner:
    """What the learner has read so far: each lesson with the post that carried it."""

    shown: list[str] = field(default_factory=list)
    posts: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    carried: list[Post] = field(default_factory=list)

    async def read(self, svc: GameService, channel: int = CHANNEL) -> None:
        """Take the channel's waiting posts as delivered, noting their lessons."""
        pending = await svc.pending_posts(channel)
        for p in pending:
            if p.post.lessons:
                assert p.post.kind is PostKind.MOVE
                self.shown += p.post.lessons
                self.posts.append((p.post.version, p.post.lessons))
                self.carried.append(p.post)
        await svc.posts_sent([p.id for p in pending])


async def state_of(svc: GameService, channel: int = CHANNEL) -> GameState:
    row = await svc.store.latest_game(channel)
    assert row is not None and row.state is not None
    return GameState.from_json(row.state)


# What a newcomer must have read to weigh a card (by its kind) or a decision (by its phase):
# the list, written out here rather than taken from the code under test.
CARD_LESSONS = {"district": {"aristocrats"}, "transfer": {"aristocrats"},
                "bridge": {"bridges"}, "doge": {"doge", "scoring"},
                "banishment": {"banishment"}, "limit": {"limit"}}
PHASE_LESSONS = {"setup_bridges": {"bridges"}, "split": {"distributor"},
                 "choose": {"chooser"}, "banish": {"banishment", "passage"},
                 "banish_victims": {"banishment"}}


def shown_to(state: GameState, pid: str) -> list[str]:
    """Every card the awaited decision shows ``pid``: drawn cards to split, offers still
    to take, the hand to play."""
    view = state.private_view(pid)
    if view["phase"] == "split":
        return list(view["private"]["drawn"])
    if view["phase"] == "choose":
        offers = view["offers"][view["choosing"]["column"]]["offers"]
        return [c for o in offers if o["taken_by"] is None for c in o["cards"]]
    if view["phase"] == "play":
        return list(view["hand"]["cards"])
    return []


def must_know(state: GameState, pid: str) -> set[str]:
    kinds = {c.split(":")[0] for c in shown_to(state, pid)}
    return (PHASE_LESSONS.get(str(state.phase), set())
            | {t for k in kinds for t in CARD_LESSONS[k]})


async def follow(svc: GameService, learner: Learner, *, moves: int = 10_000,
                 taught: bool = True) -> bool:
    """The learner plays the normal computer's move ``moves`` times (or to the end),
    checking before each that the lesson of every card and option the decision shows was
    shown (``taught``). True once finished."""
    ai = EngineComputers()
    for _ in range(moves):
        state = await state_of(svc)
        if state.finished:
            return True
        action = ai.choose(state, LEARNER)
        if taught:
            missing = must_know(state, LEARNER) - set(learner.shown)
            assert not missing, (state.phase, shown_to(state, LEARNER), missing)
        await svc.act(CHANNEL, LEARNER, action)
        await learner.read(svc)
    return (await state_of(svc)).finished


async def test_a_learner_who_follows_meets_every_lesson_once_in_order_and_finishes(db: str):
    svc = await make(db)
    try:
        start = await svc.open_practice(GUILD, CHANNEL, LEARNER, language="de", name="Ann")
        assert start.view is not None and start.view["waiting_for"] == [LEARNER]
        assert (await svc.settings(CHANNEL)).language == "de"  # the thread speaks German
        learner = Learner()
        await learner.read(svc)
        assert learner.shown[0] == Topic.GOAL  # goal -> overview -> details
        assert await follow(svc, learner)
        assert sorted(learner.shown) == sorted(TOPICS)  # each once
        order = {t: i for i, t in enumerate(TOPICS)}
        for _, lessons in learner.posts:  # a post's lessons in Topic order
            assert [order[Topic(t)] for t in lessons] == sorted(order[Topic(t)] for t in lessons)
        # unrated and in no list of the server's: no history row, no stats, no rating
        assert await svc.history(GUILD) == []
        assert await svc.past_games(GUILD) == []
        assert await svc.leaderboard(GUILD) == []
        assert (await svc.player_stats(GUILD, LEARNER)).overall.games == 0
        assert await svc.standings(GUILD) == []
        assert await svc.practice_of(GUILD, LEARNER) is None  # finished: a new one may open
    finally:
        await svc.close()


async def test_a_lesson_post_has_room_for_its_story_and_now_line(db: str):
    """The lessons of any post of the practice game, in every language, leave room for a
    story of what happened and the Now line within Discord's 2,000 characters."""
    svc = await make(db)
    try:
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        learner = Learner()
        await learner.read(svc)
        await follow(svc, learner)
        for language in i18n.LANGUAGES:
            tr = i18n.translations(language)
            for post in learner.carried:
                room = text.story_room(tr, post.lessons)
                assert room >= 500, (language, post.lessons)  # a story still fits
                story = text.events_text(tr, post.events, post.names, limit=room)
                said = [story, *text.lessons_text(tr, post.lessons)]
                assert len("\n".join(said)) + text.lessons.NOW_ROOM <= MAX_CONTENT
    finally:
        await svc.close()


async def test_a_random_learner_finishes_and_wrong_moves_are_refused_as_in_any_game(tmp_path):
    svc = await make(str(tmp_path / "g.db"))
    rng = random.Random(7)
    try:
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="fr")
        learner = Learner()
        await learner.read(svc)
        seen: set[Action] = set()
        refused: set[str] = set()
        while not (state := await state_of(svc)).finished:
            legal = engine.legal_actions(state, LEARNER)
            seen.update(legal[:20])  # a split has thousands: a few will do
            allowed = set(legal)
            wrong = sorted((a for a in seen if a not in allowed), key=lambda a: a.encode())
            if wrong and rng.random() < 0.2:
                with pytest.raises(ServiceError) as caught:
                    await svc.act(CHANNEL, LEARNER, rng.choice(wrong))
                assert caught.value.code in engine.ERROR_CODES  # the engine's reason
                refused.add(caught.value.code)
                assert (await state_of(svc)).version == state.version  # nothing changed
                continue
            await svc.act(CHANNEL, LEARNER, rng.choice(legal))
            await learner.read(svc)
        assert refused  # it did click wrong things
        assert len(learner.shown) == len(set(learner.shown))  # never twice
        with pytest.raises(ServiceError) as over:
            await svc.act(CHANNEL, LEARNER, rng.choice(sorted(seen, key=lambda a: a.encode())))
        assert over.value.code == "game.over"
    finally:
        await svc.close()


async def test_other_refusals_are_the_usual_ones(tmp_path):
    svc = await make(str(tmp_path / "g.db"))
    try:
        start = await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        move = (await svc.legal_actions(CHANNEL, LEARNER))[0]
        with pytest.raises(ServiceError) as stale:
            await svc.act(CHANNEL, LEARNER, move, expected_version=start.version + 5)
        assert stale.value.code == "state.stale"
        with pytest.raises(ServiceError) as outsider:
            await svc.act(CHANNEL, "222", move)
        assert outsider.value.code == "player.not_in_game"
    finally:
        await svc.close()


async def test_stopped_and_resumed_after_a_restart_no_lesson_repeated_or_lost(tmp_path):
    whole, stopped = Learner(), Learner()
    svc = await make(str(tmp_path / "a.db"))
    try:
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        await whole.read(svc)
        assert await follow(svc, whole)
    finally:
        await svc.close()
    path = str(tmp_path / "b.db")
    svc = await make(path)
    try:
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        await stopped.read(svc)
        assert not await follow(svc, stopped, moves=12)  # the learner leaves here...
    finally:
        await svc.close()
    svc = await make(path)  # ...and the bot restarts
    try:
        assert await svc.practice_of(GUILD, LEARNER) == CHANNEL  # learn points back here
        assert await follow(svc, stopped)
    finally:
        await svc.close()
    assert stopped.posts == whole.posts  # the same lessons in the same posts


async def test_skip_stops_the_lessons(tmp_path):
    svc = await make(str(tmp_path / "g.db"))
    try:
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        learner = Learner()
        await learner.read(svc)
        assert learner.shown
        with pytest.raises(ServiceError) as other:
            await svc.skip_lessons(CHANNEL, "222")  # a moderator, in the private thread
        assert other.value.code == "practice.not_learner"
        assert await svc.skip_lessons(CHANNEL, LEARNER)
        assert not await svc.skip_lessons(CHANNEL, LEARNER)  # off already
        before = list(learner.shown)
        assert await follow(svc, learner, taught=False)
        assert learner.shown == before
    finally:
        await svc.close()


async def test_skip_is_for_practice_games_only(tmp_path):
    svc = await make(str(tmp_path / "g.db"))
    try:
        await svc.create_lobby(GUILD, 600, LEARNER, seats=3, computers=2)
        await svc.start(600, LEARNER)
        with pytest.raises(ServiceError) as caught:
            await svc.skip_lessons(600, LEARNER)
        assert caught.value.code == "practice.not_practice"
        assert all(not p.post.lessons for p in await svc.pending_posts(600))
    finally:
        await svc.close()


async def test_one_practice_game_per_learner_and_the_learner_ends_it_alone(db: str):
    svc = await make(db)
    try:
        assert await svc.practice_of(GUILD, LEARNER) is None
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en", parent=PARENT)
        assert await svc.practice_of(GUILD, LEARNER) == CHANNEL
        with pytest.raises(ServiceError) as again:
            await svc.open_practice(GUILD, CHANNEL + 1, LEARNER, language="en")
        assert again.value.code == "practice.open"
        assert again.value.params == {"channels": str(CHANNEL)}
        with pytest.raises(ServiceError) as bad:
            await svc.open_practice(GUILD, CHANNEL + 1, "222", language="xx")
        assert bad.value.code == "settings.language"
        # no lobby post and no pointer in the parent channel: the thread is the learner's
        assert await svc.pending_posts(PARENT) == []
        assert PostKind.LOBBY not in {p.post.kind for p in await svc.pending_posts(CHANNEL)}
        # not on the server's page, nor among its lobbies
        page = await svc.server_page(await svc.set_server_page(GUILD, True))
        assert page.running == () and page.lobbies == ()
        assert await svc.lobbies(GUILD) == []
        ended = await svc.abandon(CHANNEL, LEARNER)  # the learner alone may end it
        assert ended.game_id is not None
        assert await svc.practice_of(GUILD, LEARNER) is None
    finally:
        await svc.close()


async def test_is_newcomer(db: str):
    svc = await make(db)
    try:
        assert await svc.is_newcomer(GUILD, LEARNER)
        assert await svc.is_newcomer(GUILD, "222")
        await svc.create_lobby(GUILD, 600, "222", seats=3)
        assert not await svc.is_newcomer(GUILD, "222")  # sat in a lobby here
        assert await svc.is_newcomer(GUILD + 1, "222")  # per server
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        assert not await svc.is_newcomer(GUILD, LEARNER)
        assert await svc.is_newcomer(GUILD, "333")
    finally:
        await svc.close()


async def test_the_newcomers_pointer_is_taken_once_per_person_and_server(db: str):
    """``take_learn_pointer``: True once for someone who never sat in a game here (the
    adapter then names ``learn``), never again, and never for someone who has played."""
    svc = await make(db)
    try:
        assert await svc.take_learn_pointer(GUILD, "222")
        assert not await svc.take_learn_pointer(GUILD, "222")  # told once
        assert await svc.take_learn_pointer(GUILD + 1, "222")  # per server
        await svc.create_lobby(GUILD, 600, "333", seats=3)
        assert not await svc.take_learn_pointer(GUILD, "333")  # sat in a lobby here
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en")
        assert not await svc.take_learn_pointer(GUILD, LEARNER)  # a learner has played
    finally:
        await svc.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
async def test_every_lesson_has_words_in_every_language(language: str):
    tr = i18n.translations(language)
    english = i18n.translations("en")
    for topic in TOPICS:
        said = text.lesson_text(tr, topic)
        assert said.strip() and len(said) <= 600
        if language != "en":
            assert said != text.lesson_text(english, topic)  # translated
        assert said.count(". ") + said.count("! ") + said.count("; ") <= 4  # short


async def test_a_post_full_of_lessons_leaves_what_happened_for_the_next_ones() -> None:
    """Ideas the change only shows wait for the next post once two lessons are due; those
    the learner's decision needs never wait; the stored text round-trips."""
    events = [engine.Event("district_scored", {"district": "San Marco", "points": {}}),
              engine.Event("banishment_rolled", {"district": "San Marco", "roll": 2}),
              engine.Event("player_out", {"player": "ai.normal.1", "limit": 10})]
    decision = (Topic.DOGE,)
    show, taught = step(events, decision, Taught((Topic.GOAL, Topic.ARISTOCRATS,
                                                  Topic.LIMIT)))
    assert show == (Topic.SCORING, Topic.DOGE)
    assert taught.waiting == (Topic.BANISHMENT, Topic.PASSAGE)
    assert Taught.decode(taught.encode()) == taught
    show, taught = step([], [], taught)
    assert show == (Topic.BANISHMENT, Topic.PASSAGE) and taught.waiting == ()
    assert step(events, decision, Taught(off=True)) == ((), Taught(off=True))


async def test_a_decision_needs_the_lessons_of_every_card_it_shows() -> None:
    """The issue's first split: districts, a transfer, two Doges, a banishment and limit
    cards need the distributor's, aristocrats', Doge's, scoring's, banishment's and limit's
    lessons, all before it; a post at a decision with room says ahead what every game
    brings (scoring, aristocrats, limit); the goal counts twice."""
    state, _ = engine.start_game([LEARNER, "ai.normal.1", "ai.normal.2"], seed=334)
    ai = EngineComputers()
    while state.phase != "split" or LEARNER not in state.waiting_for:
        pid = state.waiting_for[0]
        state, _ = engine.apply(state, pid, ai.choose(state, pid))
    assert set(decision_topics(state.private_view(LEARNER))) == {
        Topic.DISTRIBUTOR, Topic.LIMIT, Topic.ARISTOCRATS, Topic.DOGE, Topic.SCORING,
        Topic.BANISHMENT}
    assert decision_topics(None) == ()
    show, taught = step([], (Topic.BRIDGES,), Taught((Topic.GOAL, Topic.BRIDGES)))
    assert show == (Topic.SCORING, Topic.ARISTOCRATS, Topic.LIMIT)
    show, _ = step([engine.Event("game_started", {})], (Topic.BRIDGES,), Taught())
    assert show == (Topic.GOAL, Topic.BRIDGES)


async def test_the_lessons_are_placed_without_enumerating_legal_actions(monkeypatch) -> None:
    """A practice game's commit reads the learner's view, not the 55,980 legal actions of
    a 3-player split (it runs under the channel's lock)."""
    from bot.service.teaching.practice import PracticeCalls
    from bot.store import GameRow, Seat
    state, _ = engine.start_game([LEARNER, "ai.normal.1", "ai.normal.2"], seed=334)
    ai = EngineComputers()
    while state.phase != "split" or LEARNER not in state.waiting_for:
        pid = state.waiting_for[0]
        state, _ = engine.apply(state, pid, ai.choose(state, pid))

    def enumerate_all(*_: object) -> tuple[()]:
        raise AssertionError("every legal action enumerated")

    monkeypatch.setattr(engine, "legal_actions", enumerate_all)
    monkeypatch.setattr(engine.game, "_legal", enumerate_all)
    row = GameRow(1, GUILD, CHANNEL, "running", LEARNER, 3, (Seat(LEARNER),), 334, None, 1,
                  0.0, 0.0, None, None, None, practice=True,
                  lessons="goal,bridges,scoring,aristocrats,limit")
    fields: dict[str, object] = {}
    topics = PracticeCalls._lessons(object(), row, state, [], fields)  # type: ignore[arg-type]
    assert topics == ("distributor", "doge", "banishment")


async def test_two_learns_at_once_open_one_practice_game(db: str):
    """Two ``open_practice`` of one learner at the same moment, in two new threads (two
    quick clicks of ``learn``): one game opens, the other is told where it is; on both
    stores (the store checks and creates in one transaction, under the learner's lock)."""
    svc = await make(db)
    other = await make(db)  # a second service on the same database: another process
    try:
        results = await asyncio.gather(
            svc.open_practice(GUILD, CHANNEL, LEARNER, language="en"),
            other.open_practice(GUILD, CHANNEL + 1, LEARNER, language="en"),
            svc.open_practice(GUILD, CHANNEL + 2, LEARNER, language="en"),
            return_exceptions=True)
        opened = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(opened) == 1, results
        assert all(isinstance(r, ServiceError) and r.code == "practice.open" for r in refused)
        channel = await svc.practice_of(GUILD, LEARNER)
        assert channel == opened[0].channel_id
        assert all(r.params == {"channels": str(channel)} for r in refused)  # type: ignore
        assert await svc.store.latest_game(CHANNEL + 2) is None or channel == CHANNEL + 2
    finally:
        await svc.close()
        await other.close()


async def test_hints_turned_off_in_the_channel_reach_its_threads_running_games(db: str):
    """A manager turns hints off in the channel: the practice game already running in its
    thread (with the settings it copied at its start) refuses hints from then on."""
    svc = await make(db)
    svc.hint_budget = Budget(playouts=2, max_seconds=None, candidates=2)
    svc.hint_cooldown = 0  # asks again at once (the cooldown has tests of its own)
    try:
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en", parent=PARENT)
        assert (await svc.hint(CHANNEL, LEARNER)).advice.best is not None
        await svc.set_settings(PARENT, hints=False)
        with pytest.raises(ServiceError) as off:
            await svc.hint(CHANNEL, LEARNER)
        assert off.value.code == "hint.off"
        await svc.set_settings(PARENT, hints=True)
        assert (await svc.hint(CHANNEL, LEARNER)).advice.best is not None
    finally:
        await svc.close()


async def test_ending_a_practice_game_points_back_to_learn(db: str):
    """End practice (abandon): its post says ``learn`` starts another, not ``game new``
    (a rated lobby)."""
    svc = await make(db)
    try:
        await svc.open_practice(GUILD, CHANNEL, LEARNER, language="en", parent=PARENT)
        await svc.posts_sent([p.id for p in await svc.pending_posts(CHANNEL)])
        await svc.abandon(CHANNEL, LEARNER)
        said = [line_text(i18n.ENGLISH, line, p.post.names, "en")
                for p in await svc.pending_posts(CHANNEL) for line in p.post.lines]
        assert said == [text.practice_ended(i18n.ENGLISH, LEARNER)], said
        assert "`/sanmarco game learn`" in said[0] and "game new" not in said[0]
    finally:
        await svc.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
async def test_the_lessons_say_what_is_true(language: str):
    """Issue 38, checked against RULES.md: scoring names every district's two values (§2)
    before speaking of them; limit cards *may* be in an offer (many splits leave an offer
    without one); only the take is made with buttons (the rest with lists and the builder);
    a Doge route's words name its district once."""
    tr = i18n.translations(language)
    scoring = text.lesson_text(tr, Topic.SCORING)
    for d in engine.board.DISTRICTS:
        assert f"{d.name} {d.first}/{d.second}" in scoring
    english = {t: text.lesson_text(i18n.ENGLISH, t) for t in TOPICS}
    assert "Every offer" not in english[Topic.LIMIT]  # not every offer has one
    assert "Among the cards" in english[Topic.LIMIT]
    assert [t for t, said in english.items() if "button" in said] == [Topic.CHOOSER]
    assert text.label(tr, "build") in text.lesson_text(tr, Topic.DISTRIBUTOR)
    assert text.label(tr, "play_next") in text.lesson_text(tr, Topic.ARISTOCRATS)
    route = engine.decode("doge:CN/via:SM-CN@ai.normal.1")
    said = text.describe(tr, route, {"ai.normal.1": "jonas"})
    assert said.count("Cannaregio") == 1, said
