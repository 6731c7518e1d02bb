"""San Marco's rules as a pure library: no I/O, no asyncio, no Discord, no Pillow.

    state = new_game(["111", "222", "333"], seed=42)
    for pid in state.waiting_for: legal_actions(state, pid)
    state, events = apply(state, pid, action)      # or raises IllegalAction
    state.public_view(); state.private_view(pid); state.to_json(); GameState.from_json(text)

See RULES.md for the rules (rulings R1-R15) and docs/ENGINE_CONTRACT.md for the surface.
"""

from . import board, cards
from .actions import (
    Action,
    Banish,
    ChooseBanished,
    Crossing,
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
from .describe import describe, doge_cost
from .errors import IllegalAction, InvalidState, MalformedAction
from .events import Event, events_for, public_events
from .game import apply, card_of, legal_actions, new_game
from .state import GameState

BOARD = board.DISTRICTS

__all__ = [
    "BOARD", "Action", "Banish", "ChooseBanished", "Crossing", "DiscardCard", "Doge", "Event",
    "GameState", "IllegalAction", "InvalidState", "KeepRolls", "MalformedAction",
    "PlaceAristocrat", "PlaceBridge", "Reroll", "Split", "TakeOffer", "TakeOverBridge",
    "Transfer", "apply", "board", "card_of", "cards", "decode", "describe", "doge_cost",
    "events_for", "legal_actions", "new_game", "public_events",
]
