"""Every sentence and label the bot shows, in English, German and French: one module.

How a sentence is written (the pattern; bot/i18n/ says how the catalogues follow):

- Every function takes ``tr`` first — the translations of the reader it writes for
  (``bot.i18n.for_locale(interaction.locale)`` for an ephemeral answer,
  ``bot.i18n.translations(channel language)`` for a public post) — and writes English
  through it::

      def joins(tr: Tr, pid: str) -> str:
          return tr.gettext("{player} joins.").format(player=who(tr, pid))

  Named ``{placeholders}`` only, filled after translating; a count goes through
  ``tr.ngettext("{count} card", "{count} cards", n).format(count=n)``. A table of sentences
  marks its entries ``N_("...")`` and is read through a function that translates
  (``refusal``, ``rule_topic``, ``label``...): no sentence leaves this module untranslated,
  and mypy finds a caller that forgot ``tr``.
- Then ``python -m bot.i18n update`` and translate the new entries of
  ``bot/i18n/locale/{de,fr}/LC_MESSAGES/sanmarco.po`` with the books' words (docs/GLOSSARY.md).

Refusals: ``REFUSALS`` maps every code that can be raised (``bot.service.errors.Code`` and
``engine.ERROR_CODES``) to exactly one sentence, and ``refusal`` is the only way a code
becomes words. The rest are small functions, one per kind of message, made from public facts
(public events and views); a distributor's cards are formatted only by ``builder_text`` and
``card_label``, whose output goes to that distributor's ephemeral message (R15). The words
the engine makes for its own messages (``engine.describe``, ``card_label``) have their
translated equivalents here (``describe``, ``card_label``).

No Discord types here: the adapter, the demo and tests share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from bot.i18n import N_, Tr
from bot.service.results import GameStatus, MyGame, PlayerStats, SizeRecord, Status
from engine import (
    Action,
    Banish,
    ChooseBanished,
    DeclineBanishment,
    DiscardCard,
    Doge,
    Event,
    KeepRolls,
    PlaceAristocrat,
    PlaceBridge,
    Reroll,
    Split,
    TakeOffer,
    TakeOverBridge,
    Transfer,
    doge_payments,
)
from engine.ai import is_computer
from engine.board import CANAL_CROSSING_COST
from engine.cards import card_district, card_kind, is_limit, limit_value
from engine.views import PublicView
from render.words import CARD_NAMES, and_list, awaited

if TYPE_CHECKING:  # a server's memory (issue 13)
    from bot.ratings import Ranked
    from bot.store import PastGame, Settings

# ---------------------------------------------------------------------------- refusals
REFUSALS: dict[str, str] = {
    # the game and the channel
    "game.none": N_("There is no game in this channel. Start one with `/sanmarco new`."),
    "game.not_in_server": N_("San Marco is played in a server channel."),
    "game.exists": N_("This channel already has a game. `/sanmarco status` shows it."),
    "game.not_started": N_("The game has not started yet."),
    "game.started": N_("The game has already started."),
    "game.over": N_("This game is over."),
    "game.abandoned": N_("This game was abandoned. `/sanmarco new` opens another."),
    "player.not_in_game": N_("You are not playing in this game."),
    "action.unknown_player": N_("You are not playing in this game."),
    # the lobby
    "lobby.full": N_("The game is full."),
    "lobby.already_joined": N_("You have already joined."),
    "lobby.not_joined": N_("You have not joined this game."),
    "lobby.not_enough": N_("San Marco needs at least 3 players: ask others to press Join."),
    "lobby.not_creator": N_("Only the player who opened the game (or someone with Manage "
                            "Channel) can start it."),
    "lobby.too_many": N_("You already have {count} open lobbies on this server ({channels}): "
                         "start, leave or abandon one before opening another."),
    "permission.denied": N_("Only the player who opened the game or someone with Manage "
                            "Channel can do that."),
    # turns and prompts
    "action.not_your_turn": N_("It is not your turn."),
    "state.stale": N_("That prompt is outdated."),
    # the engine's refusals
    "action.malformed": N_("That is not a move I understand: choose one from the list."),
    "action.wrong_phase": N_("That is not what the game is waiting for right now."),
    "action.illegal": N_("The rules do not allow that move now: {move}."),
    "action.split_shape": N_("A split must put every drawn card into an offer and leave no "
                             "offer empty."),
    "action.no_such_card": N_("You have no such card to play."),
    "action.must_play": N_("That card can still be played, so it may not be discarded (R7)."),
    # input the adapter or the service refuses
    "input.malformed": N_("That option is not valid."),
    "input.seats": N_("A game has 3 or 4 seats."),
    "input.computer_seats": N_("Leave at least one seat for a person."),
    "input.offer_number": N_("Choose an offer by its number."),
    "input.move": N_("Choose the move from the list."),
    "input.topic": N_("There is no rules topic by that name."),
    "input.player_id": N_("That is not a player."),
    "split.incomplete": N_("Assign every card to an offer first."),
    # settings
    "settings.quiet_hours": N_("Quiet hours are two whole hours from 0 to 23."),
    "settings.language": N_("The language must be English (en), German (de) or French (fr), "
                            "or follow the server's language."),
    "settings.timezone": N_("That is not a time zone name (e.g. 'Europe/Berlin')."),
    # computer players and absent players
    "computer.unavailable": N_("Computer players are not available on this bot."),
    "computer.unknown": N_("There is no such computer player in the lobby."),
    "computer.level": N_("Computer players are 'easy', 'normal' or 'hard'."),
    "replace.already": N_("A computer already plays that seat."),
    "replace.already_voted": N_("You have already voted to replace that player."),
    "replace.unknown_player": N_("That player is not in this game: choose one from the list."),
    "replace.not_replaced": N_("Your seat is not played by the computer."),
    "replace.not_voter": N_("Only players who play their own seat can vote to replace "
                            "someone."),
    "replace.not_awaited": N_("The game is not waiting for that player, so there is nothing "
                              "to replace them for."),
    "replace.too_early": N_("The game has not waited long enough on that player: a vote to "
                            "replace them opens <t:{opens}:R>."),
    # the store could not save (issue 11): nothing changed, and why
    "store.full": N_("That was not saved and nothing changed: the bot's disk is full (its "
                     "admin must free some space)."),
    "store.read_only": N_("That was not saved and nothing changed: the bot may not write to "
                          "its game file (its admin must make it writable)."),
    "store.io": N_("That was not saved and nothing changed: the bot's disk reported a read or "
                   "write error (its admin should check the disk)."),
    "store.busy": N_("That was not saved and nothing changed: the game is busy right now, so "
                     "try again in a moment."),
    "store.corrupt": N_("That was not saved and nothing changed: the bot's game file is "
                        "damaged (its admin should check it)."),
    "store.cantopen": N_("That was not saved and nothing changed: the bot cannot open its "
                         "game file (its admin should check it)."),
    "store.failed": N_("That was not saved and nothing changed: the bot's game file refused "
                       "the change."),
    # anything unexpected: an apology, never a traceback
    "internal": N_("Sorry, something went wrong on my side. `/sanmarco status` shows where "
                   "the game stands."),
}

# How a refusal's facts are written (channel ids as channel mentions, which Discord shows as
# the channels' names).
_SHOW_PARAM = {"channels": lambda ids: ", ".join(f"<#{c}>" for c in str(ids).split())}


def apology(tr: Tr) -> str:
    """The answer to anything unexpected: an apology, never a traceback."""
    sentence = REFUSALS["internal"]
    return tr.gettext(sentence)


def refusal(tr: Tr, code: str, params: Mapping[str, str | int] | None = None, *,
            action: Action | None = None, names: Mapping[str, str] | None = None) -> str:
    """The sentence a player reads for a refusal ``code`` (an unknown code is a bug: the
    player gets the apology, and a test keeps the table complete). ``action``: the refused
    move, said in the reader's language (the engine's ``move`` fact is English)."""
    template = REFUSALS.get(code)
    if template is None:
        return apology(tr)
    shown = {k: _SHOW_PARAM.get(k, str)(v) for k, v in (params or {}).items()}
    if action is not None:
        shown["move"] = describe(tr, action, names)
    sentence = tr.gettext(template)
    try:
        return sentence.format(**shown)
    except (KeyError, IndexError, ValueError):
        return sentence.split("{", 1)[0].rstrip(" :") + "."


# ---------------------------------------------------------------------------- players
_LEVELS: dict[str, str] = {"normal": N_("normal"), "easy": N_("easy"), "hard": N_("hard")}


def level_name(tr: Tr, level: str) -> str:
    """A computer level as shown (``normal``, ``easy``, ``hard``)."""
    return tr.gettext(_LEVELS[level]) if level in _LEVELS else level


def computer_label(tr: Tr, pid: str) -> str:
    """A computer player's name: ``ai.normal.1`` → "Computer 1 (normal)"."""
    _, level, number = pid.split(".")
    return tr.gettext("Computer {number} ({level})").format(number=number,
                                                           level=level_name(tr, level))


