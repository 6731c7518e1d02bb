"""A server's memory: ``/sanmarco-server stats``, ``leaderboard`` and ``history``, and what the
final post of a finished game adds (its seed, revealed now, R15; the replay; the game
file)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import Tr
from bot.ratings import Ranked
from bot.service.results import PlayerStats, SizeRecord
from bot.store import PastGame

from .advice import hinted_tag
from .markup import channel, fit_lines, timestamp
from .names import person, rated_name, who, who_list

MAX_BOARD_ROWS = 20


def no_games_yet(tr: Tr) -> str:
    return tr.gettext("No game has been finished in this server yet.")


def _percent(x: float | None) -> str:
    return "—" if x is None else f"{round(100 * x)}%"


def _games(tr: Tr, n: int) -> str:
    return tr.ngettext("{count} game", "{count} games", n).format(count=n)


def _size_line(tr: Tr, name: str, rec: SizeRecord) -> str:
    if not rec.games:
        return tr.gettext("{label}: no games yet.").format(label=name)
    wins = tr.ngettext("{count} win", "{count} wins", rec.wins).format(count=rec.wins)
    return tr.gettext("{label}: {games}, {wins} ({rate}), prestige {average} on average, best "
                      "{best}.").format(label=name, games=_games(tr, rec.games), wins=wins,
                                        rate=_percent(rec.win_rate),
                                        average=f"{rec.average or 0:.1f}", best=rec.best)


def stats_text(tr: Tr, stats: PlayerStats, names: Mapping[str, str] | None = None) -> str:
    """``/sanmarco-server stats``: a player's record in this server (shared wins count as wins)."""
    if not stats.overall.games:
        return tr.gettext("{player} has not finished a game in this server yet.").format(
            player=who(tr, stats.pid, names))
    return "\n".join([tr.gettext("**{player}** in this server").format(
                          player=who(tr, stats.pid, names)),
                      _size_line(tr, tr.gettext("3 players"), stats.three),
                      _size_line(tr, tr.gettext("4 players"), stats.four),
                      _size_line(tr, tr.gettext("All games"), stats.overall)])


def leaderboard_text(tr: Tr, rows: Sequence[Ranked], viewer: str | None = None) -> str:
    """``/sanmarco-server leaderboard``: the server's players by skill rating, computer levels
    among them."""
    if not rows:
        return no_games_yet(tr)
    lines = [tr.gettext("**Leaderboard** — skill rating (openskill: the skill a player very "
                        "probably has at least; it rises with wins and grows surer with "
                        "games)")]
    shown = list(rows[:MAX_BOARD_ROWS])
    mine = next((r for r in rows if r.player == viewer), None)
    if mine is not None and mine not in shown:
        shown.append(mine)
    for r in shown:
        lines.append(f"{r.place}. {rated_name(tr, r.player)} — **{r.score:.1f}** "
                     f"({_games(tr, r.games)})")
    if len(rows) > len(shown):
        lines.append(tr.gettext("… and {count} more.").format(count=len(rows) - len(shown)))
    return fit_lines(lines)


def _seat_people(tr: Tr, game: PastGame, pid: str) -> str:
    """Who played a seat; everyone in turn when a substitute took it over ("@ann → @bob"):
    a game is remembered for each of them."""
    people = game.history.people(pid)
    if len(people) == 1:
        return who(tr, pid, game.names)
    return " → ".join(person(tr, p) for p in people)


def history_text(tr: Tr, games: Sequence[PastGame]) -> str:
    """``/sanmarco-server history``: recent games with date, channel, players, winners (and
    whether hints were used: not rated) and a link to the final post."""
    if not games:
        return no_games_yet(tr)
    lines = [tr.gettext("**Recent games**")]
    for g in games:
        h = g.history
        players = ", ".join(f"{_seat_people(tr, g, p)} {h.scores.get(p, 0)}"
                            for p in h.players)
        link = (" · " + tr.gettext("[final post]({url})").format(url=g.url)) if g.url else ""
        won = tr.gettext("won by {winners}").format(winners=who_list(tr, h.winners, g.names))
        hinted = f" · {hinted_tag(tr)}" if h.hinted else ""
        lines.append(f"#{h.game_id} · {timestamp(h.finished_at, 'd')} · {channel(h.channel_id)} · "
                     f"{players} · {won}{hinted}{link}")
    return fit_lines(lines)


def seed_line(tr: Tr, seed: int) -> str:
    """On the final post: the seed, revealed now the game is over (R15), and how to check."""
    return tr.gettext("Seed `{seed}` — the **Game file** lets anyone re-play this game and "
                      "check every roll, deal and score: `python -m engine.replay "
                      "game.json`.").format(seed=seed)


def replay_caption(tr: Tr, game_id: int, steps: int, size: int) -> str:
    return tr.gettext("Game #{number}: the whole game in {steps} steps ({size} MB).").format(
        number=game_id, steps=steps, size=f"{size / 1024 / 1024:.1f}")


def game_file_caption(tr: Tr, game_id: int, seed: int) -> str:
    return tr.gettext("Game #{number}, seed `{seed}`: check it with `python -m engine.replay "
                      "game.json` (the engine is open source).").format(number=game_id,
                                                                        seed=seed)
