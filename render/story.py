"""From the public events of one action to a ``highlight`` for ``render_board``.

Events are the dicts of ``event.to_dict()`` after ``engine.public_events`` (so nothing
secret); the picture then shows what just happened: the district scored or changed, the
bridge built, and a one-line caption (in the language of ``tr``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .words import ENGLISH, Tr, display


def highlight_from_events(events: Iterable[dict[str, Any]],
                          names: dict[str, str] | None = None,
                          tr: Tr = ENGLISH) -> dict[str, Any] | None:
    """A highlight dict for the events of one action, or None if nothing on the map moved."""
    districts: list[str] = []
    bridge: dict[str, str] | None = None
    captions: list[str] = []
    scored: list[str] = []
    scored_caption: str | None = None  # the first scoring's line: a scoring is the news

    def who(pid: str) -> str:
        return display(pid, names)

    for e in events:
        kind = e.get("type")
        if kind == "district_scored":
            scored.append(e["district"])
            pts = ", ".join(f"{who(p)} +{n}" for p, n in (e.get("points") or {}).items())
            caption = tr.gettext("{district} scored: {points}").format(
                district=e["district"], points=pts or tr.gettext("nobody"))
            scored_caption = scored_caption or caption
            captions.append(caption)
        elif kind == "aristocrat_placed":
            districts.append(e.get("hop") or e["district"])
            captions.append(tr.gettext("{player} placed in {district}").format(
                player=who(e["player"]), district=e.get("hop") or e["district"]))
        elif kind == "transferred":
            districts.append(e["district"])
            captions.append(tr.gettext("{player} replaced {victim} in {district}").format(
                player=who(e["player"]), victim=who(e["victim"]), district=e["district"]))
        elif kind == "banished":
            districts.append(e["district"])
            captions.append(tr.gettext("Banishment in {district} (rolled {roll})").format(
                district=e["district"], roll=e["roll"]))
        elif kind == "bridge_built":
            bridge = {"a": e["a"], "b": e["b"], "owner": e["player"]}
            captions.append(tr.gettext("{player} built a bridge {a}\u2013{b}").format(
                player=who(e["player"]), a=e["a"], b=e["b"]))
        elif kind == "bridge_taken_over":
            bridge = {"a": e.get("to_a", e["a"]), "b": e.get("to_b", e["b"]),
                      "owner": e["player"]}
            captions.append(tr.gettext("{player} took over {owner}'s bridge").format(
                player=who(e["player"]), owner=who(e["owner"])))
    if len(scored) > 1:
        scored_caption = tr.ngettext("Final scoring: {count} district scored",
                                     "Final scoring: {count} districts scored",
                                     len(scored)).format(count=len(scored))
    if not (districts or scored or bridge or captions):
        return None
    out: dict[str, Any] = {}
    marked = list(dict.fromkeys(scored + districts))
    if marked:
        out["district"] = marked
    if bridge:
        out["bridge"] = bridge
    if captions or scored_caption:
        out["caption"] = scored_caption if scored_caption is not None else captions[-1]
    return out
