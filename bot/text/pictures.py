"""What the pictures show, in words: the alt text Discord gives each attachment (read out by
screen readers, shown when images are off) and ``/sanmarco board``'s answer as text.

Made from the public view only (R15: a distributor's drawn cards and split are not in it),
the public events and the players' names, so a description can hold no secret. Alt text is
plain text — Discord renders no mention or markup there — so players are named by their
display names, and computer players by their label in the reader's language.

- ``board_alt``: the board picture of a post or a private answer (at most 1,024
  characters, Discord's limit on an attachment's description): the passage and round,
  what is happening, the Doge's district, who is awaited and for what, prestige and limit
  points per player, and who leads each district and by how much;
- ``board_words``: the same, longer (every district's counts, the bridges and their owners,
  the reserves, the revealed offers), for ``/sanmarco board as_text`` (within a message);
- ``summary_alt``, ``replay_alt``, ``game_file_alt``: the end-of-game picture, the replay
  and the game file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from bot.i18n import Tr
from engine import Event
from engine.board import DISTRICT_NAMES
from engine.views import PublicView
from render.summary import COLUMNS, Story, prestige_story
from render.words import and_list, card_name, hand_line, phase_line, roles, waiting_line

from .markup import LIST_LIMIT, cut, escape, fit_lines
from .names import aristocrats, local_names

# Discord's limit on an attachment's description (its alt text), in characters.
ALT_TEXT_LIMIT = 1024
# A long display name is cut in alt text so that four of them leave room for the board:
# tried whole first, then at these widths.
_NAME_WIDTHS = (None, 16, 8)

Shown = Mapping[str, str]  # pid -> how the description names that player


# ---------------------------------------------------------------------------- names
def _plain(tr: Tr, view: PublicView, names: Mapping[str, str], width: int | None,
           markup: bool = False) -> dict[str, str]:
    """Every seat's display name as plain words, one line each, ``width`` characters at
    most (a description names people by name: alt text renders no mention, and a mention
    takes 21 characters of a message to say a name). ``markup``: for a message, where
    Discord would read ``*`` or ``_`` in a name as formatting."""
    local = local_names(tr, {p: names.get(p, p) for p in view["players"]})
    out = {}
    for pid in view["players"]:
        name = " ".join(str(local.get(pid, pid)).split()) or pid
        name = name if width is None else cut(name, width)
        out[pid] = escape(name) if markup else name
    return out


def _fitted(make: Callable[[dict[str, str]], str], tr: Tr, view: PublicView,
            names: Mapping[str, str], limit: int, *, markup: bool = False,
            last: Callable[[str, int], str] = cut) -> str:
    """``make(shown)`` within ``limit`` characters: with whole names if it fits, else with
    shorter names, else ``last(said, limit)`` (a cut: the most important words come
    first)."""
    said = ""
    for width in _NAME_WIDTHS:
        said = make(_plain(tr, view, names, width, markup))
        if len(said) <= limit:
            return said
    return last(said, limit)


# ---------------------------------------------------------------------------- the board
def _heading(tr: Tr, view: PublicView) -> str:
    """Where the game stands, as the board's header says it (the same words)."""
    label = tr.gettext("Passage {passage}").format(passage=int(view.get("passage") or 1))
    rnd = int(view.get("round") or 0)
    if view.get("finished"):
        label = tr.gettext("Final standings")
    elif view.get("extra_round"):
        label += ", " + tr.gettext("extra round")
    elif rnd:
        label += ", " + tr.gettext("round {round}").format(round=rnd)
    else:
        label += ", " + tr.gettext("set-up")
    return tr.gettext("The San Marco board: {where}.").format(where=label)


def _doge(tr: Tr, view: PublicView) -> str:
    where = view.get("doge")
    return (tr.gettext("Doge in {district}").format(district=where) if where
            else tr.gettext("Doge not placed yet")) + "."


