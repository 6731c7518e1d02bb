"""What must hold after any fault, whatever the bot does inside: checked from what players see
(channel posts, pings, private answers) against the game as the service tells it
(``status``, ``log``), never against the bot's internals.

- every committed version is visible in the channel (one of its event lines is in a post),
  or was told to its player privately in an answer that is not an apology;
- nothing is posted twice (the same prompt or board, the same nonce), and nothing is told
  twice in words (``doubled_text``: a line of the game's log shown more often than it
  happened — two moves may read the same, the log says how often — or a text post that
  tells no move posted twice with the same words), counted from the game's first prompt;
- whoever the game awaits was pinged after their decision started (walking back from the
  newest post: a ping of them comes before any post that did not await them);
- the channel's newest prompt carries the stored version's buttons, and its newest **Now**
  line names exactly the players the game awaits (a lobby: its Join button is there);
- every post that names who acts next ends with that **Now** line and carries the buttons of
  the decision it names, and every post with such buttons ends with its Now line
  (``prompt_problems``, as players see the posts);
- no private answer to a change that was saved says something went wrong.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot import i18n, text
from bot.i18n import ENGLISH, Tr
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.results import GameStatus, Status
from bot.store import player_of

from .messages import FakeMessage, InteractionRecord
from .players import awaited_ids, game_over_words, now_re
from .server import FakeDiscord

CUSTOM_ID = re.compile(r"^sm:(\d+):(\d+)\.(\d+)(?:\.[of]\d+)?:(\w+)")
PROMPTS = {"build", "take", "next"}  # the buttons of a decision (a post's prompt)
# Which prompt a decision's post carries: a split opens the builder; an offer is taken by its
# button (Next when none is left to take); every other decision opens the move chooser.
PROMPT_OF = {"split": {"build"}, "take": {"take", "next"}}
AWAITED = ("reroll", "bridge", "split", "take", "play", "banish", "victims")
LANGUAGES = tuple(i18n.translations(code) for code in i18n.LANGUAGES)
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


def missed_counted(posts: Sequence[FakeMessage], tr: Tr = ENGLISH) -> int:
    """How many posts the channel's catch-ups only counted ("… 44 more things happened
    here; /sanmarco game log tells them": docs/OUTBOX.md, Catching up)."""
    found = 0
    for n in ("1", "987654"):  # the singular's and the plural's words
        head, _, tail = text.missed_moves(tr, int(n)).partition(n)
        pattern = re.compile(re.escape(head) + r"(\d+)" + re.escape(tail))
        found += sum(int(k) for m in posts for k in pattern.findall(m.content))
    return found


def _posts(fake: FakeDiscord, channel: int) -> list[FakeMessage]:
    return fake.channel_messages(channel)


def _duplicates(posts: Sequence[FakeMessage]) -> list[str]:
    """The same prompt or board posted twice, or two posts of one nonce."""
    shown = Counter((m.content, tuple(m.custom_ids())) for m in posts
                    if m.custom_ids() or m.files)
    nonces = Counter(m.nonce for m in posts if m.nonce is not None)
    return ([f"{n}× {content[:70]!r}" for (content, _), n in shown.items() if n > 1]
            + [f"{n}× nonce {nonce}" for nonce, n in nonces.items() if n > 1])


def _game_posts(posts: Sequence[FakeMessage], game: int) -> list[FakeMessage]:
    """The posts from the game's first prompt on (a channel may hold an earlier game)."""
    first = next((i for i, m in enumerate(posts)
                  if any(g == game for g, _ in prompt_versions(m))), len(posts))
    return list(posts[first:])


def doubled_text(posts: Sequence[FakeMessage], told: Counter[str]) -> list[str]:
    """Text told twice: a line of the game's log shown more often than the log has it
    (two moves may read the same, "ann places an aristocrat in Castello." — the log
    says so; a catch-up sent twice, or grouped differently twice, shows it once more
    than it happened), and a text post (no buttons, no picture) that tells no move,
    posted twice with the same words (a note, a lobby's end)."""
    lines = Counter(line for m in posts for line in m.content.splitlines())
    out = [f"{lines[line]}× (happened {n}×) {line[:70]!r}" for line, n in told.items()
           if lines[line] > n]
    texts = Counter(m.content for m in posts if not m.custom_ids() and not m.files
                    and not any(line in told for line in m.content.splitlines()))
    return out + [f"{n}× text {content[:70]!r}" for content, n in texts.items() if n > 1]


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


