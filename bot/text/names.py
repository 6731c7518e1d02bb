"""How players, computer players and cards are named, in the reader's language.

A Discord player is a mention (Discord shows the member's name); a computer player is its
label ("Computer 1 (normal)"); a card is its name as the rule book prints it. Selects and
autocomplete show no mentions, so there a player is a plain display name (``name_of``).
A seat is named by whoever plays it now: a substitute who took it over keeps its pid, and
the names (``bot.store.SeatNames``) say who that is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from bot.i18n import N_, Tr
from bot.store import player_of
from engine.ai import is_computer
from engine.cards import is_limit, limit_value
from engine.describe import card_phrase, say
from render.words import and_list

from .markup import mention

_LEVELS: dict[str, str] = {"normal": N_("normal"), "easy": N_("easy"), "hard": N_("hard")}

# French elides "de" and "que" before a vowel: a name put after them by a template ("Offres
# de {player}") gives "de Ordinateur 1", which French writes "d'Ordinateur 1". The
# catalogue's own words are elided already (checked: none left), so only names meet this.
_ELIDED = re.compile(r"\b([dD]|[qQ]u)e (?=[AEIOUYaeiouyÀÂÆÉÈÊËÎÏÔŒÙÛÜàâæéèêëîïôœùûü])")


def elide(tr: Tr, words: str) -> str:
    """``words`` with French elision before a vowel ("d'Ordinateur 1", "qu'Anne"); other
    languages' words unchanged."""
    if tr.info().get("language") != "fr":
        return words
    return _ELIDED.sub(r"\1'", words)


def level_name(tr: Tr, level: str) -> str:
    """A computer level as shown (``normal``, ``easy``, ``hard``)."""
    return tr.gettext(_LEVELS[level]) if level in _LEVELS else level


def computer_label(tr: Tr, pid: str) -> str:
    """A computer player's name: ``ai.normal.1`` → "Computer 1 (normal)"."""
    _, level, number = pid.split(".")
    return tr.gettext("Computer {number} ({level})").format(number=number,
                                                           level=level_name(tr, level))


def who(tr: Tr, pid: str, names: Mapping[str, str] | None = None) -> str:
    """A seat as its player: a Discord mention of the person who plays it now (its
    substitute, when ``names`` carries one; renders as the name, pings only when allowed);
    a computer player by its name in the reader's language."""
    player = player_of(names, pid)
    if player.isdigit():
        return mention(player)
    if is_computer(player):
        return computer_label(tr, player)
    return (names or {}).get(pid, player)


def person(tr: Tr, user: str) -> str:
    """A person as such (a voter, the one who played a seat before): a mention of that
    Discord id, whichever seat they play; a computer player by its name."""
    return who(tr, user)


def name_of(tr: Tr, pid: str, names: Mapping[str, str] | None = None) -> str:
    """A seat's display name as plain text (selects and autocomplete show no mentions): its
    substitute's name when a person took a computer player's seat over."""
    if is_computer(player_of(names, pid)):
        return computer_label(tr, pid)
    return (names or {}).get(pid, pid)


def local_names(tr: Tr, names: Mapping[str, str]) -> dict[str, str]:
    """Display names with the computer players' names in the reader's language (for the
    pictures, which draw the names they are given)."""
    return {p: name_of(tr, p, names) for p in names}


def who_list(tr: Tr, pids: Iterable[str], names: Mapping[str, str] | None = None) -> str:
    return and_list([who(tr, p, names) for p in pids], tr)


def rated_name(tr: Tr, player: str) -> str:
    """A rated identity as shown: a person by mention, a computer player by its level."""
    if player.startswith("ai."):
        return tr.gettext("Computer ({level})").format(level=level_name(tr, player[3:]))
    return who(tr, player)


def card_label(tr: Tr, card: str) -> str:
    """A player-facing name for a card: the engine's one description
    (``engine.describe.card_phrase``), in the reader's language."""
    return say(card_phrase(card), tr.gettext)


def cards_text(tr: Tr, cards: Sequence[str]) -> str:
    return ", ".join(card_label(tr, c) for c in cards) if cards else tr.gettext("nothing")


def limit_points(cards: Sequence[str]) -> int:
    """Sum of the limit cards among ``cards`` (what taking the offer adds to one's limit)."""
    return sum(limit_value(c) for c in cards if is_limit(c))


def aristocrats(tr: Tr, n: int) -> str:
    return tr.ngettext("{count} aristocrat", "{count} aristocrats", n).format(count=n)
