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
from .fonts import Font, fit, font
from .palette import RGB

X0, X1 = L.MAP_RIGHT + 22, L.WIDTH - 22
TOP_ROWS = 226          # first player row
BOTTOM = 912            # rows end here; the footer is below
MAX_ROW = 170


def _num(n: int) -> str:
    """A signed count with a real minus sign (negative prestige must not look like a dash)."""
    return f"\u2212{-n}" if n < 0 else str(n)


def draw_panel(cv: Canvas, view: PublicView, names: dict[str, str] | None,
               caption: str | None) -> None:
    """Header, status and the players (or the standings when the game is over)."""
    _header(cv, view)
    _status(cv, view, names, caption)
    if view.get("finished"):
        _standings(cv, view, names)
    else:
        top = TOP_ROWS + offers.height(view, X1 - X0)
        offers.draw_offers(cv, view, names, X0, TOP_ROWS, X1)
        _players(cv, view, names, top)
    _footer(cv, view)


def _header(cv: Canvas, view: PublicView) -> None:
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
    label = f"Passage {passage}"
    if view.get("finished"):
        label = "Final standings"
    elif view.get("extra_round"):
        label += "  \u00b7  extra round"
    elif rnd:
        label += f"  \u00b7  round {rnd}"
    else:
        label += "  \u00b7  set-up"
    cv.text((X0, 76), label, font("bold", 28), C.PANEL_TEXT, C.PANEL_BG)


def _status(cv: Canvas, view: PublicView, names: dict[str, str] | None,
            caption: str | None) -> None:
    """Two lines: what just happened (or the phase), then whose decision is awaited."""
    width = X1 - X0
    first = caption or words.phase_line(view)
    cv.text((X0, 118), fit(first, font("sans", 26), width), font("sans", 26),
            C.PANEL_MUTED, C.PANEL_BG)
    if view.get("finished"):
        second = _winners_line(view, names)
    else:
        face = font("bold", 27)
        short = {p: fit(words.display(p, names), face, 190) for p in view["players"]}
        second = words.waiting_line(view, short) or words.hand_line(view)
    face = font("bold", 27)
    for k, line in enumerate(wrap(second, face, width, 2)):
        cv.text((X0, 152 + 33 * k), line, face, C.GOLD, C.PANEL_BG)


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


def _winners_line(view: PublicView, names: dict[str, str] | None) -> str:
    winners = [words.display(p, names) for p in view.get("winners") or []]
    if not winners:
        return "Game over"
    if len(winners) == 1:
        return f"{winners[0]} wins!"
    return " and ".join(winners) + " share the win!"


def _row_height(n: int, top: float = TOP_ROWS) -> float:
    return min(MAX_ROW, (BOTTOM - top) / max(1, n))


FULL_ROW = 160  # below this a row puts the role beside the stats (offers take the room)
COMPACT_CHIP = 17


def _players(cv: Canvas, view: PublicView, names: dict[str, str] | None,
             top: float = TOP_ROWS) -> None:
    players = view["players"]
    roles = words.roles(view)
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
        _identity(cv, view, pid, i, X0 + 14, y + (8 if compact else 14), bg, names, active)
        _prestige(cv, view["prestige"].get(pid, 0), X1 - 18, y + (6 if compact else 12), bg)
        line = y + (h - 12) - 40 if compact else y + 72
        reserve = view["reserve"].get(pid, 0)
        limit = view["limit"].get(pid, 0)
        x: float = X0 + (16 if compact else 82)
        x = _stat(cv, x, line, "Reserve", str(reserve), bg, compact)
        x = _stat(cv, x + (14 if compact else 22), line, "Limit", str(limit), bg, compact)
        if not compact:
            _limit_bar(cv, x + 12, line + 8, limit, bg)
        if setup:
            role = "Set-up"
        elif pid not in in_passage:
            role = "Out of this passage"
        else:
            role = roles.get(pid, "")
        if pid == view.get("starter") and not setup:
            dot = " \u00b7 " if compact else "  \u00b7  "
            role = (role + dot + "starter") if role else "Starter"
        if not role:
            continue
        if compact:  # right-aligned on the stats line, cut to the room left
            face = font("bold", COMPACT_CHIP)
            text = fit(role, face, X1 - 14 - (x + 12) - 24)
            _chip(cv, X1 - 14 - face.getlength(text) - 24, line, text, pid not in in_passage,
                  COMPACT_CHIP)
        else:
            _chip(cv, X0 + 82, y + h - 56, role, pid not in in_passage)