def _now(tr: Tr, view: PublicView, shown: Shown) -> str:
    """Who is awaited and for what, or who won."""
    if view.get("finished"):
        winners = [shown.get(p, p) for p in view.get("winners") or []]
        if not winners:
            return tr.gettext("Game over") + "."
        if len(winners) == 1:
            return tr.gettext("{player} wins!").format(player=winners[0])
        return tr.gettext("{players} share the win!").format(players=and_list(winners, tr))
    line = waiting_line(view, dict(shown), tr)
    return line + "." if line else ""


def _prestige(tr: Tr, pid: str, view: PublicView) -> str:
    n = view["prestige"].get(pid, 0)
    return tr.ngettext("{count} prestige point", "{count} prestige points", n).format(count=n)


def _limit(tr: Tr, pid: str, view: PublicView) -> str:
    n = view["limit"].get(pid, 0)
    return tr.ngettext("{count} limit point", "{count} limit points", n).format(count=n)


def _said(tr: Tr, name: str, what: str) -> str:
    """``name: what`` (French sets a space before the colon)."""
    # TRANSLATORS: a name (a player, a district) and what is said of it.
    return tr.gettext("{name}: {what}").format(name=name, what=what)


def _scores(tr: Tr, view: PublicView, shown: Shown) -> str:
    if view.get("finished"):  # limit points count only while a passage runs
        return tr.gettext("Prestige: {scores}.").format(scores=", ".join(
            f"{shown[p]} {view['prestige'].get(p, 0)}" for p in view["players"]))
    each = "; ".join(_said(tr, shown[p], f"{_prestige(tr, p, view)}, {_limit(tr, p, view)}")
                     for p in view["players"])
    return tr.gettext("Prestige and limit points this passage: {scores}.").format(scores=each)


def _districts(view: PublicView) -> list[tuple[str, dict[str, int]]]:
    """Each district's aristocrats per player, in board order and seat order (a view that
    went through JSON may hold its keys in another order)."""
    return [(d, {p: view["districts"][d].get(p, 0) for p in view["players"]})
            for d in DISTRICT_NAMES if d in view["districts"]]


def _lead(tr: Tr, counts: Mapping[str, int], shown: Shown) -> str:
    """Who leads a district and by how much (a tie: everyone tied; nobody: nobody);
    ``counts`` in seat order."""
    top = max(counts.values(), default=0)
    if top <= 0:
        return tr.gettext("nobody")
    leaders = [p for p, n in counts.items() if n == top]
    if len(leaders) > 1:
        return tr.gettext("{players} tied with {aristocrats}").format(
            players=and_list([shown[p] for p in leaders], tr), aristocrats=aristocrats(tr, top))
    second = max((n for p, n in counts.items() if p != leaders[0]), default=0)
    return tr.gettext("{player} leads by {margin} ({aristocrats})").format(
        player=shown[leaders[0]], margin=top - second, aristocrats=aristocrats(tr, top))


def _leads(tr: Tr, view: PublicView, shown: Shown) -> str:
    each = "; ".join(_said(tr, d, _lead(tr, counts, shown)) for d, counts in _districts(view))
    return tr.gettext("Who leads each district: {districts}.").format(districts=each)


def _board_alt(tr: Tr, view: PublicView, shown: Shown) -> str:
    parts = [_heading(tr, view)]
    if not view.get("finished"):
        parts.append(phase_line(view, tr) + ".")
    parts += [_doge(tr, view), _now(tr, view, shown), _scores(tr, view, shown)]
    hand = hand_line(view, tr)
    if hand:
        parts.append(hand + ".")
    parts.append(_leads(tr, view, shown))
    return " ".join(p for p in parts if p)


def board_alt(tr: Tr, view: PublicView, names: Mapping[str, str],
              limit: int = ALT_TEXT_LIMIT) -> str:
    """The board picture's alt text, at most ``limit`` characters (Discord's 1,024, or the
    room another sentence leaves): the public view in words, names shortened to fit."""
    return _fitted(lambda shown: _board_alt(tr, view, shown), tr, view, names, limit)


