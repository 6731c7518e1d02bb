"""Which of a channel's waiting posts go out next (``delivery.plan``, pure): a lone post whole; a
post that may have reached Discord alone under its own nonce; the missed ones as text, as many as
one message holds, the oldest only counted after a long outage; a retried catch-up message
again as it was; superseded lobby changes and reminders skipped."""

from __future__ import annotations

from bot.cogs.sanmarco.delivery.plan import CATCH_UP_MESSAGES, nonce, plan
from bot.cogs.sanmarco.delivery.worker import backoff
from bot.service.posts import Pending, Post, PostKind
from bot.service.results import GameStatus, Lobby
from bot.text.markup import MAX_CONTENT


def post(kind: PostKind = PostKind.MOVE, game: int = 1, lobby: bool = False,
         finished: bool = False) -> Post:
    return Post(kind, 1, 10, game, 0, lobby=Lobby(game, 1, 10, GameStatus.LOBBY, "1", 3,
                                                    ("1",), {}, 0) if lobby else None,
                finished=finished)


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


def messages_of(waiting: list[Pending], sizes: dict[int, int]) -> list[tuple[str, int]]:
    """Every step the plan makes until nothing waits, as (form, posts), each step's posts
    leaving the outbox as the deliverer would."""
    steps: list[tuple[str, int]] = []
    while waiting:
        step = plan(waiting, sizes)
        steps.append((step.form, len(step.posts)))
        sent = {p.id for p in step.posts}
        waiting = [p for p in waiting if p.id not in sent]
    return steps


def test_a_60_move_backlog_goes_in_at_most_two_messages_then_the_board() -> None:
    """Whatever the sizes: 60 moves of a game (all short, all long, mixed, one longer
    than a message) are told in at most ``CATCH_UP_MESSAGES`` text messages, the oldest
    only counted when they do not fit, then the newest whole."""
    for sizes in ([120] * 60, [1900] * 60, [700, 1400, 40, 1999] * 15, [5000] + [10] * 59,
                  [10] * 59 + [5000], [1000] * 60, [667] * 60):
        waiting = pending(*(post() for _ in range(60)))
        steps = messages_of(waiting, {p.id: n for p, n in zip(waiting, sizes, strict=True)})
        texts = [s for s in steps if s[0] == "text"]
        assert len(texts) <= CATCH_UP_MESSAGES and steps[-1] == ("full", 1), (sizes, steps)
        assert sum(n for _, n in steps) == 60


def test_three_long_moves_then_the_board_are_never_three_messages() -> None:
    """Greedy packing against 2 x 2,000 characters spilled into a third message."""
    waiting = pending(post(), post(), post(), post())
    steps = messages_of(waiting, {1: 1500, 2: 1500, 3: 900, 4: 100})
    assert len([s for s in steps if s[0] == "text"]) <= CATCH_UP_MESSAGES
    assert steps[-1] == ("full", 1)


def test_a_final_post_goes_whole_whatever_waits_behind_it() -> None:
    """The final board, the summary, the seed, Rematch and Replay are never told as text:
    a note (or a rematch's post) behind the final move does not make it a catch-up's."""
    waiting = pending(post(), post(finished=True), post(PostKind.NOTE))
    sizes = {p.id: 100 for p in waiting}
    assert messages_of(waiting, sizes) == [("text", 1), ("full", 1), ("full", 1)]
    step = plan(waiting[1:], sizes)
    assert step.form == "full" and [p.id for p in step.posts] == [2] and step.nonce == "sm2"
    # tried before and failed: it goes alone, still whole
    retried = pending(post(finished=True), post(PostKind.NOTE), attempts={1: 1})
    assert plan(retried, sizes).form == "full"


def test_a_move_followed_by_a_note_leaves_its_board() -> None:
    """A catch-up ends with the board: the last move of a game goes whole even when a note
    waits behind it (the note then goes as its own post)."""
    waiting = pending(post(), post(), post(PostKind.NOTE))
    assert messages_of(waiting, {p.id: 100 for p in waiting}) == [
        ("text", 1), ("full", 1), ("full", 1)]
    waiting = pending(post(), post(PostKind.NOTE), post(PostKind.NOTE))
    assert messages_of(waiting, {p.id: 100 for p in waiting})[0] == ("full", 1)
    # each game's last move keeps its board in a channel with two games
    waiting = pending(post(), post(game=2), post(game=2), post(PostKind.NOTE, game=2))
    assert messages_of(waiting, {p.id: 100 for p in waiting}) == [
        ("full", 1), ("text", 1), ("full", 1), ("full", 1)]


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


def test_a_rename_discord_holds_back_is_judged_against_the_later_one() -> None:
    """Issue 29/0: the third rename waits for Discord's window (``held``); a later seat
    change writes another rename, also held. The older one is moot (skipped, never sent
    stale) and the lobby's edit behind them goes at once."""
    waiting = pending(thread(), thread(), post(PostKind.LOBBY, lobby=True))
    held = {2}  # the newer rename: Discord's limit holds it
    assert plan(waiting, {}, held).form == "skip"
    step = plan(waiting[1:], {}, held)
    assert step.form == "lobby" and [p.id for p in step.posts] == [3]


def test_a_rename_never_holds_the_posts_behind_it() -> None:
    """A rename goes after the messages waiting behind it (a thread's name is not worth a
    post's wait), and not at all while Discord's limit holds it; an archiving keeps its
    place after the final post."""
    waiting = pending(thread(), post(), post())
    assert [p.id for p in plan(waiting, {p.id: 10 for p in waiting}).posts] == [2]
    assert plan(waiting[:1], {}).form == "thread"
    assert plan(pending(thread(), post()), {}, {1}).form == "full"
    assert plan(pending(thread(archive=True), post()), {}).form == "thread"


def test_the_retry_wait_never_passes_its_cap() -> None:
    """Waits double from the first, spread ±20 % so channels do not retry together, and the
    one-minute cap is a cap (it was ±20 % around it: up to 72 s)."""
    waits = [backoff(tries, 1.0, 60.0) for tries in range(1, 30) for _ in range(50)]
    assert max(waits) <= 60.0 and min(waits) >= 0.8
    assert 0.8 <= backoff(1, 1.0, 60.0) <= 1.2
    assert len({round(backoff(20, 1.0, 60.0), 3) for _ in range(20)}) > 1  # still spread


def test_a_backlog_longer_than_one_read_keeps_two_messages_then_the_board() -> None:
    """180 moves waiting, read 100 at a time: the read ones are only counted (no message;
    the count carried to the next post, as the store does) while more wait unread; then at
    most two text messages, the first saying how many were counted, then the board."""
    from dataclasses import replace

    for total, size in ((180, 120), (150, 1900), (250, 10)):
        waiting = pending(*(post() for _ in range(total)))
        steps: list[tuple[str, int, int]] = []
        while waiting:
            read = waiting[:100]
            step = plan(read, {p.id: size for p in read}, (), len(waiting) - len(read))
            steps.append((step.form, len(step.posts), step.elided or step.carried))
            sent = {p.id for p in step.posts}
            waiting = [p for p in waiting if p.id not in sent]
            if step.form == "count" and waiting:  # onto the next message post
                waiting[0] = replace(waiting[0], counted=waiting[0].counted
                                     + step.elided + step.carried)
        texts = [s for s in steps if s[0] == "text"]
        assert len(texts) <= CATCH_UP_MESSAGES and steps[-1][:2] == ("full", 1), steps
        counted = sum(n for form, n, _ in steps if form == "count")
        assert counted and texts[0][2] >= counted, steps  # the first text counts them
        assert sum(n for _, n, _ in steps) == total
