"""The public lines of what happened: one formatter per event type, in a table (``LINES``).

Each formatter gets the reader's translations, a public event and the players' names, and
returns one line; an event type without a formatter gets no line (its facts are told by the
others, or it is the engine's bookkeeping). A new event type is one function and one entry.
Only public events reach here (R15: a distributor's cards never do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from bot.i18n import Tr
from bot.service.results import LogEntry
from engine import Event

from .markup import EVENT_LINES_LIMIT
from .names import card_label, cards_text, who, who_list

Names = Mapping[str, str] | None
EventLine = Callable[[Tr, Event, Names], str]


def _points(tr: Tr, points: Mapping[str, int], names: Names) -> str:
    got = [f"{who(tr, p, names)} +{n}" for p, n in points.items() if n]
    return ", ".join(got) if got else tr.gettext("nobody scores")


def _losses(tr: Tr, removed: Mapping[str, int], names: Names) -> str:
    """``bob loses 1 aristocrat, carol 3`` (a banishment's victims, R10): one sentence with
    its count, so each language declines the noun as the verb needs (German: "verliert
    1 Adligen", the accusative)."""
    lost = [(p, n) for p, n in removed.items() if n]
    if not lost:
        return tr.gettext("nobody loses an aristocrat")
    (first, k), rest = lost[0], lost[1:]
    return ", ".join([tr.ngettext("{player} loses {count} aristocrat",
                                  "{player} loses {count} aristocrats", k).format(
        player=who(tr, first, names), count=k),
        *(f"{who(tr, p, names)} {n}" for p, n in rest)])


def _player(tr: Tr, ev: Event, names: Names) -> str:
    return who(tr, ev["player"], names)


# ---------------------------------------------------------------------------- the set-up
def _game_started(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("The game begins. Seats: {players}.").format(
        players=who_list(tr, ev["players"], names))


def _rolled(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} rolls {rolls}.").format(
        player=_player(tr, ev, names), rolls=", ".join(str(r) for r in ev["rolls"]))


def _bridge_built(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} builds a bridge {a} – {b}.").format(
        player=_player(tr, ev, names), a=ev["a"], b=ev["b"])


# ---------------------------------------------------------------------------- a round
def _round_started(tr: Tr, ev: Event, names: Names) -> str:
    roles = "; ".join(tr.gettext("{distributor} distributes to {deciders}").format(
        distributor=who(tr, r["distributor"], names),
        deciders=who_list(tr, r["decision_makers"], names)) for r in ev["roles"])
    if ev.get("extra"):
        return tr.gettext("Passage {passage}, round {round} (extra round): {roles}.").format(
            passage=ev["passage"], round=ev["round"], roles=roles)
    return tr.gettext("Passage {passage}, round {round}: {roles}.").format(
        passage=ev["passage"], round=ev["round"], roles=roles)


def _split_committed(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} has split their cards.").format(player=_player(tr, ev, names))


def _offers_revealed(tr: Tr, ev: Event, names: Names) -> str:
    offers = " | ".join(f"{k + 1}: {cards_text(tr, o)}" for k, o in enumerate(ev["offers"]))
    return tr.gettext("{player}'s offers: {offers}.").format(
        player=who(tr, ev["distributor"], names), offers=offers)


def _offer_taken(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} takes offer {number} ({cards}) and now has {limit} limit "
                      "points.").format(player=_player(tr, ev, names), number=ev["index"] + 1,
                                        cards=cards_text(tr, ev["cards"]),
                                        limit=ev["limit_total"])


def _action_deck_reshuffled(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("The action discard pile is shuffled into a new deck.")


# ---------------------------------------------------------------------------- the cards played
def _card_discarded(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} discards {card} (no legal effect).").format(
        player=_player(tr, ev, names), card=card_label(tr, ev["card"]))


def _aristocrat_placed(tr: Tr, ev: Event, names: Names) -> str:
    if ev.get("hop"):
        return tr.gettext("{player} places an aristocrat in {district} and crosses to "
                          "{hop}.").format(player=_player(tr, ev, names),
                                           district=ev["district"], hop=ev["hop"])
    return tr.gettext("{player} places an aristocrat in {district}.").format(
        player=_player(tr, ev, names), district=ev["district"])


def _bridge_taken_over(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} takes over {owner}'s bridge {a} – {b} (now {to_a} – "
                      "{to_b}).").format(player=_player(tr, ev, names),
                                         owner=who(tr, ev["owner"], names), a=ev["a"],
                                         b=ev["b"], to_a=ev["to_a"], to_b=ev["to_b"])


def _transferred(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} replaces {victim}'s aristocrat in {district}.").format(
        player=_player(tr, ev, names), victim=who(tr, ev["victim"], names),
        district=ev["district"])


def _doge_moved(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} moves the Doge to {district}.").format(
        player=_player(tr, ev, names), district=ev["to"])


def _canal_crossed(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} pays {cost} prestige to cross a canal.").format(
        player=_player(tr, ev, names), cost=ev["cost"])


def _toll_paid(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{payer} pays {owner} {amount} prestige in tolls.").format(
        payer=who(tr, ev["payer"], names), owner=who(tr, ev["owner"], names),
        amount=ev["amount"])


