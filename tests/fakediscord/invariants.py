"""What must hold after any fault, whatever the bot does inside: checked from what players see
(channel posts, pings, private answers) against the game as the service tells it
(``status``, ``log``), never against the bot's internals.

- every committed version is visible in the channel (one of its event lines is in a post),
  or was told to its player privately in an answer that is not an apology;
- nothing is posted twice (the same prompt or board, the same nonce);
- whoever the game awaits was pinged after their decision started (walking back from the
  newest post: a ping of them comes before any post that did not await them);
- the channel's newest prompt carries the stored version's buttons, and its newest **Now**
  line names exactly the players the game awaits (a lobby: its Join button is there);
- no private answer to a change that was saved says something went wrong.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot import text
from bot.i18n import ENGLISH, Tr
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.results import GameStatus, Status

from .messages import FakeMessage, InteractionRecord
from .players import awaited_ids, game_over_words
from .server import FakeDiscord

CUSTOM_ID = re.compile(r"^sm:(\d+):(\d+)\.(\d+):(\w+)")
FAILED = ("something went wrong",)  # what an answer after a save must never say


@dataclass
class Findings:
    """What one channel shows wrong (empty lists: nothing)."""

    channel: int
    lost: list[str] = field(default_factory=list)  # saved, yet neither shown nor told
    duplicates: list[str] = field(default_factory=list)
    unpinged: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # the newest post is not the game
    untruthful: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return [f"channel {self.channel}: {kind}: {what}" for kind in (
            "lost", "duplicates", "unpinged", "stale", "untruthful")
            for what in getattr(self, kind)]


def is_apology(msg: FakeMessage, tr: Tr = ENGLISH) -> bool:
    """Whether a private answer says the request failed (the bot's apology)."""
    content = msg.content.lower()
    return msg.content == text.apology(tr) or any(f in content for f in FAILED)


def said(rec: InteractionRecord) -> list[FakeMessage]:
    """What the bot told the interaction's user privately: its ephemeral messages, and
    the private panel it updated."""
    panel = rec.updated if rec.updated is not None and rec.updated.ephemeral else None
    return rec.private + ([panel] if panel is not None and not panel.deleted else [])


def prompt_versions(msg: FakeMessage) -> set[tuple[int, int]]:
    """(game, version) of the bot's buttons and selects on a message."""
    return {(int(m[2]), int(m[3])) for c in msg.custom_ids() if (m := CUSTOM_ID.match(c))}


def _tag(custom_id: str) -> str | None:
    m = CUSTOM_ID.match(custom_id)
    return m[4] if m else None


def _posts(fake: FakeDiscord, channel: int) -> list[FakeMessage]:
    return fake.channel_messages(channel)


def _duplicates(posts: Sequence[FakeMessage]) -> list[str]:
    """The same prompt or board posted twice, or two posts of one nonce."""
    shown = Counter((m.content, tuple(m.custom_ids())) for m in posts
                    if m.custom_ids() or m.files)
    nonces = Counter(m.nonce for m in posts if m.nonce is not None)
    return ([f"{n}× {content[:70]!r}" for (content, _), n in shown.items() if n > 1]
            + [f"{n}× nonce {nonce}" for nonce, n in nonces.items() if n > 1])


def _unpinged(posts: Sequence[FakeMessage], awaited: Iterable[str], tr: Tr) -> list[str]:
    out = []
    for pid in awaited:
        for m in reversed(posts):
            if int(pid) in m.pinged():
                break
            now = awaited_ids(m, tr)
            if now and int(pid) not in now:
                out.append(f"<@{pid}> is awaited but was not pinged since a post that did "
                           "not await them")
                break
        else:
            out.append(f"<@{pid}> is awaited but was never pinged")
    return out


def _stale(posts: Sequence[FakeMessage], status: Status, awaited: list[str],
           tr: Tr) -> list[str]:
    """The newest prompt and Now line against the stored game."""
    game, version, state = status.game_id, status.version, status.status
    ours = [m for m in posts if any(g == game for g, _ in prompt_versions(m))]
    if state is GameStatus.LOBBY:
        if not any(tag == "join" for m in ours for c in m.custom_ids()
                   if (tag := _tag(c))):
            return ["the lobby was never shown with its Join button"]
        return []
    if state is GameStatus.FINISHED:
        if not any(game_over_words(tr) in m.content for m in posts):
            return ["the game is over, but no post says so"]
        return []
    if state is not GameStatus.RUNNING:
        return []
    out = []
    prompts = [m for m in ours if m.custom_ids()]
    newest = prompt_versions(prompts[-1]) if prompts else set()
    if newest != {(game, version)}:
        out.append(f"the newest prompt is of {sorted(newest)}, the game is at version "
                   f"{version}")
    with_now = [m for m in posts if awaited_ids(m, tr)]
    named = sorted(awaited_ids(with_now[-1], tr)) if with_now else []
    if named != sorted(int(p) for p in awaited):
        out.append(f"the newest Now line names {named}, the game awaits {sorted(awaited)}")
    return out


async def check_channel(fake: FakeDiscord, service: GameService, channel: int, *,
                        acts: Sequence[InteractionRecord] = (), expected: Sequence[str] = (),
                        tr: Tr = ENGLISH) -> Findings:
    """The findings for one channel (its newest game). ``acts``: the interactions whose
    change was saved; ``expected``: texts a post must show (a settings change)."""
    found = Findings(channel)
    mine = [r for r in acts if r.channel_id == channel]
    found.untruthful = [f"{r.user.name}: {m.content[:80]!r}" for r in mine
                        for m in said(r) if is_apology(m, tr)]
    if channel in fake.deleted_channels:
        return found
    posts = _posts(fake, channel)
    found.duplicates = _duplicates(posts)
    seen = "\n".join(v for m in posts for v in m.versions)
    found.lost = [f"never shown: {want!r}" for want in expected if want not in seen]
    try:
        status = await service.status(channel)
    except ServiceError:
        return found
    awaited = [p for p in status.awaiting if p.isdigit()]
    found.stale = _stale(posts, status, awaited, tr)
    if status.status is GameStatus.RUNNING:
        found.unpinged = _unpinged(posts, awaited, tr)
    if status.phase is None:
        return found
    told = {r.user.id for r in mine if said(r) and not any(is_apology(m, tr)
                                                            for m in said(r))}
    for entry in (await service.log(channel)).entries:
        lines = [line for ev in entry.events
                 if (line := text.event_line(tr, ev, status.names)) is not None]
        if lines and not any(line in seen for line in lines) and not (
                entry.pid.isdigit() and int(entry.pid) in told):
            found.lost.append(f"version {entry.seq} ({entry.action or 'set-up'} by "
                              f"{entry.pid or 'the dice'}): {lines[0][:70]!r}")
    return found


async def caught_up(fake: FakeDiscord, service: GameService, channel: int,
                    tr: Tr = ENGLISH) -> bool:
    """Whether the channel shows the stored game: its newest prompt and Now line, and a
    ping for whoever is awaited (cheap enough to poll)."""
    try:
        status = await service.status(channel)
    except ServiceError:
        return False
    posts = _posts(fake, channel)
    awaited = [p for p in status.awaiting if p.isdigit()]
    return not _stale(posts, status, awaited, tr) and not (
        status.status is GameStatus.RUNNING and _unpinged(posts, awaited, tr))


async def findings(fake: FakeDiscord, service: GameService, channels: Iterable[int], *,
                   acts: Sequence[InteractionRecord] = (),
                   expected: dict[int, Sequence[str]] | None = None) -> list[Findings]:
    return [await check_channel(fake, service, c, acts=acts,
                                expected=(expected or {}).get(c, ())) for c in channels]


async def check_invariants(fake: FakeDiscord, service: GameService, channels: Iterable[int],
                           *, acts: Sequence[InteractionRecord] = (),
                           expected: dict[int, Sequence[str]] | None = None) -> None:
    """Assert that every channel shows its game as stored (see the module docstring)."""
    problems = [p for f in await findings(fake, service, channels, acts=acts,
                                          expected=expected) for p in f.problems()]
    assert not problems, "\n".join(problems)
