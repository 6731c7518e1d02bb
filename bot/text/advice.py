"""Hints and reviews in words (issue 32): each kind of ``engine.ai.advice.Reason``, the
answer to a hint ("Hard computer: Take offer 2 — it makes you the leader of San Polo, worth
about 6 points at its next scoring. Runner-up: …"), a review's lines, and what a hinted
game's final post and history entry say.

A hint is the caller's own (an ephemeral answer): it may name the caller's cards (a split's
offers), never anyone else's — a reason names only districts, players and the caller's or a
revealed offer's cards (R15).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.i18n import Tr
from engine import Action, Split, TakeOffer
from engine.ai.advice import Advice, Choice, Reason, Review

from .markup import cut
from .moves import describe
from .names import card_label, elide, who

HINT_LIMIT = 2000  # Discord's message length


def _pts(tr: Tr, points: float) -> str:
    n = max(0, round(points))
    return tr.ngettext("{count} point", "{count} points", n).format(count=n)


def _rival(tr: Tr, r: Reason, names: Mapping[str, str] | None) -> str:
    return who(tr, r.rival, names) if r.rival else tr.gettext("a rival")


_REASONS: dict[str, Callable[[Tr, Reason, Mapping[str, str] | None], str]] = {
    "leads_district": lambda tr, r, n: tr.gettext(
        "it makes you the leader of {district}, worth about {points} at its next "
        "scoring").format(district=r.district, points=_pts(tr, r.points)),
    "gains_district": lambda tr, r, n: tr.gettext(
        "it strengthens you in {district}: about {points} more expected there").format(
        district=r.district, points=_pts(tr, r.points)),
    "doge_scores": lambda tr, r, n: tr.gettext(
        "the Doge scores {district} for you: about {points} now, tolls paid").format(
        district=r.district, points=_pts(tr, r.points)),
    "cheaper_route": lambda tr, r, n: tr.gettext(
        "the cheapest way to {district}: {points} less in tolls").format(
        district=r.district, points=_pts(tr, r.points)),
    "banishes_rival": lambda tr, r, n: tr.gettext(
        "it banishes {rival}'s aristocrats from {district}, worth about {points} to "
        "you").format(rival=_rival(tr, r, n), district=r.district, points=_pts(tr, r.points)),
    "takes_from_rival": lambda tr, r, n: tr.gettext(
        "it takes {rival}'s place in {district}: about {points} more for you there").format(
        rival=_rival(tr, r, n), district=r.district, points=_pts(tr, r.points)),
    "bridge": lambda tr, r, n: tr.gettext(
        "a bridge between {district} and {other} makes the Doge's moves and your hops "
        "cheaper: worth about {points}").format(district=r.district, other=r.other,
                                                points=_pts(tr, r.points)),
    "limit_points": lambda tr, r, n: tr.ngettext(
        "it costs {count} limit point less than the runner-up",
        "it costs {count} limit points less than the runner-up",
        max(0, round(r.points))).format(count=max(0, round(r.points))),
    "offer_value": lambda tr, r, n: tr.gettext(
        "its cards, played out, are worth most to you"),
    "split_offers": lambda tr, r, n: tr.gettext(
        "whichever offers the others take, these leave you the most"),
    "keep_rolls": lambda tr, r, n: tr.gettext(
        "your aristocrats are worth more where they stand"),
    "reroll": lambda tr, r, n: tr.gettext(
        "moving two of your aristocrats is worth more on average"),
    "declines_banishment": lambda tr, r, n: tr.gettext(
        "every banishment would cost you more than it takes from the others"),
    "discard": lambda tr, r, n: tr.gettext(
        "that card can do nothing useful now; your other cards play better without it"),
    "only_move": lambda tr, r, n: tr.gettext("it is the only move"),
    "playouts": lambda tr, r, n: tr.gettext(
        "it did best when the hard computer played the round out"),
}


def reason_text(tr: Tr, reason: Reason, names: Mapping[str, str] | None = None) -> str:
    """One reason as a clause ("it makes you the leader of San Polo, worth about 6 points at
    its next scoring"); with the card it is about, when it names one."""
    words = _REASONS.get(reason.kind, _REASONS["playouts"])(tr, reason, names)
    if reason.card is not None and reason.kind in ("leads_district", "gains_district",
                                                   "offer_value"):
        return tr.gettext("{reason} (with {card})").format(card=card_label(tr, reason.card),
                                                            reason=words)
    return words


# A review's reasons: why the better move was better than the one played ("instead of"),
# without a figure (the line's one figure is the prestige the decision cost).
_REVIEW_REASONS: dict[str, Callable[[Tr, Reason, Mapping[str, str] | None], str]] = {
    "leads_district": lambda tr, r, n: tr.gettext(
        "it would have made you the leader of {district}").format(district=r.district),
    "gains_district": lambda tr, r, n: tr.gettext(
        "it would have made you stronger in {district}").format(district=r.district),
    "doge_scores": lambda tr, r, n: tr.gettext(
        "the Doge would have scored {district} for you").format(district=r.district),
    "cheaper_route": lambda tr, r, n: tr.gettext(
        "the same scoring of {district} for less in tolls").format(district=r.district),
    "banishes_rival": lambda tr, r, n: tr.gettext(
        "it would have banished {rival}'s aristocrats from {district}").format(
        rival=_rival(tr, r, n), district=r.district),
    "takes_from_rival": lambda tr, r, n: tr.gettext(
        "it would have taken {rival}'s place in {district}").format(
        rival=_rival(tr, r, n), district=r.district),
    "bridge": lambda tr, r, n: tr.gettext(
        "a bridge between {district} and {other} would have served you better").format(
        district=r.district, other=r.other),
    "limit_points": lambda tr, r, n: tr.gettext(
        "it carries fewer limit points than the offer you took"),
    "offer_value": lambda tr, r, n: tr.gettext(
        "its cards were worth more to you than those you took"),
    "split_offers": lambda tr, r, n: tr.gettext(
        "whichever offers the others took, these would have left you more"),
    "keep_rolls": lambda tr, r, n: tr.gettext(
        "your aristocrats were worth more where they stood"),
    "reroll": lambda tr, r, n: tr.gettext(
        "moving two of your aristocrats was worth more on average"),
    "declines_banishment": lambda tr, r, n: tr.gettext(
        "that banishment cost you more than it took from the others"),
    "discard": lambda tr, r, n: tr.gettext(
        "that card could do nothing useful; your other cards played better without it"),
    "only_move": lambda tr, r, n: tr.gettext("it was the only move"),
    "playouts": lambda tr, r, n: tr.gettext(
        "it did better when the hard computer played the round out"),
}


def review_reason_text(tr: Tr, reason: Reason, names: Mapping[str, str] | None = None) -> str:
    """A review's reason, against the move played and with no figure ("it would have made
    you the leader of San Polo (with District: San Polo)")."""
    words = _REVIEW_REASONS.get(reason.kind, _REVIEW_REASONS["playouts"])(tr, reason, names)
    if reason.card is not None and reason.kind in ("leads_district", "gains_district",
                                                   "offer_value"):
        return tr.gettext("{reason} (with {card})").format(card=card_label(tr, reason.card),
                                                            reason=words)
    return words


def move_words(tr: Tr, action: Action, names: Mapping[str, str] | None = None,
               drawn: Sequence[str] = (), offers: Sequence[Sequence[str]] = ()) -> str:
    """How an advised move reads; a split with the caller's own ``drawn`` cards names each
    offer's cards (the caller's eyes only); a take with the column's ``offers`` names the
    cards of the offer taken."""
    if isinstance(action, TakeOffer) and action.index < len(offers):
        taken = ", ".join(card_label(tr, c) for c in offers[action.index])
        return f"{describe(tr, action, names)} ({taken})"  # punctuation only
    if isinstance(action, Split) and len(drawn) == len(action.assignment):
        said: list[str] = []
        for k in range(max(action.assignment) + 1):
            cards = [card_label(tr, c) for c, o in zip(drawn, action.assignment, strict=True)
                     if o == k]
            said.append(tr.gettext("offer {number}: {cards}").format(
                number=k + 1, cards=", ".join(cards) or tr.gettext("nothing")))
        return tr.gettext("Split into {offers}").format(offers="; ".join(said))
    return describe(tr, action, names)


def _choice(tr: Tr, c: Choice, names: Mapping[str, str] | None, drawn: Sequence[str]) -> str:
    # punctuation only: the same in every language
    return f"{move_words(tr, c.action, names, drawn)} — {reason_text(tr, c.reason, names)}."


def hint_text(tr: Tr, advice: Advice, names: Mapping[str, str] | None = None,
              drawn: Sequence[str] = ()) -> str:
    """The answer to ``/sanmarco hint``: the hard computer's choice and the runner-up, each
    with its reason (``drawn``: the caller's own cards, for a split); within 2,000
    characters."""
    lines = [tr.gettext("**Hard computer:** {choice}").format(
        choice=_choice(tr, advice.best, names, drawn))]
    if advice.runner_up is not None:
        lines.append(tr.gettext("**Runner-up:** {choice}").format(
            choice=_choice(tr, advice.runner_up, names, drawn)))
    lines.append(tr.gettext("A game in which someone asked for a hint is not rated."))
    return cut(elide(tr, "\n".join(lines)), HINT_LIMIT)


def review_text(tr: Tr, game_id: int, review: Review,
                names: Mapping[str, str] | None = None) -> str:
    """A player's review of a finished game: their costliest decisions, each with what the
    hard computer would have played instead and why; within 2,000 characters."""
    if not review.mistakes:
        return tr.gettext("**Your review of game #{game}:** the hard computer found no costly "
                          "decision of yours. Well played!").format(game=game_id)
    lines = [tr.gettext("**Your review of game #{game}:** the decisions that cost you most, by "
                        "the hard computer's reckoning, in prestige at the game's end.").format(
        game=game_id)]
    for n, m in enumerate(review.mistakes, start=1):
        lines.append(tr.gettext(
            "{n}. Move {seq}. You played: {played}. The hard computer would have played: "
            "{better} — {reason}. About {points} more for you by the end.").format(
            n=n, seq=m.seq, played=move_words(tr, m.played, names, m.drawn, m.offers),
            better=move_words(tr, m.better, names, m.drawn, m.offers),
            reason=review_reason_text(tr, m.reason, names), points=_prestige(tr, m.loss)))
    return cut(elide(tr, "\n".join(lines)), HINT_LIMIT)


def _prestige(tr: Tr, points: float) -> str:
    n = max(1, round(points))
    return tr.ngettext("{count} prestige point", "{count} prestige points", n).format(count=n)


def hints_used(tr: Tr) -> str:
    """The final post's line for a game in which someone asked for a hint."""
    return tr.gettext("Hints were used in this game, so it is not rated.")


def hinted_tag(tr: Tr) -> str:
    """A hinted game's mark in ``/sanmarco-server history``."""
    return tr.gettext("hints used, not rated")


def hints_setting_line(tr: Tr, on: bool) -> str:
    """The channel's hints setting as ``/sanmarco-server settings`` shows it."""
    if on:
        return tr.gettext("Hints: on (`/sanmarco hint` shows the hard computer's choice; a "
                          "game with a hint is not rated)")
    return tr.gettext("Hints: off")
