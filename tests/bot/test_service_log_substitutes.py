"""A seat that changed hands is named, move by move, by the person who made each move: in the
log (``/sanmarco game log``), the game file and the replay, on both stores. A move up to the
hand-over's ``seq`` (the game's last logged action before it) is the one before's (the
seat's first player, or the substitute before), a later one the substitute's; the posts and
the history name a seat by everyone who played it ("@ann → @eve")."""

from __future__ import annotations

import json
import random

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service import LogEntry
from bot.store import SeatNames, SubstituteRow, names_at, player_of
from engine import Event
from engine.replay import verify
from render.story import highlight_from_events

from .test_service import Clock
from .test_service_substitutes import ANN, BOB, CHANNEL, CID, EVE, GUILD, _game, _service, _step

DAN = "444"


def _sub(pid: str, player: str, name: str | None, seq: int, version: int,
         before: str | None) -> SubstituteRow:
    return SubstituteRow(7, version, pid, player, name, pid, seq, 0.0, before)


def test_names_at_gives_each_move_to_whoever_played_the_seat_then() -> None:
    """Ann played seat 111 up to action 5, Eve up to 9, Dan since; a computer's seat (ai)
    went to Bob after action 3: the names before read as the computer."""
    now = SeatNames({ANN: "Dan", "ai.normal.1": "Bob", CID: "Cid"},
                    {ANN: DAN, "ai.normal.1": BOB})
    subs = [_sub(ANN, EVE, "Eve", 5, 10, "Ann"), _sub(ANN, DAN, "Dan", 9, 20, "Eve"),
            _sub("ai.normal.1", BOB, "Bob", 3, 8, "Computer 1 (normal)")]
    early = names_at(now, subs, 1)
    assert player_of(early, ANN) == ANN and early[ANN] == "Ann"
    assert player_of(early, "ai.normal.1") == "ai.normal.1"
    assert text.who(EN, "ai.normal.1", early) == "Computer 1 (normal)"
    assert player_of(names_at(now, subs, 5), ANN) == ANN      # the hand-over's own seq
    middle = names_at(now, subs, 6)
    assert player_of(middle, ANN) == EVE and middle[ANN] == "Eve"
    assert player_of(middle, "ai.normal.1") == BOB
    assert names_at(now, subs, 10) == now and player_of(names_at(now, subs, 10), ANN) == DAN
    assert player_of(names_at(now, subs, 0), CID) == CID and names_at(now, subs, 0)[CID] == "Cid"
    # an older row without the name before: the seat reads by its id, never by the new name
    old = names_at(now, [_sub(ANN, EVE, "Eve", 5, 10, None)], 2)
    assert ANN not in old and text.who(EN, ANN, old) == f"<@{ANN}>"


def test_the_log_words_each_move_with_the_names_of_its_time() -> None:
    now = SeatNames({ANN: "Eve"}, {ANN: EVE})
    then = names_at(now, [_sub(ANN, EVE, "Eve", 1, 5, "Ann")], 1)
    crossed = (Event("canal_crossed", {"player": ANN, "cost": 2}),)
    entries = [LogEntry(1, ANN, "x", 0.0, crossed, then),
               LogEntry(2, ANN, "x", 0.0, crossed, now)]
    before, after = text.log_text(EN, entries, now).split("\n")
    assert f"<@{ANN}>" in before and f"<@{EVE}>" not in before
    assert f"<@{EVE}>" in after and f"<@{ANN}>" not in after
    # an entry without names of its own reads by the names given (no hand-over)
    assert text.log_text(EN, [LogEntry(1, ANN, "x", 0.0, crossed)], now) == after
    assert text.log_text(EN, [LogEntry(1, ANN, "x", 0.0, crossed)], now, limit=5).startswith(
        "…")


async def test_a_seat_passed_mid_game_names_ann_before_and_eve_after(db: str) -> None:
    svc = await _service(db, Clock())
    try:
        await _game(svc, (ANN, BOB, CID))
        rng = random.Random(5)
        ann_moves = 0
        for _ in range(500):  # Ann plays her seat a while
            status = await svc.status(CHANNEL)
            ann_moves += ANN in status.awaiting
            if ann_moves >= 6 and ANN not in status.awaiting:
                break
            assert await _step(svc, rng)
        assert (await svc.vote_replace(CHANNEL, ANN, ANN, by=EVE, by_name="Eve")).replaced
        for _ in range(3000):  # Eve plays it to the end
            if not await _step(svc, rng):
                break
        game = await svc.finished_game(GUILD, CHANNEL)
        (handover,) = await svc.store.substitutes(game.game_id)
        assert handover.before_name == "Ann" and handover.player == EVE
        cut = handover.seq

        # the log: Ann's moves before the hand-over, Eve's after
        log = await svc.log(CHANNEL)
        seat = [e for e in log.entries if e.pid == ANN]
        assert any(e.seq <= cut for e in seat) and any(e.seq > cut for e in seat)
        for e in seat:
            assert e.names is not None
            assert player_of(e.names, ANN) == (ANN if e.seq <= cut else EVE)
        names = await svc.names(CHANNEL)
        assert player_of(names, ANN) == EVE  # the seat is Eve's now
        said = [e for e in seat if any(ev.get("player") == ANN for ev in e.events)]
        early = next(e for e in said if e.seq <= cut)
        late = next(e for e in said if e.seq > cut)
        assert f"<@{ANN}>" in text.log_text(EN, [early], names)
        assert f"<@{EVE}>" not in text.log_text(EN, [early], names)
        assert f"<@{EVE}>" in text.log_text(EN, [late], names)

        # the replay: the frames' captions name Ann before, Eve after
        def caption(step: int) -> str:
            events = [ev.to_dict() for ev in game.steps[step][1]]
            found = highlight_from_events(events, text.local_names(EN, game.names_at(step)))
            return str((found or {}).get("caption", ""))

        captions = [(k, caption(k)) for k in range(1, len(game.steps))]
        assert any("Ann" in c for k, c in captions if k <= cut)
        assert any("Eve" in c for k, c in captions if k > cut)
        assert not any("Eve" in c for k, c in captions if k <= cut)
        assert not any("Ann" in c for k, c in captions if k > cut)
        assert len(game.step_names) == len(game.steps)

        # the game file: each of the seat's actions names who made it, and still verifies
        data = json.loads(await svc.game_file(GUILD, CHANNEL))
        assert verify(data).ok and data["names"][ANN] == "Eve"
        for a in data["actions"]:
            if a["player"] == ANN:
                assert (a["played_by"], a["played_by_name"]) == (
                    (ANN, "Ann") if a["seq"] <= cut else (EVE, "Eve"))
            else:
                assert "played_by" not in a

        # the history names both, in turn
        assert f"<@{ANN}> → <@{EVE}>" in text.history_text(EN, await svc.past_games(GUILD))
    finally:
        await svc.close()


async def test_without_a_hand_over_the_log_and_replay_name_the_seats_as_always(
        db: str) -> None:
    svc = await _service(db, Clock())
    try:
        await _game(svc, (ANN, BOB))
        rng = random.Random(1)
        for _ in range(5):
            assert await _step(svc, rng)
        log = await svc.log(CHANNEL)
        assert all(e.names is None for e in log.entries)
    finally:
        await svc.close()
