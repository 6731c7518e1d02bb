"""Which of a channel's waiting posts go out next, and how (pure: no Discord, no store).

A lone post goes whole (text, board, buttons, pings). When several wait (an outage, a
restart), the oldest are told as text in at most ``CATCH_UP_MESSAGES`` messages (when more
wait than that many hold, the oldest of them only counted, in the first), then the newest
goes whole. A game's final post, and in a catch-up the last move of each game, always go
whole: the board, the summary, Rematch and Replay are never told as text only, and a note
after a move never leaves the channel without a board. A post that may have reached
Discord (a failed send) is never folded with others: it goes again alone under its own
nonce; the posts of a catch-up message are marked (``batch``) before it is sent, so a
retry sends the same posts under the same nonce. A lobby change a later one shows again, a
reminder a later post of its game makes moot, or a thread's rename a later change of the
thread makes moot, is skipped. A thread's rename or archiving (THREAD) is no message: it
neither joins nor splits a catch-up, and never stands between a move and its board; a
rename waits while messages wait behind it, or while Discord's limit holds it (``held``):
a thread's name never holds a game's posts.

A backlog longer than the posts read at a time (``beyond``: how many wait unread) keeps the
same promise: the read posts that would be told are only counted (``count``: no message; the
count and their pings go onto the channel's next message post, stored), until the rest is
read; the first catch-up message then says how many were counted (``Pending.counted``), so
however long the backlog, at most ``CATCH_UP_MESSAGES`` text messages, then the board.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.service.posts import Pending, Post, PostKind
from bot.text.markup import MAX_CONTENT

CATCH_UP_MESSAGES = 2  # missed moves told as text in at most this many messages


@dataclass(frozen=True)
class DeliveryStep:
    """One send: ``posts`` delivered by one message (or none: ``form`` skip, thread)."""

    posts: tuple[Pending, ...]
    form: str  # full | text | lobby | remind | thread | skip | count
    nonce: str
    batch: int | None = None
    elided: int = 0  # older posts only counted, not told (a long outage's catch-up)

    @property
    def carried(self) -> int:
        """Posts counted by earlier steps, which this step's message counts (or passes on)."""
        return sum(p.counted for p in self.posts)


def nonce(first: int, last: int | None = None) -> str:
    """The nonce of a message delivering outbox posts ``first``..``last`` (at most 25
    characters): the same for every try of the same posts."""
    return f"sm{first}" if last is None or last == first else f"sm{first}-{last}"


