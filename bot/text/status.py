"""Where a game stands, as ``/sanmarco status`` and ``board`` say it, and what a player
reads when it is not their turn or their prompt is outdated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import Tr
from bot.service.results import GameStatus, Status

from .away import away_lines
from .markup import timestamp
from .moves import awaited_line, awaited_words, the_board
from .names import who, who_list
from .refusals import refusal


def status_lobby(tr: Tr, players: Sequence[str], seats: int, creator: str,
                 names: Mapping[str, str]) -> str:
    return tr.gettext("Lobby: {taken}/{seats} seats taken ({players}); {opener} opened "
                      "it.").format(taken=len(players), seats=seats,
                                    players=who_list(tr, players, names) or tr.gettext("nobody"),
                                    opener=who(tr, creator, names))


def status_abandoned(tr: Tr) -> str:
    return tr.gettext("The last game in this channel was abandoned. `/sanmarco game new` opens "
                      "another.")


def _scores(tr: Tr, prestige: Mapping[str, int], names: Mapping[str, str]) -> str:
    return ", ".join(f"{who(tr, p, names)} {n}" for p, n in prestige.items())


def status_over(tr: Tr, winners: Sequence[str], prestige: Mapping[str, int],
                names: Mapping[str, str]) -> str:
    text = tr.gettext("The game is over. Winner: {winners}.").format(
        winners=who_list(tr, winners, names))
    scores = _scores(tr, prestige, names)
    return text + (" " + tr.gettext("Prestige: {scores}.").format(scores=scores)
                   if scores else "")


def status_running(tr: Tr, awaiting: Mapping[str, str], since: float | None,
                   prestige: Mapping[str, int], names: Mapping[str, str], *,
                   away: Mapping[str, float] | None = None, zone: str = "UTC",
                   players: Sequence[str] = ()) -> str:
    """Whose move, since when, who is away (until when, in the channel's time zone
    ``zone``), the prestige."""
    waiting = "; ".join(tr.gettext("{player} must {action}").format(
        player=who(tr, p, names), action=awaited_words(tr, k)) for p, k in awaiting.items())
    if since:
        head = tr.gettext("{waiting} since {time}.").format(waiting=waiting,
                                                            time=timestamp(since))
    else:
        head = waiting + "."
    lines = [head, *away_lines(tr, away or {}, zone, names, order=players)]
    scores = _scores(tr, prestige, names)
    if scores:
        lines.append(tr.gettext("Prestige: {scores}.").format(scores=scores))
    lines.append(tr.gettext("`/sanmarco hand` opens your panel if it is your move."))
    return "\n".join(lines)


def status_text(tr: Tr, status: Status) -> str:
    """``/sanmarco status``: whose move, for what, since when (Discord renders <t:..:R>),
    who is away."""
    if status.status is GameStatus.LOBBY:
        return status_lobby(tr, status.players, status.seats, status.creator, status.names)
    if status.status is GameStatus.ABANDONED:
        return status_abandoned(tr)
    if status.finished:
        return status_over(tr, status.winners, status.prestige, status.names)
    return status_running(tr, status.awaiting, status.since, status.prestige, status.names,
                          away=status.away, zone=status.timezone, players=status.players)


def board_caption(tr: Tr, status: GameStatus, awaiting: Mapping[str, str],
                  names: Mapping[str, str]) -> str:
    """The line above ``/sanmarco board``'s picture (an ended game awaits nobody)."""
    if status is GameStatus.ABANDONED:
        return refusal(tr, "game.abandoned")
    return awaited_line(tr, awaiting, names) or the_board(tr)


def not_your_turn_here(tr: Tr, awaiting: Mapping[str, str], names: Mapping[str, str]) -> str:
    text = refusal(tr, "action.not_your_turn")
    line = awaited_line(tr, awaiting, names)
    return tr.gettext("{refusal} Now: {awaited}").format(refusal=text, awaited=line) \
        if line else text


def with_current(tr: Tr, head: str, awaiting: Mapping[str, str],
                 names: Mapping[str, str]) -> str:
    """A refusal followed by what the game waits for now (for stale prompts)."""
    line = awaited_line(tr, awaiting, names)
    return tr.gettext("{refusal}\nNow: {awaited}").format(refusal=head, awaited=line) \
        if line else head
