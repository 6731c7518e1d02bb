"""The end-of-game picture: final standings, prestige over the game, where the points came from.

Fed only the final public view and the game's public events (every prestige change is told
by an event: ``district_scored``, ``toll_paid``, ``canal_crossed``, ``passage_scored``), so
nothing secret can reach it. Same palette and colour-blind-safe seat marks (colour, letter
and shape) as the board; 1000 pixels wide with large type, so it reads on a phone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from engine.views import PublicView

from . import palette as C
from .canvas import Canvas, RGBCanvas
from .draw import token
from .fonts import Font, fit, font
from .png import encode_p
from .words import ENGLISH, N_, Tr, display

WIDTH = 1000
PAD = 28
HEADER = 92
ROW = 74             # a standings row
CHART_TITLE = 56
CHART_H = 420
X_LABELS = 44
TABLE_TITLE = 60
TABLE_HEAD = 44
TABLE_ROW = 62
BOTTOM = 24

# The breakdown's columns: (heading, Sources attribute); tolls paid and canals are costs.
COLUMNS: tuple[tuple[str, str], ...] = (
    (N_("Doge"), "doge"),
    # TRANSLATORS: a column heading (about 9 letters at most): the final scoring's points.
    (N_("Final"), "final"),
    # TRANSLATORS: a column heading (about 9 letters at most): the passage bonuses.
    (N_("Passage"), "passage"),
    # TRANSLATORS: column headings (about 9 letters at most): tolls received, tolls paid.
    (N_("Tolls +"), "tolls_in"), (N_("Tolls \u2212"), "tolls_out"),
    (N_("Canals"), "canals"), (N_("Total"), "total"))


# ---------------------------------------------------------------------------- the numbers
@dataclass(frozen=True)
class Point:
    """Everyone's prestige at one moment: after a round (``kind`` "round"), after a
    passage's scoring ("passage"), after the final scoring ("final"), or at the start."""

    kind: str
    passage: int
    prestige: Mapping[str, int]


@dataclass
class Sources:
    """Where one player's prestige came from; costs (tolls paid, canals) are positive."""

    doge: int = 0        # district scorings during the game (Doge cards)
    final: int = 0       # the final scoring of every district
    passage: int = 0     # passage bonuses (limit points)
    tolls_in: int = 0    # tolls other players paid to cross this player's bridges
    tolls_out: int = 0   # tolls this player paid
    canals: int = 0      # paid to cross a canal with the Doge

    @property
    def total(self) -> int:
        return (self.doge + self.final + self.passage + self.tolls_in - self.tolls_out
                - self.canals)


@dataclass(frozen=True)
class Story:
    """A game's prestige told from its public events."""

    players: tuple[str, ...]
    points: tuple[Point, ...]
    sources: Mapping[str, Sources] = field(default_factory=dict)


def prestige_story(players: Sequence[str], events: Iterable[Mapping[str, Any]]) -> Story:
    """Prestige per round (passages marked) and its sources, from public event dicts
    (``event.to_dict()``) in the order they happened."""
    score = {p: 0 for p in players}
    sources = {p: Sources() for p in players}
    points = [Point("start", 1, dict(score))]
    passage, in_round, final = 1, False, False

    def close_round() -> None:
        nonlocal in_round
        if in_round:
            points.append(Point("round", passage, dict(score)))
            in_round = False

    def gain(pid: str, n: int) -> None:
        score[pid] = score.get(pid, 0) + n

    for e in events:
        kind = e.get("type")
        if kind == "round_started":
            close_round()
            passage, in_round = int(e["passage"]), True
        elif kind == "district_scored":
            for pid, n in (e.get("points") or {}).items():
                gain(pid, n)
                src = sources.setdefault(pid, Sources())
                if final:
                    src.final += n
                else:
                    src.doge += n
        elif kind == "toll_paid":
            gain(e["payer"], -e["amount"])
            gain(e["owner"], e["amount"])
            sources.setdefault(e["payer"], Sources()).tolls_out += e["amount"]
            sources.setdefault(e["owner"], Sources()).tolls_in += e["amount"]
        elif kind == "canal_crossed":
            gain(e["player"], -e["cost"])
            sources.setdefault(e["player"], Sources()).canals += e["cost"]
        elif kind == "passage_scored":
            close_round()
            for pid, n in (e.get("bonus") or {}).items():
                gain(pid, n)
                sources.setdefault(pid, Sources()).passage += n
            passage = int(e["passage"])
            points.append(Point("passage", passage, dict(score)))
            final = passage >= 3
        elif kind == "game_over":
            close_round()
            if final:
                points.append(Point("final", passage, dict(score)))
    close_round()
    return Story(tuple(players), tuple(points), sources)


