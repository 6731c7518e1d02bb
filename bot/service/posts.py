"""What a committed change must show its channel: the outbox's posts.

Discord fails in ordinary ways (5xx, outages, a message stored and then answered with a 502,
deleted channels, lost permissions), so a change never depends on one request succeeding:
whatever it must show the channel is a ``Post``, committed in the same transaction as the
change (the store's ``outbox``), and the adapter delivers the channel's posts in order,
retrying until Discord takes them or says it never will (docs/OUTBOX.md).

A post holds public facts only (never a drawn card, a split or the seed before the end, R15)
and no words: its sentences are ``Line`` values, and the adapter words them when it delivers,
in the channel's language then.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar

from bot.store import OutboxEntry, SeatNames, Settings, playing_of
from engine import Action, Event, decode
from engine.views import PublicView

from .results import GameStatus, Lobby, Update

POST_FORMAT = 1  # the payload's schema: a stored post of another format is not guessed at


class PostKind(StrEnum):
    """What a post does in the channel."""

    LOBBY = "lobby"  # the lobby's post: made, or edited in place (a new one if it was deleted)
    MOVE = "move"  # a running game changed: what happened, the board, the Now line, buttons
    NOTE = "note"  # lines for the channel (a settings change, a vote, a reclaim, an end)
    REMINDER = "reminder"  # the awaited players, reminded each their way
    # Not a message: the game's thread renamed after its seats, or archived once the game
    # ended (``archive``); Discord allows two renames of a channel per ten minutes, so a
    # rename a later one makes moot is never made.
    THREAD = "thread"


# ---------------------------------------------------------------------------- lines
@dataclass(frozen=True)
class Line:
    """One sentence of a post as data; each kind of sentence is a subclass (its ``key`` names
    it in the stored payload)."""

    key: ClassVar[str] = ""


@dataclass(frozen=True)
class GameBegins(Line):
    key: ClassVar[str] = "game_begins"


@dataclass(frozen=True)
class TookBack(Line):
    """``pid`` took back their last move ``action``."""

    key: ClassVar[str] = "took_back"
    pid: str
    action: Action


@dataclass(frozen=True)
class TimedOutMove(Line):
    """``pid``'s turn timer ran out; the computer made ``action`` for them (a split is told
    as a split, never its content)."""

    key: ClassVar[str] = "timed_out"
    pid: str
    action: Action


@dataclass(frozen=True)
class HandedOver(Line):
    """The computer plays ``pid``'s seat from now on (their third timed-out decision)."""

    key: ClassVar[str] = "handed_over"
    pid: str


@dataclass(frozen=True)
class SeatReplaced(Line):
    """``pid``'s seat was handed to a computer player."""

    key: ClassVar[str] = "replaced"
    pid: str
    finished: bool = False


@dataclass(frozen=True)
class ReplaceVote(Line):
    """``voter`` voted to hand ``target``'s seat to a computer player."""

    key: ClassVar[str] = "replace_vote"
    voter: str
    target: str
    votes: int
    needed: int


@dataclass(frozen=True)
class SeatTaken(Line):
    """``player`` (a person) plays seat ``pid`` from now on, after ``before`` (the person
    who played it, or the computer player whose seat it was); ``seat``: its place in the
    seat order (1-4, the board's A-D)."""

    key: ClassVar[str] = "seat_taken"
    pid: str
    player: str
    before: str
    seat: int


@dataclass(frozen=True)
class SubstituteVote(Line):
    """``voter`` voted to let ``by`` (a person) play ``target``'s seat."""

    key: ClassVar[str] = "substitute_vote"
    voter: str
    target: str
    by: str
    votes: int
    needed: int


@dataclass(frozen=True)
class SeatReclaimed(Line):
    key: ClassVar[str] = "reclaimed"
    pid: str


@dataclass(frozen=True)
class AbandonedBy(Line):
    key: ClassVar[str] = "abandoned_by"
    pid: str


@dataclass(frozen=True)
class PracticeEnded(Line):
    """A practice game's learner ended it (End practice, or abandon): ``learn`` opens
    another, not ``game new`` (a rated lobby)."""

    key: ClassVar[str] = "practice_ended"
    pid: str


@dataclass(frozen=True)
class SettingsChanged(Line):
    """``pid`` changed the channel's settings to ``settings``."""

    key: ClassVar[str] = "settings_changed"
    pid: str
    settings: Settings


