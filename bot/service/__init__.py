"""The game service: load a channel's game → check the actor → ``engine.apply`` → save → say
what happened. Plain async Python over a ``bot.store.Store`` (SQLite or PostgreSQL) and
``engine``; no Discord types, so tests drive whole games through it.

    service = await open_service(target)  # a file or postgresql:// URL, else $DATABASE_URL,
                                          # else $SANMARCO_DB, else ./sanmarco.db
    ...
    await service.close()

``channel``/``guild`` are Discord ids (int); ``user`` is the Discord id as text. A seat's
pid (the engine's player id) is its first player's Discord id (or a computer player's id)
and never changes; a substitute who took the seat over (``vote_replace(..., by=)``) plays
under it, so every call maps ``user`` to the seat they play now, and results name seats by
pid with ``bot.store.SeatNames`` saying who plays each.
Actions are ``engine.Action`` values (text is parsed only where a person types it, in the
adapter). Every call raises a ``ServiceError`` (``bot.service.errors``: a stable ``code`` and
``params``, never a sentence, never a secret) and has then written nothing; what a player
reads for a code is ``bot.text.refusal``.

Arguments that are not what a call takes (a malformed ``Action`` value, an id that is not
one) are refused first, whoever sends them. Then one place checks a click against the game
(``_check_turn``), in this order: no game here
(game.none), a prompt of another game in this channel (state.stale), not started
(game.not_started), over (game.over), abandoned (game.abandoned), not seated
(player.not_in_game; seat.passed for one whose seat a substitute plays now), not awaited
(action.not_your_turn), a stale version (state.stale); then the engine checks the rules.

=========================================================  =================
call                                                       returns
=========================================================  =================
``create_lobby(guild, channel, user, *, seats, name)``     ``Lobby``
``join / leave / add_computer / remove_computer``          ``Lobby``
``start(channel, user, *, fill_with_computers)``           ``Update``
``act(channel, user, action, *, expected_version,          ``Update``
game_id)``
``snapshot(channel, user, *, game_id, turn)``              ``Snapshot``
``public_view / private_view / legal_actions / names``     views, actions, names
``status(channel)`` / ``log(channel)`` / ``audit``         ``Status`` / ``GameLog`` / ``Audit``
``vote_replace`` / ``reclaim`` / ``abandon``               ``Replacement`` / ``Lobby`` / ``Ended``
``settings`` / ``set_settings``                            ``Settings``
``due_reminders(now)`` / ``mark_reminded``                 ``list[Reminder]`` / ``bool``
``history(guild)`` / ``standings(guild)``                  lists
``player_stats(guild, user, *, asker, here)`` /            ``PlayerStats`` / rankings
``leaderboard(guild, *, listed)`` / ``rebuild_ratings``
``past_games`` / ``finished_game`` / ``game_file`` (``here``: lists / ``FinishedGame`` / JSON
where a member asks: ``listed_games``, ``places_here``)
``listed_games(ids, *, here)``                             ``set[int]``
``remember_final_post(game_id, message_id, url)``          None
``due_timers(now)`` / ``time_out(channel, *, game_id,       ``list[TimerDue]`` /
version)``                                                 ``TimedOut``
``undo(channel, user, *, expected_version, game_id)``      ``Undone``
``notify_mode / set_notify_mode(guild, user[, mode])``     ``str``
``notices(guild, pids)`` / ``dm_refused`` / ``take_hint``  ``dict[str, Notice]`` / bool
``remember_post(game_id, message_id, url)`` / ``my_games``  None / ``list[MyGame]``
``reserve_number`` / ``check_can_open``                    ``int`` / None
``seek`` / ``leave_queue`` / ``queue`` / ``open_found``    ``Sought`` / None / lists /
                                                           ``Update``
``fill_queues`` / ``expire_queues`` / ``release``          ``list[Found]`` / ``int`` / None
``lobbies(guild)`` / ``rematch_of`` / ``open_rematch``     lists / ``Rematch`` / ``Lobby``
``set_away(guild, user, until)`` / ``back(guild, user)``   ``Away``
``away(guild, pids)``                                      ``dict[str, float]``
``digest(channel, user, *, game_id)``                      ``Digest``
``page_my_games(user)``                                     ``SignedInGames``
``session_generation(user)`` / ``sign_out(user)``          ``int`` (sessions' generation)
``page_game / page_replay / page_file(token)``             ``PageGame`` /
                                                           ``PageReplay`` / JSON
``page_post(token, version)``                              ``PostDelivery``
``page_token(game_id)`` / ``page_versions`` /              ``str`` / versions /
``latest_versions`` / ``outbox_depth``                     ``OutboxDepth``
``set_server_page(guild, shown)`` / ``server_page(token)``  token / ``ServerPage``
``hint(channel, user, *, game_id)``                        ``Hint``
``review(channel, user, *, game_id)``                      ``GameReview``
``open_practice(guild, channel, user, *, language)``       ``Update``
``practice_of(guild, user)`` / ``skip_lessons(channel,     channel or None /
user)`` / ``is_newcomer(guild, user)``                     ``bool`` / ``bool``
``take_learn_pointer(guild, user)``                        ``bool`` (once)
=========================================================  =================

Reading calls work on the channel's active game, else on its most recent ended one: finished
games stay readable. ``Update.version`` is the game's version; ``Lobby.version`` and
``Reminder.version`` are row revisions.

Concurrency: one ``asyncio.Lock`` per channel serialises every write, and the store refuses
a write whose row version is stale, so two identical clicks apply once.

Computer players: pass ``computers=`` (see ``ComputerPlayers``; ``bot.computers`` is the
real one). The service plays their moves right after a human's, inside the same call, in
Discord's worker lane (``bot.work``: a worker process when the bot has one, else a thread)
so the event loop never waits on a computer's thinking; the hook is passed to that process,
so it must pickle.
"""


