"""The side panel: passage and round, whose decision is awaited, and the players' tablet
(prestige, reserve, limit points, role), or the final standings once the game is over."""

from __future__ import annotations

from engine.board import LIMIT_OUT
from engine.views import PublicView

from . import layout as L
from . import offers, words
from . import palette as C
from .canvas import Canvas
from .draw import doge_token, token
from .fonts import Font, fit, fit_size, font
from .palette import RGB
from .words import ENGLISH, Tr

X0, X1 = L.MAP_RIGHT + 22, L.WIDTH - 22
TOP_ROWS = 226          # first player row
BOTTOM = 912            # rows end here; the footer is below
MAX_ROW = 170


def _num(n: int) -> str:
    """A signed count with a real minus sign (negative prestige must not look like a dash)."""
    return f"\u2212{-n}" if n < 0 else str(n)


def draw_panel(cv: Canvas, view: PublicView, names: dict[str, str] | None,
               caption: str | None, tr: Tr = ENGLISH) -> None:
    """Header, status and the players (or the standings when the game is over), in the
    language of ``tr``."""
    _header(cv, view, tr)
    _status(cv, view, names, caption, tr)
    if view.get("finished"):
        _standings(cv, view, names, tr)
    else:
        top = TOP_ROWS + offers.height(view, X1 - X0, tr)
        offers.draw_offers(cv, view, names, X0, TOP_ROWS, X1, tr)
        _players(cv, view, names, top, tr)
    _footer(cv, view, tr)


def _header(cv: Canvas, view: PublicView, tr: Tr) -> None:
    cv.text((X0, 18), "SAN MARCO", font("serif", 40), C.GOLD, C.PANEL_BG)
    # the sundial: three discs, the current passage lit
    passage = int(view.get("passage") or 1)
    x = X1 - 3 * 50 + 6
    for k in (1, 2, 3):
        fill = C.GOLD if k == passage else (C.CHIP if k > passage else C.PANEL_MUTED)
        cv.ellipse((x, 16, x + 44, 60), fill, C.BLACK, 2)
        cv.text((x + 22, 39), str(k), font("bold", 26), C.INK if k == passage else C.PANEL_TEXT,
                fill, anchor="mm")
        x += 50
    rnd = int(view.get("round") or 0)
    label = tr.gettext("Passage {passage}").format(passage=passage)
    if view.get("finished"):
        label = tr.gettext("Final standings")
    elif view.get("extra_round"):
        label += "  \u00b7  " + tr.gettext("extra round")
    elif rnd:
        label += "  \u00b7  " + tr.gettext("round {round}").format(round=rnd)
    else:
        label += "  \u00b7  " + tr.gettext("set-up")
    face, label = fit_size(label, "bold", 28, X1 - X0, 20)
    cv.text((X0, 76), label, face, C.PANEL_TEXT, C.PANEL_BG)


def _status(cv: Canvas, view: PublicView, names: dict[str, str] | None,
            caption: str | None, tr: Tr) -> None:
    """Two lines: what just happened (or the phase), then whose decision is awaited."""
    width = X1 - X0
    first = caption or words.phase_line(view, tr)
    face, first = fit_size(first, "sans", 26, width, 20)
    cv.text((X0, 118), first, face, C.PANEL_MUTED, C.PANEL_BG)
    if view.get("finished"):
        second = _winners_line(view, names, tr)
    else:
        # Several awaited players share the two lines, so each name gets a part of them;
        # one awaited player's name may use the whole line ("Computer 2 (normal)", not
        # "Computer…": the number is what tells the computers apart).
        face = font("bold", 27)
        room = 190 if len(view.get("waiting_for") or ()) > 1 else width
        short = {p: fit(words.display(p, names), face, room) for p in view["players"]}
        second = words.waiting_line(view, short, tr) or words.hand_line(view, tr)
    face, lines = wrap_size(second, "bold", 27, width, 2, 22)
    for k, line in enumerate(lines):
        cv.text((X0, 152 + 33 * k), line, face, C.GOLD, C.PANEL_BG)


