"""Every sentence and label the bot shows: one table (later one catalogue per language).

Refusals: ``REFUSALS`` maps every code that can be raised (``bot.errors.Code`` and
``engine.ERROR_CODES``) to exactly one sentence, and ``refusal`` is the only way a code
becomes words. The rest are small functions, one per kind of message, made from public facts
(public events and views); a distributor's cards are formatted only by ``builder_text`` and
``card_label``, whose output goes to that distributor's ephemeral message (R15).

No Discord types here: the adapter, the demo and tests share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from bot._results import GameStatus, MyGame, PlayerStats, SizeRecord, Status
from engine import (
    Action,
    Doge,
    Event,
    PlaceAristocrat,
    PlaceBridge,
    Split,
    TakeOffer,
    TakeOverBridge,
    Transfer,
    describe,
    doge_payments,
)
from engine.board import CANAL_CROSSING_COST
from engine.cards import card_label, is_limit, limit_value
from engine.views import PublicView
from render.words import AWAITED

if TYPE_CHECKING:  # a server's memory (issue 13)
    from bot.ratings import Ranked
    from bot.store import PastGame, Settings

# ---------------------------------------------------------------------------- refusals
REFUSALS: dict[str, str] = {
    # the game and the channel
    "game.none": "There is no game in this channel. Start one with `/sanmarco new`.",
    "game.not_in_server": "San Marco is played in a server channel.",
    "game.exists": "This channel already has a game. `/sanmarco status` shows it.",
    "game.not_started": "The game has not started yet.",
    "game.started": "The game has already started.",
    "game.over": "This game is over.",
    "game.abandoned": "This game was abandoned. `/sanmarco new` opens another.",
    "player.not_in_game": "You are not playing in this game.",
    "action.unknown_player": "You are not playing in this game.",
    # the lobby
    "lobby.full": "The game is full.",
    "lobby.already_joined": "You have already joined.",
    "lobby.not_joined": "You have not joined this game.",
    "lobby.not_enough": "San Marco needs at least 3 players: ask others to press Join.",
    "lobby.not_creator": "Only the player who opened the game (or someone with Manage Channel) "
                         "can start it.",
    "lobby.too_many": "You already have {count} open lobbies on this server ({channels}): "
                      "start, leave or abandon one before opening another.",
    "permission.denied": "Only the player who opened the game or someone with Manage Channel "
                         "can do that.",
    # turns and prompts
    "action.not_your_turn": "It is not your turn.",
    "state.stale": "That prompt is outdated.",
    # the engine's refusals
    "action.malformed": "That is not a move I understand: choose one from the list.",
    "action.wrong_phase": "That is not what the game is waiting for right now.",
    "action.illegal": "The rules do not allow that move now: {move}.",
    "action.split_shape": "A split must put every drawn card into an offer and leave no "
                          "offer empty.",
    "action.no_such_card": "You have no such card to play.",
    "action.must_play": "That card can still be played, so it may not be discarded (R7).",
    # input the adapter or the service refuses
    "input.malformed": "That option is not valid.",
    "input.seats": "A game has 3 or 4 seats.",
    "input.computer_seats": "Leave at least one seat for a person.",
    "input.offer_number": "Choose an offer by its number.",
    "input.move": "Choose the move from the list.",
    "input.topic": "There is no rules topic by that name.",
    "input.player_id": "That is not a player.",
    "split.incomplete": "Assign every card to an offer first.",
    # settings
    "settings.quiet_hours": "Quiet hours are two whole hours from 0 to 23.",
    "settings.language": "The language must be a code such as 'en'.",
    "settings.timezone": "That is not a time zone name (e.g. 'Europe/Berlin').",
    # computer players and absent players
    "computer.unavailable": "Computer players are not available on this bot.",
    "computer.unknown": "There is no such computer player in the lobby.",
    "computer.level": "Computer players are 'easy', 'normal' or 'hard'.",
    "replace.already": "A computer already plays that seat.",
    "replace.already_voted": "You have already voted to replace that player.",
    "replace.unknown_player": "That player is not in this game: choose one from the list.",
    "replace.not_replaced": "Your seat is not played by the computer.",
    "replace.not_voter": "Only players who play their own seat can vote to replace someone.",
    "replace.not_awaited": "The game is not waiting for that player, so there is nothing to "
                           "replace them for.",
    "replace.too_early": "The game has not waited long enough on that player: a vote to "
                         "replace them opens <t:{opens}:R>.",
    # the store could not save (issue 11): nothing changed, and why
    "store.full": "That was not saved and nothing changed: the bot's disk is full (its admin "
                  "must free some space).",
    "store.read_only": "That was not saved and nothing changed: the bot may not write to its "
                       "game file (its admin must make it writable).",
    "store.io": "That was not saved and nothing changed: the bot's disk reported a read or "
                "write error (its admin should check the disk).",
    "store.busy": "That was not saved and nothing changed: the game is busy right now, so "
                  "try again in a moment.",
    "store.corrupt": "That was not saved and nothing changed: the bot's game file is damaged "
                     "(its admin should check it).",
    "store.cantopen": "That was not saved and nothing changed: the bot cannot open its game "
                      "file (its admin should check it).",
    "store.failed": "That was not saved and nothing changed: the bot's game file refused the "
                    "change.",
    # anything unexpected: an apology, never a traceback
    "internal": "Sorry, something went wrong on my side. `/sanmarco status` shows where the "
                "game stands.",
}

APOLOGY = REFUSALS["internal"]

# How a refusal's facts are written (channel ids as channel mentions, which Discord shows as
# the channels' names).
_SHOW_PARAM = {"channels": lambda ids: ", ".join(f"<#{c}>" for c in str(ids).split())}


def refusal(code: str, params: Mapping[str, str | int] | None = None) -> str:
    """The sentence a player reads for a refusal ``code`` (an unknown code is a bug: the
    player gets the apology, and a test keeps the table complete)."""
    template = REFUSALS.get(code)
    if template is None:
        return APOLOGY
    shown = {k: _SHOW_PARAM.get(k, str)(v) for k, v in (params or {}).items()}
    try:
        return template.format(**shown)
    except (KeyError, IndexError, ValueError):
        return template.split("{", 1)[0].rstrip(" :") + "."


# ---------------------------------------------------------------------------- players
def who(pid: str, names: Mapping[str, str] | None = None) -> str:
    """A Discord mention for a Discord id (renders as the name; pings only when allowed);
    a computer player by its name."""
    if pid.isdigit():
        return f"<@{pid}>"
    return (names or {}).get(pid, pid)


def name_of(pid: str, names: Mapping[str, str] | None = None) -> str:
    """A player's display name as plain text (selects and autocomplete show no mentions)."""
    return (names or {}).get(pid, pid)


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


