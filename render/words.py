"""The sentences on the picture, made from the public view only (no secret can reach them)."""

from __future__ import annotations

from engine.cards import card_label
from engine.phases import Awaited, Phase
from engine.views import PublicView

# What an awaited player must do, as a verb phrase ("Waiting for X to …", "X: …"): the one
# table of these words, for the picture and the bot's posts alike.
AWAITED: dict[str, str] = {
    Awaited.REROLL: "keep or reroll the set-up die",
    Awaited.BRIDGE: "place a set-up bridge",
    Awaited.SPLIT: "split their cards",
    Awaited.TAKE: "take an offer",
    Awaited.PLAY: "play a card",
    Awaited.BANISH: "choose a district to banish from",
    Awaited.VICTIMS: "choose whose aristocrats go",
}

_PHASE: dict[str, str] = {
    Phase.SETUP_REROLL: "Set-up: rolling for aristocrats",
    Phase.SETUP_BRIDGES: "Set-up: placing bridges",
    Phase.SPLIT: "Distributors are splitting cards",
    Phase.CHOOSE: "An offer is being chosen",
    Phase.PLAY: "Cards are being played",
    Phase.BANISH: "Banishment",
    Phase.BANISH_VICTIMS: "Banishment",
    Phase.GAME_OVER: "Game over",
}

_ROMAN = ("I", "II", "III")


def display(pid: str, names: dict[str, str] | None) -> str:
    """The name shown for a player: the given display name, else the pid."""
    name = (names or {}).get(pid, pid)
    return " ".join(str(name).split()) or pid  # no newlines or runs of spaces


def roles(view: PublicView) -> dict[str, str]:
    """pid -> role this round: 'Distributor I', 'Decision-maker II', 'Decision-maker 1'..."""
    out: dict[str, str] = {}
    columns = view.get("roles") or []
    for c, col in enumerate(columns):
        suffix = f" {_ROMAN[c]}" if len(columns) > 1 else ""
        out[col["distributor"]] = "Distributor" + suffix
        deciders = col.get("decision_makers") or []
        for k, pid in enumerate(deciders):
            if len(columns) > 1:
                out[pid] = "Decision-maker" + suffix
            else:
                out[pid] = "Decision-maker" + (f" {k + 1}" if len(deciders) > 1 else "")
    return out


def phase_line(view: PublicView) -> str:
    """What is happening now, in a few words."""
    if view.get("finished"):
        return "Game over"
    phase = view.get("phase", "")
    text = _PHASE.get(phase, phase.replace("_", " ").capitalize())
    ban = view.get("banishment")
    if ban and ban.get("district"):
        text += f" in {ban['district']}"
        if ban.get("roll") is not None:
            text += f" (rolled {ban['roll']})"
    elif ban and ban.get("reason") == "passage":
        text += " after the passage"
    return text


def waiting_line(view: PublicView, names: dict[str, str] | None) -> str:
    """Whose decision is awaited and what it is."""
    waiting = list(view.get("waiting_for") or [])
    if not waiting:
        return ""
    awaiting = view.get("awaiting") or {}
    kinds = {awaiting.get(p, "") for p in waiting}
    who = " and ".join(display(p, names) for p in waiting)
    verb = AWAITED.get(kinds.pop(), "decide") if len(kinds) == 1 else "decide"
    return f"Waiting for {who} to {verb}"


def hand_line(view: PublicView) -> str:
    """The revealed cards still to be played (public once an offer is taken)."""
    hand = view.get("hand")
    if not hand or not hand.get("cards"):
        return ""
    return "To play: " + ", ".join(card_label(c).replace("District: ", "")
                                    for c in hand["cards"])