def wrap_size(text: str, kind: str, size: int, width: float, lines: int, smallest: int
              ) -> tuple[Font, list[str]]:
    """``wrap`` in the largest face from ``size`` down to ``smallest`` that holds the whole
    text in ``lines`` lines (else the smallest, its last line cut)."""
    whole = " ".join(text.split())
    for s in range(size, smallest - 1, -1):
        out = wrap(text, font(kind, s), width, lines)
        if " ".join(out) == whole:
            return font(kind, s), out
    return font(kind, smallest), wrap(text, font(kind, smallest), width, lines)


def wrap(text: str, face: Font, width: float, lines: int) -> list[str]:
    """Greedy word wrap into at most ``lines`` lines, the last cut with an ellipsis."""
    out: list[str] = []
    rest = text.split()
    while rest and len(out) < lines - 1:
        line = rest.pop(0)
        while rest and face.getlength(line + " " + rest[0]) <= width:
            line += " " + rest.pop(0)
        out.append(fit(line, face, width))
    if rest:
        out.append(fit(" ".join(rest), face, width))
    return out


def _winners_line(view: PublicView, names: dict[str, str] | None, tr: Tr) -> str:
    winners = [words.display(p, names) for p in view.get("winners") or []]
    if not winners:
        return tr.gettext("Game over")
    if len(winners) == 1:
        return tr.gettext("{player} wins!").format(player=winners[0])
    return tr.gettext("{players} share the win!").format(players=words.and_list(winners, tr))


def _row_height(n: int, top: float = TOP_ROWS) -> float:
    return min(MAX_ROW, (BOTTOM - top) / max(1, n))


FULL_ROW = 160  # below this a row puts the role beside the stats (offers take the room)
COMPACT_CHIP = 17


def _players(cv: Canvas, view: PublicView, names: dict[str, str] | None,
             top: float = TOP_ROWS, tr: Tr = ENGLISH) -> None:
    players = view["players"]
    roles = words.roles(view, tr)
    waiting = set(view.get("waiting_for") or [])
    in_passage = set(view.get("in_passage") or players)
    setup = (view.get("round") or 0) == 0
    h = _row_height(len(players), top)
    compact = h < FULL_ROW
    for i, pid in enumerate(players):
        y = top + i * h
        active = pid in waiting
        bg = C.PANEL_ROW_ACTIVE if active else C.PANEL_ROW
        cv.rect((X0, y, X1, y + h - 12), bg, C.GOLD if active else None, 3, radius=14)
        prestige = view["prestige"].get(pid, 0)
        starts = pid == view.get("starter") and not setup
        # A compact row has no room for "role · starter" beside the stats (a longer word
        # would be cut): there the starter's chip follows the name instead.
        tag = tr.gettext("Starter") if compact and starts else None
        _identity(cv, view, pid, i, X0 + 14, y + (8 if compact else 14), bg, names, active,
                  tag, X1 - 18 - _prestige_width(prestige) - 14)
        _prestige(cv, prestige, X1 - 18, y + (6 if compact else 12), bg)
        line = y + (h - 12) - 40 if compact else y + 72
        stats = ((tr.gettext("Reserve"), str(view["reserve"].get(pid, 0))),
                 (tr.gettext("Limit"), str(view["limit"].get(pid, 0))))
        if setup:
            role = tr.gettext("Set-up")
        elif pid not in in_passage:
            role = tr.gettext("Out of this passage")
        else:
            role = roles.get(pid, "")
        if starts and not compact:
            role = ((role + "  \u00b7  " + tr.gettext("starter")) if role
                    else tr.gettext("Starter"))
        if not compact:
            x = _stat(cv, X0 + 82, line, *stats[0], bg, FULL_STATS)
            x = _stat(cv, x + 22, line, *stats[1], bg, FULL_STATS)
            _limit_bar(cv, x + 12, line + 8, int(stats[1][1]), bg, X1 - 14 - (x + 12))
            if role:
                face, text = fit_size(role, "bold", 22, X1 - 14 - (X0 + 82) - 24, 17)
                _chip(cv, X0 + 82, y + h - 56, text, pid not in in_passage, 22, face)
            continue
        # compact: the role right-aligned on the stats line; a longer word makes the stats
        # and then the role smaller before anything is cut
        for sizes in COMPACT_STATS:
            room = X1 - 14 - (X0 + 16 + _stats_width(stats, sizes) + 12) - 24
            face, text = fit_size(role, "bold", COMPACT_CHIP, room, 14)
            if text == role:
                break
        else:
            face, text = fit_size(role, "bold", COMPACT_CHIP, room, 13)
        x = _stat(cv, X0 + 16, line, *stats[0], bg, sizes)
        _stat(cv, x + 14, line, *stats[1], bg, sizes)
        if role:
            _chip(cv, X1 - 14 - face.getlength(text) - 24, line, text, pid not in in_passage,
                  COMPACT_CHIP, face)


