"""A server full of games: a game's thread (its name, the pointer in its channel), the queue
of players looking for others, the server's open lobbies and rematches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import Tr
from bot.service.results import OpenLobby, Seeker

from .markup import MORE, channel, fit_lines, mention, timestamp
from .names import name_of, who, who_list
from .settings import LANGUAGE_NAMES

MAX_THREAD_NAME = 100  # Discord refuses a longer thread name


# ---------------------------------------------------------------------------- threads
def thread_name(tr: Tr, number: int, players: Sequence[str],
                names: Mapping[str, str] | None = None) -> str:
    """A game's thread: ``San Marco #12 · ann, bob, carol`` (seats in the order they were
    taken; cut to Discord's 100 characters, never inside a name)."""
    head = tr.gettext("San Marco #{number}").format(number=number)
    out = head
    for i, pid in enumerate(players):
        part = (" · " if i == 0 else ", ") + name_of(tr, pid, names)
        if len(out) + len(part) > MAX_THREAD_NAME - len(MORE) - 1:
            return out + " " + MORE if i else out
        out += part
    return out


def thread_opened(tr: Tr, number: int, thread: int, by: str, why: str) -> str:
    """The one-line pointer in a text channel to the thread a game opened in."""
    if why == "rematch":
        text = tr.gettext("{player} asks for a rematch: San Marco #{number} waits in "
                          "{thread}.")
    elif why == "queue":
        text = tr.gettext("The queue found players: San Marco #{number} starts in {thread}.")
    else:
        text = tr.gettext("{player} opened San Marco #{number}: join in {thread}.")
    return text.format(player=who(tr, by), number=number, thread=channel(thread))


def game_opened(tr: Tr, number: int, thread: int) -> str:
    """The private answer to whoever opened a game in a new thread."""
    return tr.gettext("Done: San Marco #{number} is open in {thread}.").format(
        number=number, thread=channel(thread))


def found_in_queue(tr: Tr, players: Sequence[str], computers: int,
                   names: Mapping[str, str] | None = None) -> str:
    """The first line of a game the queue found: who plays (the computer fills the rest)."""
    text = tr.gettext("The queue found this table: {players}.").format(
        players=who_list(tr, players, names))
    if computers:
        text += " " + tr.ngettext("{count} seat is played by the computer.",
                                  "{count} seats are played by the computer.",
                                  computers).format(count=computers)
    return text


def invited_line(tr: Tr, invited: Sequence[str]) -> str:
    """A rematch's lobby: the players asked back who have not taken their seat yet."""
    return tr.gettext("Asked back for the rematch: {players}. Press Join to take your "
                      "seat.").format(players=who_list(tr, invited))


def lobby_closed(tr: Tr, why: str = "left") -> str:
    """A lobby's post once it closed without starting (nothing to press on it any more)."""
    if why == "expired":
        head = tr.gettext("The lobby is closed: nobody started it within a day.")
    elif why == "abandoned":
        head = tr.gettext("The lobby is closed: it was abandoned.")
    else:
        head = tr.gettext("The lobby is closed: everybody left.")
    return head + " " + tr.gettext("`/sanmarco game new` opens another.")


def rematch_opened(tr: Tr, number: int, thread: int) -> str:
    """The private answer to the player who pressed Rematch."""
    return tr.gettext("Rematch: San Marco #{number} is open in {thread}, and the other "
                      "players are asked back.").format(number=number,
                                                        thread=channel(thread))


# ---------------------------------------------------------------------------- the queue
def _table(tr: Tr, players: int, computers: bool, language: str | None) -> str:
    parts = [tr.ngettext("{count} player", "{count} players", players).format(count=players)]
    if computers:
        parts.append(tr.gettext("computers may fill"))
    if language is not None:
        parts.append(LANGUAGE_NAMES.get(language, language))
    return " · ".join(parts)


def queue_joined(tr: Tr, seeker: Seeker, waiting: int, fill_minutes: int) -> str:
    """The private answer to a player who joined the queue and waits."""
    text = tr.gettext("You are in this server's queue ({table}); {waiting} of {players} "
                      "waiting. When the table is full I open a thread for the game and "
                      "ping everyone there.").format(
        table=_table(tr, seeker.players, seeker.computers, seeker.language),
        waiting=waiting, players=seeker.players)
    if seeker.computers:
        text += " " + tr.gettext("After {minutes} minutes computers may take the empty "
                                 "seats.").format(minutes=fill_minutes)
    return text + " " + tr.gettext("You stay in it for a day at most; `/sanmarco-server queue "
                                   "leave` takes you out.")


def queue_found(tr: Tr, number: int, thread: int) -> str:
    """The private answer to the player who completed a table."""
    return tr.gettext("Your table is complete: San Marco #{number} starts in {thread}.").format(
        number=number, thread=channel(thread))


def queue_left(tr: Tr) -> str:
    return tr.gettext("You left this server's queue.")


def queue_text(tr: Tr, seekers: Sequence[Seeker]) -> str:
    """``/sanmarco-server queue list``: who waits, oldest first."""
    if not seekers:
        return tr.gettext("Nobody waits in this server's queue. `/sanmarco-server queue join` "
                          "puts you in.")
    lines = [tr.gettext("**Waiting in this server's queue**")]
    for s in seekers:
        line = f"{mention(s.pid)} · {_table(tr, s.players, s.computers, s.language)} · " + \
            tr.gettext("since {time}").format(time=timestamp(s.since))
        if s.seating:
            line += " · " + tr.gettext("being seated")
        lines.append(line)
    return fit_lines(lines)


# ---------------------------------------------------------------------------- lobbies
def lobbies_text(tr: Tr, lobbies: Sequence[OpenLobby]) -> str:
    """``/sanmarco-server lobbies``: the server's open lobbies with their free seats."""
    if not lobbies:
        return tr.gettext("There is no open lobby on this server. `/sanmarco game new` opens "
                          "one; `/sanmarco-server queue join` finds players for you.")
    lines = [tr.gettext("**Open lobbies on this server**")]
    for lob in lobbies:
        free = tr.ngettext("{count} seat free", "{count} seats free", lob.free).format(
            count=lob.free)
        line = f"#{lob.game_id} · {channel(lob.channel_id)} · {free} · " + who_list(
            tr, lob.players, lob.names)
        if lob.url:
            line += " · " + tr.gettext("[lobby]({url})").format(url=lob.url)
        lines.append(line)
    return fit_lines(lines)
