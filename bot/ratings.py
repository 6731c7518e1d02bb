"""Skill ratings for a server's finished games: openskill's Plackett-Luce model, made for
multiplayer free-for-all games (no hand-written maths here).

- Every seat is a team of one; its rank is 1 for the winners (a shared win is a tie, R14),
  then the others by prestige (equal prestige is a tie).
- People are rated by their pid. Computer players are rated per level (``ai.normal``,
  ``ai.easy``), so people see where they stand against each level. When a game seats one
  level twice, each seat plays with the level's rating and the level's new rating is the
  mean of its seats' new ratings (one game counted).
- Only seats one person (or one computer player) played from start to end are rated: a
  seat a substitute took over counts for nobody, and the other seats are rated among
  themselves as if it had not been at the table. (A computer that played for an absent
  person who came back, or whose turn timer ran out, changes nothing: the person played
  the seat.)
- A game in which someone asked for a hint (``HistoryRow.hinted``) is rated for nobody.
- ``rate`` folds games into a table, oldest first; ``fold`` from nothing is the rebuild.
  Folding games one at a time gives exactly the table of folding them all at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.store import HistoryRow, RatingRow
from engine.ai import is_computer, level_of

_MODEL = PlackettLuce()
COMPUTER_PREFIX = "ai."


def rating_id(pid: str) -> str:
    """Who a seat's result counts for: the person, or the computer player's level."""
    return f"{COMPUTER_PREFIX}{level_of(pid)}" if is_computer(pid) else pid


def is_computer_level(player: str) -> bool:
    """Whether a rated identity is a computer level (``ai.normal``), not a person."""
    return player.startswith(COMPUTER_PREFIX)


def ranks(players: Sequence[str], winners: Iterable[str], scores: Mapping[str, int]
          ) -> list[int]:
    """Each seat's place (1 = best): the winners share 1, the others follow by prestige."""
    won = set(winners)
    others = sorted({scores.get(p, 0) for p in players if p not in won}, reverse=True)
    return [1 if p in won else 2 + others.index(scores.get(p, 0)) for p in players]


def rated_seats(game: HistoryRow) -> list[str]:
    """The seats of a game that count: those one person played from start to end (none in
    a hinted game)."""
    if game.hinted:
        return []
    return [p for p in game.players if p not in game.substitutes]


def rate(table: Mapping[str, RatingRow], games: Iterable[HistoryRow]) -> dict[str, RatingRow]:
    """The ratings after ``games`` (in order) starting from ``table``: every identity that
    changed, and the rest as they were."""
    out = dict(table)
    for game in games:
        players = rated_seats(game)
        if len(players) < 2:
            continue
        ids = [rating_id(p) for p in players]
        before = {i: out.get(i) for i in set(ids)}
        teams = [[_rating(before[i])] for i in ids]
        places = [float(r) for r in ranks(players, game.winners, game.scores)]
        after = _MODEL.rate(teams, ranks=places)
        for i in set(ids):
            seats = [after[k][0] for k, j in enumerate(ids) if j == i]
            mu = sum(r.mu for r in seats) / len(seats)
            sigma = sum(r.sigma for r in seats) / len(seats)
            old = before[i]
            out[i] = RatingRow(i, mu, sigma, (old.games if old else 0) + 1)
    return out


def fold(games: Iterable[HistoryRow]) -> dict[str, RatingRow]:
    """Every rating from nothing: the rebuild."""
    return rate({}, games)


def _rating(row: RatingRow | None) -> PlackettLuceRating:
    if row is None:
        return _MODEL.rating()
    return _MODEL.rating(mu=row.mu, sigma=row.sigma)


@dataclass(frozen=True)
class Ranked:
    """A leaderboard row: ``score`` is openskill's conservative ordinal (mu - 3 sigma), the
    skill the player very probably has at least; the table is ordered by it."""

    place: int
    player: str
    score: float
    mu: float
    sigma: float
    games: int

    @property
    def is_computer(self) -> bool:
        return is_computer_level(self.player)


def ordinal(row: RatingRow) -> float:
    return row.mu - 3 * row.sigma


def leaderboard(rows: Iterable[RatingRow]) -> list[Ranked]:
    """The ratings best first (equal scores share a place; ties broken by name for a stable
    order)."""
    ordered = sorted(rows, key=lambda r: (-ordinal(r), -r.games, r.player))
    out: list[Ranked] = []
    for k, r in enumerate(ordered):
        score = ordinal(r)
        same = out and round(out[-1].score, 6) == round(score, 6)
        place = out[-1].place if same else k + 1
        out.append(Ranked(place, r.player, score, r.mu, r.sigma, r.games))
    return out
