"""What a move says: how an action reads, what the game waits for, and the **Now** line that
ends every public post of a running game.

How an action reads is the engine's one description (``engine.describe.phrase``), said here
in the reader's language with the reader's names for players and cards; a new kind of
action is described there, once.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import Tr
from engine import Action
from engine.describe import phrase, say
from engine.views import PublicView
from render.words import awaited

from .names import name_of, who


def describe(tr: Tr, action: Action, names: Mapping[str, str] | None = None) -> str:
    """A short sentence saying what the action does, in the reader's language."""
    return say(phrase(action), tr.gettext, lambda pid: name_of(tr, pid, names))


def awaited_words(tr: Tr, kind: str) -> str:
    """What an awaited player must do, as a verb phrase (render's table: one for both)."""
    return awaited(kind, tr)


def awaited_line(tr: Tr, awaiting: Mapping[str, str],
                 names: Mapping[str, str] | None = None) -> str:
    """``@a: play the cards of the offer`` for everybody the game waits for."""
    return "; ".join(f"{who(tr, p, names)}: {awaited_words(tr, k)}"
                     for p, k in awaiting.items())


def now_line(tr: Tr, awaiting: Mapping[str, str],
             names: Mapping[str, str] | None = None) -> str:
    """The last line of every public post of a running game: who acts next."""
    return tr.gettext("**Now** — {awaited}").format(awaited=awaited_line(tr, awaiting, names))


def position_line(tr: Tr, view: PublicView, pid: str) -> str:
    """A player's own standing, from the public view (``/sanmarco hand`` when not awaited)."""
    cards = ", ".join(str(c) for c in view["limit_cards"].get(pid, [])) or tr.gettext("none")
    return tr.gettext("You: {prestige} prestige, {reserve} aristocrats in reserve, {limit} "
                      "limit points this passage (cards: {cards}).").format(
        prestige=view["prestige"].get(pid, 0), reserve=view["reserve"].get(pid, 0),
        limit=view["limit"].get(pid, 0), cards=cards)


def done(tr: Tr) -> str:
    return tr.gettext("Done: nothing more for you to do now.")


def the_board(tr: Tr) -> str:
    return tr.gettext("The board.")
