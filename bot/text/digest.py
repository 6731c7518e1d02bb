""""Since your last move": what a player coming back reads first (the awaited post's button,
``/sanmarco hand`` and ``status``, the DM of their turn), in the reader's language.

A summary first, kept whole: how the reader's own prestige and limit points moved, the
districts scored with their points, the tolls; then the others' moves in order, one line
each, as many of the newest as fit (Discord's 2,000 characters; fewer when the digest heads
another answer), the rest left to ``/sanmarco game log``. Made from public events and views
only (R15): no distributor's cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.i18n import Tr
from bot.service.results import Digest, LogEntry
from engine import Event
from engine.views import BridgeView

from .events import event_line
from .markup import MAX_CONTENT, cut
from .names import name_of, who
from .pictures import ALT_TEXT_LIMIT, board_alt

# What a digest may take when it heads another answer (``/sanmarco hand``, ``status``, a
# DM): the answer itself must still read below it.
EMBEDDED_LIMIT = 1000

PlayerNames = Mapping[str, str]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "\u00b10"


def _points(tr: Tr, points: Mapping[str, int], names: PlayerNames) -> str:
    got = [f"{who(tr, p, names)} +{n}" for p, n in points.items() if n]
    return ", ".join(got) if got else tr.gettext("nobody scores")


# ---------------------------------------------------------------------------- the summary
def _you(tr: Tr, d: Digest) -> str:
    """The reader's own prestige and limit points, then and now."""
    was, now = d.before["prestige"].get(d.pid, 0), d.view["prestige"].get(d.pid, 0)
    limit_was, limit_now = d.before["limit"].get(d.pid, 0), d.view["limit"].get(d.pid, 0)
    passage_was, passage_now = d.before["passage"], d.view["passage"]
    if passage_was != passage_now and not d.view["finished"]:
        # limit points count per passage: say which passage each number is of
        return tr.gettext("You: prestige {before} → {now} ({change}); limit points "
                          "{limit_before} in passage {passage_before}, {limit_now} in "
                          "passage {passage_now}.").format(
            before=was, now=now, change=_signed(now - was), limit_before=limit_was,
            passage_before=passage_was, limit_now=limit_now, passage_now=passage_now)
    return tr.gettext("You: prestige {before} → {now} ({change}), limit points "
                      "{limit_before} → {limit_now}.").format(
        before=was, now=now, change=_signed(now - was), limit_before=limit_was,
        limit_now=limit_now)


def _scorings(tr: Tr, events: Sequence[Event], names: PlayerNames) -> str:
    """Every district scored and every passage's limit bonus, in order, with the points."""
    said = []
    for e in events:
        if e.type == "district_scored":
            said.append(f"{e['district']} ({_points(tr, e['points'], names)})")
        elif e.type == "passage_scored":
            said.append(tr.gettext("limit bonus of passage {passage} ({points})").format(
                passage=e["passage"], points=_points(tr, e["bonus"], names)))
    return tr.gettext("Scorings: {scorings}.").format(scorings="; ".join(said)) if said else ""


def _tolls(tr: Tr, events: Sequence[Event], names: PlayerNames) -> str:
    """Tolls paid, summed per payer and owner, in the order first paid."""
    paid: dict[tuple[str, str], int] = {}
    for e in events:
        if e.type == "toll_paid":
            key = (e["payer"], e["owner"])
            paid[key] = paid.get(key, 0) + int(e["amount"])
    if not paid:
        return ""
    return tr.gettext("Tolls: {tolls}.").format(tolls=", ".join(
        f"{who(tr, payer, names)} → {who(tr, owner, names)} {amount}"
        for (payer, owner), amount in paid.items()))


# ---------------------------------------------------------------------------- the moves
def _revealed(tr: Tr, ev: Event, names: PlayerNames) -> str | None:
    n = len(ev["offers"])
    return tr.ngettext("{player} reveals {count} offer.", "{player} reveals {count} offers.",
                       n).format(player=who(tr, ev["distributor"], names), count=n)


def _skipped(tr: Tr, ev: Event, names: PlayerNames) -> str | None:
    return None


# Shorter lines than the post's for what a digest summarises (the revealed offers' cards
# are on the board; a new round is told by its offers), else the post's own line.
_SHORT: dict[str, Callable[[Tr, Event, PlayerNames], str | None]] = {
    "offers_revealed": _revealed,
    "round_started": _skipped,
    "action_deck_reshuffled": _skipped,
}


def _line(tr: Tr, ev: Event, names: PlayerNames) -> str | None:
    short = _SHORT.get(ev.type)
    return short(tr, ev, names) if short is not None else event_line(tr, ev, names)


def move_line(tr: Tr, move: LogEntry, names: PlayerNames) -> str:
    """One move the reader missed: what it did, in one line (its events' lines); one the
    computer made for a person's seat says so (the reader's own, timed out or while they
    were replaced, is not theirs)."""
    said = [line for ev in move.events if (line := _line(tr, ev, names))]
    line = " ".join(said) if said else tr.gettext("{player} moves.").format(
        player=who(tr, move.pid, names))
    if move.computer and move.pid.isdigit():
        line = tr.gettext("The computer for {player}: {move}").format(
            player=who(tr, move.pid, names), move=line)
    return "- " + line


