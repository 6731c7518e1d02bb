"""Every sentence the bot says: one table for error codes, one function per event.

Only public facts go through here (public events, public views); a distributor's cards are
formatted solely by ``builder_text``, whose output goes to that distributor's ephemeral
message (R15).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.cards import card_kind, card_label, is_limit, limit_value

# Error codes (engine and service) -> what a player reads. One place, one sentence each.
ERRORS: dict[str, str] = {
    "action.malformed": "That choice is not something I understand.",
    "action.unknown_player": "You are not playing in this game.",
    "action.not_your_turn": "It is not your turn.",
    "action.wrong_phase": "That is not what the game is waiting for right now.",
    "action.illegal": "The rules do not allow that move now.",
    "game.over": "This game is over.",
    "state.stale": "That prompt is outdated.",
    "game.none": "There is no game in this channel. Start one with `/sanmarco new`.",
    "game.exists": "This channel already has a game. `/sanmarco status` shows it.",
    "game.not_started": "The game has not started yet.",
    "game.started": "The game has already started.",
    "game.finished": "This game is over.",
    "game.abandoned": "This game was abandoned. `/sanmarco new` opens another.",
    "lobby.full": "The game is full.",
    "lobby.already_joined": "You have already joined.",
    "lobby.not_joined": "You have not joined this game.",
    "lobby.not_enough": "San Marco needs at least 3 players: ask others to press Join.",
    "lobby.not_creator": "Only the player who opened the game can start it.",
    "player.not_in_game": "You are not playing in this game.",
    "permission.denied": "Only the player who opened the game or someone with Manage Channel "
                         "can do that.",
    "input.malformed": "That option is not valid.",
    "computer.unavailable": "Computer players are not available on this bot.",
    "replace.already": "A computer already plays that seat.",
    "replace.already_voted": "You have already voted to replace that player.",
    "replace.unknown_player": "That player is not in this game: choose one from the list.",
    "replace.not_replaced": "Your seat is not played by the computer.",
    "input.seats": "A game has 3 or 4 seats.",
    "input.topic": "There is no rules topic by that name.",
    "internal": "Sorry, something went wrong on my side. `/sanmarco status` shows where the "
                "game stands.",
}

NOT_YOUR_TURN = ERRORS["action.not_your_turn"]
OUTDATED = "That prompt is outdated."
APOLOGY = ERRORS["internal"]


def error_text(code: str, message: str | None = None) -> str:
    """The sentence for an error code; the engine's own sentence is kept for rule refusals."""
    base = ERRORS.get(code)
    if base is None:
        base = ERRORS["internal"] if code.startswith("internal") else (message or
                                                                        ERRORS["internal"])
    if code in ("action.illegal", "action.malformed", "action.wrong_phase") and message:
        return message
    return base


def who(pid: str, names: Mapping[str, str] | None = None) -> str:
    """A Discord mention for a Discord id (renders as the name; pings only when allowed)."""
    if names and pid in names and not pid.isdigit():
        return names[pid]
    return f"<@{pid}>" if pid.isdigit() else (names or {}).get(pid, pid)


def position_line(view: Mapping[str, Any], pid: str) -> str:
    """A player's own standing, from the public view (``/sanmarco hand`` when not awaited)."""
    cards = ", ".join(str(c) for c in (view.get("limit_cards") or {}).get(pid, [])) or "none"
    return (f"You: {view['prestige'].get(pid, 0)} prestige, {view['reserve'].get(pid, 0)} "
            f"aristocrats in reserve, {view['limit'].get(pid, 0)} limit points this passage "
            f"(cards: {cards}).")


def who_list(pids: Iterable[str], names: Mapping[str, str] | None = None) -> str:
    items = [who(p, names) for p in pids]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def cards_text(cards: Sequence[str]) -> str:
    return ", ".join(card_label(c) for c in cards) if cards else "nothing"


def limit_points(cards: Sequence[str]) -> int:
    """Sum of the limit cards among ``cards`` (what taking the offer adds to one's limit)."""
    return sum(limit_value(c) for c in cards if is_limit(c))


AWAIT_WORDS = {
    "reroll": "decide whether to keep or reroll the set-up roll",
    "bridge": "place a set-up bridge",
    "split": "split the drawn cards into offers",
    "take": "choose an offer",
    "play": "play the cards of the offer",
    "banish": "name the district for the banishment",
    "victims": "choose who loses aristocrats to the banishment",
}


