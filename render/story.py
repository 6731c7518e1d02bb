"""From the public events of one action to a ``highlight`` for ``render_board``.

Events are the dicts of ``event.to_dict()`` after ``engine.public_events`` (so nothing
secret); the picture then shows what just happened: the district scored or changed, the
bridge built, and a one-line caption.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .words import display


def highlight_from_events(events: Iterable[dict[str, Any]],
                          names: dict[str, str] | None = None) -> dict[str, Any] | None:
    """A highlight dict for the events of one action, or None if nothing on the map moved."""
    districts: list[str] = []
    bridge: dict[str, str] | None = None
    captions: list[str] = []
    scored: list[str] = []

    def who(pid: str) -> str:
        return display(pid, names)

    for e in events:
        kind = e.get("type")
        if kind == "district_scored":
            scored.append(e["district"])
            pts = ", ".join(f"{who(p)} +{n}" for p, n in (e.get("points") or {}).items())
            captions.append(f"{e['district']} scored: {pts or 'nobody'}")
        elif kind == "aristocrat_placed":
            districts.append(e.get("hop") or e["district"])
            captions.append(f"{who(e['player'])} placed in {e.get('hop') or e['district']}")
        elif kind == "transferred":
            districts.append(e["district"])
            captions.append(f"{who(e['player'])} replaced {who(e['victim'])} in "
                            f"{e['district']}")
        elif kind == "banished":
            districts.append(e["district"])
            captions.append(f"Banishment in {e['district']} (rolled {e['roll']})")
        elif kind == "bridge_built":
            bridge = {"a": e["a"], "b": e["b"], "owner": e["player"]}
            captions.append(f"{who(e['player'])} built a bridge {e['a']}\u2013{e['b']}")
        elif kind == "bridge_taken_over":
            bridge = {"a": e.get("to_a", e["a"]), "b": e.get("to_b", e["b"]),
                      "owner": e["player"]}
            captions.append(f"{who(e['player'])} took over {who(e['owner'])}'s bridge")
    if len(scored) > 1:
        captions = [f"Final scoring: {len(scored)} districts scored"]
    if not (districts or scored or bridge or captions):
        return None
    out: dict[str, Any] = {}
    marked = list(dict.fromkeys(scored + districts))
    if marked:
        out["district"] = marked
    if bridge:
        out["bridge"] = bridge
    if captions:
        out["caption"] = captions[-1] if not scored else next(
            c for c in captions if "scored" in c)
    return out