def who(tr: Tr, pid: str, names: Mapping[str, str] | None = None) -> str:
    """A Discord mention for a Discord id (renders as the name; pings only when allowed);
    a computer player by its name in the reader's language."""
    if pid.isdigit():
        return f"<@{pid}>"
    if is_computer(pid):
        return computer_label(tr, pid)
    return (names or {}).get(pid, pid)


def name_of(tr: Tr, pid: str, names: Mapping[str, str] | None = None) -> str:
    """A player's display name as plain text (selects and autocomplete show no mentions)."""
    if is_computer(pid):
        return computer_label(tr, pid)
    return (names or {}).get(pid, pid)


def local_names(tr: Tr, names: Mapping[str, str]) -> dict[str, str]:
    """Display names with the computer players' names in the reader's language (for the
    pictures, which draw the names they are given)."""
    return {p: name_of(tr, p, names) for p in names}


def who_list(tr: Tr, pids: Iterable[str], names: Mapping[str, str] | None = None) -> str:
    return and_list([who(tr, p, names) for p in pids], tr)


def card_label(tr: Tr, card: str) -> str:
    """A player-facing name for a card (the engine's ``card_label``, translated)."""
    kind = card_kind(card)
    if kind == "district":
        return tr.gettext("District: {district}").format(district=card_district(card))
    if kind == "limit":
        return tr.gettext("Limit {value}").format(value=limit_value(card))
    return tr.gettext(CARD_NAMES[kind]) if kind in CARD_NAMES else card


def cards_text(tr: Tr, cards: Sequence[str]) -> str:
    return ", ".join(card_label(tr, c) for c in cards) if cards else tr.gettext("nothing")


def limit_points(cards: Sequence[str]) -> int:
    """Sum of the limit cards among ``cards`` (what taking the offer adds to one's limit)."""
    return sum(limit_value(c) for c in cards if is_limit(c))


# ---------------------------------------------------------------------------- moves
def _from_board(tr: Tr, move: str, source: str | None) -> str:
    """R13: a move whose aristocrat comes from a district because the reserve is empty."""
    if not source:
        return move
    return tr.gettext("{move} (taken from {district}, your reserve is empty)").format(
        move=move, district=source)


def describe(tr: Tr, action: Action, names: Mapping[str, str] | None = None) -> str:
    """A short sentence saying what the action does (the engine's ``describe``, in the
    reader's language)."""
    def owner(pid: str) -> str:
        return name_of(tr, pid, names)

    if isinstance(action, KeepRolls):
        return tr.gettext("Keep your four identical rolls")
    if isinstance(action, Reroll):
        return tr.gettext("Reroll your fourth roll until it differs")
    if isinstance(action, PlaceBridge):
        return _from_board(tr, tr.gettext("Build a bridge {a} – {b}").format(
            a=action.a, b=action.b), action.source)
    if isinstance(action, TakeOverBridge):
        if (action.to_a, action.to_b) != (action.a, action.b):
            move = tr.gettext("Take over {owner}'s bridge {a} – {b}, moved to {to_a} – "
                              "{to_b}").format(owner=owner(action.owner), a=action.a,
                                               b=action.b, to_a=action.to_a, to_b=action.to_b)
        else:
            move = tr.gettext("Take over {owner}'s bridge {a} – {b}").format(
                owner=owner(action.owner), a=action.a, b=action.b)
        return _from_board(tr, move, action.source)
    if isinstance(action, Split):
        sizes = [action.assignment.count(k) for k in range(max(action.assignment) + 1)]
        return tr.gettext("Split into offers of {sizes} cards").format(
            sizes=", ".join(str(n) for n in sizes))
    if isinstance(action, TakeOffer):
        return tr.gettext("Take offer {number}").format(number=action.index + 1)
    if isinstance(action, PlaceAristocrat):
        if action.hop:
            move = tr.gettext("Place an aristocrat in {district}, then over your bridge to "
                              "{hop}").format(district=action.district, hop=action.hop)
        else:
            move = tr.gettext("Place an aristocrat in {district}").format(
                district=action.district)
        return _from_board(tr, move, action.source)
    if isinstance(action, Transfer):
        return _from_board(tr, tr.gettext(
            "Replace one of {player}'s aristocrats in {district} with yours").format(
            player=owner(action.victim), district=action.district), action.source)
    if isinstance(action, Doge):
        if not action.route:
            return tr.gettext("Doge: score {district}").format(district=action.target)
        steps = []
        for c in action.route:
            if c.owner is None:
                steps.append(tr.gettext("canal to {district} ({cost} prestige)").format(
                    district=c.b, cost=CANAL_CROSSING_COST))
            else:
                steps.append(tr.gettext("{owner}'s bridge to {district}").format(
                    owner=owner(c.owner), district=c.b))
        return tr.gettext("Doge to {district} via {steps}; score {district}").format(
            district=action.target, steps=", ".join(steps))
    if isinstance(action, Banish):
        return tr.gettext("Banish in {district}").format(district=action.district)
    if isinstance(action, DeclineBanishment):
        return tr.gettext("No banishment")
    if isinstance(action, ChooseBanished):
        parts = [tr.gettext("{player} loses {count}").format(player=owner(p), count=n)
                 for p, n in action.removed if n]
        return ", ".join(parts) if parts else tr.gettext("No opponent loses an aristocrat")
    if isinstance(action, DiscardCard):
        return tr.gettext("Discard {card} (it has no legal effect)").format(
            card=card_label(tr, action.card))
    return action.encode()