# ---------------------------------------------------------------------------- waiting
AWAIT_WORDS = AWAITED  # what an awaited player must do (render's table: one for both)


def awaited_line(awaiting: Mapping[str, str], names: Mapping[str, str] | None = None) -> str:
    """``@a: play the cards of the offer`` for everybody the game waits for."""
    return "; ".join(f"{who(p, names)}: {AWAIT_WORDS.get(k, k)}" for p, k in awaiting.items())


def now_line(awaiting: Mapping[str, str], names: Mapping[str, str] | None = None) -> str:
    """The last line of every public post of a running game: who acts next."""
    return f"**Now** — {awaited_line(awaiting, names)}"


def position_line(view: PublicView, pid: str) -> str:
    """A player's own standing, from the public view (``/sanmarco hand`` when not awaited)."""
    cards = ", ".join(str(c) for c in view["limit_cards"].get(pid, [])) or "none"
    return (f"You: {view['prestige'].get(pid, 0)} prestige, {view['reserve'].get(pid, 0)} "
            f"aristocrats in reserve, {view['limit'].get(pid, 0)} limit points this passage "
            f"(cards: {cards}).")


# ---------------------------------------------------------------------------- events
def _points(points: Mapping[str, int], names: Mapping[str, str] | None) -> str:
    got = [f"{who(p, names)} +{n}" for p, n in points.items() if n]
    return ", ".join(got) if got else "nobody scores"


def aristocrats(n: int) -> str:
    return f"{n} aristocrat{'s' if n != 1 else ''}"