def _identity(cv: Canvas, view: PublicView, pid: str, seat: int, x: float, y: float, bg: RGB,
              names: dict[str, str] | None, active: bool, tag: str | None = None,
              right: float = X1) -> None:
    """The seat's mark and the player's name; ``tag`` (the starter, in a compact row) as a
    small chip after the name, both within ``right``."""
    colour = C.player_colour(seat)
    token(cv, x + 27, y + 27, 50, seat, colour, C.WHITE, bg)
    name = words.display(pid, names)
    label = ("\u25b6 " if active else "") + name
    room = min(300.0, right - (x + 68))
    if tag is None:
        face, label = font("bold", 32), fit(label, font("bold", 32), room)
    else:  # the name and the tag a little smaller rather than either cut
        for size in range(COMPACT_CHIP, 12, -1):
            tag_face = font("bold", size)
            face, shown = fit_size(label, "bold", 32, room - tag_face.getlength(tag) - 36, 24)
            if shown == label:
                break
        label = shown
    cv.text((x + 68, y + 4), label, face, C.GOLD if active else C.PANEL_TEXT, bg)
    if tag is not None:
        _chip(cv, x + 68 + face.getlength(label) + 12, y + 6, tag, False, COMPACT_CHIP,
              tag_face)


def _prestige_width(value: int) -> float:
    """How far the prestige (star and number) reaches left of its right edge."""
    return (font("bold", 46).getlength(_num(value)) + 6
            + font("bold", 34).getlength("\u2605"))


def _prestige(cv: Canvas, value: int, right: float, y: float, bg: RGB) -> None:
    """Prestige, the score: the biggest number in the row, red-tinted when negative."""
    colour = C.NEGATIVE if value < 0 else C.GOLD
    big = font("bold", 46)
    text = _num(value)
    cv.text((right, y - 2), text, big, colour, bg, anchor="ra")
    cv.text((right - big.getlength(text) - 6, y + 4), "\u2605", font("bold", 34), colour, bg,
            anchor="ra")


FULL_STATS = (24, 28)  # a stat's label and value sizes in a full row
COMPACT_STATS = ((21, 25), (19, 23), (17, 21))  # in a compact row, largest first


def _stats_width(stats: tuple[tuple[str, str], ...], sizes: tuple[int, int]) -> float:
    small, big = font("sans", sizes[0]), font("bold", sizes[1])
    return sum(small.getlength(label) + 8 + big.getlength(value)
               for label, value in stats) + 14 * (len(stats) - 1)


def _stat(cv: Canvas, x: float, y: float, label: str, value: str, bg: RGB,
          sizes: tuple[int, int] = FULL_STATS) -> float:
    small, big = font("sans", sizes[0]), font("bold", sizes[1])
    cv.text((x, y + 3), label, small, C.PANEL_MUTED, bg)
    x += small.getlength(label) + 8
    cv.text((x, y), value, big, C.PANEL_TEXT, bg)
    return x + big.getlength(value)


