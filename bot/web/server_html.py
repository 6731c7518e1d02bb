"""A server's page as HTML: its open lobbies with free seats, the games being played (each
linking its page where its channel has pages), the leaderboard and the recent games, with
the names the server's games show and nothing more (no channel, no Discord id)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot import text
from bot.i18n import Tr
from bot.service import ServerPage
from engine.ai import is_computer
from render.words import and_list

from .html import document, esc, when


def _name(tr: Tr, pid: str, names: Mapping[str, str]) -> str:
    """A person by the name their games show, a computer player by its label."""
    if pid in names:
        return names[pid]
    if pid.startswith("ai.") and not is_computer(pid):  # a rated level, not a seat
        return text.rated_name(tr, pid)
    return text.name_of(tr, pid, names) if is_computer(pid) else "…"


def _list(items: Iterable[str], none: str) -> str:
    rows = "".join(f"<li>{item}</li>" for item in items)
    return f"<ul>{rows}</ul>" if rows else f"<p>{esc(none)}</p>"


def server_page(tr: Tr, language: str, page: ServerPage) -> str:
    words = text.server_words(tr)
    names = page.names

    def who(pids: Iterable[str], seats: Mapping[str, str]) -> str:
        return and_list([_name(tr, p, {**names, **seats}) for p in pids], tr)

    lobbies = _list((f"#{lob.game_id} · {esc(text.seats_free(tr, lob.free))} · "
                     f"{esc(who(lob.players, lob.names))}" for lob in page.lobbies), words.none)
    playing = []
    for g in page.running:
        line = f"#{g.game_id} · {esc(who(g.players, g.names))}"
        if g.awaiting:
            line += " · " + esc(words.awaiting.format(players=who(g.awaiting, g.names)))
        if g.token:
            line += f' · <a href="/g/{esc(g.token)}?lang={language}">{esc(words.page)}</a>'
        playing.append(line)
    board = "".join(
        f"<tr><td>{r.place}</td><td>{esc(_name(tr, r.player, names))}</td>"
        f"<td>{r.score:.1f}</td><td>{r.games}</td></tr>" for r in page.leaderboard[:50])
    leaders = (f"<table><thead><tr><th>#</th><th></th><th>{esc(words.rating)}</th>"
               f"<th>{esc(words.games)}</th></tr></thead><tbody>{board}</tbody></table>"
               if board else f"<p>{esc(words.none)}</p>")
    past = []
    for old in page.history:
        h = old.history
        scores = ", ".join(f"{esc(who([p], old.names))} {h.scores.get(p, 0)}"
                           for p in h.players)
        past.append(f"#{h.game_id} · {when(h.finished_at)} · {scores} · "
                    f"{esc(text.won_by(tr, who(h.winners, old.names)))}")
    body = (f"<header><h1>{esc(words.title)}</h1></header><main>"
            f"<section><h2>{esc(words.lobbies)}</h2>{lobbies}</section>"
            f"<section><h2>{esc(words.running)}</h2>{_list(playing, words.none)}</section>"
            f"<section><h2>{esc(words.leaderboard)}</h2>{leaders}</section>"
            f"<section><h2>{esc(words.history)}</h2>{_list(past, words.none)}</section></main>")
    return document(language, words.title, body, data={"lang": language}, script=True)
