"""What service calls return: small frozen values, each a named type, holding what the adapter
needs to tell people. Public parts (``events``, ``view``) hold no secret; ``private_events``
and ``Snapshot.private`` go only to their player, ephemerally."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

# the server-wide calls' results live in a room of their own; re-exported here
from bot.service.results.servers import Found as Found
from bot.service.results.servers import OpenLobby as OpenLobby
from bot.service.results.servers import Rematch as Rematch
from bot.service.results.servers import Seeker as Seeker
from bot.service.results.servers import Sought as Sought
from engine import Action, Event
from engine.views import BridgeView, PrivatePart, PublicView


class GameStatus(StrEnum):
    """Where a channel's game stands (the store's ``status`` column)."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Lobby:
    """A lobby (or the game it became). ``version`` is the row revision: it changes with
    every join/leave, so lobby buttons can carry it. ``invited``: the players a rematch's
    lobby asks back; ``why`` a closed lobby was closed (``left``: everybody left,
    ``abandoned``, ``expired``: nobody started it in time)."""

    game_id: int
    guild_id: int
    channel_id: int
    status: GameStatus
    creator: str
    seats: int
    players: tuple[str, ...]
    names: Mapping[str, str]
    version: int
    invited: tuple[str, ...] = ()
    why: str = ""


@dataclass(frozen=True)
class Update:
    """The outcome of ``start``, ``act`` or a seat handed to a computer.

    ``version`` is the game's version as prompts carry it (``expected_version``): the same
    as ``view["version"]`` until a move is taken back, then 2 more per move taken back, so a
    prompt of a taken-back branch never matches again. ``events`` are the public
    events of every action applied by this call (computer moves included), in order;
    ``private_events[pid]`` are the events only pid may see (e.g. ``cards_drawn``).
    ``mention`` are the human players whose decision starts now: each awaited player once,
    when their decision starts; never computer players.
    """

    game_id: int
    channel_id: int
    version: int
    view: PublicView
    names: Mapping[str, str]
    events: tuple[Event, ...]
    private_events: Mapping[str, tuple[Event, ...]]
    mention: tuple[str, ...]
    awaiting: Mapping[str, str]
    board_changed: bool
    finished: bool
    winners: tuple[str, ...]
    applied: int = 1
    # What the acting player may do next (their next screen needs no second read).
    actor: str = ""
    actor_legal: tuple[Action, ...] = ()
    actor_private: PrivatePart | None = None
    # The actor may take this move back (engine.undo_block, nobody moved after it).
    undoable: bool = False


@dataclass(frozen=True)
class Snapshot:
    """One read of a channel's game as one user may see it: everything a click needs.

    ``awaiting`` is empty unless the game is running (an abandoned or finished game awaits
    nobody, whatever its stored state says); ``legal`` is the user's legal actions (empty
    unless the game awaits them); ``private`` is what the user alone may see (their drawn
    cards while they split). ``view`` is None for a lobby.
    """

    game_id: int
    channel_id: int
    status: GameStatus
    version: int
    view: PublicView | None
    names: Mapping[str, str]
    awaiting: Mapping[str, str]
    since: float | None
    user: str
    seated: bool
    private: PrivatePart | None
    legal: tuple[Action, ...]
    computers: frozenset[str]

    @property
    def is_awaited(self) -> bool:
        return self.user in self.awaiting


@dataclass(frozen=True)
class Ended:
    """A game ended by ``abandon``."""

    game_id: int
    channel_id: int
    status: GameStatus
    by: str


@dataclass(frozen=True)
class Status:
    """Who is awaited, for what (``awaiting``: pid → kind, as in the public view), since
    when (``since``, epoch seconds). In a lobby ``awaiting`` is empty and ``since`` is the
    lobby's creation; for an ended game both are empty/None."""

    game_id: int
    channel_id: int
    status: GameStatus
    phase: str | None
    version: int
    players: tuple[str, ...]
    names: Mapping[str, str]
    seats: int
    creator: str
    awaiting: Mapping[str, str]
    since: float | None
    created_at: float
    last_action_at: float
    finished: bool
    winners: tuple[str, ...]
    prestige: Mapping[str, int] = field(default_factory=dict)
    computers: tuple[str, ...] = ()  # seats a computer plays (its own, or taken over)
    # The seated players who are away now, until when (epoch seconds), and the channel's
    # time zone that time is said in (read only when someone is away).
    away: Mapping[str, float] = field(default_factory=dict)
    timezone: str = "UTC"


