"""Playing and reading: what a user may do now (the snapshot), acting, views, status,
the log and the audit."""

from __future__ import annotations

from dataclasses import replace

import engine
from bot.service.errors import (
    NoGame,
    NotInGame,
    StalePrompt,
    from_engine,
)
from bot.service.results import (
    Audit,
    GameLog,
    GameStatus,
    LogEntry,
    Snapshot,
    Status,
    Update,
)
from bot.store import RowChanges, names_at
from engine import Action, ActionError
from engine.views import PrivateView, PublicView

from ._core import AppliedAction, Core, Loaded, log


class PlayCalls(Core):
    """The calls of a running (or ended, still readable) game."""

    async def snapshot(self, channel: int, user: str, *, game_id: int | None = None,
                       turn: bool = False, expected_version: int | None = None) -> Snapshot:
        """The channel's game as ``user`` (a Discord id) sees it, from one read. With
        ``game_id`` a prompt of another game is refused (state.stale); with ``turn`` the user
        must be awaited (the same checks as ``act``). The snapshot's ``user`` is the pid of
        the seat the user plays (a substitute's is the seat's), else the user."""
        loaded = await self._load(channel)
        row = loaded.row
        if turn:
            self._check_turn(loaded, user, game_id=game_id, expected_version=expected_version)
        elif game_id is not None and game_id != row.id:
            raise StalePrompt()
        state = loaded.state
        status = loaded.status
        running = status is GameStatus.RUNNING
        seat = row.played_by(user)
        seated = seat is not None
        if seat is not None:
            user = seat.pid
        view: PublicView | None = None
        private: PrivateView | None = None
        legal: tuple[Action, ...] = ()
        awaiting: dict[str, str] = {}
        if state is not None:
            view = state.public_view()
            if running:
                awaiting = dict(view["awaiting"])
            if seated:
                private = state.private_view(user)
                if running:
                    legal = engine.legal_actions(state, user)
        return Snapshot(row.id, row.channel_id, status,
                        self._turn(state, row) if state is not None else row.version, view,
                        self._names(row), awaiting, row.awaited_since if running else None,
                        user, seated, None if private is None else private["private"], legal,
                        self._computer_pids(row))

    # ------------------------------------------------------------------ acting
    async def act(self, channel: int, user: str, action: Action, *,
                  expected_version: int | None = None, game_id: int | None = None) -> Update:
        """Apply ``user``'s action, then any computer moves, and commit them with their log
        rows in one transaction before returning. ``game_id``/``expected_version`` are what
        the prompt was built for (a prompt of an earlier game or version is stale). A
        malformed ``action`` is refused first, whoever sends it (``action.malformed``)."""
        try:
            action = engine.actions.checked(action)
        except ActionError as exc:
            raise from_engine(exc) from None
        async with self._lock(channel):
            loaded = await self._load(channel)  # an ended game says why nothing can be done
            state, user = self._check_turn(loaded, user, game_id=game_id,
                                           expected_version=expected_version)
            row = loaded.row  # ``user`` is now the seat's pid (a substitute keeps it)
            try:
                new_state, events = engine.apply(state, user, action)
            except ActionError as exc:
                raise from_engine(exc, action) from None
            computers = self._computer_pids(row)
            steps: list[AppliedAction] = [(user, action, events)]
            # Taking it back is fair only if it drew and revealed nothing and nobody (not
            # even a computer) moves after it (R5: no chance used, nothing revealed).
            undoable = engine.undo_block(state, action, new_state, events) is None
            new_state, more = await self._think(new_state, computers,
                                                self._levels(row.players))
            steps += more
            now = self.clock()
            old_waiting = set(state.waiting_for)
            since = row.awaited_since
            if (set(new_state.waiting_for) - old_waiting) or user in new_state.waiting_for:
                since = now  # a new decision starts (or the actor goes on): its clock restarts
            fields: RowChanges = {"last_action_at": now, "awaited_since": since}
            actor = row.seat(user)
            if actor is not None and (actor.votes or actor.timeouts):
                # Votes to replace a player lapse once that player acts again, and so does
                # their run of decisions the turn timer made for them.
                fields["players"] = tuple(replace(s, votes=(), vote_for=None, timeouts=0)
                                          if s.pid == user
                                          else s for s in row.players)
            if since != row.awaited_since:
                fields["last_reminded_at"] = None
            update = await self._save(row, fields, new_state, steps, old_waiting, computers,
                                      now, old_view=state.public_view(), people=1)
            log.info("game %s: %s by %s -> v%d", row.id, action.kind, user, update.version)
            return replace(update, actor=user,
                           actor_legal=engine.legal_actions(new_state, user),
                           actor_private=new_state.private_view(user)["private"],
                           undoable=undoable and not more)

    # ------------------------------------------------------------------ reading
    async def public_view(self, channel: int) -> PublicView:
        """The board as everyone may see it (no secrets)."""
        return self._started(await self._load(channel)).public_view()

    async def private_view(self, channel: int, user: str) -> PrivateView:
        """The public view plus ``"private"``: what ``user`` alone may see (the seat they
        play: a substitute sees what its pid sees)."""
        loaded = await self._load(channel)
        pid = self._seat_of(loaded.row, user).pid
        return self._started(loaded).private_view(pid)

    async def legal_actions(self, channel: int, user: str) -> tuple[Action, ...]:
        """Every legal action for ``user`` now, in the engine's order; () if not awaited."""
        snap = await self.snapshot(channel, user)
        if not snap.seated:
            raise NotInGame()
        return snap.legal

    async def names(self, channel: int) -> dict[str, str]:
        """Display names given at join (pid → name); pids without a name are left out."""
        return self._names((await self._load(channel)).row)

    async def status(self, channel: int) -> Status:
        """Who is awaited, for what, since when."""
        loaded = await self._load(channel)
        row, state = loaded.row, loaded.state
        computers = tuple(sorted(self._computer_pids(row)))
        if state is None:
            return Status(row.id, row.channel_id, loaded.status, None, 0,
                          tuple(s.pid for s in row.players), self._names(row), row.seats,
                          row.creator, {}, row.created_at if row.status == "lobby" else None,
                          row.created_at, row.last_action_at, False, (),
                          computers=computers)
        view = state.public_view()
        running = loaded.status is GameStatus.RUNNING
        away: dict[str, float] = {}
        zone = "UTC"
        if running:  # who is away, said in the channel's time zone
            away = self._seats_away(row, await self._away_now(
                row.guild_id, [s.player for s in row.players if s.player.isdigit()]))
            if away:
                zone = (await self.store.settings(row.channel_id)).timezone
        return Status(row.id, row.channel_id, loaded.status, view["phase"], view["version"],
                      tuple(view["players"]), self._names(row), row.seats, row.creator,
                      dict(view["awaiting"]) if running else {},
                      row.awaited_since if running else None, row.created_at,
                      row.last_action_at, view["finished"], tuple(view["winners"]),
                      dict(view["prestige"]), computers, away, zone)

    async def log(self, channel: int) -> GameLog:
        """Every action with its public events, replayed from the stored seed; the first
        entry holds the set-up (seat order, everyone's rolls)."""
        loaded = await self._load(channel)
        self._started(loaded)
        row = loaded.row
        state, setup = self._new_state(row)
        # a seat that changed hands: each move names the person who made it
        subs = await self.store.substitutes(row.id)
        names = self._names(row)
        entries = [LogEntry(0, "", "setup", row.created_at, engine.public_events(setup),
                            names_at(names, subs, 0) if subs else None)]
        for r in await self.store.actions(row.id):
            action = engine.decode(r.action)
            state, events = engine.apply(state, r.pid, action)
            entries.append(LogEntry(r.seq, r.pid, action.public_encode(), r.at,
                                    engine.public_events(events),
                                    names_at(names, subs, r.seq) if subs else None,
                                    r.computer))
        return GameLog(row.id, loaded.status, tuple(entries))

    async def audit(self, channel: int, *, game_id: int | None = None) -> Audit:
        """Replay seed + log through the engine and compare with the stored state (the
        channel's latest game, or its earlier game ``game_id``)."""
        row = (await self._load(channel)).row
        if game_id is not None and game_id != row.id:
            old = await self.store.game(game_id)
            if old is None or old.channel_id != channel:
                raise NoGame()
            row = old
        stored = self._started(Loaded.of(row))
        rows = await self.store.actions(row.id)
        if row.seed is None:
            return Audit(row.id, False, len(rows), stored.version, "The seed is missing.")
        state, _ = self._new_state(row)
        for r in rows:
            if r.seq != state.version + 1:
                return Audit(row.id, False, len(rows), stored.version,
                             f"Log entry {r.seq} is out of sequence.")
            try:
                state, _ = engine.apply(state, r.pid, engine.decode(r.action))
            except ActionError as exc:
                return Audit(row.id, False, len(rows), stored.version,
                             f"Log entry {r.seq} does not replay ({exc.code}).")
        if state.to_json() != stored.to_json():
            return Audit(row.id, False, len(rows), stored.version,
                         f"The replayed game (version {state.version}) differs from the "
                         f"stored one (version {stored.version}).")
        return Audit(row.id, True, len(rows), stored.version)

