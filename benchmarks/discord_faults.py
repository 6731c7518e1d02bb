"""Figures of Discord failing (``python benchmarks/faults_bench.py discord``): the real bot against
the fake Discord failing as Discord does, one scenario of ``tests/fakediscord/scenarios.py``
at a time (each with its own fake, bot and database). Per scenario:

- *lost*: saved changes the channel never shows (a move's post, a lobby, a settings post),
  counted from the service's log against the channel's posts, whatever players were told;
- *twice*: posts made twice (the same prompt or board, or one nonce), and text told twice
  (a move's line shown more often than the log has it, a note posted twice);
- *tracebacks*: log records with a traceback while the scenario ran;
- *catch-up*: seconds from Discord answering again until every channel shows its stored
  game (newest prompt, Now line, a ping for the awaited), "never" after ``--wait``;
- *max/5 s*: the most posts one channel received in any 5 seconds since the fault began
  (the players' own moves of the scenario included);
- notes: bodies over Discord's limits the fake refused, when any;
- what else the scenario is about (403s over the passes, moves into a deleted channel).

Prints figures; asserts nothing (the behaviour is asserted by tests/bot/test_discord_outages.py).
"""

from __future__ import annotations

import inspect
import logging
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.fakediscord import scenarios as sc
from tests.fakediscord import scenarios_posts as sp
from tests.fakediscord.harness import BotHarness, point_discord_at
from tests.fakediscord.invariants import findings

Scenario = Callable[[FakeDiscord, BotHarness], Awaitable[object]]