def plan(pending: Sequence[Pending], sizes: Mapping[int, int],
         held: Collection[int] = (), beyond: int = 0) -> DeliveryStep:
    """The next send (see the module docstring): a superseded post is skipped (judged
    against every waiting post, held ones too); a rename waits behind messages, and
    ``held`` renames (Discord's limit: ``delivery.thread_steps.sendable``) are not sent; a retried
    catch-up message is sent again as it was; a lone post, one that may have reached
    Discord, a final post or a game's last board goes alone; otherwise the oldest posts go
    as text together (``sizes``: each post's words), in at most ``CATCH_UP_MESSAGES``
    messages, the oldest only counted when they would not fit. The caller makes sure not
    every waiting post is held."""
    first = pending[0]
    if superseded(first, pending[1:]):
        return DeliveryStep((first,), "skip", "")
    if first.post.kind is PostKind.THREAD:
        if first.id in held or (not first.post.archive and any(map(is_message, pending))):
            return plan(pending[1:], sizes, held, beyond)  # the posts go on; the rename later
        return DeliveryStep((first,), "thread", nonce(first.id))
    messages = [p for p in pending if is_message(p)]
    later = messages[1:]
    if first.batch is not None:
        again = tuple(p for p in messages if p.id <= first.batch)
        carried = sum(p.counted for p in again)
        elided = len(again) + carried if carried or _length(again, sizes) > MAX_CONTENT else 0
        return DeliveryStep(again, "text", nonce(first.id, first.batch), first.batch,
                            elided=elided)
    if first.post.kind is PostKind.LOBBY:
        return DeliveryStep((first,), "lobby", nonce(first.id))
    if first.post.kind is PostKind.REMINDER:
        return DeliveryStep((first,), "remind", nonce(first.id))
    if beyond and not first.attempts and _tellable(first.post) and not _whole(first, later):
        read: list[Pending] = []
        for i, p in enumerate(messages[:-1]):  # the last read may have unread moves after it
            if p.attempts or p.batch is not None or not _tellable(p.post) \
                    or _whole(p, messages[i + 1:]):
                break
            read.append(p)
        if read:
            return DeliveryStep(tuple(read), "count", "", elided=len(read))
    if not later or _whole(first, later):
        return DeliveryStep((first,), "full", nonce(first.id))
    if first.attempts or not _tellable(first.post):
        return DeliveryStep((first,), "text", nonce(first.id))
    run: list[Pending] = []
    for i, p in enumerate(messages[:-1]):
        if p.attempts or p.batch is not None or not _tellable(p.post) \
                or _whole(p, messages[i + 1:]):
            break
        run.append(p)
    groups = _pack(run, sizes)
    carried = sum(p.counted for p in run)
    if len(groups) + bool(carried) > CATCH_UP_MESSAGES:  # the oldest are counted (the log)
        cut = 1
        while cut < len(run) and len(_pack(run[cut:], sizes)) > CATCH_UP_MESSAGES - 1:
            cut += 1
        counted = run[:cut]
        last = counted[-1].id
        return DeliveryStep(tuple(counted), "text", nonce(first.id, last), last,
                    elided=len(counted) + sum(p.counted for p in counted))
    group = groups[0]
    if len(group) == 1:
        return DeliveryStep((first,), "text", nonce(first.id))
    last = group[-1].id
    return DeliveryStep(tuple(group), "text", nonce(first.id, last), last)


def _length(posts: Sequence[Pending], sizes: Mapping[int, int]) -> int:
    """How long the posts read told in one message (a line end between two)."""
    return sum(sizes.get(p.id, 0) for p in posts) + len(posts) - 1


def _pack(run: Sequence[Pending], sizes: Mapping[int, int]) -> list[list[Pending]]:
    """The posts in as few messages as hold them, in order (filling each in turn is the
    fewest for posts that keep their order; a post longer than a message is one)."""
    groups: list[list[Pending]] = []
    for p in run:
        if groups and _length([*groups[-1], p], sizes) <= MAX_CONTENT:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def _whole(pending: Pending, later: Sequence[Pending]) -> bool:
    """A post that goes whole even when others wait behind it: a game's final post (its
    board, summary, seed, Rematch and Replay), and a game's last move (its board)."""
    post = pending.post
    if post.finished:
        return True
    return post.kind is PostKind.MOVE and not any(
        p.post.game_id == post.game_id and p.post.kind is PostKind.MOVE for p in later)


def is_message(pending: Pending) -> bool:
    """A post that is a channel message (a thread's rename or archiving is not)."""
    return pending.post.kind is not PostKind.THREAD


def superseded(first: Pending, later: Sequence[Pending]) -> bool:
    """A lobby post a later post of its game shows again, a reminder a later post of its
    game makes moot (the later one pings), or a thread's rename a later change of the same
    thread makes moot (it names the thread too)."""
    game = first.post.game_id
    kind = first.post.kind
    if kind is PostKind.LOBBY:
        return any(p.post.game_id == game and (p.post.kind is PostKind.LOBBY
                                               or p.post.lobby is not None) for p in later)
    if kind is PostKind.REMINDER:
        return any(p.post.game_id == game and is_message(p) for p in later)
    if kind is PostKind.THREAD and not first.post.archive:
        return any(p.post.game_id == game and p.post.kind is PostKind.THREAD for p in later)
    return False


def _tellable(post: Post) -> bool:
    """A post that can be told as text in a catch-up (a lobby is edited, not told; a
    thread's change is no message)."""
    return post.kind not in (PostKind.LOBBY, PostKind.THREAD)