# ---------------------------------------------------------------------------- where things go
@dataclass(frozen=True)
class SummaryLayout:
    """Where each part of the picture is, for ``n`` players (tests probe pixels here)."""

    n: int

    @property
    def standings_top(self) -> int:
        return HEADER

    def standing_token(self, rank_index: int) -> tuple[int, int]:
        """Centre of the seat mark on standings row ``rank_index`` (0 = first)."""
        return PAD + 78, HEADER + rank_index * ROW + ROW // 2

    @property
    def chart(self) -> tuple[int, int, int, int]:
        """The plotting area (left, top, right, bottom)."""
        top = HEADER + self.n * ROW + CHART_TITLE
        return PAD + 66, top, WIDTH - PAD - 56, top + CHART_H

    @property
    def table_top(self) -> int:
        return self.chart[3] + X_LABELS + TABLE_TITLE

    def table_token(self, seat: int) -> tuple[int, int]:
        """Centre of the seat mark on the breakdown row of ``seat``."""
        return PAD + 30, self.table_top + TABLE_HEAD + seat * TABLE_ROW + TABLE_ROW // 2

    def column_x(self, k: int) -> int:
        """Right edge of breakdown column ``k`` (numbers are right-aligned)."""
        first = PAD + 70
        width = (WIDTH - PAD - first) / len(COLUMNS)
        return round(first + width * (k + 1)) - 10

    @property
    def height(self) -> int:
        return self.table_top + TABLE_HEAD + self.n * TABLE_ROW + BOTTOM


# ---------------------------------------------------------------------------- drawing
def render_summary(view: PublicView, events: Iterable[Mapping[str, Any]],
                   names: dict[str, str] | None = None, tr: Tr = ENGLISH) -> bytes:
    """The end-of-game picture (PNG bytes) for a finished game's public view and its public
    events (dicts of ``event.to_dict()``, from the set-up on), its words in the language of
    ``tr``. The same input gives the same bytes."""
    lay = SummaryLayout(len(view["players"]))
    image = Image.new("RGB", (WIDTH, lay.height), C.PANEL_BG)
    draw_summary(RGBCanvas(image), view, events, names, tr)
    pal = Image.new("P", (1, 1))
    pal.putpalette(C.flat_palette())
    return encode_p(image.quantize(palette=pal, dither=Image.Dither.NONE))


def draw_summary(cv: Canvas, view: PublicView, events: Iterable[Mapping[str, Any]],
                 names: dict[str, str] | None = None, tr: Tr = ENGLISH) -> None:
    """Everything on the summary picture, drawn on ``cv`` (its size: ``SummaryLayout``)."""
    players = list(view["players"])
    story = prestige_story(players, events)
    lay = SummaryLayout(len(players))
    cv.text((PAD, 22), "SAN MARCO", font("serif", 44), C.GOLD, C.PANEL_BG)
    cv.text((WIDTH - PAD, 34), tr.gettext("Final standings"), font("bold", 32), C.PANEL_TEXT,
            C.PANEL_BG, anchor="ra")
    _standings(cv, view, names, lay, tr)
    _chart(cv, story, lay, tr)
    _breakdown(cv, story, lay, tr)


def _num(n: int) -> str:
    return f"\u2212{-n}" if n < 0 else str(n)


def _standings(cv: Canvas, view: PublicView, names: dict[str, str] | None,
               lay: SummaryLayout, tr: Tr) -> None:
    seat = {p: i for i, p in enumerate(view["players"])}
    winners = set(view["winners"])
    for i, row in enumerate(view["standings"]):
        pid = row["player"]
        top = lay.standings_top + i * ROW
        bg = C.PANEL_ROW_ACTIVE if pid in winners else C.PANEL_ROW
        cv.rect((PAD, top + 4, WIDTH - PAD, top + ROW - 4), bg, radius=10)
        cy = top + ROW // 2
        cv.text((PAD + 14, cy), f"{row['rank']}.", font("bold", 34), C.PANEL_TEXT, bg,
                anchor="lm")
        x, y = lay.standing_token(i)
        token(cv, x, y, 48, seat[pid], C.player_colour(seat[pid]), C.WHITE, bg)
        right = WIDTH - PAD - 20
        cv.text((right, cy), f"\u2605 {_num(row['prestige'])}", font("bold", 38), C.GOLD, bg,
                anchor="rm")
        tail = (tr.gettext("winner") if pid in winners
                else tr.gettext("{count} in San Marco").format(count=row["san_marco"]))
        tail_face = font("sans", 24)
        tail_right = right - 150
        cv.text((tail_right, cy), tail, tail_face, C.GOLD if pid in winners else C.PANEL_MUTED,
                bg, anchor="rm")
        name_x = x + 44
        room = tail_right - tail_face.getlength(tail) - 20 - name_x
        face = font("bold", 34)
        cv.text((name_x, cy), fit(display(pid, names), face, room), face, C.PANEL_TEXT, bg,
                anchor="lm")


