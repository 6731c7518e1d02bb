"""A game's web page in words: the board's facts as a screen reader reads them (the same
sentences as the picture's alt text, one fact a line), the page's headings and labels, and
what the game file's check found. Public facts only (the public view, public events,
names), like every picture's words (R15), except ``seat_words``' page, which a signed link
opens for one player only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import Tr
from engine.replay import Verdict
from engine.views import PublicView
from render.words import hand_line, phase_line

from .pictures import (
    _districts,
    _doge,
    _heading,
    _lead,
    _limit,
    _now,
    _plain,
    _prestige,
    _said,
    _standings,
)


@dataclass(frozen=True)
class BoardFacts:
    """The board as separate sentences: the heading (passage, round), what is happening,
    the Doge, who is awaited (or who won), each player's prestige and limit points, each
    district's leader and by how much; ``standings`` once the game is over."""

    heading: str
    phase: str
    doge: str
    now: str
    players: tuple[tuple[str, str], ...]  # (name, prestige and limit points)
    districts: tuple[tuple[str, str], ...]  # (district, who leads it and by how much)
    hand: str = ""
    standings: str = ""


def board_facts(tr: Tr, view: PublicView, names: Mapping[str, str]) -> BoardFacts:
    """The board's facts for the page (names whole: a page has room)."""
    shown = _plain(tr, view, names, None)
    finished = bool(view.get("finished"))
    players = tuple(
        (shown[p], _prestige(tr, p, view) if finished
         else f"{_prestige(tr, p, view)}, {_limit(tr, p, view)}") for p in view["players"])
    districts = tuple((d, _lead(tr, counts, shown)) for d, counts in _districts(view))
    return BoardFacts(_heading(tr, view), "" if finished else phase_line(view, tr) + ".",
                      _doge(tr, view), _now(tr, view, shown), players, districts,
                      (hand_line(view, tr) or "") and hand_line(view, tr) + ".",
                      _standings(tr, view, shown) if finished else "")


def name_said(tr: Tr, name: str, what: str) -> str:
    """``name: what`` in the reader's language (French sets a space before the colon)."""
    return _said(tr, name, what)


@dataclass(frozen=True)
class PageWords:
    """The page's headings and labels in one language (the page's script reads the few
    it needs while it runs from ``script``)."""

    title: str
    board: str
    facts: str
    players: str
    districts: str
    log: str
    replay: str
    step: str  # with {step} and {count}, filled by the page's script
    game_file: str
    download: str
    check: str
    check_other: str
    file_later: str
    live: str
    offline: str
    language: str
    lobby: str
    abandoned: str
    since: str
    deadline: str
    summary: str
    nothing_yet: str


def page_words(tr: Tr, number: int) -> PageWords:
    """The game page's words for game ``number`` (the number the thread is named after)."""
    return PageWords(
        title=tr.gettext("San Marco, game {number}").format(number=number),
        board=tr.gettext("The board"),
        facts=tr.gettext("The board in words"),
        players=tr.gettext("Prestige and limit points"),
        districts=tr.gettext("Who leads each district"),
        log=tr.gettext("The log"),
        replay=tr.gettext("Replay"),
        # TRANSLATORS: {step} and {count} stay as they are: the page fills them in.
        step=tr.gettext("Step {step} of {count}"),
        game_file=tr.gettext("The game file"),
        download=tr.gettext("Download the game file (JSON)"),
        check=tr.gettext("Check it here: replay it from its seed"),
        check_other=tr.gettext("Or check a game file of your own:"),
        file_later=tr.gettext("The game file comes when the game is over: until then its "
                              "seed is secret."),
        live=tr.gettext("Live: this page follows the game as it is played."),
        offline=tr.gettext("Connection lost; trying again…"),
        language=tr.gettext("Language"),
        lobby=tr.gettext("The lobby is open: the game has not started yet."),
        abandoned=tr.gettext("This game was abandoned."),
        since=tr.gettext("Waiting since"),
        deadline=tr.gettext("The turn timer runs out"),
        summary=tr.gettext("How the game ended"),
        nothing_yet=tr.gettext("Nothing has happened yet."),
    )


@dataclass(frozen=True)
class ServerWords:
    """The words of a server's page."""

    title: str
    lobbies: str
    running: str
    leaderboard: str
    history: str
    none: str
    awaiting: str  # with {players}
    page: str
    rating: str
    games: str


