"""My games: every running game of the signed-in player (``signin``), in every server and
channel, those awaiting them first (then the longest awaited first), each with where it is
played as the bot knows it, whose turn it is, and the link to its seat page. A reader not
signed in gets the page with the "Sign in with Discord" button. Finished and abandoned
games are not listed, nor a learner's practice games (they have no page: the practice
thread is where they are played). The page lists a bounded number (the service's
``MAX_SIGNED_IN_GAMES``), the games awaiting the reader always among them, and says how
many more there are.

==============  ==============================================================
route           answers
==============  ==============================================================
``GET /me``     the signed-in player's running games (``?lang=en|de|fr``)
==============  ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot import i18n, text
from bot.i18n import Tr
from bot.links import csrf_token
from bot.service import PlayerGame
from bot.store import player_of

from . import html, signin
from .guard import language
from .keys import OPTIONS, SERVICE, PlaceNames


def add_routes(app: web.Application) -> None:
    app.router.add_get("/me", my_games, name="me")


@dataclass(frozen=True)
class GameLine:
    """One game as My games shows it."""

    title: str
    where: str | None
    turn: str
    since: html.Moment | None
    mine: bool
    link: str | None


def line(tr: Tr, lang: str, played: PlayerGame, user: str, names: PlaceNames | None
         ) -> GameLine:
    """A game's line: its number, its server and channel, whom it awaits (the reader in
    words of their own), since when, its seat page's address."""
    words = text.sign_in_words(tr)
    g = played.game
    where = None
    if names is not None:
        server, channel = names(g.channel_id, played.guild_id)
        if server or channel:
            where = f"{server or '…'} · {channel or '…'}"  # names, in no language
    if played.awaits_me:
        kind = next(k for p, k in g.awaiting.items() if player_of(g.names, p) == user)
        turn = f"{words.yours}: {text.awaited_words(tr, kind)}"
    else:
        turn = words.waits_for.format(awaited="; ".join(
            f"{text.name_of(tr, p, g.names)}: {text.awaited_words(tr, k)}"
            for p, k in g.awaiting.items()))
    link = None if played.token is None else f"/g/{played.token}/seat?lang={lang}"
    return GameLine(words.game.format(number=g.game_id), where, turn, html.moment(g.since),
                    played.awaits_me, link)


async def my_games(request: web.Request) -> web.Response:
    opts = request.app[OPTIONS]
    if not opts.sign_in:
        return signin.page(request, 404, "off")
    me = await signin.current_user(request)
    if me is None or opts.secret is None:
        return signin.page(request, 200, None)
    lang = language(request)
    tr = i18n.translations(lang)
    words = text.sign_in_words(tr)
    found = await request.app[SERVICE].page_my_games(me.user)
    lines = [line(tr, lang, g, me.user, opts.place_names) for g in found.games]
    more = text.my_games_more(tr, found.more) if found.more > 0 else None
    body = html.render("signin.html", lang, words.title, words=words, heading=words.title,
                       sentence=None, button=None, here="/me",
                       languages=html.LANGUAGE_NAMES.items(),
                       who=words.signed_in_as.format(name=me.name),
                       csrf=csrf_token(opts.secret, me.session), games=lines, more=more)
    return web.Response(text=body, content_type="text/html", headers={
        "Cache-Control": "no-store, private", "Content-Language": lang})
