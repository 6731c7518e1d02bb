"""How long the pictures' words get: the board's alt text (Discord's limit 1,024
characters), ``/sanmarco board as_text`` (a message: 2,000) and the summary's and replay's
alt text, at every step of random 4-player games, in English, German and French, with
ordinary names and with the longest Discord allows (32 characters each).

    python benchmarks/alt_text_sizes.py [--games 50]

"shortened" counts the boards whose alt text had to shorten the names to fit; "cut" those
whose alt text was cut at the end (the last resort); "dropped" the ``as_text`` answers that
left their last lines out (the revealed offers first) to stay within a message.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot import text  # noqa: E402
from bot.i18n import translations  # noqa: E402
from engine import Event, apply, legal_actions, new_game  # noqa: E402

IDS = [str(10**17 + k) for k in range(4)]
NAMES = {"ordinary": {p: n for p, n in zip(IDS, ("ann", "bob", "cid", "dee"), strict=True)},
         "32 characters": {p: "Ærøskøbing-Großglockner-Éloïse-" + str(k)
                           for k, p in enumerate(IDS)}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    print(f"{args.games} random 4-player games, every step")
    print(f"{'language':8} {'names':14} {'boards':>7} {'alt max':>8} {'shortened':>9} "
          f"{'cut':>4} {'as_text max':>11} {'dropped':>7} {'summary max':>11} {'replay max':>10}")
    for language in ("en", "de", "fr"):
        tr = translations(language)
        for label, names in NAMES.items():
            boards = shortened = cut = dropped = 0
            alt_max = words_max = summary_max = replay_max = 0
            for seed in range(args.games):
                rng = random.Random(seed)
                state = new_game(IDS, seed=seed)
                events: list[Event] = []
                steps = 0
                while True:
                    view = state.public_view()
                    alt = text.board_alt(tr, view, names)
                    boards += 1
                    alt_max = max(alt_max, len(alt))
                    cut += alt.endswith("…")
                    shortened += not all(n in alt for n in names.values())
                    words = text.board_words(tr, view, names)
                    words_max = max(words_max, len(words))
                    dropped += words.endswith("…")
                    if state.finished:
                        break
                    pid = rng.choice(list(state.waiting_for))
                    state, told = apply(state, pid, rng.choice(legal_actions(state, pid)))
                    events += told
                    steps += 1
                view = state.public_view()
                summary_max = max(summary_max, len(text.summary_alt(tr, view, events, names)))
                replay_max = max(replay_max, len(text.replay_alt(tr, seed, steps, view, names)))
            print(f"{language:8} {label:14} {boards:>7} {alt_max:>8} {shortened:>9} {cut:>4} "
                  f"{words_max:>11} {dropped:>7} {summary_max:>11} {replay_max:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