@dataclass(frozen=True)
class LogEntry:
    """One action of the log. ``action`` is the action's public text (a split shows only
    ``split``: how a distributor split is a secret until the offers are revealed)."""

    seq: int
    pid: str
    action: str
    at: float
    events: tuple[Event, ...]
    # The seats' names when it was made (``bot.store.names_at``): a seat that changed hands
    # since names the person who made the move, not who plays it now. None: as now.
    names: Mapping[str, str] | None = None
    computer: bool = False  # the computer decided it (for a person's seat: standing in)


@dataclass(frozen=True)
class GameLog:
    """A game's log, replayed from its seed, with the public events of every action; the
    first entry (``seq`` 0, pid "") holds the events of the set-up."""

    game_id: int
    status: GameStatus
    entries: tuple[LogEntry, ...]

    @property
    def events(self) -> list[Event]:
        """Every public event in order (what ``/sanmarco game log`` prints)."""
        return [e for entry in self.entries for e in entry.events]


@dataclass(frozen=True)
class Digest:
    """What happened in a game since ``pid``'s previous decision (their last logged action,
    ``since`` its number; 0: they have made none, so since the game began), computed from
    the log: the others' moves in order with their public events, the board then
    (``before``) and now (``view``), and where it changed: the districts whose aristocrats
    changed (board order), the bridges built or taken over since, the Doge's stops."""

    game_id: int
    channel_id: int
    pid: str
    since: int
    moves: tuple[LogEntry, ...]
    before: PublicView
    view: PublicView
    names: Mapping[str, str]
    districts: tuple[str, ...] = ()
    bridges: tuple[BridgeView, ...] = ()
    doge: tuple[str, ...] = ()
    running: bool = True  # False: the game is over or abandoned


@dataclass(frozen=True)
class Audit:
    """Replay of a stored game from seed + log compared with its stored state. ``problem``
    names the first mismatch in words that hold no secret."""

    game_id: int
    ok: bool
    actions: int
    version: int
    problem: str | None = None


@dataclass(frozen=True)
class Reminder:
    """A running game whose awaited players should be reminded now: ``pids`` (the awaited
    humans who are not away); ``awaiting`` every awaited human's decision (its Now line).
    Pass ``version`` back to ``mark_reminded`` (the row revision: a reminder for a game
    that moved on is void)."""

    game_id: int
    guild_id: int
    channel: int
    pids: tuple[str, ...]
    awaiting: Mapping[str, str]
    since: float
    version: int
    due: float = 0.0  # when it fell due: with game_id and version, it names this reminder
    language: str | None = None  # the channel's setting (None: it follows its server's)
    # The game as the reminder finds it: the board's view, the version its prompts carry
    # and the seats' names (the reminder's post carries the awaited decision's buttons).
    view: PublicView | None = None
    turn: int = 0
    names: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AwayGame:
    """A running game told that its player is away or back: its number and channel."""

    game_id: int
    channel_id: int


@dataclass(frozen=True)
class Away:
    """A player marked away until ``until`` (epoch seconds), or back (``until`` None), on a
    server; ``games``: their running games there, each told in its channel."""

    guild_id: int
    pid: str
    until: float | None
    games: tuple[AwayGame, ...] = ()


@dataclass(frozen=True)
class Standing:
    """A guild's record for one player: games finished and games won (shared wins count)."""

    pid: str
    played: int
    won: int


@dataclass(frozen=True)
class Replacement:
    """The outcome of a vote to hand a seat (``target``: its pid) to a computer player, or
    to the person ``by``. ``update`` (moves the computer made at once) is set only when the
    seat was handed to a computer."""

    target: str
    replaced: bool
    votes: int
    needed: int
    names: Mapping[str, str]
    update: Update | None = None
    awaiting: Mapping[str, str] = field(default_factory=dict)  # what the game waits for now
    by: str | None = None


@dataclass(frozen=True)
class Reclaimed:
    """A player plays their own seat again; ``awaiting`` is what the game waits for now."""

    pid: str
    names: Mapping[str, str]
    awaiting: Mapping[str, str]


