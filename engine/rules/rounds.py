"""A round (RULES.md §4): roles, drawing, the secret splits (R5), choosing and playing offers."""

from __future__ import annotations

from ..cards import card_order, is_limit, limit_value
from ..phases import Phase
from ..state import Column
from . import options, passage
from .work import Work


def _draw(w: Work, n_action: int, n_limit: int) -> list[str]:
    """Draw for one distributor. R8: an empty action deck is refilled from the shuffled
    discards; the limit deck is never refilled within a passage."""
    drawn: list[str] = []
    for _ in range(n_action):
        if not w.action_deck and w.action_discard:
            w.action_deck = w.rng.shuffled(w.action_discard)
            w.action_discard = []
            w.emit("action_deck_reshuffled", cards=len(w.action_deck))
        if w.action_deck:
            drawn.append(w.action_deck.pop())
    for _ in range(n_limit):
        if w.limit_deck:
            drawn.append(w.limit_deck.pop())
    return sorted(drawn, key=card_order)


def start_round(w: Work, *, extra: bool) -> None:
    """Draw roles among the players still in the passage, deal, and wait for the splits.

    4 players: starter = distributor I; then decision-maker I, distributor II, decision-maker
    II drawn at random. 3: starter distributes to decision-makers 1 and 2. 2: one each.
    """
    active = sorted(w.in_passage)
    assert w.starter is not None and w.starter in active
    others = w.rng.shuffled([s for s in active if s != w.starter])
    w.round += 1
    w.extra_round = extra
    specs: list[tuple[int, tuple[int, ...], int, int]]
    if len(active) == 4:
        specs = [(w.starter, (others[0],), 5, 3), (others[1], (others[2],), 5, 3)]
    elif len(active) == 3:
        specs = [(w.starter, (others[0], others[1]), 6, 4)]
    else:
        specs = [(w.starter, (others[0],), 5, 3)]
    w.columns = []
    for dist, deciders, na, nl in specs:
        drawn = _draw(w, na, nl)
        w.columns.append(Column(dist, deciders, tuple(drawn), None, False,
                                (None,) * (len(deciders) + 1)))
    w.column = 0
    w.steps = []
    w.hand, w.hand_player = [], None
    w.phase = Phase.SPLIT
    w.emit("round_started", passage=w.passage, round=w.round, extra=extra,
           starter=w.pid(w.starter),
           roles=[{"distributor": w.pid(c.distributor),
                   "decision_makers": [w.pid(s) for s in c.deciders]} for c in w.columns])
    for c in w.columns:
        who = w.pid(c.distributor)
        n_limit = sum(1 for x in c.drawn if is_limit(x))
        w.emit("cards_dealt", player=who, action=len(c.drawn) - n_limit, limit=n_limit)
        w.emit("cards_drawn", visible_to=(who,), player=who, cards=list(c.drawn))


def commit_split(w: Work, seat: int, assignment: tuple[int, ...]) -> None:
    """A distributor commits their split; R5: reveal only when every split is in."""
    i = next(i for i, c in enumerate(w.columns) if c.distributor == seat and c.split is None)
    c = w.columns[i]
    w.columns[i] = Column(c.distributor, c.deciders, c.drawn, tuple(assignment), False, c.taken)
    w.emit("split_committed", player=w.pid(seat))
    if all(c.split is not None for c in w.columns):
        _reveal(w, 0)
        advance(w)


def _reveal(w: Work, i: int) -> None:
    c = w.columns[i]
    w.columns[i] = Column(c.distributor, c.deciders, c.drawn, c.split, True, c.taken)
    w.column = i
    w.emit("offers_revealed", distributor=w.pid(c.distributor),
           offers=[sorted(w.columns[i].offer(k), key=card_order) for k in range(c.n_offers)])
    steps: list[tuple[str, int]] = []
    for s in c.deciders:
        steps += [("take", s)]
    steps.append(("last", c.distributor))
    w.steps = steps


def _give_offer(w: Work, seat: int, k: int) -> None:
    """The player lays the offer's limit cards face up and will resolve its action cards."""
    c = w.columns[w.column]
    cards = sorted(c.offer(k), key=card_order)
    taken = list(c.taken)
    taken[k] = seat
    w.columns[w.column] = Column(c.distributor, c.deciders, c.drawn, c.split, c.revealed,
                                 tuple(taken))
    limits = [limit_value(x) for x in cards if is_limit(x)]
    w.limit_cards[seat].extend(limits)
    w.hand = [x for x in cards if not is_limit(x)]
    w.hand_player = seat
    w.emit("offer_taken", player=w.pid(seat), distributor=w.pid(c.distributor), index=k,
           cards=cards, limit_total=sum(w.limit_cards[seat]))


def take_offer(w: Work, seat: int, k: int) -> None:
    w.steps.pop(0)
    _give_offer(w, seat, k)
    advance(w)


def advance(w: Work) -> None:
    """Move on to the next decision: the current hand, the next step of the column, the next
    column (revealed only now, R5), or the end of the round."""
    while True:
        if w.hand_player is not None:
            seat = w.hand_player
            # R7: cards with no legal effect are discarded when nothing else is left to play.
            if w.hand and all(not options.card_options(w, seat, c) for c in set(w.hand)):
                for card in list(w.hand):
                    discard(w, seat, card, reason="no legal effect")
            if w.hand:
                w.phase = Phase.PLAY
                return
            w.hand_player = None
        if w.steps:
            kind, seat = w.steps[0]
            if kind == "take":
                w.phase = Phase.CHOOSE
                return
            w.steps.pop(0)
            c = w.columns[w.column]
            left = [k for k in range(c.n_offers) if c.taken[k] is None]
            _give_offer(w, seat, left[0])
            continue
        if w.column + 1 < len(w.columns):
            _reveal(w, w.column + 1)
            continue
        passage.end_round(w)
        return


def discard(w: Work, seat: int, card: str, *, reason: str) -> None:
    w.hand.remove(card)
    w.action_discard.append(card)
    w.emit("card_discarded", player=w.pid(seat), card=card, reason=reason)


def play_card(w: Work, seat: int, card: str) -> None:
    """Move a played card from the hand to the discard pile and tell it."""
    w.hand.remove(card)
    w.action_discard.append(card)
    w.emit("card_played", player=w.pid(seat), card=card)