from __future__ import annotations

import time
from collections.abc import Callable

from bot.service.errors import (
    AlreadyJoined,
    BadInput,
    Code,
    GameAbandoned,
    GameExists,
    GameFull,
    GameNotStarted,
    GameOver,
    GameStarted,
    NoGame,
    NotCreator,
    NotEnoughPlayers,
    NotInGame,
    NotJoined,
    NotYourTurn,
    PermissionDenied,
    RuleError,
    ServiceError,
    StalePrompt,
    UndoRefused,
    WorkBusy,
)
from bot.service.results import (
    Audit,
    Digest,
    Ended,
    GameLog,
    GameStatus,
    Lobby,
    LogEntry,
    MyGame,
    Notice,
    Reminder,
    Replacement,
    Snapshot,
    Standing,
    Status,
    TimedOut,
    TimerDue,
    Undone,
    Update,
)
from bot.service.results.pages import (
    PageGame,
    PageReplay,
    PageStep,
    PostDelivery,
    RunningGame,
    ServerPage,
)
from bot.store import Settings, open_store

from ._away import MAX_AWAY, AwayCalls
from ._boundary import guard_public_calls
from ._channel import ChannelCalls
from ._core import ComputerPlayers, seat_names
from ._digest import DigestCalls
from ._lobby import LobbyCalls
from ._notify import NoticeCalls
from ._outbox import LEASE_SECONDS, OutboxCalls
from ._pages import PageCalls
from ._seat_page import PlayerGame, SeatPageCalls, SignedInGames, SplitDraft
from ._seats import SeatCalls
from ._servers import FILL_AFTER, QUEUE_TTL, ServerCalls
from ._stats import StatsCalls, places_here
from ._timers import TimerCalls
from ._undo import UndoCalls
from .teaching.hints import HintCalls
from .teaching.practice import PracticeCalls

__all__ = [
    "FILL_AFTER", "LEASE_SECONDS", "MAX_AWAY", "QUEUE_TTL",
    "AlreadyJoined", "Audit", "BadInput", "Code", "ComputerPlayers", "Digest", "Ended",
    "GameAbandoned", "GameExists", "GameFull", "GameLog", "GameNotStarted", "GameOver",
    "GameService", "GameStarted", "GameStatus", "Lobby", "LogEntry", "MyGame", "NoGame",
    "NotCreator", "NotEnoughPlayers", "NotInGame", "NotJoined", "NotYourTurn", "Notice",
    "PageGame", "PageReplay", "PageStep", "PlayerGame", "PostDelivery", "RunningGame",
    "ServerPage", "SignedInGames",
    "PermissionDenied", "Reminder", "Replacement", "RuleError", "ServiceError", "Settings",
    "Snapshot", "SplitDraft", "Standing", "StalePrompt", "Status", "TimedOut", "TimerDue",
    "UndoRefused", "Undone", "Update", "WorkBusy", "open_service", "places_here",
    "seat_names",
]


@guard_public_calls
class GameService(SeatPageCalls, PracticeCalls, PageCalls, ServerCalls, LobbyCalls, SeatCalls,
                  ChannelCalls, StatsCalls, TimerCalls, UndoCalls, NoticeCalls, OutboxCalls,
                  AwayCalls, DigestCalls, HintCalls):
    """San Marco games, one per channel, over a ``Store``. See the module docstring; the
    calls are grouped by job in ``_lobby``, ``_play``, ``_seats``, ``_channel``, ``_stats``
    (a server's memory), ``_timers``, ``_undo`` and ``_notify`` (games that keep moving
    over days), ``_servers`` (the queue, a server's lobbies, rematches), ``_away`` (players
    away from a server's games), ``_digest`` (what happened since a player's last move),
    ``_pages`` (what a game's web page reads, found by its token), ``_seat_page`` (a seat
    played from its page, over ``_play``'s calls), ``teaching.hints``
    (hints and reviews), ``teaching.practice`` (a learner's guided practice game: its
    lessons ride on its move posts),
    over ``_core``
    (loading, the one check of a click, committing a change).
    Every public call raises only ServiceErrors (``guard_public_calls``)."""


async def open_service(path: str | None = None, *, clock: Callable[[], float] = time.time,
                       computers: ComputerPlayers | None = None,
                       seeds: Callable[[], int] | None = None) -> GameService:
    """A service over the store at ``path`` — an SQLite file or a ``postgresql://`` URL —
    else $DATABASE_URL, else $SANMARCO_DB, else ./sanmarco.db (``bot.store``)."""
    store = await open_store(path)
    return GameService(store, clock, computers=computers, seeds=seeds)

