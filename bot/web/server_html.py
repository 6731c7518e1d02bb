"""A server's page as HTML (``templates/server.html``): its open lobbies with free seats, the
games being played and the recent games (each linking its page where its channel has
pages), the leaderboard, with the names the server's games show and nothing more (no
channel, no Discord id). Names are text: the template escapes them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot import text
from bot.i18n import Tr
from bot.service import ServerPage
from engine.ai import is_computer
from render.words import and_list

from .html import Moment, moment, render


@dataclass(frozen=True)
class Listed:
    """A game as a line of the server's page."""

    number: int
    players: str
    href: str | None = None
    free: str = ""
    awaiting: str = ""
    at: Moment | None = None
    scores: str = ""
    won: str = ""


@dataclass(frozen=True)
class Leader:
    place: int
    name: str
    score: str
    games: int


def _name(tr: Tr, pid: str, names: Mapping[str, str]) -> str:
    """A person by the name their games show, a computer player by its label."""
    if pid in names:
        return names[pid]
    if pid.startswith("ai.") and not is_computer(pid):  # a rated level, not a seat
        return text.rated_name(tr, pid)
    return text.name_of(tr, pid, names) if is_computer(pid) else "…"


def server_page(tr: Tr, language: str, page: ServerPage) -> str:
    words = text.server_words(tr)
    names = page.names

    def who(pids: Iterable[str], seats: Mapping[str, str]) -> str:
        return and_list([_name(tr, p, {**names, **seats}) for p in pids], tr)

    def href(token: str | None) -> str | None:
        return f"/g/{token}?lang={language}" if token else None

    lobbies = [Listed(lob.game_id, who(lob.players, lob.names),
                      free=text.seats_free(tr, lob.free)) for lob in page.lobbies]
    running = [Listed(g.game_id, who(g.players, g.names), href(g.token),
                      awaiting=words.awaiting.format(players=who(g.awaiting, g.names))
                      if g.awaiting else "") for g in page.running]
    leaders = [Leader(r.place, _name(tr, r.player, names), f"{r.score:.1f}", r.games)
               for r in page.leaderboard[:50]]
    history = []
    for old in page.history:
        h = old.history
        history.append(Listed(
            h.game_id, who(h.players, old.names), href(page.pages.get(h.game_id)),
            at=moment(h.finished_at),
            scores=", ".join(f"{who([p], old.names)} {h.scores.get(p, 0)}" for p in h.players),
            won=text.won_by(tr, who(h.winners, old.names))))
    return render("server.html", language, words.title, words=words, lobbies=lobbies,
                  running=running, leaders=leaders, history=history,
                  data={"lang": language}, script=True)
