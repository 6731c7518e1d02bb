"""A seat's decision as its page shows it, from the seat's own ``Snapshot``: every legal
action the engine offers it as a button (its words those of the Discord chooser, from
``bot.text``), grouped by the card it plays and, in a long list, by its target; or the
distributor's drawn cards and offers to build. Nothing is decided here: the engine lists
the actions, the page sends one back as its text (``Action.encode``, as the log stores it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot import text
from bot.i18n import Tr
from bot.service import Snapshot, SplitDraft
from engine import Action, Doge, TakeOffer, card_of
from engine.cards import is_limit, limit_value
from engine.views import PublicView

LONG = 12  # more choices than this for one card: grouped by target, each group folded


@dataclass(frozen=True)
class Choice:
    """One button: what it does (``label``, ``detail`` below it) and the action it sends."""

    label: str
    detail: str | None
    action: str


@dataclass(frozen=True)
class Group:
    """Choices under one heading (a card, or a target of a long list); ``folded``: shown
    folded (a ``<details>``) in a long list."""

    title: str
    choices: tuple[Choice, ...]
    folded: bool = False


@dataclass(frozen=True)
class Card:
    """A drawn card in the split builder: its place in the draw, its name, its limit
    points (0: not a limit card)."""

    index: int
    label: str
    limit: int


@dataclass(frozen=True)
class Decision:
    """The seat's decision now: ``mine`` whether the game awaits it; ``title`` what it is
    asked; ``groups`` its choices; ``drawn``/``offers`` the split to build (the seat's
    secret: only its own page shows it) and ``draft`` its half-made split so far (per
    drawn card the offer it is in, None: loose; made here or in Discord's builder);
    ``split`` its committed offers not yet revealed."""

    version: int
    mine: bool
    title: str
    groups: tuple[Group, ...] = ()
    drawn: tuple[Card, ...] = ()
    offers: int = 0
    split: tuple[str, ...] = ()
    draft: tuple[int | None, ...] = ()

    def placed(self, offer: int | None) -> tuple[Card, ...]:
        """The drawn cards the half-made split puts in ``offer`` (None: the loose ones)."""
        return tuple(c for c in self.drawn
                     if (self.draft[c.index] if c.index < len(self.draft) else None) == offer)

    @property
    def draft_text(self) -> str:
        """The half-made split as the page sends it back: a digit per card, ``-`` loose."""
        return "".join("-" if a is None else str(a) for a in self.draft)


def current_offers(view: PublicView) -> list[tuple[int, list[str]]]:
    """The revealed offers still to take now: (index, cards)."""
    choosing = view["choosing"]
    if choosing is None:
        return []
    return [(o["index"], list(o["cards"])) for o in view["offers"][choosing["column"]]["offers"]
            if o["taken_by"] is None]


def decision(tr: Tr, snap: Snapshot, draft: SplitDraft | None = None) -> Decision:
    """What the seat of ``snap`` decides now, in the reader's language (``draft``: its
    half-made split, read for this seat by the service)."""
    private = snap.private or {}
    split = tuple(text.cards_text(tr, cards) for cards in (private.get("split") or []))
    view = snap.view
    if view is None or not snap.is_awaited:
        return Decision(snap.version, False, text.seat_waiting(tr), split=split)
    if view["phase"] == "split":
        drawn = tuple(Card(i, text.card_label(tr, c), limit_value(c) if is_limit(c) else 0)
                      for i, c in enumerate(private.get("drawn") or []))
        placed = draft.assignment if draft is not None and \
            len(draft.assignment) == len(drawn) else (None,) * len(drawn)
        return Decision(snap.version, bool(drawn), text.seat_split(tr), drawn=drawn,
                        offers=int(private.get("offers") or 2), split=split, draft=placed)
    awaited = snap.awaiting.get(snap.user, "play")
    hand = view["hand"]
    groups = _groups(tr, snap.user, snap.legal, view, snap.names, awaited)
    title = text.chooser_title(tr, awaited, None)
    if awaited == "play" and len(groups) > 1:
        title = text.which_card(tr, hand["cards"] if hand else [])
    elif len(groups) == 1 and not groups[0].folded:  # its heading would say the title again
        title, groups = groups[0].title, (Group("", groups[0].choices),)
    return Decision(snap.version, bool(snap.legal), title, groups, split=split)


def _groups(tr: Tr, pid: str, legal: Sequence[Action], view: PublicView,
            names: Mapping[str, str], awaited: str) -> tuple[Group, ...]:
    """The legal actions under their card (when every one plays a card), a long list
    under its targets."""
    played = [card_of(a) for a in legal]
    by_card = awaited == "play" and None not in played
    keys = [str(c) for c in played] if by_card else [""] * len(legal)
    out: list[Group] = []
    for key in dict.fromkeys(keys):
        actions = [a for a, k in zip(legal, keys, strict=True) if k == key]
        title = text.chooser_title(tr, awaited, key or None)
        if len(actions) <= LONG:
            out.append(Group(title, _choices(tr, pid, actions, view, names)))
            continue
        targets = [text.target_of(tr, a, names) or text.describe(tr, a, names)
                   for a in actions]
        for target in dict.fromkeys(targets):
            chosen = [a for a, t in zip(actions, targets, strict=True) if t == target]
            out.append(Group(f"{title} {target}", _choices(tr, pid, chosen, view, names),
                             folded=True))
    return tuple(out)


def _choices(tr: Tr, pid: str, actions: Sequence[Action], view: PublicView,
             names: Mapping[str, str]) -> tuple[Choice, ...]:
    """Each action's button; Doge routes with the same outcome (target, payments: R11)
    are one choice, as in the Discord chooser."""
    offers = dict(current_offers(view))
    out: list[Choice] = []
    seen: set[tuple[object, ...]] = set()
    for a in actions:
        if isinstance(a, Doge):
            outcome = (a.target, bool(a.route), text.route_payments(a, pid))
            if outcome in seen:
                continue
            seen.add(outcome)
            label, detail = text.doge_option(tr, a, pid, names)
            out.append(Choice(label, detail, a.encode()))
        elif isinstance(a, TakeOffer) and a.index in offers:
            cards = offers[a.index]
            out.append(Choice(text.take_label(tr, a.index, cards), text.cards_text(tr, cards),
                              a.encode()))
        else:
            out.append(Choice(text.describe(tr, a, names), None, a.encode()))
    return tuple(out)