# ---------------------------------------------------------------------------- waiting
def awaited_words(tr: Tr, kind: str) -> str:
    """What an awaited player must do, as a verb phrase (render's table: one for both)."""
    return awaited(kind, tr)


def awaited_line(tr: Tr, awaiting: Mapping[str, str],
                 names: Mapping[str, str] | None = None) -> str:
    """``@a: play the cards of the offer`` for everybody the game waits for."""
    return "; ".join(f"{who(tr, p, names)}: {awaited_words(tr, k)}"
                     for p, k in awaiting.items())


def now_line(tr: Tr, awaiting: Mapping[str, str],
             names: Mapping[str, str] | None = None) -> str:
    """The last line of every public post of a running game: who acts next."""
    return tr.gettext("**Now** — {awaited}").format(awaited=awaited_line(tr, awaiting, names))


def position_line(tr: Tr, view: PublicView, pid: str) -> str:
    """A player's own standing, from the public view (``/sanmarco hand`` when not awaited)."""
    cards = ", ".join(str(c) for c in view["limit_cards"].get(pid, [])) or tr.gettext("none")
    return tr.gettext("You: {prestige} prestige, {reserve} aristocrats in reserve, {limit} "
                      "limit points this passage (cards: {cards}).").format(
        prestige=view["prestige"].get(pid, 0), reserve=view["reserve"].get(pid, 0),
        limit=view["limit"].get(pid, 0), cards=cards)


# ---------------------------------------------------------------------------- events
def _points(tr: Tr, points: Mapping[str, int], names: Mapping[str, str] | None) -> str:
    got = [f"{who(tr, p, names)} +{n}" for p, n in points.items() if n]
    return ", ".join(got) if got else tr.gettext("nobody scores")


def aristocrats(tr: Tr, n: int) -> str:
    return tr.ngettext("{count} aristocrat", "{count} aristocrats", n).format(count=n)


def _losses(tr: Tr, removed: Mapping[str, int], names: Mapping[str, str] | None) -> str:
    """``bob loses 1 aristocrat, carol 3`` (a banishment's victims, R10)."""
    lost = [(p, n) for p, n in removed.items() if n]
    if not lost:
        return tr.gettext("nobody loses an aristocrat")
    (first, k), rest = lost[0], lost[1:]
    return ", ".join([tr.gettext("{player} loses {aristocrats}").format(
        player=who(tr, first, names), aristocrats=aristocrats(tr, k)),
        *(f"{who(tr, p, names)} {n}" for p, n in rest)])


def event_line(tr: Tr, ev: Event, names: Mapping[str, str] | None = None) -> str | None:
    """A short public line for one public event (None for events not worth a line)."""
    t = ev.type
    p = who(tr, ev["player"], names) if "player" in ev.data else ""
    _ = tr.gettext
    if t == "game_started":
        return _("The game begins. Seats: {players}.").format(
            players=who_list(tr, ev["players"], names))
    if t in ("setup_rolled", "setup_rerolled"):
        return _("{player} rolls {rolls}.").format(
            player=p, rolls=", ".join(str(r) for r in ev["rolls"]))
    if t == "bridge_built":
        return _("{player} builds a bridge {a} – {b}.").format(player=p, a=ev["a"], b=ev["b"])
    if t == "round_started":
        roles = "; ".join(_("{distributor} distributes to {deciders}").format(
            distributor=who(tr, r["distributor"], names),
            deciders=who_list(tr, r["decision_makers"], names)) for r in ev["roles"])
        if ev.get("extra"):
            return _("Passage {passage}, round {round} (extra round): {roles}.").format(
                passage=ev["passage"], round=ev["round"], roles=roles)
        return _("Passage {passage}, round {round}: {roles}.").format(
            passage=ev["passage"], round=ev["round"], roles=roles)
    if t == "split_committed":
        return _("{player} has split their cards.").format(player=p)
    if t == "offers_revealed":
        offers = " | ".join(f"{k + 1}: {cards_text(tr, o)}" for k, o in enumerate(ev["offers"]))
        return _("{player}'s offers: {offers}.").format(
            player=who(tr, ev["distributor"], names), offers=offers)
    if t == "offer_taken":
        return _("{player} takes offer {number} ({cards}) and now has {limit} limit "
                 "points.").format(player=p, number=ev["index"] + 1,
                                   cards=cards_text(tr, ev["cards"]), limit=ev["limit_total"])
    if t == "card_discarded":
        return _("{player} discards {card} (no legal effect).").format(
            player=p, card=card_label(tr, ev["card"]))
    if t == "aristocrat_placed":
        if ev.get("hop"):
            return _("{player} places an aristocrat in {district} and crosses to "
                     "{hop}.").format(player=p, district=ev["district"], hop=ev["hop"])
        return _("{player} places an aristocrat in {district}.").format(
            player=p, district=ev["district"])
    if t == "bridge_taken_over":
        return _("{player} takes over {owner}'s bridge {a} – {b} (now {to_a} – "
                 "{to_b}).").format(player=p, owner=who(tr, ev["owner"], names), a=ev["a"],
                                    b=ev["b"], to_a=ev["to_a"], to_b=ev["to_b"])
    if t == "transferred":
        return _("{player} replaces {victim}'s aristocrat in {district}.").format(
            player=p, victim=who(tr, ev["victim"], names), district=ev["district"])
    if t == "doge_moved":
        return _("{player} moves the Doge to {district}.").format(player=p, district=ev["to"])
    if t == "canal_crossed":
        return _("{player} pays {cost} prestige to cross a canal.").format(player=p,
                                                                           cost=ev["cost"])
    if t == "toll_paid":
        return _("{payer} pays {owner} {amount} prestige in tolls.").format(
            payer=who(tr, ev["payer"], names), owner=who(tr, ev["owner"], names),
            amount=ev["amount"])
    if t == "district_scored":
        return _("{district} is scored: {points}.").format(
            district=ev["district"], points=_points(tr, ev["points"], names))
    if t == "banishment_rolled":
        return _("{player} rolls {roll} for a banishment in {district}.").format(
            player=p, roll=ev["roll"], district=ev["district"])
    if t == "banishment_declined":
        return _("{player} declines the passage's banishment.").format(player=p)
    if t == "banished":
        return _("Banishment in {district}: {losses}.").format(
            district=ev["district"], losses=_losses(tr, ev["removed"], names))
    if t == "player_out":
        return _("{player} reaches {limit} limit points and is out of this passage.").format(
            player=p, limit=ev["limit"])
    if t == "passage_scored":
        banisher = ev.get("banisher")
        bonus = _points(tr, ev["bonus"], names)
        if banisher:
            return _("Passage {passage} ends. Limit bonus: {bonus}. {player} has the fewest "
                     "limit points and may banish.").format(
                passage=ev["passage"], bonus=bonus, player=who(tr, banisher, names))
        return _("Passage {passage} ends. Limit bonus: {bonus}. A tie for the fewest limit "
                 "points: no banishment.").format(passage=ev["passage"], bonus=bonus)
    if t == "passage_started":
        return _("Passage {passage} begins; {player} starts.").format(
            passage=ev["passage"], player=who(tr, ev["starter"], names))
    if t == "game_over":
        return _("Game over! Winner: {winners}.").format(
            winners=who_list(tr, ev["winners"], names))
    if t == "action_deck_reshuffled":
        return _("The action discard pile is shuffled into a new deck.")
    return None