def server_words(tr: Tr) -> ServerWords:
    return ServerWords(
        title=tr.gettext("San Marco on this server"),
        lobbies=tr.gettext("Open lobbies"),
        running=tr.gettext("Games being played"),
        leaderboard=tr.gettext("Leaderboard"),
        history=tr.gettext("Recent games"),
        none=tr.gettext("None at the moment."),
        awaiting=tr.gettext("waiting for {players}"),
        page=tr.gettext("Game page"),
        rating=tr.gettext("Skill rating"),
        games=tr.gettext("Games"))


def server_page_set(tr: Tr, shown: bool, url: str | None) -> str:
    """The answer to turning the server's page on or off (``url``: its address, when the
    bot knows where its pages are served)."""
    if not shown:
        return tr.gettext("This server's page is off.")
    if url is None:
        return tr.gettext("This server's page is on; it gets an address when the bot's pages "
                          "are served (SANMARCO_PUBLIC_URL).")
    return tr.gettext("This server's page is on: {url}").format(url=url)


def seats_free(tr: Tr, count: int) -> str:
    return tr.ngettext("{count} seat free", "{count} seats free", count).format(count=count)


def won_by(tr: Tr, winners: str) -> str:
    return tr.gettext("won by {winners}").format(winners=winners)


def bad_link(tr: Tr) -> tuple[str, str]:
    """The heading and sentence of the page for a hand link that is altered or expired."""
    return (tr.gettext("This link does not work"),
            tr.gettext("This link is not valid or has expired. /sanmarco hand gives you a "
                       "new one."))


def store_away(tr: Tr) -> tuple[str, str]:
    """The heading and sentence of the page when the games' store did not answer."""
    return (tr.gettext("The games cannot be read just now"),
            tr.gettext("The bot's store of games did not answer. Try again in a moment."))


def not_found(tr: Tr) -> tuple[str, str]:
    """The heading and sentence of the page for an address that names nothing."""
    return (tr.gettext("Page not found"),
            tr.gettext("No game has this address. Ask in the game's channel for its link."))


def refused(tr: Tr, status: int) -> tuple[str, str]:
    """The heading and sentence of a page answering HTTP error ``status`` (a request the
    pages cannot answer: malformed, too large, too many, too busy, or a fault of ours)."""
    if status == 404:
        return not_found(tr)
    if status == 429:
        return (tr.gettext("Too many requests"),
                tr.gettext("This page was asked for too often from your address. Wait a "
                           "moment, then load it again."))
    if status == 503:
        return (tr.gettext("Busy just now"),
                tr.gettext("The game pages are busy. Try again in a moment."))
    if status == 413:
        return (tr.gettext("Too large"),
                tr.gettext("What was sent is larger than the game pages accept."))
    if status >= 500:
        return (tr.gettext("Something went wrong"),
                tr.gettext("This page could not be made. Try again later."))
    return (tr.gettext("Bad request"),
            tr.gettext("The game pages do not understand this address or what was sent."))


def game_over_page(tr: Tr) -> str:
    """What a finished game's page says where a running one says it is live."""
    return tr.gettext("This game is over: the page no longer changes.")


def verdict_text(tr: Tr, verdict: Verdict) -> str:
    """What the game file's check found (``python -m engine.replay``'s report, in words)."""
    if not verdict.ok:
        return tr.gettext("Rejected: {problem}").format(problem=verdict.problem or "")
    return tr.gettext(
        "Checked: {actions} actions re-played from the seed; all {events} posted events "
        "match: {rolls} die rolls, {deals} deals, {scores} scores.").format(
        actions=verdict.actions, events=verdict.events, rolls=verdict.rolls,
        deals=verdict.deals, scores=verdict.scores)


@dataclass(frozen=True)
class SeatWords:
    """The words of a seat's own page (opened by a signed link): its decision, the split
    builder (its script reads ``offer``, ``limit``, ``sending`` while it runs)."""

    title: str
    mine_title: str  # the page's title (its tab) while the game awaits the seat
    only_you: str
    decision: str
    yours: str  # said aloud (aria-live) when the decision becomes the seat's
    drawn: str
    offer: str  # with {number}
    limit: str  # with {limit}
    loose: str
    empty: str
    commit: str
    reset: str
    split: str
    sending: str
    enlarge: str
    back: str


