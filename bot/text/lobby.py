"""The lobby and the seats: who joins, who leaves, a seat handed to the computer and taken
back, or passed to a substitute (``/sanmarco seat replace``, ``reclaim``, ``abandon``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import Tr

from .names import person, who, who_list


def lobby_text(tr: Tr, players: Sequence[str], seats: int, names: Mapping[str, str],
               opener: str) -> str:
    seated = who_list(tr, players, names) or tr.gettext("nobody yet")
    return tr.gettext("**San Marco** — {taken}/{seats} seats taken: {players}. Join or add a "
                      "computer player; {opener} (or anyone with Manage Channel) starts the "
                      "game.").format(taken=len(players), seats=seats, players=seated,
                                      opener=who(tr, opener, names))


# ---------------------------------------------------------------------------- absent players
def replace_vote(tr: Tr, voter: str, target: str, votes: int, needed: int,
                 names: Mapping[str, str]) -> str:
    return tr.gettext("{voter} votes to let the computer play {player}'s seat ({votes} of "
                      "{needed} votes needed). Others can vote with `/sanmarco "
                      "seat replace`.").format(voter=person(tr, voter),
                                          player=who(tr, target, names), votes=votes,
                                          needed=needed)


def substitute_vote(tr: Tr, voter: str, target: str, by: str, votes: int, needed: int,
                    names: Mapping[str, str]) -> str:
    return tr.gettext("{voter} votes to let {substitute} take over {player}'s seat ({votes} "
                      "of {needed} votes needed). Others can vote for it with `/sanmarco "
                      "seat replace` naming the same person.").format(
        voter=person(tr, voter), substitute=person(tr, by), player=who(tr, target, names),
        votes=votes, needed=needed)


def seat_taken(tr: Tr, player: str, before: str, seat: int) -> str:
    """A seat passed to a person: the channel reads who plays it from now on."""
    return tr.gettext("{substitute} takes over {player}'s seat (seat {letter} on the board) "
                      "and plays on from here.").format(
        substitute=person(tr, player), player=person(tr, before),
        letter="ABCD"[(seat - 1) % 4])


def replaced(tr: Tr, target: str, names: Mapping[str, str], *, finished: bool) -> str:
    text = tr.gettext("The computer now plays {player}'s seat.").format(
        player=who(tr, target, names))
    if not finished:  # the computers may have played to the end
        text += " " + tr.gettext("{player} can take it back with `/sanmarco seat reclaim`.").format(
            player=who(tr, target, names))
    return text


def reclaimed(tr: Tr, pid: str, names: Mapping[str, str]) -> str:
    return tr.gettext("{player} plays their own seat again.").format(
        player=who(tr, pid, names))


def abandoned_by(tr: Tr, pid: str) -> str:
    return tr.gettext("{player} abandoned the game. `/sanmarco game new` opens another.").format(
        player=who(tr, pid))
