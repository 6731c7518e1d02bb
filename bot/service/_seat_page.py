"""A seat played from its web page: the seat's snapshot and its actions, the game found by
its page's token (a signed link or its session named the player). The same ``snapshot``
and ``act`` a Discord click calls, so a move made on the page is checked, committed and
posted (with its pings, through the outbox) exactly like a button's.

The distributor's half-made split (``split_draft``, ``keep_split_draft``, ``page_draft``)
is kept in the store, not in a message or a tab, so Discord's offer builder and the seat
page (or a second tab or device) show the same offers so far: a split begun in one is
finished in the other. It belongs to one deal (the round's split while the seat still has
those cards to split: the other distributor's commit does not end it, as it does not end
the builder); once the game has moved on it is ignored and deleted when next read. It is
as secret as the drawn cards: only its own seat's calls read it, and nothing logs it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.errors import BadInput, Code, NotYourTurn, StalePrompt
from bot.service.results import Snapshot, Undone, Update
from engine import Action, Split
from engine.views import PublicView

from ._pages import PageCalls
from ._play import PlayCalls
from ._undo import UndoCalls

Assignment = tuple[int | None, ...]  # per drawn card, the offer it is in (None: not yet)


@dataclass(frozen=True)
class SplitDraft:
    """A seat's half-made split: per drawn card (by its index in the draw) the offer it is
    in so far (None: still loose), and the game version it was written at."""

    assignment: Assignment
    version: int

    @property
    def offers(self) -> tuple[tuple[int, ...], ...]:
        """The cards' indices per offer (as many offers as the highest one used)."""
        n = max((a + 1 for a in self.assignment if a is not None), default=0)
        return tuple(tuple(i for i, a in enumerate(self.assignment) if a == k)
                     for k in range(n))


def split_round(view: PublicView) -> str:
    """The round a split belongs to (passage.round.extra, as the builder's custom ids)."""
    return f"{view['passage']}.{view['round']}.{int(view['extra_round'])}"


def _splitting(snap: Snapshot) -> tuple[int, int] | None:
    """(drawn cards, offers to make) while ``snap``'s seat splits now, else None."""
    private = snap.private or {}
    drawn = private.get("drawn") or []
    if snap.view is None or snap.view["phase"] != "split" or not snap.is_awaited or \
            not drawn:
        return None
    return len(drawn), int(private.get("offers") or 2)


def checked_offers(offers: Sequence[Sequence[int]], cards: int, n_offers: int) -> Assignment:
    """``offers`` (cards' indices per offer) as a per-card assignment. Raises BadInput
    (split.draft) for an index out of range, a card twice or too many offers."""
    out: list[int | None] = [None] * cards
    if len(offers) > n_offers:
        raise BadInput(Code.SPLIT_DRAFT)
    for k, offer in enumerate(offers):
        for i in offer:
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < cards or \
                    out[i] is not None:
                raise BadInput(Code.SPLIT_DRAFT)
            out[i] = k
    return tuple(out)


class SeatPageCalls(PageCalls, PlayCalls, UndoCalls):
    """What a seat's page reads and does, and the half-made split it shares with the
    offer builder."""

    # ------------------------------------------------------------------ half-made split
    async def split_draft(self, snap: Snapshot) -> SplitDraft | None:
        """The half-made split of ``snap``'s seat for the split it makes now (None: none,
        or one of an earlier deal, which is deleted)."""
        found = await self.store.draft(snap.game_id, snap.user)
        if found is None:
            return None
        splitting = _splitting(snap)
        if splitting is not None and snap.view is not None and \
                found.round == split_round(snap.view):
            try:
                return SplitDraft(checked_offers(found.offers, *splitting), found.version)
            except BadInput:
                pass
        await self.store.drop_draft(snap.game_id, snap.user)  # the game has moved on
        return None

    async def keep_split_draft(self, snap: Snapshot,
                               offers: Sequence[Sequence[int]]) -> SplitDraft:
        """Store ``offers`` as the half-made split of ``snap``'s seat (read at the version
        the builder or page shows). Raises NotYourTurn when it splits nothing now, and
        BadInput (split.draft) for offers that do not fit its drawn cards."""
        splitting = _splitting(snap)
        if splitting is None or snap.view is None:
            raise NotYourTurn()
        assignment = checked_offers(offers, *splitting)
        kept = SplitDraft(assignment, snap.version)
        await self.store.save_draft(snap.game_id, snap.user, split_round(snap.view),
                                    snap.version, kept.offers, self.clock())
        return kept

    async def drop_split_draft(self, snap: Snapshot) -> None:
        """Forget the half-made split of ``snap``'s seat (Reset, or its split committed)."""
        await self.store.drop_draft(snap.game_id, snap.user)

    async def page_draft(self, token: str, user: str, offers: Sequence[Sequence[int]],
                         expected_version: int) -> SplitDraft:
        """``user``'s half-made split from their page, at the version it shows (an older
        one is refused: state.stale)."""
        snap = await self.page_seat(token, user)
        if snap.version != expected_version:
            raise StalePrompt()
        return await self.keep_split_draft(snap, offers)

    async def page_seat(self, token: str, user: str) -> Snapshot:
        """The game behind ``token`` as ``user`` (a Discord id) sees it: its public view,
        and the seat's own secrets and legal actions. Raises NoGame, NotInGame, and
        StalePrompt when the channel has moved on to a newer game."""
        row = await self._by_token(token)
        snap = await self.snapshot(row.channel_id, self._check_pid(user), game_id=row.id)
        if not snap.seated:
            self._seat_of(row, user)  # raises NotInGame
        return snap

    async def page_act(self, token: str, user: str, action: Action,
                       expected_version: int) -> Update:
        """``user``'s ``action`` in the game behind ``token``, at the version their page
        shows (an older one is refused: a move sent twice counts once)."""
        row = await self._by_token(token)
        update = await self.act(row.channel_id, self._check_pid(user), action,
                                expected_version=expected_version, game_id=row.id)
        if isinstance(action, Split) and update.actor:  # its draft is done
            await self.store.drop_draft(update.game_id, update.actor)
        return update

    async def page_undo(self, token: str, user: str, expected_version: int) -> Undone:
        """``user`` takes their last move back from their page, as the Undo button does
        (refused when anyone moved since, or when it drew or revealed something: R5)."""
        row = await self._by_token(token)
        return await self.undo(row.channel_id, self._check_pid(user),
                               expected_version=expected_version, game_id=row.id)