# ---------------------------------------------------------------------------- a server's memory
# Stats, and a finished game as the replay, the summary and the game file need it.
@dataclass(frozen=True)
class SizeRecord:
    """A player's record in one size of game (``players`` 3 or 4; 0 for every game)."""

    players: int
    games: int = 0
    wins: int = 0  # shared wins count (R14)
    prestige: int = 0  # the sum over these games
    best: int | None = None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def average(self) -> float | None:
        return self.prestige / self.games if self.games else None


@dataclass(frozen=True)
class PlayerStats:
    """A player's finished games in one server: 3-player, 4-player and all games."""

    pid: str
    three: SizeRecord
    four: SizeRecord
    overall: SizeRecord


@dataclass(frozen=True)
class FinishedGame:
    """A finished game re-played from its seed and log (the seed is no secret any more, R15).

    ``players`` is the order the game was started with (``engine.start_game``'s argument);
    ``steps`` holds, from the set-up on, the public view after each step and that step's
    public events: what the channel was shown."""

    game_id: int
    guild_id: int
    channel_id: int
    seed: int
    players: tuple[str, ...]
    names: Mapping[str, str]
    actions: tuple[tuple[str, str], ...]  # (pid, action text), in order
    steps: tuple[tuple[PublicView, tuple[Event, ...]], ...]
    final_post: str | None = None  # the link to the final post, once posted
    # The seats' names at each step (``bot.store.names_at``; step k: when action k was made)
    # when a seat changed hands during the game (none did: empty, ``names`` throughout).
    step_names: tuple[Mapping[str, str], ...] = ()

    def names_at(self, step: int) -> Mapping[str, str]:
        """The seats' names when step ``step`` was made (who made each move then)."""
        return self.step_names[step] if self.step_names else self.names

    @property
    def view(self) -> PublicView:
        return self.steps[-1][0]

    @property
    def events(self) -> list[Event]:
        return [e for _, evs in self.steps for e in evs]


# ---------------------------------------------------------------------------- keeping games moving
# Turn timers, taking a move back, notifications, a player's games.
@dataclass(frozen=True)
class TimerDue:
    """A running game whose turn timer ran out for ``pids`` (awaited since ``since``); pass
    ``version`` (the row revision) back to ``time_out``."""

    game_id: int
    guild_id: int
    channel: int
    pids: tuple[str, ...]
    since: float
    version: int


@dataclass(frozen=True)
class TimedOut:
    """The computer made the timed-out decisions: ``defaults`` (pid, the action made for
    them), ``handed_over`` the players whose seat the computer now plays (their third
    timed-out decision in a row); ``update`` what happened, computer moves included."""

    update: Update
    defaults: tuple[tuple[str, Action], ...]
    handed_over: tuple[str, ...]


@dataclass(frozen=True)
class Undone:
    """A move taken back: ``action`` was ``pid``'s; ``update`` is the game as before it (no
    events: nothing happened)."""

    pid: str
    action: Action
    update: Update


@dataclass(frozen=True)
class Notice:
    """How to tell ``pid`` their decision starts: ``mention`` in the channel and/or ``dm``
    (a direct message with a link); a player whose DMs Discord refused is mentioned."""

    pid: str
    mode: str  # what the player chose: mention | dm | both | none
    mention: bool
    dm: bool


@dataclass(frozen=True)
class MyGame:
    """One of a player's games in a server, as ``/sanmarco-server games`` lists it: ``awaiting``
    (pid → kind) and ``since`` for a running game; a lobby has ``players`` of ``seats``;
    ``url`` the link to its latest post."""

    game_id: int
    channel_id: int
    status: GameStatus
    seats: int
    players: tuple[str, ...]
    names: Mapping[str, str]
    awaiting: Mapping[str, str]
    since: float | None
    url: str | None
    created_at: float
    suspended: bool = False  # its channel is gone: it waits until a manager ends it


@dataclass(frozen=True)
class BlockedChannel:
    """A channel Discord refuses the bot's posts in: ``gone`` (deleted: its games wait,
    suspended), else the bot lacks ``permission`` there and posts wait until
    ``blocked_until`` (epoch seconds; each refusal doubles the wait, up to a day)."""

    channel_id: int
    guild_id: int
    gone: bool
    blocked_until: float | None
    permission: str | None
    backoff: float
