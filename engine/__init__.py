"""San Marco's rules as a pure library: no I/O, no asyncio, no Discord, no Pillow.

    state, events = start_game(["111", "222", "333"], seed=42)   # or new_game(...) -> state
    for pid in state.waiting_for: legal_actions(state, pid)      # tuple[Action, ...]
    state, events = apply(state, pid, action)      # an Action value; text only via decode()
    state.public_view(); state.private_view(pid)   # PublicView / PrivateView (engine.views)
    state.to_json(); GameState.from_json(text)

Refusals are ActionError: MalformedAction (not an action at all, ``action.malformed``) or
IllegalAction (a rule refusal with its own stable code); ERROR_CODES lists every code.
``action.public_encode()`` is what a log may show of an action (a split stays secret, R15).
``undo_block(before, action, after, events)`` says why an action may not be taken back (it
drew or revealed something, R5), or None when it may (engine/undo.py).

See RULES.md for the rules (rulings R1-R17) and docs/ENGINE_CONTRACT.md for the surface.
"""

from . import board, cards
from .actions import (
    Action,
    Banish,
    ChooseBanished,
    Crossing,
    DeclineBanishment,
    DiscardCard,
    Doge,
    KeepRolls,
    PlaceAristocrat,
    PlaceBridge,
    Reroll,
    Split,
    TakeOffer,
    TakeOverBridge,
    Transfer,
    decode,
)
from .describe import describe, doge_cost, doge_payments
from .errors import (
    ERROR_CODES,
    ERROR_PARAMS,
    ActionError,
    IllegalAction,
    InvalidState,
    MalformedAction,
)
from .events import Event, events_for, public_events
from .game import apply, card_of, legal_actions, new_game, start_game
from .phases import Awaited, Phase
from .state import GameState
from .undo import UndoBlock, is_undoable, undo_block
from .views import PrivateView, PublicView

BOARD = board.DISTRICTS

__all__ = [
    "BOARD", "ERROR_CODES", "ERROR_PARAMS", "Action", "ActionError", "Awaited", "Banish",
    "ChooseBanished",
    "Crossing", "DeclineBanishment", "DiscardCard", "Doge", "Event", "GameState",
    "IllegalAction", "InvalidState", "KeepRolls", "MalformedAction", "Phase",
    "PlaceAristocrat", "PlaceBridge", "PrivateView", "PublicView", "Reroll", "Split",
    "TakeOffer", "TakeOverBridge", "Transfer", "UndoBlock", "apply", "board", "card_of",
    "cards", "decode",
    "describe", "doge_cost", "doge_payments", "events_for", "is_undoable", "legal_actions",
    "new_game", "public_events",
    "start_game", "undo_block",
]
