"""A provably fair game: the game file, and the check anyone can run on it.

    python -m engine.replay game.json

When a game is over its seed is no longer secret (R15), and the game file holds everything
needed to play it again with this open engine: the seed, the players in the order the game
was started with, every action, and the public events as they were posted. ``verify``
re-plays the actions from the seed and confirms that every die roll (set-up rolls, rerolls,
banishments), every deal (the cards dealt and the offers revealed) and every score (district
scorings, tolls, canal crossings, passage bonuses, the winners) posted was the one the seed
gives; the first difference is named.

The file (``FORMAT``, ``SCHEMA``)::

    {"format": "sanmarco-game", "schema": 1, "seed": 123, "players": [pid, ...],
     "names": {pid: name}, "actions": [{"seq": 1, "player": pid, "action": "keep"}, ...],
     "events": [{"seq": 0, "type": "game_started", ...}, ...],     # seq 0: the set-up
     "winners": [pid], "prestige": {pid: n}}

Pure functions; only ``main`` reads a file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import decode
from .errors import ActionError
from .events import Event, public_events
from .game import apply, start_game
from .state import GameState

FORMAT = "sanmarco-game"
SCHEMA = 1

# What each kind of public event proves, for the report.
ROLLS = ("setup_rolled", "setup_rerolled", "banishment_rolled")
DEALS = ("cards_dealt", "offers_revealed", "offer_taken", "action_deck_reshuffled")
SCORES = ("district_scored", "toll_paid", "canal_crossed", "passage_scored", "game_over")


@dataclass(frozen=True)
class Verdict:
    """What ``verify`` found. ``ok`` only when every posted event is the seed's own and the
    game ran to its end; ``problem`` names the first difference."""

    ok: bool
    actions: int = 0
    events: int = 0
    rolls: int = 0
    deals: int = 0
    scores: int = 0
    winners: tuple[str, ...] = ()
    problem: str | None = None
    counts: Mapping[str, int] = field(default_factory=dict)

    def report(self) -> str:
        """A short readable account (what ``python -m engine.replay`` prints)."""
        if not self.ok:
            return f"REJECTED: {self.problem}"
        return (f"OK: {self.actions} actions re-played from the seed; all {self.events} "
                f"posted events match: {self.rolls} die rolls, {self.deals} deals, "
                f"{self.scores} scores. Winners: {', '.join(self.winners)}.")


def _event_dict(seq: int, event: Event) -> dict[str, Any]:
    # JSON round trip: tuples become lists, exactly as a file holds them
    data: dict[str, Any] = json.loads(json.dumps(event.to_dict()))
    return {"seq": seq, **data}


def game_file(players: Sequence[str], seed: int, actions: Sequence[tuple[str, str]], *,
              names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The game file of a game: ``actions`` are (pid, action text) in order. The events are
    re-played from the seed: the same engine made them when they were posted.

    Raises ValueError if the players cannot start a game, ActionError if an action does not
    apply.
    """
    state, setup = start_game(list(players), seed)
    events = [_event_dict(0, e) for e in public_events(setup)]
    rows = []
    for seq, (pid, text) in enumerate(actions, start=1):
        action = decode(text)
        state, evs = apply(state, pid, action)
        rows.append({"seq": seq, "player": pid, "action": action.encode()})
        events.extend(_event_dict(seq, e) for e in public_events(evs))
    view = state.public_view()
    return {"format": FORMAT, "schema": SCHEMA, "seed": seed, "players": list(players),
            "names": dict(names or {}), "actions": rows, "events": events,
            "finished": view["finished"], "winners": view["winners"],
            "prestige": view["prestige"]}


def _describe(event: Mapping[str, Any]) -> str:
    facts = ", ".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in event.items()
                      if k not in ("seq", "type"))
    return f"{event.get('type')} ({facts})"