def _district_scored(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{district} is scored: {points}.").format(
        district=ev["district"], points=_points(tr, ev["points"], names))


# ---------------------------------------------------------------------------- banishment
def _banishment_rolled(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} rolls {roll} for a banishment in {district}.").format(
        player=_player(tr, ev, names), roll=ev["roll"], district=ev["district"])


def _banishment_declined(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} declines the passage's banishment.").format(
        player=_player(tr, ev, names))


def _banished(tr: Tr, ev: Event, names: Names) -> str:
    """Who banished, where, and who lost what: the line stands alone where the roll's line
    is not beside it (a digest, the log read backwards)."""
    return tr.gettext("Banishment in {district} by {player}: {losses}.").format(
        district=ev["district"], player=_player(tr, ev, names),
        losses=_losses(tr, ev["removed"], names))


# ---------------------------------------------------------------------------- passages
def _player_out(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("{player} reaches {limit} limit points and is out of this "
                      "passage.").format(player=_player(tr, ev, names), limit=ev["limit"])


def _passage_scored(tr: Tr, ev: Event, names: Names) -> str:
    banisher = ev.get("banisher")
    bonus = _points(tr, ev["bonus"], names)
    if banisher:
        return tr.gettext("Passage {passage} ends. Limit bonus: {bonus}. {player} has the "
                          "fewest limit points and may banish.").format(
            passage=ev["passage"], bonus=bonus, player=who(tr, banisher, names))
    return tr.gettext("Passage {passage} ends. Limit bonus: {bonus}. A tie for the fewest "
                      "limit points: no banishment.").format(passage=ev["passage"],
                                                            bonus=bonus)


def _passage_started(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("Passage {passage} begins; {player} starts.").format(
        passage=ev["passage"], player=who(tr, ev["starter"], names))


def _game_over(tr: Tr, ev: Event, names: Names) -> str:
    return tr.gettext("Game over! Winner: {winners}.").format(
        winners=who_list(tr, ev["winners"], names))


# The table: event type → its line.
LINES: dict[str, EventLine] = {
    "game_started": _game_started,
    "setup_rolled": _rolled,
    "setup_rerolled": _rolled,
    "bridge_built": _bridge_built,
    "round_started": _round_started,
    "split_committed": _split_committed,
    "offers_revealed": _offers_revealed,
    "offer_taken": _offer_taken,
    "card_discarded": _card_discarded,
    "aristocrat_placed": _aristocrat_placed,
    "bridge_taken_over": _bridge_taken_over,
    "transferred": _transferred,
    "doge_moved": _doge_moved,
    "canal_crossed": _canal_crossed,
    "toll_paid": _toll_paid,
    "district_scored": _district_scored,
    "banishment_rolled": _banishment_rolled,
    "banishment_declined": _banishment_declined,
    "banished": _banished,
    "player_out": _player_out,
    "passage_scored": _passage_scored,
    "passage_started": _passage_started,
    "game_over": _game_over,
    "action_deck_reshuffled": _action_deck_reshuffled,
}


def event_line(tr: Tr, ev: Event, names: Names = None) -> str | None:
    """A short public line for one public event (None for events not worth a line)."""
    line = LINES.get(ev.type)
    return line(tr, ev, names) if line is not None else None


def events_text(tr: Tr, events: Iterable[Event], names: Names = None,
                limit: int = EVENT_LINES_LIMIT, *, latest: bool = False) -> str:
    """Public event lines joined, cut to stay within Discord's 2000-character messages.
    ``latest`` keeps the newest lines (for the log) instead of the first ones."""
    return _cut(tr, [line for ev in events if (line := event_line(tr, ev, names))], limit,
                latest)


def log_text(tr: Tr, entries: Iterable[LogEntry], names: Names = None,
             limit: int = EVENT_LINES_LIMIT) -> str:
    """``/sanmarco game log``: the newest lines of the log, each move's events naming the
    seats as they were when it was made (``LogEntry.names``: a seat that changed hands
    names whoever made the move, not who plays it now), else by ``names``."""
    return _cut(tr, [line for entry in entries for ev in entry.events
                     if (line := event_line(tr, ev, names if entry.names is None
                                            else entry.names))], limit, latest=True)


def _cut(tr: Tr, lines: list[str], limit: int, latest: bool) -> str:
    """``lines`` joined within ``limit`` characters: the first ones, or (``latest``) the
    last ones, with a line saying how many were left out."""
    if latest:
        lines.reverse()
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            more = len(lines) - len(out)
            out.append(tr.ngettext("… {count} earlier line.", "… {count} earlier lines.",
                                   more).format(count=more) if latest
                       else tr.gettext("… and {count} more (see `/sanmarco game log`).").format(
                           count=more))
            break
        out.append(line)
        size += len(line) + 1
    if latest:
        out.reverse()
    return "\n".join(out)


def nothing_yet(tr: Tr) -> str:
    return tr.gettext("Nothing has happened yet.")


def game_begins(tr: Tr) -> str:
    return tr.gettext("**San Marco begins!**")


def game_started(tr: Tr, players: Sequence[str], names: Mapping[str, str]) -> str:
    """What the lobby message becomes once the game starts."""
    return tr.gettext("The game has started with {players}.").format(
        players=who_list(tr, players, names))