def events_text(tr: Tr, events: Iterable[Event], names: Mapping[str, str] | None = None,
                limit: int = 1500, *, latest: bool = False) -> str:
    """Public event lines joined, cut to stay within Discord's 2000-character messages.
    ``latest`` keeps the newest lines (for the log) instead of the first ones."""
    lines = [line for ev in events if (line := event_line(tr, ev, names))]
    if latest:
        lines.reverse()
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            more = len(lines) - len(out)
            out.append(tr.ngettext("… {count} earlier line.", "… {count} earlier lines.",
                                   more).format(count=more) if latest
                       else tr.gettext("… and {count} more (see `/sanmarco log`).").format(
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


def done(tr: Tr) -> str:
    return tr.gettext("Done: nothing more for you to do now.")


def the_board(tr: Tr) -> str:
    return tr.gettext("The board.")


# ---------------------------------------------------------------------------- the lobby
def lobby_text(tr: Tr, players: Sequence[str], seats: int, names: Mapping[str, str],
               opener: str) -> str:
    seated = who_list(tr, players, names) or tr.gettext("nobody yet")
    return tr.gettext("**San Marco** — {taken}/{seats} seats taken: {players}. Join or add a "
                      "computer player; {opener} (or anyone with Manage Channel) starts the "
                      "game.").format(taken=len(players), seats=seats, players=seated,
                                      opener=who(tr, opener, names))


def joins(tr: Tr, pid: str) -> str:
    return tr.gettext("{player} joins.").format(player=who(tr, pid)) + " "


def leaves(tr: Tr, pid: str) -> str:
    return tr.gettext("{player} leaves.").format(player=who(tr, pid)) + " "


def lobby_closed(tr: Tr) -> str:
    return tr.gettext("The lobby is closed: everybody left. `/sanmarco new` opens another.")


# ---------------------------------------------------------------------------- labels
# The words on buttons and in empty selects: ``label(tr, "join")``.
Label = Literal["join", "leave", "add_computer", "start", "build", "play_next", "your_move",
                "commit", "reset", "more", "back", "confirm", "choose_card", "choose_target",
                "choose", "replay", "game_file", "undo"]
LABELS: dict[Label, str] = {
    "join": N_("Join"),
    "leave": N_("Leave"),
    "add_computer": N_("Add computer"),
    "start": N_("Start"),
    "build": N_("Build your offers"),
    "play_next": N_("Play next card"),
    "your_move": N_("Your move"),
    "commit": N_("Commit offers"),
    "reset": N_("Reset"),
    "more": N_("More choices"),
    "back": N_("Back"),
    "confirm": N_("Confirm"),
    "choose_card": N_("Choose a card"),
    "choose_target": N_("Choose a target"),
    "choose": N_("Choose"),
    "replay": N_("Replay"),
    "game_file": N_("Game file"),
    "undo": N_("Undo"),  # issue 12: take back one's own move
}


def label(tr: Tr, key: Label) -> str:
    """A button's label or a select's placeholder."""
    return tr.gettext(LABELS[key])


# ---------------------------------------------------------------------------- prompts
def take_label(tr: Tr, index: int, cards: Sequence[str]) -> str:
    n = len(cards)
    return tr.ngettext("Take offer {number}: {count} card, limit {limit}",
                       "Take offer {number}: {count} cards, limit {limit}", n).format(
        number=index + 1, count=n, limit=limit_points(cards))


def offer_choice(tr: Tr, index: int, cards: Sequence[str]) -> str:
    """An offer in ``/sanmarco take``'s autocomplete, numbered from 1 as players see it."""
    return tr.gettext("Offer {number}: {cards} (limit {limit})").format(
        number=index + 1, cards=cards_text(tr, cards), limit=limit_points(cards))


def builder_text(tr: Tr, drawn: Sequence[str], assignment: Sequence[int | None],
                 n_offers: int) -> str:
    """The distributor's private offer builder (ephemeral only: it lists secret cards)."""
    lines = [tr.gettext("**Your drawn cards** — assign each card to an offer, then commit.")]
    for k in range(n_offers):
        cards = [c for c, a in zip(drawn, assignment, strict=True) if a == k]
        lines.append(tr.gettext("Offer {number}: {cards} — limit {limit}").format(
            number=k + 1, cards=cards_text(tr, cards), limit=limit_points(cards)))
    free = [c for c, a in zip(drawn, assignment, strict=True) if a is None]
    if free:
        lines.append(tr.gettext("Not yet assigned: {cards}").format(cards=cards_text(tr, free)))
    return "\n".join(lines)


def builder_option(tr: Tr, index: int, card: str) -> str:
    return f"{index + 1}. {card_label(tr, card)}"


def builder_placeholder(tr: Tr, offer: int) -> str:
    return tr.gettext("Cards in offer {number}").format(number=offer + 1)


def which_card(tr: Tr, hand: Sequence[str]) -> str:
    if hand:
        return tr.gettext("Which card do you play next? Cards still to play: {cards}.").format(
            cards=cards_text(tr, hand))
    return tr.gettext("Which card do you play next?")


CHOOSER_TITLES: dict[str, str] = {
    "reroll": N_("Your four set-up rolls are all the same: keep them, or reroll the fourth "
                 "(R3)."),
    "bridge": N_("Place a set-up bridge: choose where."),
    "take": N_("Choose an offer."),
    "banish": N_("You have the fewest limit points: name a district to banish from, or "
                 "decline (R16)."),
    "victims": N_("Choose whose aristocrats go (R10)."),
}


def chooser_title(tr: Tr, awaited: str, card: str | None) -> str:
    """The title of a chooser screen: the card being played, or what the game awaits."""
    if awaited == "play":
        if card:
            return tr.gettext("{card}: choose what to do.").format(card=card_label(tr, card))
        return tr.gettext("Choose what to do.")
    title = CHOOSER_TITLES.get(awaited)
    return tr.gettext(title) if title is not None else tr.gettext("Choose what to do.")


def choose_target(tr: Tr, title: str) -> str:
    return tr.gettext("{title} First the target:").format(title=title)


def target_of(tr: Tr, action: Action, names: Mapping[str, str] | None = None) -> str | None:
    """What a move aims at, to group a long list of moves by target (None: no target)."""
    if isinstance(action, PlaceAristocrat):
        if action.hop:
            return tr.gettext("{district}, then {hop}").format(district=action.district,
                                                               hop=action.hop)
        return action.district
    if isinstance(action, PlaceBridge):
        return tr.gettext("Bridge {a} – {b}").format(a=action.a, b=action.b)
    if isinstance(action, TakeOverBridge):
        return tr.gettext("{owner}'s bridge {a} – {b}").format(
            owner=name_of(tr, action.owner, names), a=action.a, b=action.b)
    if isinstance(action, Transfer):
        return tr.gettext("Transfer in {district}").format(district=action.district)
    if isinstance(action, Doge):
        return tr.gettext("Doge to {district}").format(district=action.target)
    return None


def _fit(name: str, width: int) -> str:
    return name if len(name) <= width else name[:width - 1] + "…"


def route_payments(action: Doge, pid: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Whom a Doge route pays how much (canal, tolls by owner): two routes with the same
    target and payments are the same choice for their player (R11 is about whom to pay)."""
    canal, tolls = doge_payments(action, pid)
    return canal, tuple(sorted(tolls))


def doge_option(tr: Tr, action: Doge, pid: str, names: Mapping[str, str] | None = None
                ) -> tuple[str, str]:
    """A Doge choice as a select shows it: the target and the districts the route passes
    (label), and what it costs and whom it pays (description) — so no two routes that pay
    different players read the same."""
    if not action.route:
        return (tr.gettext("Doge: score {district}").format(district=action.target),
                tr.gettext("Free"))
    passes = [c.b for c in action.route[:-1]]
    if passes:
        label_text = tr.gettext("Doge to {district} via {districts}").format(
            district=action.target, districts=", ".join(passes))
    else:
        label_text = tr.gettext("Doge to {district}").format(district=action.target)
    canal, tolls = doge_payments(action, pid)
    cost = canal + sum(n for _, n in tolls)
    if not cost:
        return label_text[:100], tr.gettext("Free: only your own bridges")
    parts = ([tr.gettext("canal {cost}").format(cost=canal)] if canal else []) + [
        f"{_fit(name_of(tr, owner, names), 24)} {n}" for owner, n in tolls]
    return label_text[:100], tr.gettext("Costs you {cost}: {payments}").format(
        cost=cost, payments=", ".join(parts))


def confirm_route(tr: Tr, action: Doge, pid: str,
                  names: Mapping[str, str] | None = None) -> str:
    """The confirmation of a Doge route: every bridge it crosses and whom it pays (R11)."""
    _ = tr.gettext
    lines = [_("**Doge to {district}**, then {district} is scored:").format(
        district=action.target)]
    for c in action.route:
        if c.owner is None:
            lines.append(_("• across the canal {a} → {b}: {cost} prestige").format(
                a=c.a, b=c.b, cost=CANAL_CROSSING_COST))
        elif c.owner == pid:
            lines.append(_("• {a} → {b} over your own bridge: free").format(a=c.a, b=c.b))
        else:
            lines.append(_("• {a} → {b} over {owner}'s bridge: 1 prestige to {owner}").format(
                a=c.a, b=c.b, owner=name_of(tr, c.owner, names)))
    canal, tolls = doge_payments(action, pid)
    cost = canal + sum(n for _, n in tolls)
    lines.append(_("In all it costs you {cost} prestige.").format(cost=cost) if cost
                 else _("It costs you nothing."))
    lines.append(_("Confirm this route?"))
    return "\n".join(lines)


def doge_cost_suffix(tr: Tr, cost: int) -> str:
    if cost:
        return " " + tr.gettext("— costs you {cost} prestige").format(cost=cost)
    return " " + tr.gettext("— free")


# ---------------------------------------------------------------------------- status
def status_lobby(tr: Tr, players: Sequence[str], seats: int, creator: str,
                 names: Mapping[str, str]) -> str:
    return tr.gettext("Lobby: {taken}/{seats} seats taken ({players}); {opener} opened "
                      "it.").format(taken=len(players), seats=seats,
                                    players=who_list(tr, players, names) or tr.gettext("nobody"),
                                    opener=who(tr, creator, names))


def status_abandoned(tr: Tr) -> str:
    return tr.gettext("The last game in this channel was abandoned. `/sanmarco new` opens "
                      "another.")


def _scores(tr: Tr, prestige: Mapping[str, int], names: Mapping[str, str]) -> str:
    return ", ".join(f"{who(tr, p, names)} {n}" for p, n in prestige.items())


def status_over(tr: Tr, winners: Sequence[str], prestige: Mapping[str, int],
                names: Mapping[str, str]) -> str:
    text = tr.gettext("The game is over. Winner: {winners}.").format(
        winners=who_list(tr, winners, names))
    scores = _scores(tr, prestige, names)
    return text + (" " + tr.gettext("Prestige: {scores}.").format(scores=scores)
                   if scores else "")


def status_running(tr: Tr, awaiting: Mapping[str, str], since: float | None,
                   prestige: Mapping[str, int], names: Mapping[str, str]) -> str:
    waiting = "; ".join(tr.gettext("{player} must {action}").format(
        player=who(tr, p, names), action=awaited_words(tr, k)) for p, k in awaiting.items())
    if since:
        head = tr.gettext("{waiting} since {time}.").format(waiting=waiting,
                                                            time=f"<t:{int(since)}:R>")
    else:
        head = waiting + "."
    scores = _scores(tr, prestige, names)
    return (head + ("\n" + tr.gettext("Prestige: {scores}.").format(scores=scores)
                    if scores else "")
            + "\n" + tr.gettext("`/sanmarco hand` opens your panel if it is your move."))


def status_text(tr: Tr, status: Status) -> str:
    """``/sanmarco status``: whose move, for what, since when (Discord renders <t:..:R>)."""
    if status.status is GameStatus.LOBBY:
        return status_lobby(tr, status.players, status.seats, status.creator, status.names)
    if status.status is GameStatus.ABANDONED:
        return status_abandoned(tr)
    if status.finished:
        return status_over(tr, status.winners, status.prestige, status.names)
    return status_running(tr, status.awaiting, status.since, status.prestige, status.names)


def board_caption(tr: Tr, status: GameStatus, awaiting: Mapping[str, str],
                  names: Mapping[str, str]) -> str:
    """The line above ``/sanmarco board``'s picture (an ended game awaits nobody)."""
    if status is GameStatus.ABANDONED:
        return refusal(tr, "game.abandoned")
    return awaited_line(tr, awaiting, names) or the_board(tr)


def not_your_turn_here(tr: Tr, awaiting: Mapping[str, str], names: Mapping[str, str]) -> str:
    text = refusal(tr, "action.not_your_turn")
    line = awaited_line(tr, awaiting, names)
    return tr.gettext("{refusal} Now: {awaited}").format(refusal=text, awaited=line) \
        if line else text


def with_current(tr: Tr, head: str, awaiting: Mapping[str, str],
                 names: Mapping[str, str]) -> str:
    """A refusal followed by what the game waits for now (for stale prompts)."""
    line = awaited_line(tr, awaiting, names)
    return tr.gettext("{refusal}\nNow: {awaited}").format(refusal=head, awaited=line) \
        if line else head


# ---------------------------------------------------------------------------- reminders
def reminder(tr: Tr, awaiting: Mapping[str, str], since: float) -> str:
    """A reminder post; like every post of a running game it ends with who acts next."""
    return (tr.gettext("Reminder — the game has been waiting since {time}. `/sanmarco hand` "
                       "opens your panel.").format(time=f"<t:{int(since)}:R>")
            + "\n" + now_line(tr, awaiting))


# ---------------------------------------------------------------------------- absent players
def replace_vote(tr: Tr, voter: str, target: str, votes: int, needed: int,
                 names: Mapping[str, str]) -> str:
    return tr.gettext("{voter} votes to let the computer play {player}'s seat ({votes} of "
                      "{needed} votes needed). Others can vote with `/sanmarco "
                      "replace`.").format(voter=who(tr, voter, names),
                                          player=who(tr, target, names), votes=votes,
                                          needed=needed)


def replaced(tr: Tr, target: str, names: Mapping[str, str], *, finished: bool) -> str:
    text = tr.gettext("The computer now plays {player}'s seat.").format(
        player=who(tr, target, names))
    if not finished:  # the computers may have played to the end
        text += " " + tr.gettext("{player} can take it back with `/sanmarco reclaim`.").format(
            player=who(tr, target, names))
    return text


def reclaimed(tr: Tr, pid: str, names: Mapping[str, str]) -> str:
    return tr.gettext("{player} plays their own seat again.").format(
        player=who(tr, pid, names))


def abandoned_by(tr: Tr, pid: str) -> str:
    return tr.gettext("{player} abandoned the game. `/sanmarco new` opens another.").format(
        player=who(tr, pid))


# ---------------------------------------------------------------------------- rules
# One summary per topic, in each language with its rule book's words (tests/bot/test_rules.py
# checks each against its book).
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
}
RULE_TOPIC_NAMES: tuple[str, ...] = tuple(RULE_TOPICS)


def rule_topic(tr: Tr, topic: str) -> str | None:
    """``/sanmarco rules``: the summary of a topic (None: no such topic)."""
    summary = RULE_TOPICS.get(topic)
    return tr.gettext(summary) if summary is not None else None


# ---------------------------------------------------------------------------- a server's memory
# (issue 13) /sanmarco stats, leaderboard, history, replay and gamefile; the final post.
REFUSALS.update({
    "history.not_over": N_("That game is not over yet: its replay, its game file and its seed "
                           "come when it ends (R15)."),
    "history.no_game": N_("There is no finished game by that number in this server: "
                          "`/sanmarco history` lists them."),
})

MAX_BOARD_ROWS = 20


def no_games_yet(tr: Tr) -> str:
    return tr.gettext("No game has been finished in this server yet.")


def _percent(x: float | None) -> str:
    return "—" if x is None else f"{round(100 * x)}%"


def _games(tr: Tr, n: int) -> str:
    return tr.ngettext("{count} game", "{count} games", n).format(count=n)


def _size_line(tr: Tr, name: str, rec: SizeRecord) -> str:
    if not rec.games:
        return tr.gettext("{label}: no games yet.").format(label=name)
    wins = tr.ngettext("{count} win", "{count} wins", rec.wins).format(count=rec.wins)
    return tr.gettext("{label}: {games}, {wins} ({rate}), prestige {average} on average, best "
                      "{best}.").format(label=name, games=_games(tr, rec.games), wins=wins,
                                        rate=_percent(rec.win_rate),
                                        average=f"{rec.average or 0:.1f}", best=rec.best)


def stats_text(tr: Tr, stats: PlayerStats, names: Mapping[str, str] | None = None) -> str:
    """``/sanmarco stats``: a player's record in this server (shared wins count as wins)."""
    if not stats.overall.games:
        return tr.gettext("{player} has not finished a game in this server yet.").format(
            player=who(tr, stats.pid, names))
    return "\n".join([tr.gettext("**{player}** in this server").format(
                          player=who(tr, stats.pid, names)),
                      _size_line(tr, tr.gettext("3 players"), stats.three),
                      _size_line(tr, tr.gettext("4 players"), stats.four),
                      _size_line(tr, tr.gettext("All games"), stats.overall)])


def rated_name(tr: Tr, player: str) -> str:
    """A rated identity as shown: a person by mention, a computer player by its level."""
    if player.startswith("ai."):
        return tr.gettext("Computer ({level})").format(level=level_name(tr, player[3:]))
    return who(tr, player)


def leaderboard_text(tr: Tr, rows: Sequence[Ranked], viewer: str | None = None) -> str:
    """``/sanmarco leaderboard``: the server's players by skill rating, computer levels
    among them."""
    if not rows:
        return no_games_yet(tr)
    lines = [tr.gettext("**Leaderboard** — skill rating (openskill: the skill a player very "
                        "probably has at least; it rises with wins and grows surer with "
                        "games)")]
    shown = list(rows[:MAX_BOARD_ROWS])
    mine = next((r for r in rows if r.player == viewer), None)
    if mine is not None and mine not in shown:
        shown.append(mine)
    for r in shown:
        lines.append(f"{r.place}. {rated_name(tr, r.player)} — **{r.score:.1f}** "
                     f"({_games(tr, r.games)})")
    if len(rows) > len(shown):
        lines.append(tr.gettext("… and {count} more.").format(count=len(rows) - len(shown)))
    return _fit_lines(lines)


def history_text(tr: Tr, games: Sequence[PastGame]) -> str:
    """``/sanmarco history``: recent games with date, channel, players, winners and a link
    to the final post."""
    if not games:
        return no_games_yet(tr)
    lines = [tr.gettext("**Recent games**")]
    for g in games:
        h = g.history
        players = ", ".join(f"{who(tr, p, g.names)} {h.scores.get(p, 0)}" for p in h.players)
        link = (" · " + tr.gettext("[final post]({url})").format(url=g.url)) if g.url else ""
        won = tr.gettext("won by {winners}").format(winners=who_list(tr, h.winners, g.names))
        lines.append(f"#{h.game_id} · <t:{int(h.finished_at)}:d> · <#{h.channel_id}> · "
                     f"{players} · {won}{link}")
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


def seed_line(tr: Tr, seed: int) -> str:
    """On the final post: the seed, revealed now the game is over (R15), and how to check."""
    return tr.gettext("Seed `{seed}` — the **Game file** lets anyone re-play this game and "
                      "check every roll, deal and score: `python -m engine.replay "
                      "game.json`.").format(seed=seed)


def replay_caption(tr: Tr, game_id: int, steps: int, size: int) -> str:
    return tr.gettext("Game #{number}: the whole game in {steps} steps ({size} MB).").format(
        number=game_id, steps=steps, size=f"{size / 1024 / 1024:.1f}")


def game_file_caption(tr: Tr, game_id: int, seed: int) -> str:
    return tr.gettext("Game #{number}, seed `{seed}`: check it with `python -m engine.replay "
                      "game.json` (the engine is open source).").format(number=game_id,
                                                                        seed=seed)


# ---------------------------------------------------------------------------- faults (issue 11)
def posted(tr: Tr) -> str:
    return tr.gettext("Done: it is posted in the channel.")


# The names Discord's server settings give the bot's permissions (discord.py's names as
# keys; Discord's client shows them in the reader's language).
PERMISSION_NAMES: dict[str, str] = {
    "view_channel": N_("View Channel"), "send_messages": N_("Send Messages"),
    "attach_files": N_("Attach Files"), "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
}


def permission_name(tr: Tr, permission: str) -> str:
    """A permission (discord.py's name, e.g. ``attach_files``) as Discord's settings call it."""
    name = PERMISSION_NAMES.get(permission)
    return tr.gettext(name) if name is not None else permission


def board_posted_as_text(tr: Tr, permission: str) -> str:
    """The player's private note when Discord refused the board picture but not the text."""
    return tr.gettext("Your move counts and is saved, but I could not post the board picture: "
                      "I lack the **{permission}** permission in this channel. I posted the "
                      "move as text, so the next player is still pinged; a server admin can "
                      "give me that permission.").format(
        permission=permission_name(tr, permission))


def not_posted(tr: Tr, permission: str) -> str:
    """The player's private note when Discord refused every post in the channel."""
    return tr.gettext("That counts and is saved, but I could not post it in this channel: I "
                      "lack the **{permission}** permission here, so nobody else sees it or is "
                      "pinged. A server admin can give me that permission; `/sanmarco status` "
                      "shows the game meanwhile.").format(
        permission=permission_name(tr, permission))


def post_pending(tr: Tr) -> str:
    """The player's private note when Discord has not taken the channel's post yet."""
    return tr.gettext("That counts and is saved. Discord has not taken my post in the channel "
                      "yet; it will appear there as soon as Discord takes it, and whoever is "
                      "next will be pinged then.")


def channel_gone(tr: Tr) -> str:
    """The player's private note when Discord says the game's channel is gone."""
    return tr.gettext("That counts and is saved, but Discord says this channel no longer "
                      "exists, so nothing can be posted in it: the game waits. Its opener or "
                      "a server manager can end it (`/sanmarco games` lists it).")


def missed_moves(tr: Tr, count: int) -> str:
    """A channel catching up after an outage: the oldest missed posts, only counted."""
    return tr.ngettext("While Discord was unreachable, {count} more thing happened here; "
                       "`/sanmarco log` tells it.",
                       "While Discord was unreachable, {count} more things happened here; "
                       "`/sanmarco log` tells them.", count).format(count=count)


def post_failed(tr: Tr) -> str:
    """The player's private note when Discord failed the post for another reason."""
    return tr.gettext("That counts and is saved, but Discord did not take my post, so others "
                      "may not see it yet; `/sanmarco status` shows the game.")


# ---------------------------------------------------------------------------- languages
# The channel's language setting as ``/sanmarco settings`` shows it (issue 12): each
# language by its own name, whatever the reader's.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}


def channel_language_line(tr: Tr, setting: str | None, effective: str) -> str:
    """``Language: Deutsch`` or ``Language: the server's (Français)``."""
    name = LANGUAGE_NAMES.get(effective, effective)
    if setting is None:
        return tr.gettext("Language: the server's ({language})").format(language=name)
    return tr.gettext("Language: {language}").format(language=name)


# ---------------------------------------------------------------------------- keeping games moving
# (issue 12) /sanmarco settings, the turn timer's default moves, /sanmarco notify, the DM and
# its hint, /sanmarco games, /sanmarco undo.
REFUSALS.update({
    "settings.reminder_hours": N_("The reminder interval must be 0 (off) or between 15 "
                                  "minutes and 14 days."),
    "settings.permission": N_("Only members with Manage Channel can change this channel's "
                              "settings; everyone can see them with `/sanmarco settings`."),
    "settings.turn_timer": N_("The turn timer must be 0 (off) or between 15 minutes and 14 "
                              "days."),
    "settings.computer_level": N_("There is no computer player of that level: choose one "
                                  "from the list."),
    "notify.mode": N_("Choose how to hear it is your turn: mention, dm, both or none."),
    "undo.nothing": N_("You have no move in this game to take back."),
    "undo.moved_on": N_("Someone has moved since your last move (computer players count "
                        "too), so it stands."),
    "undo.computer": N_("The computer made that move for you (your time ran out), so it "
                        "stands."),
    "undo.split": N_("A committed split cannot be taken back (R5)."),
    "undo.roll": N_("That move rolled the die, so it cannot be taken back."),
    "undo.draw": N_("That move started a new round or passage (cards were drawn), so it "
                    "cannot be taken back."),
    "undo.reveal": N_("That move revealed offers, so it cannot be taken back."),
    "undo.end": N_("That move ended the game, so it cannot be taken back."),
    "undo.chance": N_("That move used chance, so it cannot be taken back."),
})

NOTIFY_MODES: dict[str, str] = {
    "mention": N_("a mention in the game's channel"),
    "dm": N_("a direct message with a link to the game"),
    "both": N_("a mention in the channel and a direct message"),
    "none": N_("nothing (look with `/sanmarco games`)"),
}


def notify_mode(tr: Tr, mode: str) -> str:
    """How a player hears it is their turn, as words (``mention``, ``dm``, ``both``,
    ``none``)."""
    words = NOTIFY_MODES.get(mode)
    return tr.gettext(words) if words is not None else mode


def _language_code(tr: Tr) -> str:
    """The language a translations object speaks (its catalogue's; English: ``en``)."""
    return str(tr.info().get("language") or "en")


def _number(tr: Tr, x: float) -> str:
    """A number as the reader writes it (``1.5``, German and French ``1,5``)."""
    from babel.numbers import format_decimal

    return str(format_decimal(x, locale=_language_code(tr)))


def _hours(tr: Tr, hours: float) -> str:
    """A duration in minutes (under an hour) or hours: ``45 minutes``, ``1.5 hours``."""
    if hours < 1:
        minutes = round(hours * 60)
        return tr.ngettext("{count} minute", "{count} minutes", minutes).format(
            count=minutes)
    # a fraction of an hour counts as many (1.5 hours, 1,5 Stunden)
    n = int(hours) if hours == int(hours) else int(hours) + 1
    return tr.ngettext("{count} hour", "{count} hours", n).format(count=_number(tr, hours))


def _settings_lines(tr: Tr, settings: Settings, effective: str) -> list[str]:
    """One line per setting (the reminders, quiet hours, time zone, turn timer, computer
    level and language); ``effective``: the language the channel speaks now."""
    _ = tr.gettext
    if settings.reminder_hours:
        reminders = _("every {duration} while the game waits on someone").format(
            duration=_hours(tr, settings.reminder_hours))
    else:
        reminders = _("off")
    if settings.quiet_start is None or settings.quiet_end is None \
            or settings.quiet_start == settings.quiet_end:
        quiet = _("none")
    else:
        quiet = f"{settings.quiet_start:02d}:00–{settings.quiet_end:02d}:00"
    if settings.turn_timer_hours:
        timer = _("{duration} per decision (quiet hours not counted); then the computer makes "
                  "that decision, and after three in a row it plays the seat until `/sanmarco "
                  "reclaim`").format(duration=_hours(tr, settings.turn_timer_hours))
    else:
        timer = _("off")
    return [_("Reminders: {reminders}").format(reminders=reminders),
            _("Quiet hours: {hours} (no reminders, and the turn timer does not count "
              "them)").format(hours=quiet),
            _("Time zone: {zone}").format(zone=settings.timezone),
            _("Turn timer: {timer}").format(timer=timer),
            _("Computer for absent players: {level}").format(
                level=level_name(tr, settings.computer_level)),
            channel_language_line(tr, settings.language, effective)]


def settings_text(tr: Tr, settings: Settings, *, can_change: bool, effective: str) -> str:
    """``/sanmarco settings``: the channel's settings (they stay from game to game);
    ``effective``: the language the channel speaks now (its setting or its server's)."""
    lines = [tr.gettext("**Settings of this channel** (they stay from game to game)"),
             *_settings_lines(tr, settings, effective)]
    if can_change:
        lines.append(tr.gettext("Change them with `/sanmarco settings` and its options."))
    else:
        lines.append(tr.gettext("Members with Manage Channel can change them."))
    return "\n".join(lines)


def settings_changed(tr: Tr, pid: str, settings: Settings, effective: str) -> str:
    """The channel's post when someone with Manage Channel changed its settings."""
    return "\n".join([tr.gettext("{player} changed this channel's settings.").format(
        player=who(tr, pid)), *_settings_lines(tr, settings, effective)])


def notify_text(tr: Tr, mode: str) -> str:
    """``/sanmarco notify``: how the player now hears it is their turn (in this server)."""
    return tr.gettext("On this server you hear it is your turn by {way}. Reminders come the "
                      "same way. `/sanmarco notify how:` changes it.").format(
        way=notify_mode(tr, mode))


def timed_out(tr: Tr, pid: str, action: Action, names: Mapping[str, str] | None = None) -> str:
    """A default move's line: ``@p's time ran out; the computer took offer 2 for them.``
    (a split's content is never told: R15)."""
    player = who(tr, pid, names)
    if isinstance(action, TakeOffer):
        return tr.gettext("{player}'s time ran out; the computer took offer {number} for "
                          "them.").format(player=player, number=action.index + 1)
    if isinstance(action, Split):
        return tr.gettext("{player}'s time ran out; the computer split their cards for "
                          "them.").format(player=player)
    return tr.gettext("{player}'s time ran out; the computer chose: {move}.").format(
        player=player, move=describe(tr, action, names))


def handed_over(tr: Tr, pid: str, names: Mapping[str, str] | None = None) -> str:
    return tr.gettext("That was {player}'s third decision in a row made by the computer: it "
                      "now plays their seat until they come back with `/sanmarco "
                      "reclaim`.").format(player=who(tr, pid, names))


def took_back(tr: Tr, pid: str, action: Action, names: Mapping[str, str] | None = None) -> str:
    """The channel's line when a player takes back their last move."""
    return tr.gettext("{player} took back: {move}.").format(player=who(tr, pid, names),
                                                           move=describe(tr, action, names))


def undo_offer(tr: Tr) -> str:
    """The private answer to one's own move while it may be taken back."""
    return tr.gettext("Done. Changed your mind? **Undo** takes it back while nobody has moved "
                      "since.")


def undone(tr: Tr) -> str:
    return tr.gettext("Taken back: the decision is yours again.")


def dm_turn(tr: Tr, kind: str, url: str | None, *, reminder_since: float | None = None) -> str:
    """A direct message: the player's decision starts (or waits), with a link to the game."""
    what = awaited_words(tr, kind)
    if reminder_since is not None:
        head = tr.gettext("Reminder — San Marco has been waiting for you since {time}: "
                          "{action}.").format(time=f"<t:{int(reminder_since)}:R>", action=what)
    else:
        head = tr.gettext("Your turn in San Marco: {action}.").format(action=what)
    return head + (f" {url}" if url else "")


def dm_fallback(tr: Tr, pids: Sequence[str], awaiting: Mapping[str, str],
                names: Mapping[str, str] | None = None) -> str:
    """The mention that replaces a DM Discord refused (a post of a running game)."""
    return (tr.gettext("I could not send a direct message to {players}, so here is the "
                       "mention.").format(players=who_list(tr, pids, names))
            + "\n" + now_line(tr, awaiting, names))


def dm_refused_hint(tr: Tr) -> str:
    """The private hint, once, after Discord refused a DM to the player."""
    return tr.gettext("Discord refused my direct message to you (your DMs are closed for this "
                      "server), so I mention you in the channel instead. Open your direct "
                      "messages and choose again with `/sanmarco notify`.")


def my_games_text(tr: Tr, games: Sequence[MyGame], user: str) -> str:
    """``/sanmarco games``: the caller's games in this server, newest first."""
    _ = tr.gettext
    if not games:
        return _("You have no lobby or running game in this server. `/sanmarco new` opens "
                 "one.")
    lines = [_("**Your games in this server**")]
    for g in games:
        link = (" · " + _("[latest post]({url})").format(url=g.url)) if g.url else ""
        if g.suspended:
            state = _("its channel is gone, so the game waits: its opener or a server "
                      "manager can end it")
        elif g.status is GameStatus.LOBBY:
            state = _("lobby, {taken}/{seats} seats").format(taken=len(g.players),
                                                             seats=g.seats)
        else:
            since = f"<t:{int(g.since)}:R>" if g.since else None
            if user in g.awaiting:
                what = awaited_words(tr, g.awaiting[user])
                state = (_("**your turn**: {action} since {time}").format(action=what,
                                                                          time=since)
                         if since else _("**your turn**: {action}").format(action=what))
            else:
                waiting = awaited_line(tr, g.awaiting, g.names)
                state = (_("waits for {awaited} since {time}").format(awaited=waiting,
                                                                      time=since)
                         if since else _("waits for {awaited}").format(awaited=waiting))
        lines.append(f"#{g.game_id} · <#{g.channel_id}> · {state}{link}")
    return _fit_lines(lines)
