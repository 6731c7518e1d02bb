"""The ideas a practice game explains, and which of them a change brings for the learner.

Pure (``step``): a lesson is due at its idea's first appearance, read from the change's
public events and the learner's next decision (the kinds of their legal actions, in their
private view), given the lessons already shown. Board Game Arena's tutorial guidelines: the
goal first, then each idea just before the learner needs it, short. The words are
``bot.text.lessons``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine import Action, Event


class Topic(StrEnum):
    """One idea of the game, in the order a game usually shows them first (a post that
    brings several says them in this order)."""

    GOAL = "goal"                # §1-§2, §8: aristocrats, districts, prestige
    BRIDGES = "bridges"          # §3.4 set-up bridges, the bridge card (R2, R9)
    DISTRIBUTOR = "distributor"  # §4: draw, split into offers (R5)
    CHOOSER = "chooser"          # §4: a decision-maker takes an offer
    LIMIT = "limit"              # §4, §7: limit cards count toward 10
    ARISTOCRATS = "aristocrats"  # §5: district and transfer cards (R13)
    DOGE = "doge"                # §5: routes, tolls, the scored district (R11, R12, R17)
    SCORING = "scoring"          # §6: first and second place
    BANISHMENT = "banishment"    # §5 banishment card, §7.2 the passage's right (R10, R16)
    PASSAGE = "passage"          # §7: out at 10, the passage's scoring
    END = "end"                  # §8: the last passage and the final scoring


TOPICS: tuple[Topic, ...] = tuple(Topic)

# The learner's decision (an action's kind) → the ideas it needs first.
DECISION_TOPICS: dict[str, tuple[Topic, ...]] = {
    "split": (Topic.DISTRIBUTOR, Topic.LIMIT),
    "take": (Topic.CHOOSER, Topic.LIMIT),
    "bridge": (Topic.BRIDGES,),
    "takeover": (Topic.BRIDGES,),
    "district": (Topic.ARISTOCRATS,),
    "transfer": (Topic.ARISTOCRATS,),
    "doge": (Topic.DOGE,),
    "banish": (Topic.BANISHMENT,),
    "no_banish": (Topic.BANISHMENT,),
    "victims": (Topic.BANISHMENT,),
}


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


MAX_PER_POST = 2  # "keep it short": more only when the learner's decision needs them all


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


def step(events: Sequence[Event], decision: Sequence[Action], taught: Taught
         ) -> tuple[tuple[Topic, ...], Taught]:
    """The lessons a change brings the learner, in ``Topic`` order, and what is taught
    after it. Every idea the learner's next ``decision`` needs (their legal actions now;
    empty when not awaited) and not shown yet comes now; ideas the change's public
    ``events`` show come with them up to ``MAX_PER_POST`` lessons a post, the rest in the
    next posts. Nothing once the lessons are off."""
    if taught.off:
        return (), taught
    needed = {t for a in decision for t in DECISION_TOPICS.get(a.kind, ())
              if t not in taught.shown}
    seen = {t for e in events if e.visible_to is None for t in _event_topics(e)}
    told = [t for t in TOPICS if (t in seen or t in taught.waiting)
            and t not in taught.shown and t not in needed]
    room = max(0, MAX_PER_POST - len(needed))
    show = tuple(t for t in TOPICS if t in needed or t in told[:room])
    return show, Taught((*taught.shown, *show), taught.off, tuple(told[room:]))


def needed_by(action: Action) -> tuple[Topic, ...]:
    """The lessons a learner should have read before deciding ``action``."""
    return DECISION_TOPICS.get(action.kind, ())