def _chart(cv: Canvas, story: Story, lay: SummaryLayout, tr: Tr) -> None:
    left, top, right, bottom = lay.chart
    cv.text((PAD, top - CHART_TITLE + 10), tr.gettext("Prestige over the game"),
            font("bold", 30),
            C.PANEL_TEXT, C.PANEL_BG)
    points = story.points
    values = [v for pt in points for v in pt.prestige.values()] or [0]
    lo = min(0, min(values))
    hi = max(10, max(values))
    step = next(s for s in (5, 10, 20, 25, 50, 100, 250, 1000) if (hi - lo) / s <= 6)
    lo = (lo // step) * step
    hi = -(-hi // step) * step
    n = max(len(points) - 1, 1)

    def xy(k: int, v: int) -> tuple[float, float]:
        return (left + (right - left) * k / n, bottom - (bottom - top) * (v - lo) / (hi - lo))

    # passages: alternating bands, each labelled, so the rounds of a passage read together
    for p in (1, 2, 3):
        ks = [k for k, pt in enumerate(points) if pt.passage == p and pt.kind != "start"]
        if not ks:
            continue
        x0 = xy(max(ks[0] - 1, 0), 0)[0]
        x1 = xy(ks[-1], 0)[0]
        if p % 2 == 0:
            cv.rect((x0, top, x1, bottom), C.PANEL_ROW)
        label = tr.gettext("Passage {passage}").format(passage=p)
        face = font("bold", 24)
        if face.getlength(label) > x1 - x0 - 8:
            # TRANSLATORS: the short form of "Passage {passage}" on a narrow chart band.
            label = tr.gettext("P{passage}").format(passage=p)
        cv.text(((x0 + x1) / 2, bottom + 10), label, face, C.PANEL_MUTED,
                C.PANEL_BG, anchor="mt")
    # the grid
    for v in range(lo, hi + 1, step):
        y = xy(0, v)[1]
        cv.line([(left, y), (right, y)], C.CHIP if v else C.PANEL_MUTED, 1 if v else 2)
        cv.text((left - 10, y), _num(v), font("sans", 22), C.PANEL_MUTED, C.PANEL_BG,
                anchor="rm")
    # one line per player, its seat shape at every passage scoring and its mark at the end
    seat = {p: i for i, p in enumerate(story.players)}
    for pid in story.players:
        colour = C.player_colour(seat[pid])
        line = [xy(k, pt.prestige.get(pid, 0)) for k, pt in enumerate(points)]
        if len(line) > 1:
            cv.line(line, colour, 5)
    for pid in story.players:
        colour = C.player_colour(seat[pid])
        for k, pt in enumerate(points):
            if pt.kind in ("passage", "final"):
                x, y = xy(k, pt.prestige.get(pid, 0))
                token(cv, x, y, 22, seat[pid], colour, colour, C.PANEL_BG)
    # the marks at the end of the lines, pushed apart where final scores are close
    end_x = xy(len(points) - 1, 0)[0] + 34
    ends = sorted(story.players, key=lambda p: -points[-1].prestige.get(p, 0))
    last_y = -1e9
    for pid in ends:
        y = max(xy(0, points[-1].prestige.get(pid, 0))[1], last_y + 32)
        token(cv, end_x, y, 30, seat[pid], C.player_colour(seat[pid]), C.WHITE, C.PANEL_BG)
        last_y = y


def heading_font(tr: Tr, lay: SummaryLayout) -> Font:
    """The breakdown's headings, all in one size: bold 22, smaller when a language's
    longest heading would run into its neighbour (German "Durchgang")."""
    room = lay.column_x(1) - lay.column_x(0) - 12
    for size in range(22, 15, -1):
        face = font("bold", size)
        if all(face.getlength(tr.gettext(label)) <= room for label, _ in COLUMNS):
            return face
    return font("bold", 16)


def _breakdown(cv: Canvas, story: Story, lay: SummaryLayout, tr: Tr) -> None:
    top = lay.table_top
    cv.text((PAD, top - TABLE_TITLE + 12), tr.gettext("Where the points came from"),
            font("bold", 30),
            C.PANEL_TEXT, C.PANEL_BG)
    head = heading_font(tr, lay)
    for k, (label, _) in enumerate(COLUMNS):
        cv.text((lay.column_x(k), top + TABLE_HEAD // 2), tr.gettext(label), head, C.PANEL_MUTED,
                C.PANEL_BG, anchor="rm")
    for s, pid in enumerate(story.players):
        row_top = top + TABLE_HEAD + s * TABLE_ROW
        bg = C.PANEL_ROW if s % 2 == 0 else C.PANEL_BG
        cv.rect((PAD, row_top + 3, WIDTH - PAD, row_top + TABLE_ROW - 3), bg, radius=8)
        x, y = lay.table_token(s)
        token(cv, x, y, 40, s, C.player_colour(s), C.WHITE, bg)
        src = story.sources.get(pid, Sources())
        for k, (_, attr) in enumerate(COLUMNS):
            value = int(getattr(src, attr))
            cost = attr in ("tolls_out", "canals")
            shown = _num(-value) if cost and value else _num(value)
            colour = (C.NEGATIVE if cost and value else C.GOLD if attr == "total"
                      else C.PANEL_TEXT if value else C.PANEL_MUTED)
            face = font("bold", 30 if attr == "total" else 28)
            cv.text((lay.column_x(k), y), shown, face, colour, bg, anchor="rm")