@dataclass(frozen=True)
class ThreadOpened(Line):
    """The pointer in a text channel to the thread a game opened in: ``game``'s number, its
    ``thread``, and who opened it (``why``: ``new`` a lobby, ``rematch`` a rematch's lobby,
    ``queue`` a game the queue found players for, ``by`` then the first of them)."""

    key: ClassVar[str] = "thread_opened"
    game: int
    thread: int
    by: str
    why: str = "new"


@dataclass(frozen=True)
class FoundInQueue(Line):
    """The queue found these players a game (``computers``: seats the computer fills)."""

    key: ClassVar[str] = "found"
    players: tuple[str, ...]
    computers: int = 0


@dataclass(frozen=True)
class WentAway(Line):
    """``pid`` is away until ``until`` (epoch seconds), told in the channel's time zone
    ``zone``; ``waits``: hours the game waits on each of their decisions before the turn
    timer runs again (0: the channel has no turn timer, or does not wait)."""

    key: ClassVar[str] = "away"
    pid: str
    until: float
    zone: str = "UTC"
    waits: float = 0.0


@dataclass(frozen=True)
class CameBack(Line):
    """``pid`` is back before their away time ended."""

    key: ClassVar[str] = "back"
    pid: str


LINES: dict[str, type[Line]] = {cls.key: cls for cls in (
    GameBegins, TookBack, TimedOutMove, HandedOver, SeatReplaced, ReplaceVote, SeatReclaimed,
    AbandonedBy, SettingsChanged, ThreadOpened, FoundInQueue, WentAway, CameBack, SeatTaken,
    SubstituteVote, PracticeEnded)}