# ---------------------------------------------------------------------------- as text
def _counts(tr: Tr, counts: Mapping[str, int], shown: Shown) -> str:
    """A district's aristocrats per player, then who leads (the counts name the tied)."""
    present = [f"{shown[p]} {n}" for p, n in counts.items() if n > 0]
    if not present:
        return tr.gettext("no aristocrats")
    top = max(counts.values())
    leaders = [p for p, n in counts.items() if n == top]
    if len(leaders) > 1:
        lead = tr.gettext("a tie at {count}").format(count=top)
    else:
        second = max((n for p, n in counts.items() if p != leaders[0]), default=0)
        lead = tr.gettext("{player} leads by {margin}").format(player=shown[leaders[0]],
                                                               margin=top - second)
    return ", ".join(present) + " \u2014 " + lead


def _player_line(tr: Tr, view: PublicView, pid: str, shown: Shown,
                 role: str | None) -> str:
    name = f"{shown[pid]}, {role}" if role else shown[pid]
    reserve = tr.gettext("{aristocrats} in reserve").format(
        aristocrats=aristocrats(tr, view["reserve"].get(pid, 0)))
    return "• " + _said(tr, name, f"{_prestige(tr, pid, view)}, {_limit(tr, pid, view)}, "
                                  f"{reserve}")


def _bridges(tr: Tr, view: PublicView, shown: Shown) -> str:
    """The bridges by owner (each owner named once), and how many are left."""
    owned: dict[str, list[str]] = {}
    for b in view["bridges"]:
        owned.setdefault(b["owner"], []).append(f"{b['a']}\u2013{b['b']}")
    listed = "; ".join(_said(tr, shown.get(p, p), ", ".join(owned[p]))
                       for p in view["players"] if p in owned) or tr.gettext("none")
    return tr.gettext("Bridges: {bridges}.").format(bridges=listed) + " " + tr.gettext(
        "Bridges in the supply: {count}").format(count=view["bridges_in_supply"]) + "."


def _offers(tr: Tr, view: PublicView, shown: Shown) -> list[str]:
    """The revealed offers, as the board shows them (public once revealed, R5)."""
    lines = []
    for column in view["offers"]:
        each = []
        for offer in column["offers"]:
            cards = ", ".join(card_name(c, tr) for c in offer["cards"]) or tr.gettext("nothing")
            taker = offer["taken_by"]
            if taker is not None:
                cards += " (" + tr.gettext("taken by {player}").format(
                    player=shown.get(taker, taker)) + ")"
            each.append(f"{offer['index'] + 1}) {cards}")
        lines.append(tr.gettext("Offers from {player}: {offers}.").format(
            player=shown.get(column["distributor"], column["distributor"]),
            offers="; ".join(each)))
    return lines


def _board_words(tr: Tr, view: PublicView, shown: Shown) -> str:
    head = [_heading(tr, view)]
    if not view.get("finished"):
        head.append(phase_line(view, tr) + ".")
    head.append(_doge(tr, view))
    lines = ["**" + " ".join(head) + "**"]
    now = _now(tr, view, shown)
    if now:
        lines.append(now)
    hand = hand_line(view, tr)
    if hand:
        lines.append(hand + ".")
    role = roles(view, tr) if not view.get("finished") else {}
    lines.append(tr.gettext("Prestige and limit points this passage:"))
    lines += [_player_line(tr, view, p, shown, role.get(p)) for p in view["players"]]
    lines.append(tr.gettext("Districts (aristocrats in each):"))
    lines += ["• " + _said(tr, d, _counts(tr, counts, shown))
              for d, counts in _districts(view)]
    lines.append(_bridges(tr, view, shown))
    lines += _offers(tr, view, shown)
    return "\n".join(lines)


