"""The phases of a game and the kinds of decision awaited in them.

``StrEnum`` so that a phase *is* its text: views, events and the stored JSON keep the plain
strings they always had ("setup_reroll", "play", ...), and code compares against names that
a typo cannot slip past.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What the game is doing now (``GameState.phase``, the public view's ``phase``)."""

    SETUP_REROLL = "setup_reroll"      # R3: keep or reroll four equal set-up rolls
    SETUP_BRIDGES = "setup_bridges"    # §3.4, R4
    SPLIT = "split"                    # distributors split their cards (R5)
    CHOOSE = "choose"                  # a decision-maker takes an offer
    PLAY = "play"                      # the action cards of an offer are resolved
    BANISH = "banish"                  # §7: the passage's lowest player names a district (R16)
    BANISH_VICTIMS = "banish_victims"  # R10: the banisher chooses who loses aristocrats
    GAME_OVER = "game_over"


class Awaited(StrEnum):
    """The kind of decision awaited from a player (the public view's ``awaiting``)."""

    REROLL = "reroll"
    BRIDGE = "bridge"
    SPLIT = "split"
    TAKE = "take"
    PLAY = "play"
    BANISH = "banish"
    VICTIMS = "victims"


AWAITED: dict[Phase, Awaited] = {
    Phase.SETUP_REROLL: Awaited.REROLL,
    Phase.SETUP_BRIDGES: Awaited.BRIDGE,
    Phase.SPLIT: Awaited.SPLIT,
    Phase.CHOOSE: Awaited.TAKE,
    Phase.PLAY: Awaited.PLAY,
    Phase.BANISH: Awaited.BANISH,
    Phase.BANISH_VICTIMS: Awaited.VICTIMS,
}
