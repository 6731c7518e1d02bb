"""What the private panels offer, built from real games (no Discord needed)."""

from __future__ import annotations

import random

from bot.cogs.sanmarco.components import screens
from bot.cogs.sanmarco.components.custom_ids import Ref
from bot.i18n import ENGLISH as EN
from engine import DeclineBanishment, apply, legal_actions, new_game


def test_the_passage_banishment_offers_no_banishment_beside_the_districts_r16() -> None:
    """R16: the lowest player may decline the passage's banishment; the chooser offers
    "No banishment" as one of the choices, next to the six districts."""
    found = 0
    for seed in range(40):
        state = new_game(["1", "2", "3"], seed=seed)
        rng = random.Random(seed)
        while not state.finished:
            pid = state.waiting_for[0]
            actions = legal_actions(state, pid)
            if DeclineBanishment() in actions:
                screen = screens.chooser(EN, Ref(1, 1, state.version), pid, actions, [])
                assert screen.view is not None
                [select] = [i.item for i in screen.view.children
                            if getattr(i.item, "options", None)]
                labels = [o.label for o in select.options]  # type: ignore[attr-defined]
                assert "No banishment" in labels and len(labels) == 7, labels
                found += 1
            state, _ = apply(state, pid, rng.choice(actions))
        if found >= 3:
            return
    raise AssertionError("no passage banishment in 40 random games")
