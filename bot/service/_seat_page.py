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

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.errors import BadInput, Code, NotYourTurn, StalePrompt
from bot.service.posts import Post, PostKind
from bot.service.results import GameStatus, MyGame, Snapshot, Undone, Update
from bot.service.results.pages import PostDelivery
from bot.store import awaiting_column
from engine import Action, Split
from engine.views import PublicView

from ._notify import my_game_of
from ._pages import PageCalls
from ._play import PlayCalls
from ._undo import UndoCalls

# A post not yet tried, or in its first try this long, is being sent ("saved"); past it, or
# once a send failed, the page says it waits for Discord, as a button's answer says it after
# waiting as long for its post (``delivery.worker.FLUSH_WAIT``).
SENDING_SECONDS = 2.5
MAX_SIGNED_IN_GAMES = 50  # a signed-in player's My games lists at most this many


@dataclass(frozen=True)
class PlayerGame:
    """One running game of a signed-in player (``page_my_games``): the game as
    ``/sanmarco-server games`` lists it, its guild, whether it awaits the player now, and
    its page's token (None: its channel's managers turned pages off)."""

    game: MyGame
    guild_id: int
    awaits_me: bool
    token: str | None


@dataclass(frozen=True)
class SignedInGames:
    """A signed-in player's My games: the games listed, and how many more they play that
    are not (past the page's bound)."""

    games: tuple[PlayerGame, ...]
    more: int


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
        shows (an older one is refused: a move sent twice counts once). A page that shows
        an older version than the game's is told so (StalePrompt), even where the move
        made meanwhile ended the seat's turn: its page is what is out of date (a second
        tab, a double tap), and it shows the current decision next."""
        row = await self._by_token(token)
        try:
            update = await self.act(row.channel_id, self._check_pid(user), action,
                                    expected_version=expected_version, game_id=row.id)
        except NotYourTurn:
            loaded = await self._load(row.channel_id)  # versions only grow: a read after
            if loaded.row.id == row.id and loaded.state is not None \
                    and self._turn(loaded.state, loaded.row) != expected_version:
                raise StalePrompt() from None
            raise
        if isinstance(action, Split) and update.actor:  # its draft is done
            await self.store.drop_draft(update.game_id, update.actor)
        return update

    async def page_undo(self, token: str, user: str, expected_version: int) -> Undone:
        """``user`` takes their last move back from their page, as the Undo button does
        (refused when anyone moved since, or when it drew or revealed something: R5)."""
        row = await self._by_token(token)
        return await self.undo(row.channel_id, self._check_pid(user),
                               expected_version=expected_version, game_id=row.id)

    async def page_post(self, token: str, version: int) -> PostDelivery:
        """Whether the channel shows the game behind ``token`` at ``version`` yet: the
        oldest move post its channel still waits for (posts go in order; every move
        writes one), and how Discord refuses the channel, if it does. Public facts: no
        post's content leaves here. Raises NoGame."""
        row = await self._by_token(token)
        if row.status == GameStatus.LOBBY:
            return PostDelivery(version, "none")  # no move yet
        place = await self.store.place(row.channel_id)
        if place is not None and place.gone_at is not None:
            return PostDelivery(version, "gone")
        oldest = await self.store.oldest_waiting(row.channel_id, row.id, str(PostKind.MOVE))
        if oldest is None:
            return PostDelivery(version, "sent")
        try:
            waits = Post.from_json(oldest.entry.payload).version <= version
        except ValueError:  # a newer bot's post: it waits all the same
            waits = True
        if not waits:
            return PostDelivery(version, "sent")
        now = self.clock()
        if place is not None and place.permission and (place.blocked_until or 0) > now:
            return PostDelivery(version, "blocked", place.permission)
        if oldest.attempts == 0 and now - oldest.entry.created_at < SENDING_SECONDS:
            return PostDelivery(version, "saved")
        return PostDelivery(version, "waiting")
    # ------------------------------------------------------------------ signed-in sessions
    async def session_generation(self, user: str) -> int:
        """The generation of ``user``'s signed-in sessions now: a session made in another
        (an earlier one: signed out since) is no session. One read by the store's key, on
        every request that carries a session, so a sign-out takes effect at once in every
        process."""
        return await self.store.session_generation(user)

    async def sign_out(self, user: str) -> int:
        """End every signed-in session of ``user`` made so far, on every device; returns
        the generation a new sign-in gets."""
        return await self.store.sign_out(user, self.clock())

    async def page_my_games(self, user: str) -> SignedInGames:
        """The running games where ``user`` (a signed-in Discord id) plays a seat, in
        every server: those awaiting them first, each group the longest awaited first
        (practice games, which have no page, left out), at most ``MAX_SIGNED_IN_GAMES``
        (the awaited ones always among them, up to that many), and how many more there
        are."""
        pid = self._check_pid(user)
        found = await self.store.seated_running(pid, MAX_SIGNED_IN_GAMES)

        unknown = {g.row.id: g.row.version for g in found.games if not g.awaiting_known}

        def made() -> list[PlayerGame]:
            games = []
            for seated in found.games:
                row, token, pages = seated.row, seated.token, seated.pages
                seat = row.played_by(pid)
                game = my_game_of(row, None)
                awaits = seat is not None and seat.pid in game.awaiting
                since = row.last_action_at if row.awaited_since is None else row.awaited_since
                games.append(((not awaits, since, row.id),
                              PlayerGame(game, row.guild_id, awaits, token if pages else None)))
            # the store's order, but for games whose awaiting it did not know yet
            return [g for _, g in sorted(games, key=lambda k: k[0])]
        games = await asyncio.to_thread(made)
        if unknown:  # stored before schema 22: known from now on (the next read sorts them)
            await self.store.fill_awaiting([
                (g.game.game_id, unknown[g.game.game_id], awaiting_column(g.game.awaiting))
                for g in games if g.game.game_id in unknown])
        return SignedInGames(tuple(games), found.total - len(games))
