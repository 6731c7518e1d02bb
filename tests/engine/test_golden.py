"""Golden playthroughs (OpenSpiel's integration_tests/playthroughs): a seed and a fixed
sequence of choices give a transcript of every action, public event and score. Any change in
the rules' behaviour shows up as a diff to review.

Regenerate after an intended rule change: ``SANMARCO_REGEN_GOLDEN=1 pytest tests/engine``.
"""

import json
import os
import random
from pathlib import Path

import pytest

from engine import apply, legal_actions, new_game, public_events

GOLDEN = Path(__file__).parent / "golden"


def transcript(n: int, seed: int) -> str:
    rng = random.Random(seed)
    s = new_game([str(100 + i) for i in range(n)], seed)
    lines = [json.dumps({"seats": list(s.players), "rolls": s.public_view()["setup_rolls"]})]
    while not s.finished:
        pid = s.waiting_for[0]
        action = rng.choice(legal_actions(s, pid))
        s, events = apply(s, pid, action)
        lines.append(json.dumps({"pid": pid, "action": action.encode(),
                                 "events": [e.to_dict() for e in public_events(events)],
                                 "prestige": list(s.prestige)}, sort_keys=True))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("n", "seed"), [(3, 1), (4, 2)])
def test_golden_playthrough(n, seed):
    path = GOLDEN / f"playthrough_{n}p_seed{seed}.jsonl"
    text = transcript(n, seed)
    if os.environ.get("SANMARCO_REGEN_GOLDEN") or not path.exists():
        path.write_text(text)
    assert text == path.read_text()