def seat_words(tr: Tr, number: int) -> SeatWords:
    return SeatWords(
        title=tr.gettext("Your seat, game {number}").format(number=number),
        # TRANSLATORS: a browser tab's title: short, the news first.
        mine_title=tr.gettext("Your decision! Game {number}").format(number=number),
        only_you=tr.gettext("Only you see this page: do not share its address."),
        decision=tr.gettext("Your decision"),
        yours=tr.gettext("It is your decision now."),
        drawn=tr.gettext("Your drawn cards: tap a card, then the offer it goes into (with a "
                         "mouse, you can also drag it there)."),
        # TRANSLATORS: {number} and {limit} stay as they are: the page fills them in.
        offer=tr.gettext("Offer {number}"),
        limit=tr.gettext("limit {limit}"),
        loose=tr.gettext("Not yet in an offer"),
        empty=tr.gettext("No card yet"),
        commit=tr.gettext("Commit offers"),
        reset=tr.gettext("Reset"),
        split=tr.gettext("Your offers, hidden from the others until they are revealed:"),
        sending=tr.gettext("Sending…"),
        enlarge=tr.gettext("Tap the board to see it full size."),
        back=tr.gettext("The game's page"))


def seat_waiting(tr: Tr) -> str:
    """A seat's decision when the game does not await it."""
    return tr.gettext("It is not your decision now: the board in words says whom the game "
                      "waits for.")


def seat_split(tr: Tr) -> str:
    return tr.gettext("Split your drawn cards into offers, then commit them.")


def seat_refused(tr: Tr, why: str) -> str:
    """Why a seat's page refused a request that changed nothing: ``session`` (no session,
    or an expired or forged one), ``csrf`` (a missing or wrong security token), ``seat``
    (a session of another seat or game), ``action`` (a move the page cannot read)."""
    if why == "csrf":
        return tr.gettext("This page's security check failed: nothing was done. Reload the "
                          "page and try again.")
    if why == "seat":
        return tr.gettext("This page belongs to another seat or another game: nothing was "
                          "done.")
    if why == "action":
        return tr.gettext("That move could not be read: nothing was done.")
    return tr.gettext("Your session has ended: nothing was done. /sanmarco hand gives you "
                      "a new link.")


# ---------------------------------------------------------------------------- signed in
@dataclass(frozen=True)
class SignInWords:
    """The words of "Sign in with Discord" and of a signed-in player's My games page."""

    title: str
    sign_in: str
    why: str  # beside the button: what signing in gives and what the bot learns
    signed_in_as: str  # with {name}
    sign_out: str
    none: str
    yours: str  # a game awaiting the reader
    waits_for: str  # with {awaited}
    since: str  # with {time}
    open_seat: str
    no_page: str
    game: str  # with {number}
    language: str  # the language links' label


def sign_in_words(tr: Tr) -> SignInWords:
    _ = tr.gettext
    return SignInWords(
        title=_("My games"),
        sign_in=_("Sign in with Discord"),
        why=_("Sign in to see every running game you play, in every server, and to open "
              "your seat's page without a link. The bot learns only your Discord id and "
              "name."),
        # TRANSLATORS: {name} stays as it is: the page fills it in.
        signed_in_as=_("Signed in as {name}"),
        sign_out=_("Sign out"),
        none=_("You have no running game now."),
        yours=_("Your decision"),
        waits_for=_("Waits for {awaited}"),
        since=_("since {time}"),
        open_seat=_("Open your seat"),
        no_page=_("This channel's games have no page: play it in Discord."),
        game=_("Game {number}"),
        language=_("Language"))


def my_games_more(tr: Tr, count: int) -> str:
    """Below My games when the player plays more running games than the page lists."""
    return tr.ngettext(
        "{count} more running game is not listed here: the games awaiting you are listed "
        "first.",
        "{count} more running games are not listed here: the games awaiting you are listed "
        "first.", count).format(count=count)


def sign_in_refused(tr: Tr, why: str) -> tuple[str, str]:
    """The heading and sentence of a sign-in that did not happen: ``off`` (not set up on
    this bot), ``state`` (the sign-in's state is missing, altered or expired), ``denied``
    (the reader said no on Discord's page), ``discord`` (Discord failed or refused the
    code), ``csrf`` (a sign-out without this page's security token)."""
    _ = tr.gettext
    if why == "off":
        return (_("Sign-in is not set up"),
                _("This bot's pages have no sign-in with Discord. Your seat's link "
                  "(/sanmarco hand) still opens your seat."))
    if why == "csrf":
        return (_("Nothing was done"),
                _("This page's security check failed: nothing was done. Reload the page "
                  "and try again."))
    heading = _("You are not signed in")
    if why == "denied":
        return heading, _("Discord did not sign you in: nothing was changed. You can try "
                          "again.")
    if why == "discord":
        return heading, _("Discord did not answer the sign-in as it should: nothing was "
                          "changed. Try again in a moment.")
    return heading, _("This sign-in is too old or did not start here: nothing was changed. "
                      "Sign in again from this page.")