def _limit_bar(cv: Canvas, x: float, y: float, limit: int, bg: RGB,
               room: float = 13 * LIMIT_OUT) -> None:
    """One tick per limit point towards LIMIT_OUT (10), the mark that takes a player out of
    the passage (§7); narrower ticks when longer words before it leave less ``room``."""
    pitch = max(4.0, min(13.0, (room + 4) / LIMIT_OUT))
    tick = max(2.0, pitch - 4)
    for k in range(LIMIT_OUT):
        fill = (C.NEGATIVE if limit >= LIMIT_OUT else C.GOLD) if k < limit else C.CHIP
        cv.rect((x + k * pitch, y, x + k * pitch + tick, y + 20), fill)


def _chip(cv: Canvas, x: float, y: float, text: str, dim: bool, size: int = 22,
          face: Font | None = None) -> None:
    """A rounded label ``size`` + 14 pixels high; ``face`` (default: bold ``size``) may be
    smaller, for a longer word."""
    face = face or font("bold", size)
    w, h = face.getlength(text) + 24, size + 14
    cv.rect((x, y, x + w, y + h), C.CHIP, radius=10)
    cv.text((x + 12, y + h / 2), text, face, C.PANEL_MUTED if dim else C.PANEL_TEXT, C.CHIP,
            anchor="lm")


def _standings(cv: Canvas, view: PublicView, names: dict[str, str] | None, tr: Tr) -> None:
    winners = set(view.get("winners") or [])
    seat = {p: i for i, p in enumerate(view["players"])}
    h = _row_height(len(view["players"]))
    for i, row in enumerate(view["standings"]):
        rank, pid = row["rank"], row["player"]
        y = TOP_ROWS + i * h
        won = pid in winners
        bg = C.PANEL_ROW_ACTIVE if won else C.PANEL_ROW
        cv.rect((X0, y, X1, y + h - 12), bg, C.GOLD if won else None, 3, radius=14)
        cv.text((X0 + 16, y + 14), f"{rank}.", font("bold", 40),
                C.GOLD if won else C.PANEL_TEXT, bg)
        k = seat[pid]
        token(cv, X0 + 98, y + 40, 50, k, C.player_colour(k), C.WHITE, bg)
        face = font("bold", 32)
        label = words.display(pid, names)
        cv.text((X0 + 136, y + 18), fit(label, face, 220), face,
                C.GOLD if won else C.PANEL_TEXT, bg)
        owned = sum(1 for b in view.get("bridges") or [] if b["owner"] == pid)
        placed = sum(view["districts"][d].get(pid, 0) for d in view["districts"])
        detail = " \u00b7 ".join((
            tr.gettext("San Marco {count}").format(count=row["san_marco"]),
            tr.ngettext("{count} bridge", "{count} bridges", owned).format(count=owned),
            tr.gettext("{count} in Venice").format(count=placed)))
        face, detail = fit_size(detail, "sans", 24, X1 - X0 - 32, 18)
        cv.text((X0 + 16, y + 82), detail, face, C.PANEL_MUTED, bg)
        _prestige(cv, row["prestige"], X1 - 18, y + 12, bg)


def _footer(cv: Canvas, view: PublicView, tr: Tr) -> None:
    """Where the Doge stands (or that it is not placed yet) and the bridge supply."""
    y = BOTTOM + 44
    where = view.get("doge")
    doge_token(cv, X0 + 28, y, 28, C.PANEL_BG)
    text = (tr.gettext("Doge in {district}").format(district=where) if where
            else tr.gettext("Doge not placed yet"))
    face, text = fit_size(text, "bold", 27, X1 - X0 - 70, 21)
    cv.text((X0 + 70, y - 16), text, face, C.PANEL_TEXT, C.PANEL_BG, anchor="lm")
    supply = view.get("bridges_in_supply")
    if supply is not None:
        face, text = fit_size(tr.gettext("Bridges in the supply: {count}").format(
            count=supply), "sans", 23, X1 - X0 - 70, 18)
        cv.text((X0 + 70, y + 18), text, face, C.PANEL_MUTED, C.PANEL_BG, anchor="lm")