def _identity(cv: Canvas, view: PublicView, pid: str, seat: int, x: float, y: float, bg: RGB,
              names: dict[str, str] | None, active: bool) -> None:
    colour = C.player_colour(seat)
    token(cv, x + 27, y + 27, 50, seat, colour, C.WHITE, bg)
    name = words.display(pid, names)
    label = ("\u25b6 " if active else "") + name
    face = font("bold", 32)
    cv.text((x + 68, y + 4), fit(label, face, 300), face, C.GOLD if active else C.PANEL_TEXT,
            bg)


def _prestige(cv: Canvas, value: int, right: float, y: float, bg: RGB) -> None:
    """Prestige, the score: the biggest number in the row, red-tinted when negative."""
    colour = C.NEGATIVE if value < 0 else C.GOLD
    big = font("bold", 46)
    text = _num(value)
    cv.text((right, y - 2), text, big, colour, bg, anchor="ra")
    cv.text((right - big.getlength(text) - 6, y + 4), "\u2605", font("bold", 34), colour, bg,
            anchor="ra")


def _stat(cv: Canvas, x: float, y: float, label: str, value: str, bg: RGB,
          compact: bool = False) -> float:
    small, big = (font("sans", 21), font("bold", 25)) if compact else (font("sans", 24),
                                                                      font("bold", 28))
    cv.text((x, y + 3), label, small, C.PANEL_MUTED, bg)
    x += small.getlength(label) + 8
    cv.text((x, y), value, big, C.PANEL_TEXT, bg)
    return x + big.getlength(value)


def _limit_bar(cv: Canvas, x: float, y: float, limit: int, bg: RGB) -> None:
    """One tick per limit point towards LIMIT_OUT (10), the mark that takes a player out of
    the passage (§7)."""
    for k in range(LIMIT_OUT):
        fill = (C.NEGATIVE if limit >= LIMIT_OUT else C.GOLD) if k < limit else C.CHIP
        cv.rect((x + k * 13, y, x + k * 13 + 9, y + 20), fill)


def _chip(cv: Canvas, x: float, y: float, text: str, dim: bool, size: int = 22) -> None:
    face = font("bold", size)
    w, h = face.getlength(text) + 24, size + 14
    cv.rect((x, y, x + w, y + h), C.CHIP, radius=10)
    cv.text((x + 12, y + h / 2), text, face, C.PANEL_MUTED if dim else C.PANEL_TEXT, C.CHIP,
            anchor="lm")


def _standings(cv: Canvas, view: PublicView, names: dict[str, str] | None) -> None:
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
        detail = f"San Marco {row['san_marco']} \u00b7 {owned} bridges \u00b7 {placed} in Venice"
        cv.text((X0 + 16, y + 82), fit(detail, font("sans", 24), X1 - X0 - 32),
                font("sans", 24), C.PANEL_MUTED, bg)
        _prestige(cv, row["prestige"], X1 - 18, y + 12, bg)


def _footer(cv: Canvas, view: PublicView) -> None:
    """Where the Doge stands (or that it is not placed yet) and the bridge supply."""
    y = BOTTOM + 44
    where = view.get("doge")
    doge_token(cv, X0 + 28, y, 28, C.PANEL_BG)
    face = font("bold", 27)
    text = f"Doge in {where}" if where else "Doge not placed yet"
    cv.text((X0 + 70, y - 16), fit(text, face, X1 - X0 - 70), face, C.PANEL_TEXT, C.PANEL_BG,
            anchor="lm")
    supply = view.get("bridges_in_supply")
    if supply is not None:
        cv.text((X0 + 70, y + 18), f"Bridges in the supply: {supply}", font("sans", 23),
                C.PANEL_MUTED, C.PANEL_BG, anchor="lm")