def board_words(tr: Tr, view: PublicView, names: Mapping[str, str],
                limit: int = LIST_LIMIT) -> str:
    """``/sanmarco board as_text``: the board in words for a message, longer than the alt
    text: every district's counts, the bridges, the reserves, the revealed offers — whole
    lines within ``limit`` characters (the offers are left out first)."""
    return _fitted(lambda shown: _board_words(tr, view, shown), tr, view, names, limit,
                   markup=True, last=lambda said, n: fit_lines(said.split("\n"), n))


# ---------------------------------------------------------------------------- game over
def _signed(n: int) -> str:
    return f"\u2212{-n}" if n < 0 else str(n)


def _standings(tr: Tr, view: PublicView, shown: Shown) -> str:
    winners = set(view.get("winners") or [])
    rows = []
    for row in view["standings"]:
        pid = row["player"]
        tail = (tr.gettext("winner") if pid in winners
                else tr.gettext("{count} in San Marco").format(count=row["san_marco"]))
        prestige = tr.ngettext("{count} prestige point", "{count} prestige points",
                               row["prestige"]).format(count=_signed(row["prestige"]))
        rows.append(f"{row['rank']}. " + _said(tr, shown.get(pid, pid), f"{prestige}, {tail}"))
    return tr.gettext("Final standings") + ": " + "; ".join(rows) + "."


def _summary_alt(tr: Tr, view: PublicView, story: Story, shown: Shown) -> str:
    sources = []
    for pid in view["players"]:
        src = story.sources.get(pid)
        if src is None:
            continue
        parts = ", ".join(f"{tr.gettext(heading)} {_signed(int(getattr(src, attr)))}"
                          for heading, attr in COLUMNS)
        sources.append(_said(tr, shown[pid], parts))
    return " ".join([
        tr.gettext("The end of the game in a picture."), _standings(tr, view, shown),
        tr.gettext("A chart of everyone's prestige after every round, passage by passage."),
        tr.gettext("Where the prestige points came from: {sources}.").format(
            sources="; ".join(sources))])


def summary_alt(tr: Tr, view: PublicView, events: Iterable[Event],
                names: Mapping[str, str]) -> str:
    """The end-of-game picture's alt text (at most 1,024 characters): the final standings,
    the chart, and where each player's prestige came from (the picture's numbers:
    ``render.summary.prestige_story`` over the same public events)."""
    story = prestige_story(view["players"], [e.to_dict() for e in events])
    return _fitted(lambda shown: _summary_alt(tr, view, story, shown), tr, view, names,
                   ALT_TEXT_LIMIT)


def replay_alt(tr: Tr, game_id: int, steps: int, view: PublicView,
               names: Mapping[str, str]) -> str:
    """The replay GIF's alt text: what it animates, and how the game ended (``view``:
    the finished game's public view)."""
    def make(shown: Shown) -> str:
        return " ".join([
            tr.ngettext("An animated replay of game {number}: the board after each of its "
                        "{count} step, from the set-up to the end, with a bar along the "
                        "bottom showing how far it has come.",
                        "An animated replay of game {number}: the board after each of its "
                        "{count} steps, from the set-up to the end, with a bar along the "
                        "bottom showing how far it has come.", steps).format(
                number=game_id, count=steps),
            _standings(tr, view, shown)])

    return _fitted(make, tr, view, names, ALT_TEXT_LIMIT)


def game_file_alt(tr: Tr, game_id: int) -> str:
    """The game file's description (an attachment's, as the pictures' alt text)."""
    return cut(tr.gettext("The game file of game {number} (JSON): its seed, players, moves "
                          "and public events, to check with python -m engine.replay.").format(
        number=game_id), ALT_TEXT_LIMIT)


__all__ = ["ALT_TEXT_LIMIT", "board_alt", "board_words", "game_file_alt",
           "replay_alt", "summary_alt"]
