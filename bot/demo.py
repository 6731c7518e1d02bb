"""An offline demo: a whole game among computer players, no Discord token needed.

    python -m bot.demo --players 4 --seed 7 --out DIR [--language de|fr|en]
                                                           (or: sanmarco-demo ...)

The game runs through the real game service and SQLite store (``DIR/demo.db``), one action
per ``act`` call, like players clicking in a channel. Each computer player decides from what
the service shows that player (its private view and legal actions, ``engine.ai``), so the
demo also shows that the service hands out nothing secret. It writes to DIR:

- ``board-NNNN.png``: the board after every action that changed it (with the highlight the
  bot would show),
- ``log.txt``: one line per public event, with display names,
- ``standings.txt``: the final standings, which it also prints,
- ``game.json``: the game file (seed, players, actions, public events) that
  ``python -m engine.replay DIR/game.json`` re-plays and confirms,
- ``summary.png``: the end-of-game picture the final post carries.

The log, the standings, the boards and the summary are in ``--language`` (default English),
as a channel of that language would show them.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot import i18n, text
from bot.i18n import Tr
from bot.service import GameService, open_service
from engine import Event
from engine.ai import choose_from_view, computer_name, computer_pid, level_of
from engine.views import PublicView
from render import highlight_from_events, render_board
from render.summary import render_summary

GUILD = 1
CHANNEL = 1


def seat_pids(players: int, easy: int) -> list[str]:
    """Computer pids: the first ``players - easy`` play at normal level, the rest easy."""
    return [computer_pid("normal" if i < players - easy else "easy", i + 1)
            for i in range(players)]


def event_text(tr: Tr, event: Event, names: Mapping[str, str]) -> str:
    """The line the bot would post for a public event, or one of ours for the few events
    the bot shows otherwise (a hand being played, the cards dealt)."""
    line = text.event_line(tr, event, names)
    if line:
        return line
    who = text.name_of(tr, str(event.get("player")), names)
    if event.type == "card_played":
        return tr.gettext("{player} plays {card}.").format(
            player=who, card=text.card_label(tr, event["card"]))
    if event.type == "cards_dealt":
        return tr.gettext("{player} draws {action} action and {limit} limit cards.").format(
            player=who, action=event["action"], limit=event["limit"])
    facts = ", ".join(f"{k}={names.get(v, v) if isinstance(v, str) else v}"
                      for k, v in event.data.items())
    return f"({event.type}: {facts})"


def standings(tr: Tr, view: PublicView, names: Mapping[str, str]) -> list[str]:
    """Final standings as the engine ranks them (R14), winners marked."""
    sm = view["districts"]["San Marco"]
    lines = []
    for row in view["standings"]:
        pid = row["player"]
        mark = "  " + tr.gettext("winner") if pid in view["winners"] else ""
        prestige = tr.gettext("{count} prestige").format(count=f"{row['prestige']:>4}")
        where = tr.gettext("{count} in San Marco").format(count=sm[pid])
        lines.append(f"{row['rank']}. {text.name_of(tr, pid, names):<22} {prestige}"
                     f"  ({where}){mark}")
    return lines


async def play(service: GameService, pids: Sequence[str], seed: int, out: Path,
               *, images: bool = True, language: str = i18n.DEFAULT) -> list[str]:
    """Play one game in the demo channel; write boards, log and standings to ``out`` in
    ``language``."""
    tr = i18n.translations(language)
    names = {p: computer_name(p) for p in pids}
    shown = text.local_names(tr, names)  # the computers' names in that language
    await service.create_lobby(GUILD, CHANNEL, pids[0], seats=len(pids), name=names[pids[0]])
    for pid in pids[1:]:
        await service.join(CHANNEL, pid, name=names[pid])
    update = await service.start(CHANNEL, pids[0])
    log_lines: list[str] = []
    boards = 0

    def record(events: Sequence[Event], view: PublicView, changed: bool) -> None:
        nonlocal boards
        log_lines.extend(event_text(tr, e, names) for e in events)
        if images and changed:
            boards += 1
            png = render_board(view, highlight=highlight_from_events(
                [e.to_dict() for e in events], shown, tr), names=shown, tr=tr)
            (out / f"board-{boards:04d}.png").write_bytes(png)

    record(update.events, update.view, True)  # the set-up: seats and everyone's rolls
    while not update.finished:
        pid = update.view["waiting_for"][0]
        view = await service.private_view(CHANNEL, pid)
        legal = await service.legal_actions(CHANNEL, pid)
        action = choose_from_view(view, legal, pid, level=level_of(pid), seed=seed)
        update = await service.act(CHANNEL, pid, action, expected_version=update.version)
        record(update.events, update.view, update.board_changed)
    table = standings(tr, update.view, names)
    (out / "log.txt").write_text("\n".join(log_lines) + "\n", encoding="utf-8")
    (out / "standings.txt").write_text("\n".join(table) + "\n", encoding="utf-8")
    # the game file anyone may check (python -m engine.replay game.json), and the end picture
    (out / "game.json").write_text(await service.game_file(GUILD, CHANNEL), encoding="utf-8")
    if images:
        game = await service.finished_game(GUILD, CHANNEL)
        (out / "summary.png").write_bytes(render_summary(
            game.view, [e.to_dict() for e in game.events], shown, tr))
    return table


async def run(players: int, seed: int, out: Path, *, easy: int = 0,
              images: bool = True, language: str = i18n.DEFAULT) -> list[str]:
    """The demo in a fresh store at ``out/demo.db``; returns the standings lines."""
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.db"
    for stale in (db, out / "demo.db-wal", out / "demo.db-shm"):
        stale.unlink(missing_ok=True)  # our own file from an earlier run of the demo
    service = await open_service(str(db), seeds=lambda: seed)
    try:
        return await play(service, seat_pids(players, easy), seed, out, images=images,
                          language=language)
    finally:
        await service.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point (``sanmarco-demo``)."""
    parser = argparse.ArgumentParser(prog="sanmarco-demo", description=(
        "Play a whole San Marco game among computer players through the bot's game service "
        "and SQLite store; write every board PNG and a readable log."))
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--seed", type=int, default=7, help="game seed (same seed, same game)")
    parser.add_argument("--out", type=Path, default=Path("demo-out"), help="output folder")
    parser.add_argument("--easy", type=int, default=0,
                        help="how many of the players play at easy level (default 0)")
    parser.add_argument("--no-images", action="store_true", help="skip the board PNGs")
    parser.add_argument("--language", choices=i18n.LANGUAGES, default=i18n.DEFAULT,
                        help="the language of the log, standings and pictures (default en)")
    args = parser.parse_args(argv)
    if not 0 <= args.easy <= args.players:
        parser.error("--easy must be between 0 and the number of players")
    table = asyncio.run(run(args.players, args.seed, args.out, easy=args.easy,
                            images=not args.no_images, language=args.language))
    print(f"San Marco demo, {args.players} players, seed {args.seed}. Final standings:")
    print("\n".join(table))
    print(f"Boards, log.txt, standings.txt, summary.png and game.json are in {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