def _difference(seq: int, posted: Sequence[Mapping[str, Any]],
                replayed: Sequence[Mapping[str, Any]]) -> str | None:
    where = "the set-up" if seq == 0 else f"action {seq}"
    for k in range(max(len(posted), len(replayed))):
        p = posted[k] if k < len(posted) else None
        r = replayed[k] if k < len(replayed) else None
        if p == r:
            continue
        if p is None:
            return f"after {where} the seed gives {_describe(r or {})}, which was not posted"
        if r is None:
            return f"after {where} the file posts {_describe(p)}, which the seed does not give"
        return (f"after {where} the file posts {_describe(p)}, but the seed gives "
                f"{_describe(r)}")
    return None


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"the file has no valid {key!r}")
    return value


def verify(data: Any) -> Verdict:
    """Re-play a game file (a parsed JSON object) from its seed and compare every posted
    event with the one the open engine gives. Never raises for a bad file: the verdict says
    what is wrong."""
    try:
        return _verify(data)
    except ValueError as exc:
        return Verdict(False, problem=str(exc))


def _verify(data: Any) -> Verdict:
    if not isinstance(data, dict):
        raise ValueError("the file is not a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise ValueError(f"the file is not a San Marco game file (format {data['format']!r})")
    seed = _field(data, "seed", int)
    players = _field(data, "players", list)
    actions = _field(data, "actions", list)
    posted = _field(data, "events", list)
    if not all(isinstance(p, str) for p in players):
        raise ValueError("the players must be player ids (text)")
    by_seq: dict[int, list[Mapping[str, Any]]] = {}
    for e in posted:
        if not isinstance(e, dict) or not isinstance(e.get("seq"), int):
            raise ValueError("every event needs its action number 'seq'")
        by_seq.setdefault(e["seq"], []).append(e)
    if set(by_seq) - set(range(len(actions) + 1)):
        raise ValueError("an event names an action the file does not have")
    try:
        state, setup = start_game(players, seed)
    except ValueError as exc:
        raise ValueError(f"the players cannot start a game: {exc}") from None
    counts: dict[str, int] = {}

    def check(seq: int, events: Sequence[Event]) -> None:
        replayed = [_event_dict(seq, e) for e in public_events(events)]
        problem = _difference(seq, by_seq.get(seq, []), replayed)
        if problem is not None:
            raise ValueError(problem)
        for e in replayed:
            counts[e["type"]] = counts.get(e["type"], 0) + 1
            if e["type"] == "setup_rolled":
                counts["#rolls"] = counts.get("#rolls", 0) + len(e["rolls"])
            elif e["type"] in ROLLS:
                counts["#rolls"] = counts.get("#rolls", 0) + 1

    check(0, setup)
    for seq, row in enumerate(actions, start=1):
        state, events = _step(state, seq, row)
        check(seq, events)
    if not state.finished:
        raise ValueError(f"the game is not over after its {len(actions)} actions")
    view = state.public_view()
    final: dict[str, object] = {"winners": view["winners"], "prestige": view["prestige"]}
    for key, value in final.items():
        if key in data and data[key] != value:
            raise ValueError(f"the file's {key} {json.dumps(data[key])} are not the game's "
                             f"{json.dumps(value)}")
    return Verdict(True, len(actions), sum(len(v) for v in by_seq.values()),
                   counts.get("#rolls", 0), sum(counts.get(t, 0) for t in DEALS),
                   sum(counts.get(t, 0) for t in SCORES), tuple(view["winners"]),
                   counts={k: v for k, v in counts.items() if not k.startswith("#")})


def _step(state: GameState, seq: int, row: Any) -> tuple[GameState, tuple[Event, ...]]:
    if not isinstance(row, dict) or not isinstance(row.get("player"), str) \
            or not isinstance(row.get("action"), str):
        raise ValueError(f"action {seq} is not {{'player': pid, 'action': text}}")
    if row.get("seq", seq) != seq:
        raise ValueError(f"action {seq} is numbered {row.get('seq')!r}")
    try:
        return apply(state, row["player"], decode(row["action"]))
    except ActionError as exc:
        raise ValueError(f"action {seq} ({row['action']} by {row['player']}) is not legal "
                         f"then: {exc.message}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.replay FILE``: 0 when the file is the seed's own game, 1 if not,
    2 when the file cannot be read."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m engine.replay GAME.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args[0]}: {exc}", file=sys.stderr)
        return 2
    verdict = verify(data)
    print(verdict.report())
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
