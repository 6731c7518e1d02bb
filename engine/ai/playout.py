"""What a handful of action cards is worth to a player: played greedily on the board picture.

Cards are played in a fixed sensible order (bridges first so that district cards may hop
over them, the Doge last so that it scores the majorities just built) and each card takes
its best option by the value function. That order makes every sub-multiset of a drawn hand
a prefix walk, so all of a split's offers are valued in one small tree (``subset_values``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import BANISHMENT, BRIDGE, DOGE, TRANSFER, card_district
from ..rules.options import victim_choices
from .model import IDX, Board, Evaluator

_PRIORITY = {BRIDGE: 0, TRANSFER: 7, BANISHMENT: 8, DOGE: 9}


def play_order(card: str) -> int:
    """Bridges, then districts in board order, transfers, banishments and the Doge last."""
    d = card_district(card)
    return 1 + IDX[d] if d is not None else _PRIORITY[card]


def banish_outcome(ev: Evaluator, b: Board, seat: int, d: int, roll: int
                   ) -> tuple[float, Board]:
    """The banisher's best choice of victims (R10) for one roll: (value, board after)."""
    best: tuple[float, Board] | None = None
    for vec in victim_choices(b.counts[d], seat, roll):
        nb = b.copy()
        nb.banish(seat, d, vec, roll)
        v = ev.value(nb, seat)
        if best is None or v > best[0]:
            best = (v, nb)
    assert best is not None  # victim_choices always offers at least the empty removal
    return best


def banish_expectation(ev: Evaluator, b: Board, seat: int, d: int) -> float:
    """The value after naming ``d``, averaged over the six faces of the die."""
    return sum(banish_outcome(ev, b, seat, d, roll)[0] for roll in range(1, 7)) / 6


def best_banish(ev: Evaluator, b: Board, seat: int) -> tuple[int, float]:
    """(district, expected value) of the best banishment for ``seat``."""
    best = (0, float("-inf"))
    for d in range(6):
        if not any(b.counts[d]):
            v = ev.value(b, seat)
        else:
            v = banish_expectation(ev, b, seat, d)
        if v > best[1] + 1e-9:
            best = (d, v)
    return best


def card_moves(b: Board, seat: int, card: str) -> list[Board]:
    """The boards after each option of one card (an estimate of the legal options: the Doge
    takes the cheapest route to each district, take-overs stay in place or move to the best
    free pair). Empty if the card has no effect (R7)."""
    out: list[Board] = []
    srcs = b.sources(seat)
    district = card_district(card)
    if district is not None:
        d = IDX[district]
        dests = [d] + [y if x == d else x for x, y, o in b.bridges if o == seat and d in (x, y)]
        for dest in dests:
            for src in b.sources(seat, dest):  # R13: never from where it ends up
                nb = b.copy()
                nb.place(seat, dest, src)
                out.append(nb)
    elif card == BRIDGE:
        if not srcs:
            return out
        src = srcs[0]
        pairs = b.new_bridge_pairs(seat)
        if not b.bridges_full():
            for x, y in pairs:
                nb = b.copy()
                nb.build(seat, x, y, src)
                out.append(nb)
        else:
            for old in b.bridges:
                if old[2] == seat:
                    continue
                here = [(old[0], old[1])] if (old[0], old[1]) in pairs else []
                for x, y in here + pairs[:2]:
                    nb = b.copy()
                    nb.take_over(seat, old, x, y, src)
                    out.append(nb)
    elif card == TRANSFER:
        for d in range(6):
            for victim in range(b.n):
                if victim != seat and b.counts[d][victim] > 0:
                    for src in b.sources(seat, d):  # R13: never from where it ends up
                        nb = b.copy()
                        nb.transfer(seat, d, victim, src)
                        out.append(nb)
    elif card == DOGE:
        for target, _cost, payees, canal in b.doge_targets(seat):
            nb = b.copy()
            nb.doge_to(seat, target, payees, canal)
            out.append(nb)
    return out


def play_card(ev: Evaluator, b: Board, seat: int, card: str,
              banish_gain: float | None = None) -> tuple[Board, float]:
    """Play one card for ``seat`` at its best: (board after, extra value the board does not
    show). A banishment's chance is not a board: its expected gain is the extra value,
    ``banish_gain`` when the caller already knows it."""
    if card == BANISHMENT:
        if banish_gain is None:
            _, v = best_banish(ev, b, seat)
            banish_gain = v - ev.value(b, seat)
        return b, banish_gain
    best: tuple[float, Board] | None = None
    for nb in card_moves(b, seat, card):
        v = ev.value(nb, seat)
        if best is None or v > best[0]:
            best = (v, nb)
    return (b, 0.0) if best is None else (best[1], 0.0)


def subset_values(ev: Evaluator, b: Board, seat: int, cards: Sequence[str]) -> list[float]:
    """``out[mask]``: what the cards whose bits are in ``mask`` gain ``seat``. ``cards`` must
    be in ``play_order``; every subset is a walk along that order, so prefixes are shared and
    equal sub-multisets are played once."""
    n = len(cards)
    v0 = ev.value(b, seat)
    banish_gain = None
    if BANISHMENT in cards:
        _, v = best_banish(ev, b, seat)
        banish_gain = v - v0
    memo: dict[tuple[int, tuple[str, ...]], list[float]] = {}

    def sub(i: int, played: tuple[str, ...], board: Board, extra: float) -> list[float]:
        # values indexed by the mask of cards[i:] (bit j = card i + j) after ``played``
        key = (i, played)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if i == n:
            res = [ev.value(board, seat) + extra - v0]
        else:
            ex = sub(i + 1, played, board, extra)
            nb, x = play_card(ev, board, seat, cards[i], banish_gain)
            inc = sub(i + 1, played + (cards[i],), nb, extra + x)
            res = [0.0] * (2 * len(ex))
            for m, v in enumerate(ex):
                res[m << 1] = v
                res[(m << 1) | 1] = inc[m]
        memo[key] = res
        return res

    return sub(0, (), b, 0.0)
