"""The sentences on the picture, made from the public view only (no secret can reach them).

Every function takes the translations ``tr`` of the language to draw in (default English).
Render never loads a catalogue: the bot passes the one it wants (``bot.i18n``). Its words
are marked for the catalogue as the bot's are (``tr.gettext``, ``N_`` in tables; see
``bot/i18n.py``).
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence

from engine.cards import card_district, card_kind, limit_value
from engine.describe import CARD_NAMES  # action cards by their names, as printed
from engine.phases import Awaited, Phase
from engine.views import PublicView

Tr = gettext.NullTranslations
ENGLISH: Tr = gettext.NullTranslations()  # the words as written here


def N_(message: str) -> str:
    """Marks a sentence in a table for the catalogue; translate it where it is read."""
    return message


# What an awaited player must do, as a verb phrase ("Waiting for X to …", "X: …"): the one
# table of these words, for the picture and the bot's posts alike.
AWAITED: dict[str, str] = {
    Awaited.REROLL: N_("keep or reroll the set-up die"),
    Awaited.BRIDGE: N_("place a set-up bridge"),
    Awaited.SPLIT: N_("split their cards"),
    Awaited.TAKE: N_("take an offer"),
    Awaited.PLAY: N_("play a card"),
    Awaited.BANISH: N_("choose a district to banish from"),
    Awaited.VICTIMS: N_("choose whose aristocrats go"),
}

_PHASE: dict[str, str] = {
    Phase.SETUP_REROLL: N_("Set-up: rolling for aristocrats"),
    Phase.SETUP_BRIDGES: N_("Set-up: placing bridges"),
    Phase.SPLIT: N_("Distributors are splitting cards"),
    Phase.CHOOSE: N_("An offer is being chosen"),
    Phase.PLAY: N_("Cards are being played"),
    Phase.BANISH: N_("Banishment"),
    Phase.BANISH_VICTIMS: N_("Banishment"),
    Phase.GAME_OVER: N_("Game over"),
}

# The roles of a round as the stone tablet shows them: two columns (I, II) with four players,
# one column (a distributor and decision-makers 1 and 2) with three.
_COLUMN_ROLES = ((N_("Distributor I"), N_("Decision-maker I")),
                 (N_("Distributor II"), N_("Decision-maker II")))
_ONE_COLUMN = (N_("Distributor"), N_("Decision-maker"))
_DECIDERS = (N_("Decision-maker 1"), N_("Decision-maker 2"))



def awaited(kind: str, tr: Tr = ENGLISH) -> str:
    """What an awaited player must do (``kind``: an ``Awaited`` value), as a verb phrase."""
    phrase = AWAITED.get(kind)
    return tr.gettext(phrase) if phrase is not None else kind


def card_name(card: str, tr: Tr = ENGLISH) -> str:
    """A card's short name on the picture: a district card's district alone (its label
    reads ``District: Castello``), ``Limit 2``, ``Bridge`` ..."""
    kind = card_kind(card)
    if kind == "district":
        return card_district(card) or card
    if kind == "limit":
        return tr.gettext("Limit {value}").format(value=limit_value(card))
    return tr.gettext(CARD_NAMES[kind]) if kind in CARD_NAMES else card


def and_list(items: Sequence[str], tr: Tr = ENGLISH) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(items) <= 1:
        return "".join(items)
    return tr.gettext("{first} and {last}").format(first=", ".join(items[:-1]),
                                                   last=items[-1])


def display(pid: str, names: dict[str, str] | None) -> str:
    """The name shown for a player: the given display name, else the pid."""
    name = (names or {}).get(pid, pid)
    return " ".join(str(name).split()) or pid  # no newlines or runs of spaces


def roles(view: PublicView, tr: Tr = ENGLISH) -> dict[str, str]:
    """pid -> role this round: 'Distributor I', 'Decision-maker II', 'Decision-maker 1'..."""
    out: dict[str, str] = {}
    columns = view.get("roles") or []
    for c, col in enumerate(columns):
        deciders = col.get("decision_makers") or []
        if len(columns) > 1:
            distributor, decider = _COLUMN_ROLES[min(c, 1)]
            out[col["distributor"]] = tr.gettext(distributor)
            for pid in deciders:
                out[pid] = tr.gettext(decider)
            continue
        out[col["distributor"]] = tr.gettext(_ONE_COLUMN[0])
        for k, pid in enumerate(deciders):
            out[pid] = tr.gettext(_DECIDERS[min(k, 1)] if len(deciders) > 1
                                  else _ONE_COLUMN[1])
    return out


def phase_line(view: PublicView, tr: Tr = ENGLISH) -> str:
    """What is happening now, in a few words."""
    if view.get("finished"):
        return tr.gettext("Game over")
    phase = view.get("phase", "")
    name = _PHASE.get(phase)
    text = tr.gettext(name) if name is not None else phase.replace("_", " ").capitalize()
    ban = view.get("banishment")
    if ban and ban.get("district"):
        if ban.get("roll") is not None:
            return tr.gettext("{phase} in {district} (rolled {roll})").format(
                phase=text, district=ban["district"], roll=ban["roll"])
        return tr.gettext("{phase} in {district}").format(phase=text,
                                                           district=ban["district"])
    if ban and ban.get("reason") == "passage":
        return tr.gettext("{phase} after the passage").format(phase=text)
    return text


def waiting_line(view: PublicView, names: dict[str, str] | None, tr: Tr = ENGLISH) -> str:
    """Whose decision is awaited and what it is."""
    waiting = list(view.get("waiting_for") or [])
    if not waiting:
        return ""
    kinds = {(view.get("awaiting") or {}).get(p, "") for p in waiting}
    who = and_list([display(p, names) for p in waiting], tr)
    kind = kinds.pop() if len(kinds) == 1 else ""
    verb = awaited(kind, tr) if kind in AWAITED else tr.gettext("decide")
    return tr.gettext("Waiting for {players} to {action}").format(players=who, action=verb)


def hand_line(view: PublicView, tr: Tr = ENGLISH) -> str:
    """The revealed cards still to be played (public once an offer is taken)."""
    hand = view.get("hand")
    if not hand or not hand.get("cards"):
        return ""
    return tr.gettext("To play: {cards}").format(
        cards=", ".join(card_name(c, tr) for c in hand["cards"]))
