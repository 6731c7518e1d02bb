"""Refusals: every code a call can be refused with, and the one sentence a player reads for it.

``REFUSALS`` maps every code that can be raised (``bot.service.errors.Code`` and
``engine.ERROR_CODES``) to exactly one sentence, and ``refusal`` is the only way a code
becomes words (a test keeps the table complete). A refusal says what is wrong and, where
there is one, what to do; never a traceback, never a secret.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, Tr
from engine import Action

from .markup import channel
from .moves import describe
from .posts import permission_name

REFUSALS: dict[str, str] = {
    # the game and the channel
    "game.none": N_("There is no game in this channel. Start one with `/sanmarco game new`."),
    "game.not_in_server": N_("San Marco is played in a server channel."),
    "game.exists": N_("This channel already has a game. `/sanmarco status` shows it."),
    "game.not_started": N_("The game has not started yet."),
    "game.started": N_("The game has already started."),
    "game.over": N_("This game is over."),
    "game.abandoned": N_("This game was abandoned. `/sanmarco game new` opens another."),
    "player.not_in_game": N_("You are not playing in this game."),
    "action.unknown_player": N_("You are not playing in this game."),
    # the lobby
    "lobby.full": N_("The game is full."),
    "lobby.already_joined": N_("You have already joined."),
    "lobby.not_joined": N_("You have not joined this game."),
    "lobby.not_enough": N_("San Marco needs at least 3 players: ask others to press Join."),
    "lobby.not_creator": N_("Only the player who opened the game (or someone with Manage "
                            "Channel) can start it."),
    "lobby.too_many": N_("You already have {count} open lobbies on this server ({channels}): "
                         "start, leave or abandon one before opening another."),
    "permission.denied": N_("Only the player who opened the game or someone with Manage "
                            "Channel can do that."),
    "game.not_suspended": N_("That game's channel is still there: end it in its channel with "
                             "`/sanmarco game abandon`. A game number ends only a game whose "
                             "channel is gone (`/sanmarco-server games` lists yours)."),
    # turns and prompts
    "action.not_your_turn": N_("It is not your turn."),
    "state.stale": N_("That prompt is outdated."),
    # the engine's refusals
    "action.malformed": N_("That is not a move I understand: choose one from the list."),
    "action.wrong_phase": N_("That is not what the game is waiting for right now."),
    "action.illegal": N_("The rules do not allow that move now: {move}."),
    "action.split_shape": N_("A split must put every drawn card into an offer and leave no "
                             "offer empty."),
    "action.no_such_card": N_("You have no such card to play."),
    "action.must_play": N_("That card can still be played, so it may not be discarded (R7)."),
    # input the adapter or the service refuses
    "input.malformed": N_("That option is not valid."),
    "input.seats": N_("A game has 3 or 4 seats."),
    "input.computer_seats": N_("Leave at least one seat for a person."),
    "input.offer_number": N_("Choose an offer by its number."),
    "input.move": N_("Choose the move from the list."),
    "input.topic": N_("There is no rules topic by that name."),
    "input.player_id": N_("That is not a player."),
    "split.incomplete": N_("Assign every card to an offer first."),
    "split.draft": N_("Those offers do not fit your drawn cards: each card at most once, "
                      "in one of your offers."),
    # settings
    "settings.quiet_hours": N_("Quiet hours are two whole hours from 0 to 23."),
    "settings.language": N_("The language must be English (en), German (de) or French (fr), "
                            "or follow the server's language."),
    "settings.timezone": N_("That is not a time zone name (e.g. 'Europe/Berlin')."),
    # computer players and absent players
    "computer.unavailable": N_("Computer players are not available on this bot."),
    "computer.unknown": N_("There is no such computer player in the lobby."),
    "computer.level": N_("Computer players are 'easy', 'normal' or 'hard'."),
    "replace.already": N_("A computer already plays that seat."),
    "replace.already_voted": N_("You have already voted to replace that player."),
    "replace.unknown_player": N_("That player is not in this game: choose one from the list."),
    "replace.not_replaced": N_("Your seat is not played by the computer."),
    "replace.not_voter": N_("Only players who play their own seat can vote to replace "
                            "someone."),
    "replace.not_awaited": N_("The game is not waiting for that player, so there is nothing "
                              "to replace them for."),
    "replace.too_early": N_("The game has not waited long enough on that player: a vote to "
                            "replace them opens <t:{opens}:R>."),
    "replace.substitute_seated": N_("That person already plays in this game: a seat passes "
                                    "only to someone who has none."),
    "replace.substitute_bot": N_("A bot cannot take a seat over: name a person, or leave "
                                 "`by:` empty to let a computer player take it."),
    "seat.passed": N_("You no longer play this seat: it was handed to someone else. "
                      "`/sanmarco status` shows who plays now."),
    # the store could not save: nothing changed, and the player reads why
    "store.full": N_("That was not saved and nothing changed: the bot's disk is full (its "
                     "admin must free some space)."),
    "store.read_only": N_("That was not saved and nothing changed: the bot may not write to "
                          "its game file (its admin must make it writable)."),
    "store.io": N_("That was not saved and nothing changed: the bot's disk reported a read or "
                   "write error (its admin should check the disk)."),
    "store.busy": N_("That was not saved and nothing changed: the game is busy right now, so "
                     "try again in a moment."),
    "store.corrupt": N_("That was not saved and nothing changed: the bot's game file is "
                        "damaged (its admin should check it)."),
    "store.cantopen": N_("That was not saved and nothing changed: the bot cannot open its "
                         "game file (its admin should check it)."),
    "store.failed": N_("That was not saved and nothing changed: the bot's game file refused "
                       "the change."),
    # a server's memory: a finished game's replay, file and seed
    "history.not_over": N_("That game is not over yet: its replay, its game file and its seed "
                           "come when it ends (R15)."),
    "history.no_game": N_("There is no finished game by that number in this server: "
                          "`/sanmarco-server history` lists them."),
    # keeping games moving: settings, notifications, taking back
    "settings.reminder_hours": N_("The reminder interval must be 0 (off) or between 15 "
                                  "minutes and 14 days."),
    "settings.permission": N_("Only members with Manage Channel can change this channel's "
                              "settings; everyone can see them with `/sanmarco-server settings`."),
    "settings.turn_timer": N_("The turn timer must be 0 (off) or between 15 minutes and 14 "
                              "days."),
    "settings.computer_level": N_("There is no computer player of that level: choose one "
                                  "from the list."),
    "notify.mode": N_("Choose how to hear it is your turn: mention, dm, both or none."),
    "undo.nothing": N_("You have no move in this game to take back."),
    "undo.moved_on": N_("Someone has moved since your last move (computer players count "
                        "too), so it stands."),
    "undo.computer": N_("The computer made that move for you (your time ran out), so it "
                        "stands."),
    "undo.split": N_("A committed split cannot be taken back (R5)."),
    "undo.roll": N_("That move rolled the die, so it cannot be taken back."),
    "undo.draw": N_("That move started a new round or passage (cards were drawn), so it "
                    "cannot be taken back."),
    "undo.reveal": N_("That move revealed offers, so it cannot be taken back."),
    "undo.end": N_("That move ended the game, so it cannot be taken back."),
    "undo.chance": N_("That move used chance, so it cannot be taken back."),
    # a server full of games: a game's thread, the queue, rematches
    "thread.permission": N_("I cannot open the game's thread in this channel: I lack the "
                            "**{permission}** permission here. A server admin can give it to "
                            "me, or turn games in threads off for this channel with "
                            "`/sanmarco-server settings threads:False`."),
    "thread.limit": N_("This server has Discord's most active threads (1,000), so I cannot "
                       "open the game's thread; nothing was made. A moderator can archive old "
                       "threads, or turn games in threads off here (`/sanmarco-server "
                       "settings threads:False`)."),
    "thread.failed": N_("Discord did not let me open the game's thread just now, so nothing "
                        "was made. Try again in a moment."),
    "queue.already": N_("You are already in this server's queue: `/sanmarco-server queue list` "
                        "shows who waits, `/sanmarco-server queue leave` takes you out."),
    "queue.not_in": N_("You are not in this server's queue. `/sanmarco-server queue join` puts "
                       "you in."),
    "rematch.not_player": N_("Only this game's players can ask for a rematch."),
    "rematch.open": N_("This game's rematch is already open: {channels}."),
    # away from a server's games
    "away.when": N_("Say how long you are away: `for:` a duration such as 5d, 36h or 2d 6h, "
                    "or `until:` a date and time such as 2026-12-03 18:00 (in this channel's "
                    "time zone)."),
    "away.past": N_("That time has already passed: give one in the future."),
    "away.too_long": N_("You can be away for at most 14 days at a time."),
    "away.not_away": N_("You are not away on this server. `/sanmarco seat away` marks you "
                        "away."),
    "replace.away": N_("That player is away, and the game waits on an away player up to this "
                       "channel's limit: a vote to replace them opens <t:{opens}:R>."),
    "settings.away_cap": N_("The wait for away players must be from 0 to 336 hours (14 "
                            "days)."),
    "hint.off": N_("Hints are off in this channel: its managers can turn them on in "
                   "`/sanmarco-server settings`."),
    # a guided practice game
    "practice.not_practice": N_("Only a practice game has explanations to skip."),
    "practice.not_learner": N_("Only the learner of this practice game skips its "
                               "explanations. `/sanmarco game learn` opens a practice game "
                               "of your own."),
    "practice.open": N_("Your practice game is still going on in {channels}: pick it up "
                        "there, or end it with `/sanmarco game abandon`."),
    "practice.permission": N_("I cannot open your practice game's private thread in this "
                              "channel: I lack the **{permission}** permission here. A "
                              "server admin can give it to me."),
    # CPU work: the worker lanes are full (nothing was done); a hint or review asked again
    # too soon by the same player
    "work.busy": N_("I am busy with other work just now, so that was not done: try again in a "
                    "moment."),
    "hint.cooldown": N_("You asked a moment ago: ask again in {seconds} seconds."),
    # anything unexpected: an apology, never a traceback
    "internal": N_("Sorry, something went wrong on my side. `/sanmarco status` shows where "
                   "the game stands."),
}


# How a refusal's facts are written (channel ids as channel mentions, which Discord shows as
# the channels' names).
_SHOW_PARAM = {"channels": lambda ids: ", ".join(channel(c) for c in str(ids).split())}


def apology(tr: Tr) -> str:
    """The answer to anything unexpected: an apology, never a traceback."""
    sentence = REFUSALS["internal"]
    return tr.gettext(sentence)


# Not a refusal of the game's (no call ran): the bot stops (an update, a restart) and takes
# no new work meanwhile; a player who clicks in those seconds is told so, and that nothing
# was done.
STOPPING = N_("The bot is restarting: that was not done. Try again in a minute.")


def stopping(tr: Tr) -> str:
    """The answer to an interaction that arrives while the bot stops: nothing was done."""
    return tr.gettext(STOPPING)


def refusal(tr: Tr, code: str, params: Mapping[str, str | int] | None = None, *,
            action: Action | None = None, names: Mapping[str, str] | None = None) -> str:
    """The sentence a player reads for a refusal ``code`` (an unknown code is a bug: the
    player gets the apology, and a test keeps the table complete). ``action``: the refused
    move, said in the reader's language (the engine's ``move`` fact is English)."""
    template = REFUSALS.get(code)
    if template is None:
        return apology(tr)
    shown = {k: _SHOW_PARAM.get(k, str)(v) for k, v in (params or {}).items()}
    if "permission" in shown:  # as Discord's settings name it, in the reader's language
        shown["permission"] = permission_name(tr, shown["permission"])
    if action is not None:
        shown["move"] = describe(tr, action, names)
    sentence = tr.gettext(template)
    try:
        return sentence.format(**shown)
    except (KeyError, IndexError, ValueError):
        return sentence.split("{", 1)[0].rstrip(" :") + "."
