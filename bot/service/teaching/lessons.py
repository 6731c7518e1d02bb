"""The ideas a practice game explains, and which of them a change brings for the learner.

Pure (``step``): every idea the learner must weigh at their next decision comes before it,
read from the decision's kind and the cards it shows them (their private view: the cards
they drew to split, the offers they choose from, the hand they play), never from the list
of every legal action (a 3-player split has 55,980). Ideas the change's public events show
come at their first appearance, and a post with room left says the next idea every game
certainly brings (``AHEAD``), so the lessons are spread over the posts rather than piled on
the first split. Board Game Arena's tutorial guidelines: the goal first, then each idea just
before the learner needs it, short. The words are ``bot.text.lessons``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine import Event
from engine.cards import card_kind
from engine.views import PrivateView


class Topic(StrEnum):
    """One idea of the game, in the order a post that brings several says them."""

    GOAL = "goal"                # §1-§2, §8: aristocrats, districts, prestige
    BRIDGES = "bridges"          # §3.4 set-up bridges, the bridge card (R2, R9)
    SCORING = "scoring"          # §2 the two values, §6 first and second place
    ARISTOCRATS = "aristocrats"  # §5: district and transfer cards (R13)
    LIMIT = "limit"              # §4, §7: limit cards count toward 10
    DISTRIBUTOR = "distributor"  # §4: draw, split into offers (R5)
    CHOOSER = "chooser"          # §4: a decision-maker takes an offer
    DOGE = "doge"                # §5: routes, tolls, the scored district (R11, R12, R17)
    BANISHMENT = "banishment"    # §5 banishment card, §7.2 the passage's right (R10, R16)
    PASSAGE = "passage"          # §7: out at 10, the passage's scoring
    END = "end"                  # §8: the last passage and the final scoring


TOPICS: tuple[Topic, ...] = tuple(Topic)

# A card shown at a decision → the ideas needed to weigh it (by ``engine.card_kind``).
CARD_TOPICS: dict[str, tuple[Topic, ...]] = {
    "district": (Topic.ARISTOCRATS,),
    "transfer": (Topic.ARISTOCRATS,),  # the aristocrats' lesson explains the transfer card
    "bridge": (Topic.BRIDGES,),
    "doge": (Topic.DOGE, Topic.SCORING),  # a Doge card scores: what a scoring pays
    "banishment": (Topic.BANISHMENT,),
    "limit": (Topic.LIMIT,),
}

# The decision (the view's phase) → the ideas it needs whatever cards it shows.
PHASE_TOPICS: dict[str, tuple[Topic, ...]] = {
    "setup_bridges": (Topic.BRIDGES,),
    "split": (Topic.DISTRIBUTOR,),
    "choose": (Topic.CHOOSER,),
    "banish": (Topic.BANISHMENT, Topic.PASSAGE),  # the passage's banishment (R16)
    "banish_victims": (Topic.BANISHMENT,),
}

# Ideas every game brings soon, said ahead in a post that has room (in this order).
AHEAD: tuple[Topic, ...] = (Topic.SCORING, Topic.ARISTOCRATS, Topic.LIMIT)

MAX_PER_POST = 2  # "keep it short": more only when the learner's decision needs them all
MAX_AHEAD = 3  # a post at a decision is filled up to this with ``AHEAD`` lessons


def _weight(topics: Iterable[Topic]) -> int:
    """How much of a post lessons take: the goal counts twice (it says how to leave)."""
    return sum(2 if t is Topic.GOAL else 1 for t in topics)


def cards_shown(view: PrivateView) -> tuple[str, ...]:
    """The cards the awaited decision of ``view``'s player puts before them: their drawn
    cards at a split, the offers still to take at a choice, their hand in play."""
    phase = view["phase"]
    if phase == "split":
        return tuple(view["private"].get("drawn", ()))
    if phase == "choose" and view["choosing"] is not None:
        column = view["offers"][view["choosing"]["column"]]
        return tuple(c for o in column["offers"] if o["taken_by"] is None for c in o["cards"])
    if phase == "play" and view["hand"] is not None:
        return tuple(view["hand"]["cards"])
    return ()


def decision_topics(view: PrivateView | None) -> tuple[Topic, ...]:
    """Every idea the decision ``view``'s player is awaited for needs (None: no decision),
    from its kind and the cards it shows; in ``Topic`` order."""
    if view is None:
        return ()
    needed = set(PHASE_TOPICS.get(view["phase"], ()))
    for card in cards_shown(view):
        needed.update(CARD_TOPICS.get(card_kind(card), ()))
    return tuple(t for t in TOPICS if t in needed)


def _event_topics(event: Event) -> tuple[Topic, ...]:
    """The ideas a public event shows anyone watching."""
    match event.type:
        case "game_started":
            return (Topic.GOAL,)
        case "district_scored":
            return (Topic.SCORING,)
        case "banishment_rolled":
            return (Topic.BANISHMENT,)
        case "player_out" | "passage_scored":
            return (Topic.PASSAGE,)
        case "passage_started" if event.data.get("passage") == 3:
            return (Topic.END,)  # §8: the last passage begins; its end ends the game
        case "game_over":
            return (Topic.END,)
    return ()


@dataclass(frozen=True)
class Taught:
    """What a practice game has explained so far (stored with the game, so a restart
    neither repeats nor loses a lesson): ``shown`` in order; ``waiting``: ideas that
    appeared in a post already full of lessons, said in the next posts; ``off``: the
    learner skipped the lessons."""

    shown: tuple[Topic, ...] = ()
    off: bool = False
    waiting: tuple[Topic, ...] = ()

    def encode(self) -> str:
        """The stored text: the shown topics in order, then ``+topic`` for each waiting
        one, then ``off``; comma-separated."""
        return ",".join([*self.shown, *(f"+{t}" for t in self.waiting),
                         *(["off"] if self.off else [])])

    @classmethod
    def decode(cls, text: str | None) -> Taught:
        """The stored text's value; unknown words are ignored (a topic renamed later)."""
        words = [w for w in (text or "").split(",") if w]
        known = set(TOPICS)
        return cls(tuple(Topic(w) for w in words if w in known), "off" in words,
                   tuple(Topic(w[1:]) for w in words if w[1:] in known and w[0] == "+"))


def step(events: Sequence[Event], decision: Iterable[Topic], taught: Taught
         ) -> tuple[tuple[Topic, ...], Taught]:
    """The lessons a change brings the learner, in ``Topic`` order, and what is taught
    after it. Every idea of the learner's next ``decision`` (``decision_topics``; empty
    when not awaited) not shown yet comes now; ideas the change's public ``events`` show
    come with them up to ``MAX_PER_POST`` lessons a post, the rest in the next posts; a
    post at a decision says ``AHEAD`` ones while it has fewer than ``MAX_AHEAD``. Nothing
    once the lessons are off."""
    if taught.off:
        return (), taught
    decision = tuple(decision)
    needed = {t for t in decision if t not in taught.shown}
    seen = {t for e in events if e.visible_to is None for t in _event_topics(e)}
    told = [t for t in TOPICS if (t in seen or t in taught.waiting)
            and t not in taught.shown and t not in needed]
    room = max(0, MAX_PER_POST - len(needed))
    now = set(told[:room])
    if decision:
        for t in AHEAD:
            if t not in taught.shown and _weight(needed | now | {t}) <= MAX_AHEAD:
                now.add(t)
    show = tuple(t for t in TOPICS if t in needed or t in now)
    return show, Taught((*taught.shown, *show), taught.off,
                        tuple(t for t in told if t not in show))
