"""The offline demo (the product without Discord): a whole computer game through the service and
the SQLite store, with every board PNG, a readable log and the final standings."""

import json
import sqlite3
from pathlib import Path

import pytest

from bot.demo import main, seat_pids
from engine.replay import verify


def test_demo_plays_a_three_player_game_to_the_end(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "3", "--seed", "5", "--out", str(tmp_path), "--easy", "1"]) == 0
    printed = capsys.readouterr().out
    pngs = sorted(tmp_path.glob("board-*.png"))
    assert len(pngs) > 30
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs[:3] + pngs[-3:])
    log = (tmp_path / "log.txt").read_text(encoding="utf-8").splitlines()
    assert log[0].startswith("The game begins. Seats: Computer ")
    assert any("is scored" in line for line in log)
    assert log[-1].startswith("Game over! Winner: Computer ")
    assert not any("ai.normal." in line or "ai.easy." in line for line in log)  # names
    standings = (tmp_path / "standings.txt").read_text(encoding="utf-8").splitlines()
    assert len(standings) == 3 and "winner" in standings[0]
    assert standings[0] in printed and "Final standings" in printed
    # the game file: the open engine re-plays it from its seed and confirms every event
    game = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert game["seed"] == 5 and len(game["players"]) == 3
    verdict = verify(game)
    assert verdict.ok, verdict.problem
    assert (tmp_path / "summary.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with sqlite3.connect(tmp_path / "demo.db") as db:  # it went through the real store
        assert db.execute("SELECT status FROM games").fetchall() == [("finished",)]


def test_demo_seats_normal_then_easy_players() -> None:
    assert seat_pids(4, 1) == ["ai.normal.1", "ai.normal.2", "ai.normal.3", "ai.easy.4"]
