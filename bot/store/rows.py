"""What the store hands out and takes in: small frozen rows, the same on both backends.

The store knows nothing about the rules: a game's state is opaque JSON text here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

DEFAULT_REMINDER_HOURS = 12.0
DEFAULT_AWAY_CAP_HOURS = 72.0  # how long one game waits on an away player's decision


@dataclass(frozen=True)
class Seat:
    """A seated player: pid (Discord id as text, or a computer's id), display name.

    ``computer`` is True for a computer player, and for a human whose seat a computer has
    taken over (the pid stays, so the log still replays); ``votes`` are the people who voted
    to hand this seat over, to a computer or (``vote_for``) to that person: one proposal at
    a time. ``timeouts``: the human's decisions in a row that the turn timer made for them;
    ``level``: the level the computer plays a taken-over seat at (None: normal).
    ``user``: the Discord id of the person who plays the seat now when that is not its pid
    (a substitute took it over; the pid, the engine's player id, never changes, so the log
    still replays); ``name`` is then the substitute's.
    """

    pid: str
    name: str | None = None
    computer: bool = False
    votes: tuple[str, ...] = ()
    timeouts: int = 0
    level: str | None = None
    user: str | None = None
    vote_for: str | None = None

    @property
    def player(self) -> str:
        """Who the seat is: the person who plays it now (or its computer player's pid);
        while a computer plays for an absent person, that person (they may reclaim it)."""
        return self.user or self.pid

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"pid": self.pid, "name": self.name, "computer": self.computer}
        if self.votes:
            d["votes"] = list(self.votes)
        if self.vote_for is not None:
            d["vote_for"] = self.vote_for
        if self.timeouts:
            d["timeouts"] = self.timeouts
        if self.level is not None:
            d["level"] = self.level
        if self.user is not None:
            d["user"] = self.user
        return d


class SeatNames(dict[str, str]):
    """The seats' display names (pid → name), and who plays a seat now where that is not
    its pid (``playing``: pid → the substitute's Discord id). Whatever names a seat in a
    post or an answer (a mention, a ping, a DM) names the person who plays it now, so the
    names travel with who that is; a plain mapping means every seat is its pid's."""

    def __init__(self, names: Mapping[str, str] | Iterable[tuple[str, str]] = (),
                 playing: Mapping[str, str] | None = None) -> None:
        super().__init__(names)
        self.playing: dict[str, str] = dict(playing or {})


def player_of(names: Mapping[str, str] | None, pid: str) -> str:
    """The person (Discord id) who plays seat ``pid`` now: its substitute, else the pid."""
    return names.playing.get(pid, pid) if isinstance(names, SeatNames) else pid


def names_at(names: SeatNames, substitutes: Iterable[SubstituteRow], seq: int) -> SeatNames:
    """The seats' names as they were when logged action ``seq`` was made (0: the set-up),
    from the names now and the game's hand-overs: a move up to a hand-over's ``seq`` was
    made by whoever played the seat before it (its first player, or the substitute before),
    a later one by the substitute. So the log, the game file and the replay name each move
    by the person who made it, where the posts name a seat by who plays it now."""
    seats: dict[str, list[SubstituteRow]] = {}
    for r in sorted(substitutes, key=lambda r: r.version):
        seats.setdefault(r.pid, []).append(r)
    shown, playing = dict(names), dict(names.playing)
    for pid, rows in seats.items():
        before = [r for r in rows if r.seq < seq]  # the hand-overs made before that move
        if len(before) == len(rows):
            continue  # the seat's player now
        player, name = ((before[-1].player, before[-1].name) if before
                        else (pid, rows[0].before_name))
        if player == pid:
            playing.pop(pid, None)
        else:
            playing[pid] = player
        if name:
            shown[pid] = name
        else:
            shown.pop(pid, None)
    return SeatNames(shown, playing)


def playing_of(names: Mapping[str, str] | None) -> dict[str, str]:
    """The substitutes ``names`` carries (pid → Discord id; none for a plain mapping)."""
    return dict(names.playing) if isinstance(names, SeatNames) else {}


@dataclass(frozen=True)
class GameRow:
    """One channel game as stored. ``version`` is the row revision (+1 per write)."""

    id: int
    guild_id: int
    channel_id: int
    status: str
    creator: str
    seats: int
    players: tuple[Seat, ...]
    seed: int | None
    state: str | None
    version: int
    created_at: float
    last_action_at: float
    awaited_since: float | None
    last_reminded_at: float | None
    ended_at: float | None
    undos: int = 0  # moves taken back in this game (their prompts stay outdated)
    # The text channel whose thread the bot opened for this game (None: the game lives in
    # its channel, or in a thread a member made); the players a rematch's lobby asks back;
    # the game a rematch plays again.
    parent_id: int | None = None
    invited: tuple[str, ...] = ()
    rematch_of: int | None = None
    # A guided practice game (unrated, in no list of the server's games) and the lessons
    # it has shown its learner (``bot.service.teaching.lessons.Taught``'s text).
    practice: bool = False
    lessons: str = ""

    def seat(self, pid: str) -> Seat | None:
        """The seat whose engine player id is ``pid``."""
        return next((s for s in self.players if s.pid == pid), None)

    def played_by(self, user: str) -> Seat | None:
        """The seat ``user`` (a Discord id) plays now, or may reclaim from the computer."""
        return next((s for s in self.players if s.player == user), None)

    def passed_on(self, user: str) -> bool:
        """Whether ``user``'s own seat is played by someone else now (a substitute)."""
        return self.played_by(user) is None and self.seat(user) is not None


class RowChanges(TypedDict, total=False):
    """The columns of a game row that ``Store.commit`` may write, with their types."""

    status: str
    players: tuple[Seat, ...]
    seed: int
    state: str
    last_action_at: float
    awaited_since: float | None
    last_reminded_at: float | None
    ended_at: float | None
    seats: int
    creator: str
    lessons: str
    awaiting: str  # the seats awaited now (``awaiting_column``), written with the state


def awaiting_column(pids: Iterable[str]) -> str:
    """The seats a game awaits as ``games.awaiting`` holds them: ``,pid,pid,`` (``,``:
    none), so a query finds a seat's ``,pid,`` in it."""
    return "," + "".join(f"{p}," for p in pids)


@dataclass(frozen=True)
class LogRow:
    """One applied action: ``seq`` counts from 1 within the game; ``computer``: the computer
    decided it (a computer player's seat, or standing in for a person: a timed-out
    decision, a seat it plays until its person reclaims it), so it is not the person's."""

    seq: int
    pid: str
    action: str
    at: float
    computer: bool = False


@dataclass(frozen=True)
class Settings:
    """Per-channel settings; quiet hours are whole hours [start, end) in ``timezone``.
    ``reminder_hours`` 0 turns reminders off; ``turn_timer_hours`` 0 (the default) turns
    the turn timer off; ``computer_level`` plays for absent players; ``language`` (``en``,
    ``de``, ``fr``) None: the channel follows its server's; ``away_cap_hours``: how long
    one game waits on the decision of a player who is away (0: it does not wait);
    ``pages``: whether its games have web pages (on by default); ``hints``: whether its
    players may ask for hints (on by default; a hinted game is not rated)."""

    channel_id: int
    reminder_hours: float = DEFAULT_REMINDER_HOURS
    quiet_start: int | None = None
    quiet_end: int | None = None
    language: str | None = None
    timezone: str = "UTC"
    turn_timer_hours: float = 0.0
    computer_level: str = "normal"
    threads: bool | None = None
    away_cap_hours: float = DEFAULT_AWAY_CAP_HOURS
    pages: bool = True  # its games have web pages (when the bot serves them)
    hints: bool = True  # its players may ask the hard computer for a hint


@dataclass(frozen=True)
class AwayRow:
    """A player away from a server's games: declared at ``since``, away until ``until``
    (epoch seconds; the moment they came back, if they ended it early)."""

    guild_id: int
    pid: str
    since: float
    until: float


@dataclass(frozen=True)
class DueGame:
    """A running game whose reminder (or turn timer) is due (``at``: since when), with its
    channel's settings."""

    game: GameRow
    settings: Settings
    at: float

    @property
    def after(self) -> tuple[float, int]:
        """Where the next page of due games starts."""
        return self.at, self.game.id


@dataclass(frozen=True)
class Shards:
    """The Discord gateway shards one bot process holds: a guild lives on shard
    ``(guild_id >> 22) % count`` (Discord's rule), so a periodic pass given its process's
    ``Shards`` touches the games of that process's guilds only, and two processes never
    handle one game's reminder."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} of {self.count}")

    def holds(self, guild_id: int) -> bool:
        """Whether the guild is on one of these shards."""
        return (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True)
class HistoryRow:
    """A finished game, for a guild's stats."""

    game_id: int
    guild_id: int
    channel_id: int
    finished_at: float
    players: tuple[str, ...]
    winners: tuple[str, ...]
    scores: Mapping[str, int]
    # pid -> the people who took that seat over, in order (the ``substitutes`` table):
    # such a seat was not played by one person from start to end.
    substitutes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    hinted: bool = False  # someone asked for a hint in it: not rated, and it says so

    def people(self, pid: str) -> tuple[str, ...]:
        """Everyone who played seat ``pid``, in turn: its first player, then each
        substitute."""
        return (pid, *self.substitutes.get(pid, ()))


@dataclass(frozen=True)
class SubstituteRow:
    """A seat handed to a person during a game: seat ``pid`` of game ``game_id`` is played
    by ``player`` (display ``name``) from the game row's ``version`` on, handed over by
    ``by`` at ``at``; ``seq``: the game's last logged action before; ``before_name``:
    the display name of whoever played it until then (None: unknown, on older rows)."""

    game_id: int
    version: int
    pid: str
    player: str
    name: str | None
    by: str
    seq: int
    at: float
    before_name: str | None = None


@dataclass(frozen=True)
class RatingRow:
    """One rated identity in a guild (a person's pid, or ``ai.<level>`` for a computer
    level): an openskill (mu, sigma) and how many games it includes."""

    player: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class PastGame:
    """A finished game as a server remembers it: the history row, the seats' display
    names, and its final post (message id and link) once posted."""

    history: HistoryRow
    names: Mapping[str, str]
    message_id: int | None
    url: str | None


@dataclass(frozen=True)
class NotifyPref:
    """How a player hears it is their turn in one guild: ``mode`` is mention, dm, both or
    none; ``dm_refused_at``: when Discord refused a DM to them (they are mentioned instead
    until they choose again); ``hint_pending``: they have not been told so yet."""

    pid: str
    mode: str
    dm_refused_at: float | None = None
    hint_pending: bool = False


# ---------------------------------------------------------------------------- the queue
@dataclass(frozen=True)
class SeekerRow:
    """A player waiting in a server's queue (``guild_id``) for others: ``players`` 3 or 4,
    whether ``computers`` may fill the seats nobody takes after a wait, the ``language`` the
    game must speak (None: any), the channel they asked in; ``claimed``: the number of the
    game being opened with them (None: still waiting)."""

    guild_id: int
    pid: str
    name: str | None
    players: int
    computers: bool
    language: str | None
    channel_id: int
    created_at: float
    claimed: int | None = None


# ---------------------------------------------------------------------------- the outbox
@dataclass(frozen=True)
class OutboxEntry:
    """A post to make in a channel (the service's ``Post`` as JSON in ``payload``),
    committed at ``created_at``."""

    channel_id: int
    guild_id: int
    game_id: int | None
    kind: str
    payload: str
    created_at: float


@dataclass(frozen=True)
class OutboxRow:
    """A post waiting in the outbox (see ``bot.service.posts.Pending``); ``owed``: the
    players a catch-up told before it owes a ping (its whole post pings them)."""

    id: int
    entry: OutboxEntry
    attempts: int
    batch: int | None
    owed: tuple[str, ...] = ()
    tried_at: float | None = None  # a send of it first started then (None: never)
    counted: int = 0  # missed posts a catch-up only counted, told by this post's message


@dataclass(frozen=True)
class PlaceRow:
    """A channel Discord refuses posts in: gone since ``gone_at`` (10003), or the bot lacks
    ``permission`` there and waits until ``blocked_until`` (the wait doubles each time,
    ``backoff`` seconds now)."""

    channel_id: int
    guild_id: int
    gone_at: float | None = None
    blocked_until: float | None = None
    backoff: float = 0.0
    permission: str | None = None


@dataclass(frozen=True)
class PostedLink:
    """A game's post Discord took: remembered as its latest (its link goes into DMs)."""

    game_id: int
    message_id: int
    url: str


@dataclass(frozen=True)
class DraftRow:
    """A distributor's half-made split as stored (``bot.store.drafts``): the cards' indices
    in the draw per offer, the round (``RoundKey`` text) and game version it was written at."""

    game_id: int
    pid: str
    round: str
    offers: tuple[tuple[int, ...], ...]
    version: int
