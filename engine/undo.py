"""Which actions may fairly be taken back: a rule, so it lives in the engine.

A player may take back their last action only if it drew nothing by chance and revealed
nothing hidden: taking it back and choosing again must give them no knowledge and no
second throw of the dice. So an action may NOT be taken back when it

- committed a split (R5: a committed split cannot be changed), whatever followed;
- rolled the die (a reroll of the set-up rolls, R3; a banishment, R10);
- drew cards or shuffled (a new round's roles and deal, a new passage's decks, R8);
- revealed offers (R5);
- ended the game (the final scoring reveals the seed, R15);
- or used the game's random numbers in any other way (a safety net: no such action today).

Everything else may be: placing an aristocrat, a bridge, a take-over, a transfer, a Doge
move and its route (R11), the choice of victims (R10), keeping four equal set-up rolls,
a discard, and taking an offer before its first card is played. Who may take it back and
when (only the player who made it, while nobody has acted since) is the caller's to check.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from .actions import Action, Split
from .events import Event
from .state import GameState


class UndoBlock(StrEnum):
    """Why an action cannot be taken back."""

    SPLIT = "split"    # a committed split (R5)
    ROLL = "roll"      # the die was rolled
    DRAW = "draw"      # cards were drawn or shuffled (a round or passage began)
    REVEAL = "reveal"  # offers were revealed
    END = "end"        # the game ended (and its seed was revealed)
    CHANCE = "chance"  # the game's random numbers were used otherwise


# The events that tell an action used chance or revealed something hidden.
BLOCKING_EVENTS: dict[str, UndoBlock] = {
    "setup_rerolled": UndoBlock.ROLL,
    "banishment_rolled": UndoBlock.ROLL,
    "round_started": UndoBlock.DRAW,  # roles drawn at random, cards dealt
    "cards_dealt": UndoBlock.DRAW,
    "cards_drawn": UndoBlock.DRAW,
    "action_deck_reshuffled": UndoBlock.DRAW,
    "passage_started": UndoBlock.DRAW,  # both decks shuffled
    "offers_revealed": UndoBlock.REVEAL,
    "game_over": UndoBlock.END,
}


def undo_block(before: GameState, action: Action, after: GameState,
               events: Iterable[Event]) -> UndoBlock | None:
    """Why ``action`` — which turned ``before`` into ``after`` with ``events`` (what
    ``apply`` returned) — may not be taken back, or None when it may. The first reason in
    the order of the events; a split is never taken back."""
    if isinstance(action, Split):
        return UndoBlock.SPLIT
    for event in events:
        block = BLOCKING_EVENTS.get(event.type)
        if block is not None:
            return block
    if after.rng != before.rng:
        return UndoBlock.CHANCE
    return None


def is_undoable(before: GameState, action: Action, after: GameState,
                events: Iterable[Event]) -> bool:
    """Whether ``action`` may be taken back (``undo_block`` is None)."""
    return undo_block(before, action, after, events) is None


__all__ = ["BLOCKING_EVENTS", "UndoBlock", "is_undoable", "undo_block"]
