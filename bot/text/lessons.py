"""A practice game's explanations: two or three sentences per idea (what is happening, what
the learner may do now), in the rule books' words; the rulings they state are RULES.md's.
Which lesson a post carries is ``bot.service.teaching.lessons``' choice (``Post.lessons``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, Tr
from bot.service.teaching.lessons import Topic
from engine.board import DISTRICTS

from .markup import EVENT_LINES_LIMIT, MAX_CONTENT, channel
from .names import who
from .servers import MAX_THREAD_NAME

NOW_ROOM = 300  # what a post says after its story and lessons: who is away, the Now line
CUT_ROOM = 60  # a story cut short ends with "… and 12 more (see /sanmarco game log)."

LESSONS: dict[Topic, str] = {
    # §1, §2, §8
    Topic.GOAL: N_(
        "Welcome to your practice game! You place aristocrats in Venice's six districts. "
        "Whenever the Doge scores a district, the players with the most aristocrats there "
        "gain prestige; after three passages the most prestige wins. I explain each idea "
        "here just before you need it."),
    # §3.4, §5 bridge card, R2, R9
    Topic.BRIDGES: N_(
        "A bridge joins two neighbouring districts and carries one of your aristocrats: the "
        "Doge crosses your own bridges for free, and a district card can send an aristocrat "
        "on over one. A pair takes at most 3 bridges, one per player; once all 12 are built, "
        "a bridge card takes over someone else's. You choose the pair from a list."),
    # §2 the values, §6
    Topic.SCORING: N_(
        "When a district is scored, the player with the most aristocrats there alone gets "
        "its first value, the next one alone its second: {values}. Players tied for the most "
        "each get the second value and nobody else scores; a tie for second gets nothing."),
    # §4, R5
    Topic.DISTRIBUTOR: N_(
        "This round you are the distributor: you drew cards only you can see and split them "
        "into offers of at least one card each. The others each take an offer and you play "
        "the one left, so make every offer one you can live with: **Build your offers**, "
        "then **Commit offers**."),
    # §4
    Topic.CHOOSER: N_(
        "You are a decision-maker: take one of the distributor's offers and play all its "
        "cards; the distributor plays the offer nobody took. Press the button of the offer "
        "you want."),
    # §4 playing an offer, §7
    Topic.LIMIT: N_(
        "Among the cards are limit cards worth 1 to 3; those in your offer stay in front of "
        "you until the passage ends. Fewer limit points pay: then everyone under 10 gains the "
        "difference to the highest limit total in prestige, and with 10 or more you are out "
        "of the passage after the round."),
    # §5 district and transfer cards, R13
    Topic.ARISTOCRATS: N_(
        "A district card puts one of your aristocrats into its district, or there and on "
        "over one of your own bridges; a transfer card replaces an opponent's aristocrat with "
        "one of yours, in the same district. You play every card of your offer, in any "
        "order: **Play next card**, then choose from the lists."),
    # §5 Doge card, R11, R12, R17
    Topic.DOGE: N_(
        "A Doge card scores a district. The first puts the Doge anywhere; later you score "
        "where it stands or move it over bridges: your own are free, another player's costs "
        "1 prestige paid to its owner, and from a district without bridges you may pay 2 to "
        "cross a canal. Each choice in the list names a target and its cost."),
    # §5 banishment card, §7.2, R10, R16
    Topic.BANISHMENT: N_(
        "A banishment names a district and rolls the die: that many aristocrats leave it, "
        "opponents' first, and the banisher chooses whose. When a passage ends, the single "
        "player with the fewest limit points may banish, or decline. You choose the district "
        "from a list."),
    # §7
    Topic.PASSAGE: N_(
        "After each round, a player with 10 or more limit points is out of the passage. Once "
        "someone is out, the others play one more round (none if at most one is left) and the "
        "passage ends: "
        "everyone under 10 gains the difference to the highest limit total in prestige, the "
        "limit cards go back, and the next passage begins."),
    # §8, R14
    Topic.END: N_(
        "This is the third and last passage. When it ends, every district is scored once "
        "more wherever the Doge stands, and the most prestige wins; a tie goes to the most "
        "aristocrats in San Marco."),
}


# Said with the first lesson: stopping needs nothing, and the command brings the learner back.
COME_BACK = N_("You may leave whenever you like: the game waits for you, and `/sanmarco game "
               "learn` brings you back here. **Skip explanations** stops them; **End "
               "practice** ends the game.")


def lesson_text(tr: Tr, topic: str) -> str:
    """One lesson in the reader's language. Raises KeyError for a topic with no words."""
    words = tr.gettext(LESSONS[Topic(topic)])
    if topic == Topic.SCORING:  # the values are the board's (R1: one data table)
        words = words.format(values=", ".join(f"{d.name} {d.first}/{d.second}"
                                              for d in DISTRICTS))
    return words


def lessons_text(tr: Tr, topics: Sequence[str]) -> list[str]:
    """A post's lessons, in order; a topic this bot has no words for (a stored post of a
    later version) is left out rather than failing the post. The first, the goal, comes
    with how to stop and come back (``COME_BACK``)."""
    out: list[str] = []
    for t in topics:
        if t in set(Topic):
            out.append(lesson_text(tr, t))
            if t == Topic.GOAL:
                out.append(tr.gettext(COME_BACK))
    return out


def story_room(tr: Tr, topics: Sequence[str]) -> int:
    """How long a post's story of what happened may be beside these lessons (the limit
    ``events_text`` cuts it to), so the post stays within Discord's 2,000 characters."""
    said = sum(len(line) + 1 for line in lessons_text(tr, topics))
    return min(EVENT_LINES_LIMIT, MAX_CONTENT - NOW_ROOM - said - CUT_ROOM)


# ---------------------------------------------------------------------------- the adapter's words
def practice_thread_name(tr: Tr, name: str) -> str:
    """The learner's private thread: ``Practice — ann`` (Discord's 100 characters)."""
    return tr.gettext("Practice — {name}").format(name=name)[:MAX_THREAD_NAME]


def practice_opened(tr: Tr, thread: int) -> str:
    """The private answer to ``/sanmarco game learn``: where the practice game is."""
    return tr.gettext("Your practice game is open in {thread}, a private thread only you and I "
                      "see. I explain each idea there the first time it comes up.").format(
        thread=channel(thread))


def practice_on_its_way(tr: Tr) -> str:
    """Said with ``practice_opened`` when the first post is still being made (a busy
    machine draws the board slowly): it comes, and Discord is not to blame."""
    return tr.gettext("Its first post is still being prepared and will appear there in a "
                      "moment.")


def lessons_skipped(tr: Tr, changed: bool) -> str:
    """The answer to Skip explanations (``changed``: they were on until now)."""
    if changed:
        return tr.gettext("Done: no more explanations in this practice game. `/sanmarco game "
                          "rules` sums up any rule.")
    return tr.gettext("The explanations are already off in this practice game.")


def practice_ended(tr: Tr, pid: str) -> str:
    """The post of a practice game its learner ended: ``learn`` opens another (not ``game
    new``: that is a rated lobby)."""
    return tr.gettext("{player} ended the practice game. `/sanmarco game learn` starts "
                      "another whenever you like.").format(player=who(tr, pid))


def learn_pointer(tr: Tr) -> str:
    """The line a newcomer's first answer on a server ends with (once per person)."""
    return tr.gettext("New to San Marco? `/sanmarco game learn` opens a practice game against "
                      "the computer in a private thread, explaining each idea as it comes up.")