def _line_dict(line: Line) -> dict[str, Any]:
    out: dict[str, Any] = {"key": line.key}
    for f in fields(line):
        value = getattr(line, f.name)
        if isinstance(value, Action):
            value = value.encode()
        elif isinstance(value, Settings):
            value = asdict(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def _line_of(data: Mapping[str, Any]) -> Line:
    cls = LINES[str(data["key"])]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        value = data[f.name]
        if f.name == "action":
            value = decode(str(value))
        elif f.name == "settings":
            value = Settings(**value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return cls(**kwargs)


# ---------------------------------------------------------------------------- posts
@dataclass(frozen=True)
class Post:
    """What one committed change shows its channel.

    ``version`` names the change: the game's version as prompts carry it (a lobby: its row
    revision); the buttons' custom ids carry it, so a post sent before Discord's nonce
    window can be recognised in the channel. (The nonce that makes a repeated delivery no
    second message comes from the post's outbox row: ``sm<id>``, docs/OUTBOX.md.)
    ``view``/``version``/``awaiting`` are the game as the change left it (the post's board,
    its Now line and its buttons); ``mention`` the players whose decision starts with it;
    ``lobby`` a lobby's seats (LOBBY, and the lobby a start or an end closes). ``invite``:
    players the post pings whatever the game awaits (a rematch's invited players, the seats
    the queue found); ``players`` (THREAD): the seats the thread is named after, in the order
    they were taken; ``archive`` (THREAD): the game ended, its thread is archived;
    ``hinted`` (a finished game's MOVE): someone asked for a hint in it. ``names``
    carry who plays each seat a substitute took over (``SeatNames``): a post names, pings
    and DMs that person. ``lessons`` (a practice game's MOVE): the ideas it explains to its
    learner (``bot.service.teaching.lessons.Topic`` values, worded by ``bot.text.lessons``),
    said after what happened and before the Now line, so the post still ends with who acts
    next and the buttons of that decision. ``practice``: a post of a practice game (its
    prompt carries Skip explanations and End practice, its final post no Rematch, its
    thread keeps its name)."""

    kind: PostKind
    guild_id: int
    channel_id: int
    game_id: int | None = None
    version: int = 0
    lines: tuple[Line, ...] = ()
    events: tuple[Event, ...] = ()
    view: PublicView | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    awaiting: Mapping[str, str] = field(default_factory=dict)
    mention: tuple[str, ...] = ()
    finished: bool = False
    lobby: Lobby | None = None
    since: float | None = None  # a reminder: awaited since (epoch seconds)
    invite: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    archive: bool = False
    hinted: bool = False
    lessons: tuple[str, ...] = ()
    practice: bool = False

    def to_json(self) -> str:
        lobby = None
        if self.lobby is not None:
            lobby = {**asdict(self.lobby), "status": str(self.lobby.status),
                     "players": list(self.lobby.players), "names": dict(self.lobby.names),
                     "invited": list(self.lobby.invited)}
        return json.dumps({
            "format": POST_FORMAT, "kind": str(self.kind), "guild": self.guild_id,
            "channel": self.channel_id, "game": self.game_id, "version": self.version,
            "lines": [_line_dict(line) for line in self.lines],
            "events": [e.to_dict() for e in self.events if e.visible_to is None],
            "view": self.view, "names": dict(self.names), "playing": playing_of(self.names),
            "awaiting": dict(self.awaiting),
            "mention": list(self.mention), "finished": self.finished, "lobby": lobby,
            "since": self.since, "invite": list(self.invite), "players": list(self.players),
            "archive": self.archive, "hinted": self.hinted,
            "lessons": list(self.lessons), "practice": self.practice},
            separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Post:
        """The post a payload holds. Raises ValueError for one this bot cannot read."""
        try:
            data = json.loads(text)
            if data.get("format") != POST_FORMAT:
                raise ValueError(f"post format {data.get('format')!r}")
            lobby = data["lobby"]
            return cls(
                PostKind(data["kind"]), int(data["guild"]), int(data["channel"]),
                None if data["game"] is None else int(data["game"]), int(data["version"]),
                tuple(_line_of(x) for x in data["lines"]),
                tuple(Event(str(e["type"]), {k: v for k, v in e.items() if k != "type"})
                      for e in data["events"]),
                data["view"], SeatNames(data["names"], data.get("playing")),
                dict(data["awaiting"]),
                tuple(data["mention"]), bool(data["finished"]),
                None if lobby is None else Lobby(
                    int(lobby["game_id"]), int(lobby["guild_id"]), int(lobby["channel_id"]),
                    GameStatus(lobby["status"]), str(lobby["creator"]), int(lobby["seats"]),
                    tuple(lobby["players"]), dict(lobby["names"]), int(lobby["version"]),
                    tuple(lobby.get("invited", ())), str(lobby.get("why", ""))),
                data["since"], tuple(data.get("invite", ())), tuple(data.get("players", ())),
                bool(data.get("archive", False)), bool(data.get("hinted", False)),
                tuple(map(str, data.get("lessons", ()))),
                bool(data.get("practice", False)))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a post: {type(exc).__name__} {exc}") from None


@dataclass(frozen=True)
class Pending:
    """A post waiting in the outbox: ``id`` orders a channel's posts; ``attempts`` counts the
    sends that failed (one may have reached Discord: its nonce is reused); ``batch`` is the
    id of the last post of the catch-up message it was tried in, if any (a retry sends the
    same posts under the same nonce); ``owed``: players a catch-up told before it owes a
    ping (they are pinged by the next whole post); ``tried_at``: when a send of it first
    started (None: never, so no copy can be on Discord); ``counted``: missed posts a long
    backlog's catch-up only counted, which this post's message counts."""

    id: int
    post: Post
    attempts: int = 0
    batch: int | None = None
    created_at: float = 0.0
    owed: tuple[str, ...] = ()
    tried_at: float | None = None
    counted: int = 0


def move_post(guild_id: int, update: Update, lines: Sequence[Line] = (),
              lobby: Lobby | None = None, invite: Sequence[str] = (),
              lessons: Sequence[str] = ()) -> Post:
    """The post of a change of a running game: ``lines``, what happened, the board, and who
    acts next (``lobby``: the lobby post a start closes; ``invite``: whom it pings besides
    the awaited; ``lessons``: a practice game's explanations, ``Post.lessons``)."""
    return Post(PostKind.MOVE, guild_id, update.channel_id, update.game_id, update.version,
                tuple(lines), update.events, update.view, update.names,
                dict(update.awaiting), update.mention, update.finished, lobby,
                invite=tuple(invite), lessons=tuple(lessons))


def outbox_entry(post: Post, now: float) -> OutboxEntry:
    """The store's row for a post committed at ``now``."""
    return OutboxEntry(post.channel_id, post.guild_id, post.game_id, str(post.kind),
                       post.to_json(), now)
