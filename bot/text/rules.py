"""``/sanmarco game rules``: one summary per topic, in each language with its rule book's words
(tests/bot/test_rules.py checks each against its book)."""

from __future__ import annotations

from bot.i18n import N_, Tr

RULE_TOPICS: dict[str, str] = {
    "overview": N_("San Marco: place aristocrats in Venice's six districts; the Doge scores "
                   "them. Three passages; most prestige wins (RULES.md)."),
    "round": N_("Each round a distributor draws cards and splits them into offers; "
                "decision-makers take one offer each, the distributor plays the last. Limit "
                "cards count toward 10: at 10 you are out of the passage (RULES.md §4, §7)."),
    "cards": N_("District: place an aristocrat (optionally hop over your bridge). Bridge: "
                "build one (or take one over when all 12 are out). Transfer: replace an "
                "opposing aristocrat. Banishment: name a district, roll, remove that many. "
                "Doge: score a district (RULES.md §5)."),
    "doge": N_("The Doge scores where it stands or after moving over bridges: your own "
               "bridges are free, others' cost 1 prestige paid to the owner; from a bridgeless "
               "district you may pay 2 to cross a canal (R11, R12). A route never enters a "
               "district twice (R17)."),
    "scoring": N_("When a district is scored, the player with the most aristocrats there "
                  "alone gets the higher number; players tied for the most each get the lower "
                  "number. The second alone gets the lower number (RULES.md §6)."),
    "passage": N_("After each round, 10+ limit points puts you out. A passage ends as "
                  "RULES.md §7 says; each player with fewer than 10 limit points gains the "
                  "difference to the passage's highest limit total in prestige. The single "
                  "player with the fewest limit points may banish (R16: or decline); a tie for "
                  "fewest: no banishment."),
    "secrets": N_("A distributor's drawn cards and how they are split into offers are seen "
                  "only by that distributor until the offers are revealed (R15)."),
    "seats": N_("Absent players: `/sanmarco seat replace` hands a seat to a computer player, "
                "or with `by:` to a person who has no seat in the game; the seat's player or "
                "Manage Channel does it at once, otherwise the other players vote. The new "
                "player plays on with the seat's cards and points. The leaderboard rates "
                "only seats one person played from start to end; the server's history lists "
                "the game for everyone who played it."),
}
RULE_TOPIC_NAMES: tuple[str, ...] = tuple(RULE_TOPICS)


def rule_topic(tr: Tr, topic: str) -> str | None:
    """``/sanmarco game rules``: the summary of a topic (None: no such topic)."""
    summary = RULE_TOPICS.get(topic)
    return tr.gettext(summary) if summary is not None else None