def _losses(removed: Mapping[str, int], names: Mapping[str, str] | None) -> str:
    """``bob loses 1 aristocrat, carol 3`` (a banishment's victims, R10)."""
    lost = [(p, n) for p, n in removed.items() if n]
    if not lost:
        return "nobody loses an aristocrat"
    (first, k), rest = lost[0], lost[1:]
    return ", ".join([f"{who(first, names)} loses {aristocrats(k)}",
                      *(f"{who(p, names)} {n}" for p, n in rest)])


def event_line(ev: Event, names: Mapping[str, str] | None = None) -> str | None:
    """A short public line for one public event (None for events not worth a line)."""
    t = ev.type
    p = who(ev["player"], names) if "player" in ev.data else ""
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
        return (f"{p} takes offer {ev['index'] + 1} ({cards_text(ev['cards'])}) and now has "
                f"{ev['limit_total']} limit points.")
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
        return (f"{who(ev['payer'], names)} pays {who(ev['owner'], names)} {ev['amount']} "
                f"prestige in tolls.")
    if t == "district_scored":
        return f"{ev['district']} is scored: {_points(ev['points'], names)}."
    if t == "banishment_rolled":
        return f"{p} rolls {ev['roll']} for a banishment in {ev['district']}."
    if t == "banishment_declined":
        return f"{p} declines the passage's banishment."
    if t == "banished":
        return f"Banishment in {ev['district']}: {_losses(ev['removed'], names)}."
    if t == "player_out":
        return f"{p} reaches {ev['limit']} limit points and is out of this passage."
    if t == "passage_scored":
        banisher = ev.get("banisher")
        then = (f" {who(banisher, names)} has the fewest limit points and may banish."
                if banisher else " A tie for the fewest limit points: no banishment.")
        return (f"Passage {ev['passage']} ends. Limit bonus: {_points(ev['bonus'], names)}."
                + then)
    if t == "passage_started":
        return f"Passage {ev['passage']} begins; {who(ev['starter'], names)} starts."
    if t == "game_over":
        return f"Game over! Winner: {who_list(ev['winners'], names)}."
    if t == "action_deck_reshuffled":
        return "The action discard pile is shuffled into a new deck."
    return None