def awaited_line(view: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """``@a: play the cards of the offer`` for everybody the game waits for."""
    awaiting: Mapping[str, str] = view.get("awaiting") or {}
    parts = [f"{who(p, names)}: {AWAIT_WORDS.get(k, k)}" for p, k in awaiting.items()]
    return "; ".join(parts)


def _points(points: Mapping[str, int], names: Mapping[str, str] | None) -> str:
    got = [f"{who(p, names)} +{n}" for p, n in points.items() if n]
    return ", ".join(got) if got else "nobody scores"


def event_line(ev: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str | None:
    """A short public line for one public event (None for events not worth a line)."""
    t = ev.get("type")
    p = who(ev["player"], names) if "player" in ev else ""
    if t == "game_started":
        return "The game begins. Seats: " + who_list(ev["players"], names) + "."
    if t in ("setup_rolled", "setup_rerolled"):
        return f"{p} rolls {', '.join(str(r) for r in ev['rolls'])}."
    if t == "bridge_built":
        return f"{p} builds a bridge {ev['a']} – {ev['b']}."
    if t == "round_started":
        roles = "; ".join(f"{who(r['distributor'], names)} distributes to "
                          f"{who_list(r['decision_makers'], names)}" for r in ev["roles"])
        extra = " (extra round)" if ev.get("extra") else ""
        return f"Passage {ev['passage']}, round {ev['round']}{extra}: {roles}."
    if t == "split_committed":
        return f"{p} has split their cards."
    if t == "offers_revealed":
        offers = " | ".join(f"{k + 1}: {cards_text(o)}" for k, o in enumerate(ev["offers"]))
        return f"{who(ev['distributor'], names)}'s offers: {offers}."
    if t == "offer_taken":
        return (f"{p} takes offer {ev['index'] + 1} ({cards_text(ev['cards'])}); "
                f"limit now {ev['limit_total']}.")
    if t == "card_discarded":
        return f"{p} discards {card_label(ev['card'])} (no legal effect)."
    if t == "aristocrat_placed":
        hop = f" and crosses to {ev['hop']}" if ev.get("hop") else ""
        return f"{p} places an aristocrat in {ev['district']}{hop}."
    if t == "bridge_taken_over":
        return (f"{p} takes over {who(ev['owner'], names)}'s bridge {ev['a']} – {ev['b']}"
                f" (now {ev['to_a']} – {ev['to_b']}).")
    if t == "transferred":
        return f"{p} replaces {who(ev['victim'], names)}'s aristocrat in {ev['district']}."
    if t == "doge_moved":
        return f"{p} moves the Doge to {ev['to']}."
    if t == "canal_crossed":
        return f"{p} pays {ev['cost']} prestige to cross a canal."
    if t == "toll_paid":
        return f"{who(ev['payer'], names)} pays {who(ev['owner'], names)} {ev['amount']} toll."
    if t == "district_scored":
        return f"{ev['district']} is scored: {_points(ev['points'], names)}."
    if t == "banishment_rolled":
        return f"{p} rolls {ev['roll']} for a banishment in {ev['district']}."
    if t == "banished":
        removed = ", ".join(f"{who(q, names)} −{n}" for q, n in ev["removed"].items())
        return f"Banishment in {ev['district']}: {removed or 'nobody'} ."
    if t == "player_out":
        return f"{p} reaches {ev['limit']} limit points and is out of this passage."
    if t == "passage_scored":
        bonus = _points(ev["bonus"], names)
        return f"Passage {ev['passage']} ends. Limit bonus: {bonus}."
    if t == "passage_started":
        return f"Passage {ev['passage']} begins; {who(ev['starter'], names)} starts."
    if t == "game_over":
        return f"Game over! Winner: {who_list(ev['winners'], names)}."
    if t == "action_deck_reshuffled":
        return "The action discard pile is shuffled into a new deck."
    return None


def events_text(events: Iterable[Mapping[str, Any]], names: Mapping[str, str] | None = None,
                limit: int = 1500, *, latest: bool = False) -> str:
    """Public event lines joined, cut to stay within Discord's 2000-character messages.
    ``latest`` keeps the newest lines (for the log) instead of the first ones."""
    lines = [line for ev in events if (line := event_line(ev, names))]
    if latest:
        lines.reverse()
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            more = len(lines) - len(out)
            out.append(f"… {more} earlier line{'s' if more != 1 else ''}." if latest
                       else f"… and {more} more (see `/sanmarco log`).")
            break
        out.append(line)
        size += len(line) + 1
    if latest:
        out.reverse()
    return "\n".join(out)


def builder_text(drawn: Sequence[str], assignment: Sequence[int | None], n_offers: int) -> str:
    """The distributor's private offer builder (ephemeral only: it lists secret cards)."""
    lines = ["**Your drawn cards** — assign each card to an offer, then commit."]
    for k in range(n_offers):
        cards = [c for c, a in zip(drawn, assignment, strict=True) if a == k]
        lines.append(f"Offer {k + 1}: {cards_text(cards)} — limit {limit_points(cards)}")
    free = [c for c, a in zip(drawn, assignment, strict=True) if a is None]
    if free:
        lines.append(f"Not yet assigned: {cards_text(free)}")
    return "\n".join(lines)


def card_option_label(card: str) -> str:
    return card_label(card)


def kind_of(card: str) -> str:
    return card_kind(card)


RULE_TOPICS: dict[str, str] = {
    "overview": "San Marco: place aristocrats in Venice's six districts; the Doge scores them. "
                "Three passages; most prestige wins (RULES.md).",
    "round": "Each round a distributor draws cards and splits them into offers; decision-makers "
             "take one offer each, the distributor plays the last. Limit cards count toward 10: "
             "at 10 you are out of the passage (RULES.md §4, §7).",
    "cards": "District: place an aristocrat (optionally hop over your bridge). Bridge: build one "
             "(or take one over when all 12 are out). Transfer: replace an opposing aristocrat. "
             "Banishment: name a district, roll, remove that many. Doge: score a district "
             "(RULES.md §5).",
    "doge": "The Doge scores where it stands or after moving over bridges: your own bridges are "
            "free, others' cost 1 prestige paid to the owner; from a bridgeless district you may "
            "pay 2 to cross a canal (R11, R12).",
    "scoring": "Most aristocrats alone: the high number; tied for most: each gets the low number. "
               "Second alone: the low number (RULES.md §6).",
    "passage": "After each round, 10+ limit points puts you out. A passage ends as RULES.md §7 "
               "says; fewer limit points than the maximum earns the difference in prestige, and "
               "the lowest banishes.",
    "secrets": "A distributor's drawn cards and split are seen only by that distributor until "
               "revealed (R15).",
}
