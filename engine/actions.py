"""Actions: one small frozen value per kind of decision, each round-tripping through text.

Like python-chess's ``Move.uci()`` / ``Move.from_uci()``: ``action.encode()`` gives a short
string and :func:`decode` parses it back (raising :class:`MalformedAction`). Districts are
written with their two-letter codes from the board table; players by their id.

====================  ===========================================  =====================
action                text                                         when
====================  ===========================================  =====================
KeepRolls             ``keep``                                     R3 choice
Reroll                ``reroll``                                   R3 choice
PlaceBridge           ``bridge:SM-CN`` (``/from:DD``)              set-up; bridge card
TakeOverBridge        ``takeover:SM-CN@pid>SP-DD`` (``/from:..``)   bridge card, 12 out
Split                 ``split:0102011``                            distributor
TakeOffer             ``take:1``                                   decision-maker
PlaceAristocrat       ``district:SM`` / ``district:SM>CN``         district card
Transfer              ``transfer:SM@pid`` (``/from:..``)           transfer card
Doge                  ``doge:SM`` / ``doge:SP/via:SM~CN,CN-SP@pid``  Doge card
Banish                ``banish:SM``                                banishment / passage
DeclineBanishment     ``banish:none``                              R16: passage only
ChooseBanished        ``victims:pid=2,pid=1``                      R10 choice
DiscardCard           ``discard:transfer``                         R7, no legal effect
====================  ===========================================  =====================

``/from:XX`` (R13) names the district an aristocrat is taken from when the reserve is empty.

``public_encode()`` is what a log line may show of an action: the same text, except that a
split's assignment stays secret (R15) and shows as ``split``. :func:`checked` is the gate
``apply`` uses: an ``Action`` whose fields have the wrong types or values (``TakeOffer(True)``,
``Split((True, False))``, an unknown district) is malformed, because its text would not decode
back to it and a stored game would no longer replay.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, is_dataclass
from typing import ClassVar

from .board import BY_CODE, BY_NAME
from .cards import ALL_CARDS
from .errors import MalformedAction

PID_RE = re.compile(r"^[A-Za-z0-9_.]{1,40}\Z")  # \Z: "$" would let a final newline in


def _code(district: str) -> str:
    return BY_NAME[district].code


def _name(code: str) -> str:
    try:
        return BY_CODE[code].name
    except KeyError:
        raise MalformedAction(f"'{code}' is not a district code.") from None


def _from_suffix(source: str | None) -> str:
    return f"/from:{_code(source)}" if source else ""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions."""

    kind: ClassVar[str] = ""

    def encode(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def public_encode(self) -> str:
        """The text anyone may read in a log (R15): ``encode()`` minus any secret."""
        return self.encode()


@dataclass(frozen=True, slots=True)
class KeepRolls(Action):
    """R3: keep four identical set-up rolls."""

    kind: ClassVar[str] = "keep"

    def encode(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    """R3: reroll the fourth set-up roll until it differs."""

    kind: ClassVar[str] = "reroll"

    def encode(self) -> str:
        return "reroll"


@dataclass(frozen=True, slots=True)
class PlaceBridge(Action):
    """A new bridge from the supply on the pair (a, b) with one of the player's aristocrats."""

    kind: ClassVar[str] = "bridge"
    a: str
    b: str
    source: str | None = None

    def encode(self) -> str:
        return f"bridge:{_code(self.a)}-{_code(self.b)}{_from_suffix(self.source)}"


@dataclass(frozen=True, slots=True)
class TakeOverBridge(Action):
    """Bridge card with all 12 bridges out: take over ``owner``'s bridge on (a, b), R9.

    ``to_a``/``to_b`` is where it stands afterwards (the same pair when it is not moved).
    """

    kind: ClassVar[str] = "takeover"
    a: str
    b: str
    owner: str
    to_a: str
    to_b: str
    source: str | None = None

    def encode(self) -> str:
        return (f"takeover:{_code(self.a)}-{_code(self.b)}@{self.owner}>"
                f"{_code(self.to_a)}-{_code(self.to_b)}{_from_suffix(self.source)}")


@dataclass(frozen=True, slots=True)
class Split(Action):
    """A distributor's split: ``assignment[i]`` is the offer (0, 1 or 2) of drawn card i."""

    kind: ClassVar[str] = "split"
    assignment: tuple[int, ...]

    def encode(self) -> str:
        return "split:" + "".join(str(i) for i in self.assignment)

    def public_encode(self) -> str:
        # Which drawn card went into which offer is the distributor's secret (R15).
        return "split"


@dataclass(frozen=True, slots=True)
class TakeOffer(Action):
    """A decision-maker takes offer ``index`` (0-based) of the current distributor."""

    kind: ClassVar[str] = "take"
    index: int

    def encode(self) -> str:
        return f"take:{self.index}"


@dataclass(frozen=True, slots=True)
class PlaceAristocrat(Action):
    """District card: one aristocrat into ``district``, then optionally over one's own bridge
    into ``hop``."""

    kind: ClassVar[str] = "district"
    district: str
    hop: str | None = None
    source: str | None = None

    def encode(self) -> str:
        hop = f">{_code(self.hop)}" if self.hop else ""
        return f"district:{_code(self.district)}{hop}{_from_suffix(self.source)}"


@dataclass(frozen=True, slots=True)
class Transfer(Action):
    """Transfer card: remove ``victim``'s aristocrat from ``district``, put one's own there."""

    kind: ClassVar[str] = "transfer"
    district: str
    victim: str
    source: str | None = None

    def encode(self) -> str:
        return f"transfer:{_code(self.district)}@{self.victim}{_from_suffix(self.source)}"


@dataclass(frozen=True, slots=True)
class Crossing:
    """One step of the Doge's route: over ``owner``'s bridge, or over the canal (owner None)."""

    a: str  # from
    b: str  # to
    owner: str | None

    def encode(self) -> str:
        if self.owner is None:
            return f"{_code(self.a)}~{_code(self.b)}"
        return f"{_code(self.a)}-{_code(self.b)}@{self.owner}"


@dataclass(frozen=True, slots=True)
class Doge(Action):
    """Doge card: the Doge ends in ``target`` (over ``route``) and that district is scored.

    First Doge of the game: empty route, any target. Later: empty route scores where the Doge
    stands; otherwise the route's crossings, in order (R11)."""

    kind: ClassVar[str] = "doge"
    target: str
    route: tuple[Crossing, ...] = ()

    def encode(self) -> str:
        via = "/via:" + ",".join(c.encode() for c in self.route) if self.route else ""
        return f"doge:{_code(self.target)}{via}"


@dataclass(frozen=True, slots=True)
class Banish(Action):
    """Name the district for a banishment (the card, or the passage's lowest player)."""

    kind: ClassVar[str] = "banish"
    district: str

    def encode(self) -> str:
        return f"banish:{_code(self.district)}"


@dataclass(frozen=True, slots=True)
class DeclineBanishment(Action):
    """R16: the passage's lowest player declines the banishment (a right, not a duty).
    Not for a banishment card, which must be played (R7)."""

    kind: ClassVar[str] = "no_banish"

    def encode(self) -> str:
        return "banish:none"


@dataclass(frozen=True, slots=True)
class ChooseBanished(Action):
    """R10: how many aristocrats each opponent loses, as sorted (pid, count) pairs."""

    kind: ClassVar[str] = "victims"
    removed: tuple[tuple[str, int], ...]

    def encode(self) -> str:
        return "victims:" + ",".join(f"{p}={n}" for p, n in self.removed)


@dataclass(frozen=True, slots=True)
class DiscardCard(Action):
    """R7: discard an action card that has no legal effect now."""

    kind: ClassVar[str] = "discard"
    card: str

    def encode(self) -> str:
        return f"discard:{self.card}"


def _pid(text: str) -> str:
    if not PID_RE.match(text):
        raise MalformedAction(f"'{text}' is not a player id.")
    return text


def _pair(text: str) -> tuple[str, str]:
    parts = text.split("-")
    if len(parts) != 2:
        raise MalformedAction(f"'{text}' is not a pair of districts like SM-CN.")
    return _name(parts[0]), _name(parts[1])


def _split_source(body: str) -> tuple[str, str | None]:
    if "/from:" in body:
        body, src = body.split("/from:", 1)
        return body, _name(src)
    return body, None


def _crossing(text: str) -> Crossing:
    if "~" in text:
        a, b = text.split("~", 1)
        return Crossing(_name(a), _name(b), None)
    if "@" not in text:
        raise MalformedAction(f"'{text}' is not a crossing like SM-CN@pid or SM~CN.")
    pair_text, owner = text.split("@", 1)
    a, b = _pair(pair_text)
    return Crossing(a, b, _pid(owner))


def decode(text: str) -> Action:
    """Parse an action's text. Raises MalformedAction with a sentence saying what is wrong."""
    if not isinstance(text, str) or not text or len(text) > 400:
        raise MalformedAction("That is not an action.")
    kind, _, body = text.strip().partition(":")
    try:
        if kind == "keep" and not body:
            return KeepRolls()
        if kind == "reroll" and not body:
            return Reroll()
        if kind == "bridge":
            body, src = _split_source(body)
            a, b = _pair(body)
            return PlaceBridge(a, b, src)
        if kind == "takeover":
            body, src = _split_source(body)
            head, _, to = body.partition(">")
            pair_text, _, owner = head.partition("@")
            a, b = _pair(pair_text)
            ta, tb = _pair(to)
            return TakeOverBridge(a, b, _pid(owner), ta, tb, src)
        if kind == "split":
            if not body or len(body) > 12 or any(c not in "012" for c in body):
                raise MalformedAction("A split is one digit 0-2 per drawn card.")
            return Split(tuple(int(c) for c in body))
        if kind == "take":
            if not body.isdigit() or len(body) > 1:
                raise MalformedAction("Choose an offer by its number.")
            return TakeOffer(int(body))
        if kind == "district":
            body, src = _split_source(body)
            district, _, hop = body.partition(">")
            return PlaceAristocrat(_name(district), _name(hop) if hop else None, src)
        if kind == "transfer":
            body, src = _split_source(body)
            district, _, victim = body.partition("@")
            return Transfer(_name(district), _pid(victim), src)
        if kind == "doge":
            target, _, via = body.partition("/via:")
            route = tuple(_crossing(c) for c in via.split(",")) if via else ()
            return Doge(_name(target), route)
        if kind == "banish":
            return DeclineBanishment() if body == "none" else Banish(_name(body))
        if kind == "victims":
            removed = []
            for item in body.split(","):
                p, _, n = item.partition("=")
                if not n.isdigit() or len(n) > 2:
                    raise MalformedAction("Victims are written pid=count.")
                removed.append((_pid(p), int(n)))
            return ChooseBanished(tuple(removed))
        if kind == "discard":
            if body not in ALL_CARDS:
                raise MalformedAction(f"'{body}' is not a card.")
            return DiscardCard(body)
    except MalformedAction:
        raise
    except (ValueError, KeyError, IndexError):
        raise MalformedAction(f"'{text[:60]}' is not a valid action.") from None
    raise MalformedAction(f"'{text[:60]}' is not a valid action.")


def _same(a: object, b: object) -> bool:
    """Equal with exactly the same types all the way down (True is not 1, 1.0 is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        assert isinstance(b, tuple)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if is_dataclass(a):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    return a == b


def checked(action: object) -> Action:
    """``action`` itself if it is a well-formed Action: its text decodes back to an equal
    value with the same field types. Raises MalformedAction otherwise."""
    if not isinstance(action, Action):
        raise MalformedAction("That is not an action.")
    try:
        same = _same(decode(action.encode()), action)
    except (MalformedAction, KeyError, TypeError, AttributeError, ValueError,
            NotImplementedError):
        same = False  # the message must not quote the text: it may be a secret split
    if not same:
        raise MalformedAction("That is not a valid action.")
    return action