class _Tracebacks(logging.Handler):
    """Counts the log records that carry a traceback (and keeps the log off the screen)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += record.exc_info is not None


@dataclass
class Figures:
    name: str
    lost: int
    twice: int
    tracebacks: int
    catch_up: float | None
    burst: int
    note: str
    seconds: float


def _note_permission(fake: FakeDiscord, run: sc.Run) -> str:
    refused = fake.faults.count(status=403, channel=run.channels[0])
    return f"{refused} refusals (403) in 12 passes; {fake.faults.invalid_requests} invalid"


async def _note_deleted(fake: FakeDiscord, run: sc.Run) -> str:
    here = run.channels[0]
    made = (await run.service.status(here)).version - run.before[here]
    sent = sum(1 for r in fake.requests[run.asked:] if r.channel == here)
    return f"{made} moves made there, {sent} requests sent there"


async def _note_late(fake: FakeDiscord, run: sc.Run) -> str:
    return f"{fake.faults.count(code=10062)} answered 10062; the click changed nothing"


async def _note_poison(fake: FakeDiscord, run: sc.Run) -> str:
    refused = fake.faults.count(code=50035, channel=run.channels[0])
    waiting = len(await run.service.pending_posts(run.channels[0]))
    return (f"{refused} refused (400, 50035); replaced by its minimal post, its refusal "
            f"the 1 traceback; {waiting} posts still waiting")


_WAITS: list[float] = []  # what each refusal of ``_permission_twice`` set


async def _permission_twice(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
    _WAITS.clear()
    return await sc.permission_lost_twice(fake, harness, waits=_WAITS)


def _note_waits(fake: FakeDiscord, run: sc.Run) -> str:
    return "the refusals held posts for " + ", ".join(f"{w:g} s" for w in _WAITS)

def _note_backlog(fake: FakeDiscord, run: sc.Run) -> str:
    made = [m for m in fake.channel_messages(run.channels[0]) if m.t_made >= run.recovered]
    return f"caught up in {len(made)} messages ({len(made) - 1} text, then the board)"


def _note_renames(fake: FakeDiscord, run: sc.Run) -> str:
    thread = run.channels[0]
    return (f"{len(fake.renames.get(thread, []))} renames made, "
            f"{len(fake.rename_refusals)} refused (429)")


def _sigterm() -> tuple[Scenario, Callable[..., object]]:
    """SIGTERM while posts wait behind a 15 s outage: longer than the stop's 10 s bound."""
    left: list[int | None] = []

    async def scenario(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
        run, n = await sc.sigterm_mid_delivery(fake, harness, seconds=15.0)
        left.append(n)
        return run

    def note(fake: FakeDiscord, run: sc.Run) -> str:
        return f"{left[-1]} post(s) left by the stop, sent at the next start"

    return scenario, note


def _note_nonce_window(fake: FakeDiscord, run: sc.Run) -> str:
    here = run.channels[0]
    read = sum(1 for r in fake.requests if r.method == "GET" and r.channel == here
               and r.route.endswith("/messages"))
    return f"{read} reads of the channel's messages; {len(fake.deduplicated)} deduplicated"


def _note_dms(fake: FakeDiscord, run: sc.Run) -> str:
    return (f"{len(sc.dm_requests(fake))} DMs for {len(sc.dm_posts(fake))} posts, "
            f"{len(sc.dms_lost(fake))} lost")


# ------------------------------------------------------------------ issue 37 (``--only "#37"``)
_PG: list[object] = []  # the PostgreSQL servers the whole-game scenario started


def _pinged_eve(fake: FakeDiscord, run: sc.Run) -> str:
    pinged = sp.pinged_since(fake, run.channels[0], fake.users["eve"].id, run.recovered)
    return f"eve pinged after the outage: {pinged}"


def _note_refused(fake: FakeDiscord, run: sc.Run) -> str:
    return (f"{len(fake.rename_refusals)} rename refused (429: a moderator's two renames); "
            f"{sp.refused(fake)} requests refused in all")


def _note_reads(fake: FakeDiscord, run: sc.Run) -> str:
    reads = [a for a in fake.faults.answered if a.route == sp.HISTORY]
    return f"{len(reads)} history read(s) refused (503), tried again"


def _note_unread(fake: FakeDiscord, run: sc.Run) -> str:
    return ("history read empty (no Read Message History): the post goes again (one "
            "post shown twice: the design's lesser evil), the permission named once")


def _note_long_turn(fake: FakeDiscord, run: sc.Run) -> str:
    shown = sp.reminders_shown(fake, run.channels[0], run.began)
    return f"4 reminders due, {shown} shown"


def _half_second() -> tuple[Scenario, Callable[..., object]]:
    due: list[int] = []

    async def scenario(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
        run, n = await sp.reminders_every_half_second(fake, harness)
        due.append(n)
        return run

    def note(fake: FakeDiscord, run: sc.Run) -> str:
        here = run.channels[0]
        shown = sp.reminders_shown(fake, here, run.began)
        last = fake.channel_messages(here)[-1]
        return (f"{due[-1]} reminders due, {shown} shown, the rest superseded by a later one; "
                f"the newest pings: {bool(last.pinged())}")

    return scenario, note


def _note_long_backlog(fake: FakeDiscord, run: sc.Run) -> str:
    made = [m for m in fake.channel_messages(run.channels[0]) if m.t_made >= run.recovered]
    texts = sum(1 for m in made if not m.custom_ids())
    return f"150 waiting: caught up in {len(made)} messages ({texts} text, the board first)"


def _whole_game(store: str) -> Scenario:
    async def scenario(fake: FakeDiscord, harness: BotHarness) -> sc.Run:
        if store == "postgres":
            from tests.pgserver import PgServer

            server = PgServer.start(Path(tempfile.mkdtemp(prefix="sm-bench-pg-")))
            _PG.append(server)
            harness.db_path = server.new_url()  # type: ignore[assignment]
        return await sp.whole_game_with_restart(fake, harness)

    return scenario


def _note_whole_game(fake: FakeDiscord, run: sc.Run) -> str:
    """(Its *lost* are lines of the computers' long chains that a move's post cuts from its
    story by design, ``text.story_room``: ``/sanmarco game log`` has them; not a post the
    outbox lost, and the same without this branch.)"""
    return ("lost: story cut by design; "
            f"{sp.refused(fake)} requests Discord refused ({len(fake.rename_refusals)} "
            f"renames); {len(fake.renames.get(run.channels[0], []))} renames made; "
            f"archived: {fake.threads[run.channels[0]].archived}")


def _issue37() -> dict[str, tuple[Scenario, Callable[..., object] | None]]:
    return {
        "#37 a seat handed over in an outage, thread game": (sp.handed_over_in_outage,
                                                             _pinged_eve),
        "#37 a restart between two renames and a third": (sp.restart_between_renames,
                                                          _note_renames),
        "#37 a rename Discord refuses anyway (429, ~600 s)": (sp.rename_refused_by_discord,
                                                              _note_refused),
        "#37 history read 5xx, post retried past the window": (
            lambda f, h: sp.history_read(f, h, "5xx"), _note_reads),
        "#37 history read empty (no Read Message History)": (
            lambda f, h: sp.history_read(f, h, "empty"), _note_unread),
        "#37 a reminder every half second, channel limit": _half_second(),
        "#37 a two-day turn, a reminder refused in an outage": (
            sp.reminder_refused_in_outage, _note_long_turn),
        "#37 stored-then-502 told again as text past the window": (
            sp.stored_then_told_as_text, None),
        "#37 150 waiting posts": (sp.long_backlog, _note_long_backlog),
        "#37 whole game in a thread, a restart (SQLite)": (_whole_game("sqlite"),
                                                          _note_whole_game),
        "#37 whole game in a thread, a restart (PostgreSQL)": (_whole_game("postgres"),
                                                              _note_whole_game),
    }


def _scenarios() -> dict[str, tuple[Scenario, Callable[..., object] | None]]:
    out: dict[str, tuple[Scenario, Callable[..., object] | None]] = {
        "outage 20 s on posts, 2 moves by command (503)": (sc.outage_on_posts, None),
        "outage 20 s on posts, real time (502), a button move": (
            lambda f, h: sc.outage_on_posts(f, h, status=502, real_time=True), None),
        "one 503 on a command's post": (sc.post_503_on_a_command, None),
        "/sanmarco new during an outage": (sc.new_in_outage, None),
        "/sanmarco settings, 503 on its post": (sc.settings_503, None),
        "Start, lobby post deleted (10008)": (sc.start_on_deleted_lobby, None),
        "a button move's post stored, then 502": (sc.stored_then_502, None),
        "a move outlives its token (502, 502, 50027)": (sc.token_outlived, None),
        "lost View Channel (50001), 12 passes": (
            lambda f, h: sc.lost_permission(f, h, "view_channel"), _note_permission),
        "lost Send Messages (50013), 12 passes": (
            lambda f, h: sc.lost_permission(f, h, "send_messages"), _note_permission),
        "deleted channel (10003), 3 timer passes": (sc.deleted_channel, _note_deleted),
        "zombie gateway, a click delivered late (10062)": (sc.late_click, _note_late),
        "archived thread (50083), a timer move": (sc.archived_thread, None),
        "a poison post between two good ones": (sc.poison_between_good, _note_poison),
        "a permission lost, restored and lost again a month later": (
            _permission_twice, _note_waits),
        "a final move with a note behind it": (sc.final_with_note, None),
        "a 60-move backlog": (sc.backlog, _note_backlog),
        "4-player lobby renamed within ten minutes": (sc.renamed_lobby, _note_renames),
        "an outage that swallows the private answer to a saved move": (
            sc.swallowed_answer, None),
        "a 5xx-after-store retried past the nonce window": (sc.stored_past_the_nonce_window,
                                                            _note_nonce_window),
        "two DMs of one post": (sc.two_dms_of_one_post, _note_dms),
        "another process held the channel and died (its lease)": (sc.holder_dies, None),
    }
    for kind in sc.GATEWAY_FAULTS:
        out[f"gateway {kind}, then 3 moves"] = (
            lambda f, h, k=kind: sc.gateway_fault(f, h, k), None)
    out["SIGTERM mid-delivery (15 s outage on posts)"] = _sigterm()
    out.update(_issue37())
    return out


async def _one(name: str, scenario: Scenario, note: Callable[..., object] | None,
               wait: float, counter: _Tracebacks) -> Figures:
    fake = FakeDiscord()
    await fake.start()
    point_discord_at(fake)
    started = time.perf_counter()
    before = counter.count
    with tempfile.TemporaryDirectory() as tmp:
        harness = BotHarness(fake, Path(tmp) / "f.db")
        try:
            got = await scenario(fake, harness)
            run = got[0] if isinstance(got, tuple) else got
            assert isinstance(run, sc.Run)
            catch_up = await run.until_caught_up(wait)
            found = await findings(fake, run.service, run.channels, expected=run.expected)
            text = ""
            if note is not None:
                said = note(fake, run)
                text = str(await said if inspect.isawaitable(said) else said)
            if fake.refused_bodies:  # bodies Discord refuses (tests/fakediscord/limits.py)
                text = f"{len(fake.refused_bodies)} bodies refused (50035/50006); {text}"
            lost = sum(len(f.lost) + sum("never shown" in s for s in f.stale) for f in found)
            burst = max((fake.most_posts_in(c, 5.0, since=run.began)
                         for c in run.channels if c not in fake.deleted_channels), default=0)
            return Figures(name, lost, sum(len(f.duplicates) for f in found),
                           counter.count - before, catch_up, burst, text,
                           time.perf_counter() - started)
        finally:
            await harness.stop()
            await fake.close()


async def discord(wait: float, only: str | None = None) -> None:
    """Every scenario (or those whose name contains ``only``), one after the other."""
    counter = _Tracebacks()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    root.handlers[:] = [counter]
    root.setLevel(logging.WARNING)
    print(f"Discord failing as it does: the real bot against the fake Discord; catch-up "
          f"waited for at most {wait:g} s")
    print(f"{'scenario':<54} {'lost':>4} {'twice':>5} {'tracebacks':>10} {'catch-up':>9} "
          f"{'max/5 s':>7}  notes")
    try:
        for name, (scenario, note) in _scenarios().items():
            if only and only not in name:
                continue
            fig = await _one(name, scenario, note, wait, counter)
            catch_up = "never" if fig.catch_up is None else f"{fig.catch_up:.1f} s"
            print(f"{fig.name:<54} {fig.lost:>4} {fig.twice:>5} {fig.tracebacks:>10} "
                  f"{catch_up:>9} {fig.burst:>7}  {fig.note}".rstrip(), flush=True)
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        for server in _PG:
            server.stop()  # type: ignore[attr-defined]
        _PG.clear()
