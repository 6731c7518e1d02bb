"""A provably fair game (R15: the seed stays secret until the end): the game file re-plays from
its seed with the open engine, every posted die roll, deal and score is confirmed, and a file
with one of them changed is rejected."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from engine import apply, legal_actions, new_game
from engine.replay import FORMAT, game_file, main, verify

ROOT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=16)
def _played(n: int, seed: int) -> tuple[tuple[str, str], ...]:
    players = [f"p{i}" for i in range(n)]
    state = new_game(players, seed)
    rng = random.Random(seed)
    actions = []
    while not state.finished:
        pid = state.waiting_for[0]
        action = rng.choice(legal_actions(state, pid))
        state, _ = apply(state, pid, action)
        actions.append((pid, action.encode()))
    return tuple(actions)


def record(n: int, seed: int) -> dict[str, Any]:
    return game_file([f"p{i}" for i in range(n)], seed, _played(n, seed))


def first(data: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in data["events"] if e["type"] == kind)


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_every_finished_game_is_confirmed_by_its_seed(n: int, seed: int) -> None:
    data = json.loads(json.dumps(record(n, seed)))  # exactly what a file holds
    assert data["format"] == FORMAT and data["finished"] is True
    assert {"seed", "players", "actions", "events"} <= set(data)
    verdict = verify(data)
    assert verdict.ok, verdict.problem
    assert verdict.actions == len(data["actions"]) and verdict.events == len(data["events"])
    assert verdict.rolls >= 4 * n and verdict.deals > 0 and verdict.scores > 0
    assert list(verdict.winners) == data["winners"]
    assert "OK" in verdict.report()


def test_a_changed_set_up_roll_is_rejected() -> None:
    data = record(4, 1)
    rolled = first(data, "setup_rolled")
    rolled["rolls"][0] = rolled["rolls"][0] % 6 + 1
    verdict = verify(data)
    assert not verdict.ok and "setup_rolled" in (verdict.problem or "")
    assert "the set-up" in (verdict.problem or "") and verdict.report().startswith("REJECTED")


def test_a_changed_banishment_roll_is_rejected() -> None:
    for seed in range(40):
        data = record(3, seed)
        rolls = [e for e in data["events"] if e["type"] == "banishment_rolled"]
        if rolls:
            break
    else:
        pytest.skip("no banishment in 40 games")
    rolls[0]["roll"] = rolls[0]["roll"] % 6 + 1
    verdict = verify(data)
    assert not verdict.ok and "banishment_rolled" in (verdict.problem or "")


def test_a_changed_dealt_card_is_rejected() -> None:
    data = record(3, 2)
    revealed = first(data, "offers_revealed")
    offer = revealed["offers"][0]
    offer[0] = "doge" if offer[0] != "doge" else "transfer"
    verdict = verify(data)
    assert not verdict.ok and "offers_revealed" in (verdict.problem or "")


def test_a_changed_deal_count_or_score_is_rejected() -> None:
    for kind, change in (("cards_dealt", lambda e: e.update(limit=e["limit"] + 1)),
                         ("district_scored",
                          lambda e: e["points"].update({k: v + 1 for k, v in
                                                        e["points"].items()}))):
        data = record(4, 3)
        event = next(e for e in data["events"] if e["type"] == kind and e.get("points", 1))
        change(event)
        verdict = verify(data)
        assert not verdict.ok and kind in (verdict.problem or ""), kind


def test_other_seeds_players_actions_and_claims_are_rejected() -> None:
    good = record(3, 4)
    cases: list[dict[str, Any]] = []
    cases.append({**copy.deepcopy(good), "seed": good["seed"] + 1})
    cases.append({**copy.deepcopy(good), "players": list(reversed(good["players"]))})
    winners = [p for p in good["players"] if p not in good["winners"]][:1]
    cases.append({**copy.deepcopy(good), "winners": winners})
    dropped = copy.deepcopy(good)
    dropped["events"].pop(len(dropped["events"]) // 2)  # a posted event left out
    cases.append(dropped)
    cut = copy.deepcopy(good)
    cut["actions"] = cut["actions"][:-1]
    cut["events"] = [e for e in cut["events"] if e["seq"] <= len(cut["actions"])]
    cases.append(cut)  # the game does not end
    swapped = copy.deepcopy(good)
    a = next(r for r in swapped["actions"] if r["action"].startswith("take:"))
    a["action"] = "take:9"
    cases.append(swapped)
    for case in cases:
        verdict = verify(case)
        assert not verdict.ok and verdict.problem, case.get("seed")


@pytest.mark.parametrize("bad", [None, [], "x", {"seed": "1"}, {"seed": 1, "players": [1, 2]},
                                 {"format": "chess", "seed": 1},
                                 {"seed": 1, "players": ["a", "b", "c"], "actions": [],
                                  "events": [{"type": "game_started"}]},
                                 {"seed": 1, "players": ["a"], "actions": [], "events": []},
                                 {"seed": 1, "players": ["a", "b", "c"], "actions": [3],
                                  "events": []}])
def test_a_malformed_file_gets_a_reason_not_a_traceback(bad: Any) -> None:
    verdict = verify(bad)
    assert not verdict.ok and verdict.problem


def test_the_command_line_confirms_a_file_and_rejects_a_tampered_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record(3, 5)
    good = tmp_path / "game.json"
    good.write_text(json.dumps(data), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "engine.replay", str(good)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("OK:"), out.stdout + out.stderr
    first(data, "setup_rolled")["rolls"][1] = first(data, "setup_rolled")["rolls"][1] % 6 + 1
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main([str(bad)]) == 1
    assert capsys.readouterr().out.startswith("REJECTED:")
    assert main([str(tmp_path / "missing.json")]) == 2
    assert main([]) == 2