def prompt_problems(posts: Sequence[FakeMessage],
                    languages: Sequence[Tr] = LANGUAGES) -> list[str]:
    """A post that says who acts next ends with that Now line and carries the buttons of the
    decision it names; a post with a decision's buttons ends with its Now line (as players
    see the posts: their words and components, in whichever of ``languages`` they speak)."""
    out = []
    for m in posts:
        lines = m.content.splitlines()
        tags = {t for c in m.custom_ids() if (t := _tag(c)) in PROMPTS}
        where = f"post {m.id} ({lines[0][:50] if lines else ''!r})"
        found = [(tr, i) for tr in languages for i, line in enumerate(lines)
                 if now_re(tr).match(line) and "<@" in line]
        if not found:
            if tags:
                out.append(f"{where} carries {sorted(tags)} but says nobody acts next")
            continue
        tr, last = found[-1]
        if last != len(lines) - 1:
            out.append(f"{where}: its Now line is not its last line")
        if not tags:
            out.append(f"{where} ends with the Now line but carries no buttons")
            continue
        kinds = {text.awaited_words(tr, k): k for k in AWAITED}
        for words in re.findall(r"<@\d+>: ([^;]+)", lines[last]):
            wanted = PROMPT_OF.get(kinds.get(words.strip(), ""), {"next"})
            if not tags & wanted:
                out.append(f"{where}: awaits {words.strip()!r} but carries {sorted(tags)}")
    return out


def all_prompt_problems(fake: FakeDiscord) -> list[str]:
    """``prompt_problems`` of every channel the fake holds (what every test must keep)."""
    return [f"channel {c}: {p}" for c in fake.channel_ids
            for p in prompt_problems(fake.channel_messages(c))]


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
    awaited = _awaited(status)
    found.stale = _stale(posts, status, awaited, tr) + prompt_problems(posts, (tr,))
    if status.status is GameStatus.RUNNING:
        found.unpinged = _unpinged(posts, awaited, tr)
    if status.phase is None:
        found.duplicates += doubled_text(_game_posts(posts, status.game_id), Counter())
        return found
    told = {r.user.id for r in mine if said(r) and not any(is_apology(m, tr)
                                                            for m in said(r))}
    counted = missed_counted(posts, tr)  # a long catch-up's oldest posts: counted, in order
    happened: Counter[str] = Counter()
    for entry in (await service.log(channel)).entries:
        lines = [line for ev in entry.events
                 if (line := text.event_line(tr, ev, status.names)) is not None]
        # a seat handed over since: its post named the seat's player then
        before = [line for ev in entry.events
                  if (line := text.event_line(tr, ev, dict(status.names))) is not None]
        happened.update(lines)
        happened.update(b for b in before if b not in lines)
        if lines and not any(line in seen for line in [*lines, *before]) and not (
                entry.pid.isdigit() and int(entry.pid) in told):
            if counted:
                counted -= 1
                continue
            found.lost.append(f"version {entry.seq} ({entry.action or 'set-up'} by "
                              f"{entry.pid or 'the dice'}): {lines[0][:70]!r}")
    found.duplicates += doubled_text(_game_posts(posts, status.game_id), happened)
    return found


def _awaited(status: Status) -> list[str]:
    """The people the game awaits (a substitute for the seat they took over)."""
    return [player_of(status.names, p) for p in status.awaiting if p.isdigit()]


async def caught_up(fake: FakeDiscord, service: GameService, channel: int,
                    tr: Tr = ENGLISH) -> bool:
    """Whether the channel shows the stored game: its newest prompt and Now line, and a
    ping for whoever is awaited (cheap enough to poll)."""
    try:
        status = await service.status(channel)
    except ServiceError:
        return False
    posts = _posts(fake, channel)
    awaited = _awaited(status)
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
