"""Which of a channel's waiting posts go out next (``_plan``, pure): a lone post whole; a post
that may have reached Discord alone under its own nonce; the missed ones as text, as many as
one message holds, the oldest only counted after a long outage; a retried catch-up message
again as it was; superseded lobby changes and reminders skipped."""

from __future__ import annotations

from bot.cogs.sanmarco._plan import CATCH_UP_MESSAGES, nonce, plan
from bot.service.posts import Pending, Post, PostKind
from bot.service.results import GameStatus, Lobby
from bot.text.markup import MAX_CONTENT


def post(kind: PostKind = PostKind.MOVE, game: int = 1, lobby: bool = False) -> Post:
    return Post(kind, 1, 10, game, 0, lobby=Lobby(game, 1, 10, GameStatus.LOBBY, "1", 3,
                                                    ("1",), {}, 0) if lobby else None)


def pending(*posts: Post, attempts: dict[int, int] | None = None,
            batch: dict[int, int] | None = None) -> list[Pending]:
    return [Pending(i, p, (attempts or {}).get(i, 0), (batch or {}).get(i))
            for i, p in enumerate(posts, 1)]


def test_a_lone_post_goes_whole_under_its_own_nonce() -> None:
    step = plan(pending(post()), {})
    assert (step.form, [p.id for p in step.posts], step.nonce) == ("full", [1], "sm1")


def test_missed_moves_go_as_text_together_then_the_newest_whole() -> None:
    waiting = pending(post(), post(), post(), post())
    step = plan(waiting, {p.id: 100 for p in waiting})
    assert step.form == "text" and [p.id for p in step.posts] == [1, 2, 3]
    assert step.nonce == nonce(1, 3) == "sm1-3" and step.batch == 3
    assert plan(waiting[3:], {}).form == "full"


def test_a_post_that_may_have_reached_discord_goes_alone() -> None:
    waiting = pending(post(), post(), post(), attempts={1: 1})
    step = plan(waiting, {p.id: 100 for p in waiting})
    assert step.form == "text" and [p.id for p in step.posts] == [1] and step.nonce == "sm1"


def test_a_retried_catch_up_message_is_sent_again_as_it_was() -> None:
    waiting = pending(post(), post(), post(), post(), batch={1: 2, 2: 2})
    step = plan(waiting, {p.id: 100 for p in waiting})
    assert [p.id for p in step.posts] == [1, 2] and step.nonce == "sm1-2"


def test_as_many_as_one_message_holds() -> None:
    waiting = pending(post(), post(), post())
    step = plan(waiting, {p.id: MAX_CONTENT // 2 for p in waiting})
    assert [p.id for p in step.posts] == [1]  # two halves and their line ends do not fit
    assert step.form == "text" and step.elided == 0


def test_after_a_long_outage_the_oldest_are_only_counted() -> None:
    waiting = pending(*(post() for _ in range(40)))
    step = plan(waiting, {p.id: 300 for p in waiting})
    told = 39 - step.elided  # the posts left to tell before the newest
    assert step.elided > 0 and [p.id for p in step.posts] == list(range(1, step.elided + 1))
    assert told * 301 <= CATCH_UP_MESSAGES * MAX_CONTENT


def test_superseded_lobby_changes_and_reminders_are_skipped() -> None:
    assert plan(pending(post(PostKind.LOBBY, lobby=True), post(PostKind.LOBBY, lobby=True)),
                {}).form == "skip"
    assert plan(pending(post(PostKind.REMINDER), post()), {}).form == "skip"
    assert plan(pending(post(PostKind.REMINDER), post(game=2)), {}).form == "remind"
    assert plan(pending(post(PostKind.LOBBY, lobby=True)), {}).form == "lobby"


# ---------------------------------------------------------------------- a game's thread
def thread(archive: bool = False, game: int = 1) -> Post:
    return Post(PostKind.THREAD, 1, 10, game, 0, players=("1",), archive=archive)


def test_a_final_post_followed_by_its_threads_archiving_goes_whole() -> None:
    """The archiving is no message: the final post keeps its board and buttons."""
    waiting = pending(post(), thread(archive=True))
    assert plan(waiting, {p.id: 100 for p in waiting}).form == "full"
    assert plan(waiting[1:], {}).form == "thread"


def test_a_rename_neither_splits_nor_joins_a_catch_up() -> None:
    waiting = pending(post(), thread(), post(), post())
    step = plan(waiting, {p.id: 100 for p in waiting})
    assert step.form == "text" and [p.id for p in step.posts] == [1, 3]


def test_a_rename_a_later_change_of_the_thread_makes_moot_is_skipped() -> None:
    waiting = pending(thread(), post(), thread(), thread(archive=True))
    assert plan(waiting, {}).form == "skip"
    assert plan(waiting[2:], {}).form == "skip"  # the archiving names the thread too
    assert plan(waiting[3:], {}).form == "thread"
    # another game's rename is its own; a reminder is not made moot by a rename
    assert plan(pending(thread(), thread(game=2)), {}).form == "thread"
    assert plan(pending(post(PostKind.REMINDER), thread()), {}).form == "remind"