# ---------------------------------------------------------------------------- the digest
def digest_text(tr: Tr, d: Digest, limit: int = MAX_CONTENT) -> str:
    """The digest within ``limit`` characters: the summary, then the newest moves that fit
    (the earlier ones named by number, with where to read them); "" when nothing happened
    since the reader's previous decision."""
    if not d.moves:
        return ""
    events = [e for m in d.moves for e in m.events]
    n = len(d.moves)
    head = (tr.ngettext("**Since your last move** — {count} move by others:",
                        "**Since your last move** — {count} moves by others:", n)
            if d.since else
            tr.ngettext("**Since the game began** — {count} move by others:",
                        "**Since the game began** — {count} moves by others:", n)
            ).format(count=n)
    top = [line for line in (head, _you(tr, d), _scorings(tr, events, d.names),
                             _tolls(tr, events, d.names)) if line]
    # each move names who made it (a seat that changed hands meanwhile: its player then)
    moves = [move_line(tr, m, m.names or d.names) for m in d.moves]
    top = _fit_top(top, limit)
    size = sum(len(line) + 1 for line in top)
    kept: list[str] = []
    for line in reversed(moves):
        earlier = n - len(kept) - 1
        note = len(_earlier(tr, earlier)) + 1 if earlier else 0
        if size + len(line) + 1 + note > limit:
            break
        kept.append(line)
        size += len(line) + 1
    kept.reverse()
    left = n - len(kept)
    return "\n".join([*top, *([_earlier(tr, left)] if left else []), *kept])[:limit]


def _earlier(tr: Tr, count: int) -> str:
    return tr.ngettext("… {count} earlier move: `/sanmarco game log`",
                       "… {count} earlier moves: `/sanmarco game log`", count).format(
        count=count)


def _fit_top(lines: list[str], limit: int) -> list[str]:
    """The summary within three fifths of ``limit`` (the moves need the rest): the header
    and the reader's own line whole; when the scorings and tolls do not fit beside them (a
    final scoring of six districts among long names), the shorter stays whole and the
    longer is cut after a whole item to share what is left."""
    room = max(limit * 3 // 5, 40)
    if sum(len(line) + 1 for line in lines) <= room:
        return lines
    out: list[str] = []
    for line in lines[:2]:
        out.append(line if len(line) < room else _cut_list(line, max(room - 1, 2)))
        room -= len(out[-1]) + 1
    rest = lines[2:]
    widths: dict[int, int] = {}
    for k, i in enumerate(sorted(range(len(rest)), key=lambda i: len(rest[i]))):
        widths[i] = min(len(rest[i]) + 1, max(room, 0) // (len(rest) - k))
        room -= widths[i]
    # less than a district and its points says nothing: left to the moves and the log
    return out + [_cut_list(line, widths[i] - 1) for i, line in enumerate(rest)
                  if widths[i] > 60]


def _cut_list(line: str, width: int) -> str:
    """``line`` within ``width`` characters, cut after a whole item of its list (never
    inside a mention, which would show as broken markup), ending in ``…``."""
    if len(line) <= width:
        return line
    end = max(line.rfind(sep, 0, width - 1) for sep in ("; ", ", "))
    end = end if end > 0 else line.rfind(" ", 0, width - 1)  # else after a whole word
    return line[:end] + " …" if end > 0 else cut(line, width)


def nothing_since(tr: Tr) -> str:
    """The button's answer when nothing happened since the reader's previous decision."""
    return tr.gettext("Nothing has happened since your last move.")


def digest_dm(tr: Tr, head: str, d: Digest | None) -> str:
    """A DM of the player's turn with their digest below it, within a message."""
    said = digest_text(tr, d, MAX_CONTENT - len(head) - 1) if d is not None else ""
    return head + ("\n" + said if said else "")


# ---------------------------------------------------------------------------- the picture
def _bridge(tr: Tr, b: BridgeView, names: PlayerNames) -> str:
    return f"{b['a']}\u2013{b['b']} ({name_of(tr, b['owner'], names)})"


def changes_words(tr: Tr, d: Digest) -> str:
    """What the digest's board picture highlights, in words (plain names: alt text shows no
    mentions)."""
    parts = []
    if d.districts:
        parts.append(tr.gettext("aristocrats changed in {districts}").format(
            districts=", ".join(d.districts)))
    if d.bridges:
        parts.append(tr.gettext("new bridges {bridges}").format(
            bridges=", ".join(_bridge(tr, b, d.names) for b in d.bridges)))
    if d.doge:
        parts.append(tr.gettext("the Doge moved to {districts}").format(
            districts=" → ".join(d.doge)))
    if not parts:
        return tr.gettext("Nothing on the board changed since your last move.")
    return tr.gettext("Highlighted, what changed since your last move: {changes}.").format(
        changes="; ".join(parts))


def digest_alt(tr: Tr, d: Digest) -> str:
    """The digest's board picture's alt text (at most 1,024 characters): what is
    highlighted, then the board in words, its names shortened to fit the room left (so
    who is awaited, said last, is never cut off)."""
    head = cut(changes_words(tr, d), ALT_TEXT_LIMIT // 2)
    return head + " " + board_alt(tr, d.view, d.names, ALT_TEXT_LIMIT - len(head) - 1)


def digest_caption(tr: Tr, d: Digest) -> str:
    """The line in the picture's panel (the picture's language)."""
    n = len(d.moves)
    return tr.ngettext("Since your last move: {count} move", "Since your last move: {count} "
                       "moves", n).format(count=n)