def events_text(events: Iterable[Event], names: Mapping[str, str] | None = None,
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


NOTHING_YET = "Nothing has happened yet."
GAME_BEGINS = "**San Marco begins!**"
def game_started(players: Sequence[str], names: Mapping[str, str]) -> str:
    """What the lobby message becomes once the game starts."""
    return f"The game has started with {who_list(players, names)}."
DONE = "Done: nothing more for you to do now."
THE_BOARD = "The board."


# ---------------------------------------------------------------------------- the lobby
def lobby_text(players: Sequence[str], seats: int, names: Mapping[str, str],
               opener: str) -> str:
    seated = who_list(players, names) or "nobody yet"
    return (f"**San Marco** — {len(players)}/{seats} seats taken: {seated}. "
            f"Join or add a computer player; {who(opener, names)} (or anyone with Manage "
            "Channel) starts the game.")


def joins(pid: str) -> str:
    return f"{who(pid)} joins. "


def leaves(pid: str) -> str:
    return f"{who(pid)} leaves. "


LOBBY_CLOSED = "The lobby is closed: everybody left. `/sanmarco new` opens another."

LABEL_JOIN = "Join"
LABEL_LEAVE = "Leave"
LABEL_ADD_COMPUTER = "Add computer"
LABEL_START = "Start"


# ---------------------------------------------------------------------------- prompts
LABEL_BUILD = "Build your offers"
LABEL_PLAY_NEXT = "Play next card"
LABEL_YOUR_MOVE = "Your move"
LABEL_COMMIT = "Commit offers"
LABEL_RESET = "Reset"
LABEL_MORE = "More choices"
LABEL_BACK = "Back"
LABEL_CONFIRM = "Confirm"
PLACEHOLDER_CARD = "Choose a card"
PLACEHOLDER_TARGET = "Choose a target"
PLACEHOLDER_CHOOSE = "Choose"


def take_label(index: int, cards: Sequence[str]) -> str:
    n = len(cards)
    return f"Take offer {index + 1}: {n} card{'s' if n != 1 else ''}, limit {limit_points(cards)}"


def offer_choice(index: int, cards: Sequence[str]) -> str:
    """An offer in ``/sanmarco take``'s autocomplete, numbered from 1 as players see it."""
    return f"Offer {index + 1}: {cards_text(cards)} (limit {limit_points(cards)})"


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


def builder_option(index: int, card: str) -> str:
    return f"{index + 1}. {card_label(card)}"


def builder_placeholder(offer: int) -> str:
    return f"Cards in offer {offer + 1}"


def which_card(hand: Sequence[str]) -> str:
    left = f" Cards still to play: {cards_text(hand)}." if hand else ""
    return "Which card do you play next?" + left


CHOOSER_TITLES: dict[str, str] = {
    "reroll": "Your four set-up rolls are all the same: keep them, or reroll the fourth (R3).",
    "bridge": "Place a set-up bridge: choose where.",
    "take": "Choose an offer.",
    "banish": "You have the fewest limit points: name a district to banish from, or decline "
              "(R16).",
    "victims": "Choose whose aristocrats go (R10).",
}


def chooser_title(awaited: str, card: str | None) -> str:
    """The title of a chooser screen: the card being played, or what the game awaits."""
    if awaited == "play":
        return f"{card_label(card)}: choose what to do." if card else "Choose what to do."
    return CHOOSER_TITLES.get(awaited, "Choose what to do.")


def choose_target(title: str) -> str:
    return f"{title} First the target:"


def target_of(action: Action, names: Mapping[str, str] | None = None) -> str | None:
    """What a move aims at, to group a long list of moves by target (None: no target)."""
    if isinstance(action, PlaceAristocrat):
        return f"{action.district}, then {action.hop}" if action.hop else action.district
    if isinstance(action, PlaceBridge):
        return f"Bridge {action.a} – {action.b}"
    if isinstance(action, TakeOverBridge):
        return f"{name_of(action.owner, names)}'s bridge {action.a} – {action.b}"
    if isinstance(action, Transfer):
        return f"Transfer in {action.district}"
    if isinstance(action, Doge):
        return f"Doge to {action.target}"
    return None


def _fit(name: str, width: int) -> str:
    return name if len(name) <= width else name[:width - 1] + "…"


def route_payments(action: Doge, pid: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Whom a Doge route pays how much (canal, tolls by owner): two routes with the same
    target and payments are the same choice for their player (R11 is about whom to pay)."""
    canal, tolls = doge_payments(action, pid)
    return canal, tuple(sorted(tolls))


def doge_option(action: Doge, pid: str, names: Mapping[str, str] | None = None
                ) -> tuple[str, str]:
    """A Doge choice as a select shows it: the target and the districts the route passes
    (label), and what it costs and whom it pays (description) — so no two routes that pay
    different players read the same."""
    if not action.route:
        return f"Doge: score {action.target}", "Free"
    passes = [c.b for c in action.route[:-1]]
    label = f"Doge to {action.target}" + (f" via {', '.join(passes)}" if passes else "")
    canal, tolls = doge_payments(action, pid)
    cost = canal + sum(n for _, n in tolls)
    if not cost:
        return label[:100], "Free: only your own bridges"
    parts = ([f"canal {canal}"] if canal else []) + [
        f"{_fit(name_of(owner, names), 24)} {n}" for owner, n in tolls]
    return label[:100], f"Costs you {cost}: " + ", ".join(parts)


def confirm_route(action: Doge, pid: str, names: Mapping[str, str] | None = None) -> str:
    """The confirmation of a Doge route: every bridge it crosses and whom it pays (R11)."""
    lines = [f"**Doge to {action.target}**, then {action.target} is scored:"]
    for c in action.route:
        if c.owner is None:
            lines.append(f"• across the canal {c.a} → {c.b}: {CANAL_CROSSING_COST} prestige")
        elif c.owner == pid:
            lines.append(f"• {c.a} → {c.b} over your own bridge: free")
        else:
            owner = name_of(c.owner, names)
            lines.append(f"• {c.a} → {c.b} over {owner}'s bridge: 1 prestige to {owner}")
    canal, tolls = doge_payments(action, pid)
    cost = canal + sum(n for _, n in tolls)
    lines.append(f"In all it costs you {cost} prestige." if cost else "It costs you nothing.")
    lines.append("Confirm this route?")
    return "\n".join(lines)


def doge_cost_suffix(cost: int) -> str:
    return f" — costs you {cost} prestige" if cost else " — free"


# ---------------------------------------------------------------------------- status
def status_lobby(players: Sequence[str], seats: int, creator: str,
                 names: Mapping[str, str]) -> str:
    return (f"Lobby: {len(players)}/{seats} seats taken "
            f"({who_list(players, names) or 'nobody'}); {who(creator, names)} opened it.")


STATUS_ABANDONED = "The last game in this channel was abandoned. `/sanmarco new` opens another."


def status_over(winners: Sequence[str], prestige: Mapping[str, int],
                names: Mapping[str, str]) -> str:
    scores = ", ".join(f"{who(p, names)} {n}" for p, n in prestige.items())
    return (f"The game is over. Winner: {who_list(winners, names)}."
            + (f" Prestige: {scores}." if scores else ""))


def status_running(awaiting: Mapping[str, str], since: float | None,
                   prestige: Mapping[str, int], names: Mapping[str, str]) -> str:
    waiting = "; ".join(f"{who(p, names)} must {AWAIT_WORDS.get(k, k)}"
                        for p, k in awaiting.items())
    when = f" since <t:{int(since)}:R>" if since else ""
    scores = ", ".join(f"{who(p, names)} {n}" for p, n in prestige.items())
    return (f"{waiting}{when}." + (f"\nPrestige: {scores}." if scores else "")
            + "\n`/sanmarco hand` opens your panel if it is your move.")


def status_text(status: Status) -> str:
    """``/sanmarco status``: whose move, for what, since when (Discord renders <t:..:R>)."""
    if status.status is GameStatus.LOBBY:
        return status_lobby(status.players, status.seats, status.creator, status.names)
    if status.status is GameStatus.ABANDONED:
        return STATUS_ABANDONED
    if status.finished:
        return status_over(status.winners, status.prestige, status.names)
    return status_running(status.awaiting, status.since, status.prestige, status.names)


def board_caption(status: GameStatus, awaiting: Mapping[str, str],
                  names: Mapping[str, str]) -> str:
    """The line above ``/sanmarco board``'s picture (an ended game awaits nobody)."""
    if status is GameStatus.ABANDONED:
        return refusal("game.abandoned")
    return awaited_line(awaiting, names) or THE_BOARD


def not_your_turn_here(awaiting: Mapping[str, str], names: Mapping[str, str]) -> str:
    text = refusal("action.not_your_turn")
    line = awaited_line(awaiting, names)
    return f"{text} Now: {line}" if line else text


def with_current(head: str, awaiting: Mapping[str, str], names: Mapping[str, str]) -> str:
    """A refusal followed by what the game waits for now (for stale prompts)."""
    line = awaited_line(awaiting, names)
    return f"{head}\nNow: {line}" if line else head


# ---------------------------------------------------------------------------- reminders
def reminder(awaiting: Mapping[str, str], since: float) -> str:
    """A reminder post; like every post of a running game it ends with who acts next."""
    return (f"Reminder — the game has been waiting since <t:{int(since)}:R>. "
            "`/sanmarco hand` opens your panel.\n" + now_line(awaiting))


# ---------------------------------------------------------------------------- absent players
def replace_vote(voter: str, target: str, votes: int, needed: int,
                 names: Mapping[str, str]) -> str:
    return (f"{who(voter, names)} votes to let the computer play {who(target, names)}'s seat "
            f"({votes} of {needed} votes needed). Others can vote with `/sanmarco replace`.")


def replaced(target: str, names: Mapping[str, str], *, finished: bool) -> str:
    text = f"The computer now plays {who(target, names)}'s seat."
    if not finished:  # the computers may have played to the end
        text += f" {who(target, names)} can take it back with `/sanmarco reclaim`."
    return text


def reclaimed(pid: str, names: Mapping[str, str]) -> str:
    return f"{who(pid, names)} plays their own seat again."


def abandoned_by(pid: str) -> str:
    return f"{who(pid)} abandoned the game. `/sanmarco new` opens another."


# ---------------------------------------------------------------------------- rules
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
            "pay 2 to cross a canal (R11, R12). A route never enters a district twice (R17).",
    "scoring": "Most aristocrats alone: the high number; tied for most: each gets the low number. "
               "Second alone: the low number (RULES.md §6).",
    "passage": "After each round, 10+ limit points puts you out. A passage ends as RULES.md §7 "
               "says; each player with fewer than 10 limit points gains the difference to the "
               "passage's highest limit total in prestige. The single player with the fewest "
               "limit points may banish (R16: or decline); a tie for fewest: no banishment.",
    "secrets": "A distributor's drawn cards and split are seen only by that distributor until "
               "revealed (R15).",
}


# ---------------------------------------------------------------------------- a server's memory
# (issue 13) /sanmarco stats, leaderboard, history, replay and gamefile; the final post.
REFUSALS.update({
    "history.not_over": "That game is not over yet: its replay, its game file and its seed come "
                        "when it ends (R15).",
    "history.no_game": "There is no finished game by that number in this server: "
                       "`/sanmarco history` lists them.",
})

NO_GAMES_YET = "No game has been finished in this server yet."
LABEL_REPLAY = "Replay"
LABEL_GAME_FILE = "Game file"
MAX_BOARD_ROWS = 20


def _percent(x: float | None) -> str:
    return "—" if x is None else f"{round(100 * x)}%"


def _size_line(label: str, rec: SizeRecord) -> str:
    if not rec.games:
        return f"{label}: no games yet."
    wins = f"{rec.wins} win{'s' if rec.wins != 1 else ''}"
    return (f"{label}: {rec.games} game{'s' if rec.games != 1 else ''}, {wins} "
            f"({_percent(rec.win_rate)}), prestige {rec.average or 0:.1f} on average, "
            f"best {rec.best}.")


def stats_text(stats: PlayerStats, names: Mapping[str, str] | None = None) -> str:
    """``/sanmarco stats``: a player's record in this server (shared wins count as wins)."""
    if not stats.overall.games:
        return f"{who(stats.pid, names)} has not finished a game in this server yet."
    return "\n".join([f"**{who(stats.pid, names)}** in this server",
                      _size_line("3 players", stats.three), _size_line("4 players", stats.four),
                      _size_line("All games", stats.overall)])


def rated_name(player: str) -> str:
    """A rated identity as shown: a person by mention, a computer player by its level."""
    if player.startswith("ai."):
        return f"Computer ({player[3:]})"
    return who(player)


def leaderboard_text(rows: Sequence[Ranked], viewer: str | None = None) -> str:
    """``/sanmarco leaderboard``: the server's players by skill rating, computer levels
    among them."""
    if not rows:
        return NO_GAMES_YET
    lines = ["**Leaderboard** — skill rating (openskill: the skill a player very probably "
             "has at least; it rises with wins and grows surer with games)"]
    shown = list(rows[:MAX_BOARD_ROWS])
    mine = next((r for r in rows if r.player == viewer), None)
    if mine is not None and mine not in shown:
        shown.append(mine)
    for r in shown:
        games = f"{r.games} game{'s' if r.games != 1 else ''}"
        lines.append(f"{r.place}. {rated_name(r.player)} — **{r.score:.1f}** ({games})")
    if len(rows) > len(shown):
        lines.append(f"… and {len(rows) - len(shown)} more.")
    return _fit_lines(lines)


def history_text(games: Sequence[PastGame]) -> str:
    """``/sanmarco history``: recent games with date, channel, players, winners and a link
    to the final post."""
    if not games:
        return NO_GAMES_YET
    lines = ["**Recent games**"]
    for g in games:
        h = g.history
        players = ", ".join(f"{who(p, g.names)} {h.scores.get(p, 0)}" for p in h.players)
        link = f" · [final post]({g.url})" if g.url else ""
        lines.append(f"#{h.game_id} · <t:{int(h.finished_at)}:d> · <#{h.channel_id}> · "
                     f"{players} · won by {who_list(h.winners, g.names)}{link}")
    return _fit_lines(lines)


def _fit_lines(lines: Sequence[str], limit: int = 1900) -> str:
    """Whole lines, cut to stay within Discord's 2000-character messages."""
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def seed_line(seed: int) -> str:
    """On the final post: the seed, revealed now the game is over (R15), and how to check."""
    return (f"Seed `{seed}` — the **Game file** lets anyone re-play this game and check every "
            "roll, deal and score: `python -m engine.replay game.json`.")


def replay_caption(game_id: int, steps: int, size: int) -> str:
    return f"Game #{game_id}: the whole game in {steps} steps ({size / 1024 / 1024:.1f} MB)."


def game_file_caption(game_id: int, seed: int) -> str:
    return (f"Game #{game_id}, seed `{seed}`: check it with "
            "`python -m engine.replay game.json` (the engine is open source).")


# ---------------------------------------------------------------------------- faults (issue 11)
POSTED = "Done: it is posted in the channel."

# The names Discord's server settings give the bot's permissions (discord.py's names).
PERMISSION_NAMES: dict[str, str] = {
    "view_channel": "View Channel", "send_messages": "Send Messages",
    "attach_files": "Attach Files", "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}


def board_posted_as_text(permission: str) -> str:
    """The player's private note when Discord refused the board picture but not the text."""
    return (f"Your move counts and is saved, but I could not post the board picture: I lack "
            f"the **{permission}** permission in this channel. I posted the move as text, so "
            "the next player is still pinged; a server admin can give me that permission.")


def not_posted(permission: str) -> str:
    """The player's private note when Discord refused every post in the channel."""
    return (f"That counts and is saved, but I could not post it in this channel: I lack the "
            f"**{permission}** permission here, so nobody else sees it or is pinged. A server "
            "admin can give me that permission; `/sanmarco status` shows the game meanwhile.")


def post_failed() -> str:
    """The player's private note when Discord failed the post for another reason."""
    return ("That counts and is saved, but Discord did not take my post, so others may not "
            "see it yet; `/sanmarco status` shows the game.")


# ---------------------------------------------------------------------------- keeping games moving
# (issue 12) /sanmarco settings, the turn timer's default moves, /sanmarco notify, the DM and
# its hint, /sanmarco games, /sanmarco undo.
REFUSALS.update({
    "settings.reminder_hours": "The reminder interval must be 0 (off) or between 15 minutes "
                               "and 14 days.",
    "settings.permission": "Only members with Manage Channel can change this channel's "
                           "settings; everyone can see them with `/sanmarco settings`.",
    "settings.turn_timer": "The turn timer must be 0 (off) or between 15 minutes and 14 days.",
    "settings.computer_level": "There is no computer player of that level: choose one from "
                               "the list.",
    "notify.mode": "Choose how to hear it is your turn: mention, dm, both or none.",
    "undo.nothing": "You have no move in this game to take back.",
    "undo.moved_on": "Someone has moved since your last move (computer players count too), so "
                     "it stands.",
    "undo.computer": "The computer made that move for you (your time ran out), so it stands.",
    "undo.split": "A committed split cannot be taken back (R5).",
    "undo.roll": "That move rolled the die, so it cannot be taken back.",
    "undo.draw": "That move started a new round or passage (cards were drawn), so it cannot "
                 "be taken back.",
    "undo.reveal": "That move revealed offers, so it cannot be taken back.",
    "undo.end": "That move ended the game, so it cannot be taken back.",
    "undo.chance": "That move used chance, so it cannot be taken back.",
})

NOTIFY_MODES: dict[str, str] = {
    "mention": "a mention in the game's channel",
    "dm": "a direct message with a link to the game",
    "both": "a mention in the channel and a direct message",
    "none": "nothing (look with `/sanmarco games`)",
}


def _hours(hours: float) -> str:
    if hours < 1:
        return f"{round(hours * 60)} minutes"
    whole = f"{hours:g}"
    return f"{whole} hour{'s' if hours != 1 else ''}"


def settings_text(settings: Settings, *, can_change: bool) -> str:
    """``/sanmarco settings``: the channel's settings (they stay from game to game)."""
    reminders = (f"every {_hours(settings.reminder_hours)} while the game waits on someone"
                 if settings.reminder_hours else "off")
    if settings.quiet_start is None or settings.quiet_end is None \
            or settings.quiet_start == settings.quiet_end:
        quiet = "none"
    else:
        quiet = f"{settings.quiet_start:02d}:00–{settings.quiet_end:02d}:00"
    timer = (f"{_hours(settings.turn_timer_hours)} per decision (quiet hours not counted); "
             "then the computer makes that decision, and after three in a row it plays the "
             "seat until `/sanmarco reclaim`" if settings.turn_timer_hours else "off")
    lines = ["**Settings of this channel** (they stay from game to game)",
             f"Reminders: {reminders}",
             f"Quiet hours: {quiet} (no reminders, and the turn timer does not count them)",
             f"Time zone: {settings.timezone}",
             f"Turn timer: {timer}",
             f"Computer for absent players: {settings.computer_level}",
             f"Language: {settings.language}"]
    if can_change:
        lines.append("Change them with `/sanmarco settings` and its options.")
    else:
        lines.append("Members with Manage Channel can change them.")
    return "\n".join(lines)


def settings_changed(pid: str, settings: Settings) -> str:
    """The channel's post when someone with Manage Channel changed its settings."""
    return f"{who(pid)} changed this channel's settings.\n" + settings_text(
        settings, can_change=True).split("\n", 1)[1].rsplit("\n", 1)[0]


def notify_text(mode: str) -> str:
    """``/sanmarco notify``: how the player now hears it is their turn (in this server)."""
    return (f"On this server you hear it is your turn by {NOTIFY_MODES.get(mode, mode)}. "
            "Reminders come the same way. `/sanmarco notify how:` changes it.")


def default_move(action: Action, names: Mapping[str, str] | None = None) -> str:
    """What the computer did for a player whose time ran out (never a split's content)."""
    if isinstance(action, TakeOffer):
        return f"took offer {action.index + 1}"
    if isinstance(action, Split):
        return "split their cards"  # R15: how is secret until the offers are revealed
    return "chose: " + describe(action, names)


def timed_out(pid: str, action: Action, names: Mapping[str, str] | None = None) -> str:
    """A default move's line: ``@p's time ran out; the computer took offer 2 for them.``"""
    move = default_move(action, names)
    if move.startswith("chose: "):
        return f"{who(pid, names)}'s time ran out; the computer {move}."
    return f"{who(pid, names)}'s time ran out; the computer {move} for them."


def handed_over(pid: str, names: Mapping[str, str] | None = None) -> str:
    return (f"That was {who(pid, names)}'s third decision in a row made by the computer: it "
            f"now plays their seat until they come back with `/sanmarco reclaim`.")


def took_back(pid: str, action: Action, names: Mapping[str, str] | None = None) -> str:
    """The channel's line when a player takes back their last move."""
    return f"{who(pid, names)} took back: {describe(action, names)}."


LABEL_UNDO = "Undo"
UNDO_OFFER = "Done. Changed your mind? **Undo** takes it back while nobody has moved since."
UNDONE = "Taken back: the decision is yours again."


def dm_turn(kind: str, url: str | None, *, reminder_since: float | None = None) -> str:
    """A direct message: the player's decision starts (or waits), with a link to the game."""
    what = AWAIT_WORDS.get(kind, kind)
    head = (f"Reminder — San Marco has been waiting for you since <t:{int(reminder_since)}:R>"
            if reminder_since is not None else "Your turn in San Marco")
    return f"{head}: {what}." + (f" {url}" if url else "")


def dm_fallback(pids: Sequence[str], awaiting: Mapping[str, str],
                names: Mapping[str, str] | None = None) -> str:
    """The mention that replaces a DM Discord refused (a post of a running game)."""
    return ("I could not send a direct message to " + who_list(pids, names) + ", so here "
            "is the mention.\n" + now_line(awaiting, names))


DM_REFUSED_HINT = ("Discord refused my direct message to you (your DMs are closed for this "
                   "server), so I mention you in the channel instead. Open your direct "
                   "messages and choose again with `/sanmarco notify`.")


def my_games_text(games: Sequence[MyGame], user: str) -> str:
    """``/sanmarco games``: the caller's games in this server, newest first."""
    if not games:
        return "You have no lobby or running game in this server. `/sanmarco new` opens one."
    lines = ["**Your games in this server**"]
    for g in games:
        link = f" · [latest post]({g.url})" if g.url else ""
        if g.status is GameStatus.LOBBY:
            lines.append(f"#{g.game_id} · <#{g.channel_id}> · lobby, {len(g.players)}/"
                         f"{g.seats} seats{link}")
            continue
        since = f" since <t:{int(g.since)}:R>" if g.since else ""
        if user in g.awaiting:
            state = f"**your turn**: {AWAIT_WORDS.get(g.awaiting[user], '')}{since}"
        else:
            state = f"waits for {awaited_line(g.awaiting, g.names)}{since}"
        lines.append(f"#{g.game_id} · <#{g.channel_id}> · {state}{link}")
    return _fit_lines(lines)
