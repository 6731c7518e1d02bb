"""Discord failing in the ways it does, played through the real bot: one scenario per
failure a player meets (an outage on posts, a 503, a message stored then answered 502, a
token outlived, a deleted lobby post, a lost permission, a deleted channel, a late click,
gateway reconnects, an archived thread). Shared by the acceptance tests
(tests/bot/test_discord_outages.py) and the figures (benchmarks/discord_faults.py).

Each scenario sets games up, injects its fault, acts as players would, and returns a
``Run``: the channels to check, the interactions whose change was saved (``acts``), texts
a post must show, and when Discord answered again (``recovered``, on the fake's clock).
Checking is the caller's: ``run.until_caught_up()``, then ``invariants``.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.service import LEASE_SECONDS, GameService

from .faults import CHANNEL_POST, FOLLOWUP, POSTS, WEBHOOK_MESSAGE
from .harness import BotHarness, until
from .invariants import Findings, caught_up, findings
from .messages import FakeMessage, FakeUser, InteractionRecord
from .players import Table, tag_of
from .server import FakeDiscord

# The slash commands the scenarios type, in one place (their paths may change).
NEW = "sanmarco game new"
SETTINGS = "sanmarco-server settings"
STATUS = "sanmarco status"
RULES = "sanmarco game rules"

CATCH_UP = 10.0  # seconds a post may take to arrive once Discord takes posts again
HOUR = 3600.0
T0 = 1_700_000_000.0  # the service's clock at the start of a scenario that moves it


@dataclass
class Run:
    """What a scenario did."""

    fake: FakeDiscord
    harness: BotHarness
    tables: dict[int, Table] = field(default_factory=dict)  # channel -> its players
    channels: list[int] = field(default_factory=list)  # to check afterwards
    acts: list[InteractionRecord] = field(default_factory=list)  # changes that were saved
    expected: dict[int, list[str]] = field(default_factory=dict)  # texts a post must show
    began: float = 0.0  # the fake's clock when the games were set up (the fault began)
    recovered: float = 0.0  # the fake's clock when Discord answered again
    now: list[float] = field(default_factory=lambda: [T0])  # the service's clock
    mod: FakeUser | None = None  # a member with Manage Channel
    before: dict[int, int] = field(default_factory=dict)  # channel -> version at the fault
    asked: int = 0  # requests the bot had made when the fault began

    @property
    def service(self) -> GameService:
        assert self.harness.bot is not None
        return self.harness.bot.service  # type: ignore[attr-defined, no-any-return]

    @property
    def here(self) -> Table:
        """The table the fault hits (the first channel)."""
        return self.tables[self.channels[0]]

    async def awaited(self, channel: int | None = None) -> FakeUser:
        """The player the stored game awaits (not the channel's word for it)."""
        table = self.tables[channel or self.channels[0]]
        status = await self.service.status(table.channel_id or self.fake.channel_id)
        return table.user(int(next(p for p in status.awaiting if p.isdigit())))

    async def passes(self, n: int = 1, *, every: float = HOUR) -> None:
        """``n`` periodic passes (turn timers, reminders), the clock ``every`` seconds on
        before each."""
        cog = self.harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
        for _ in range(n):
            self.now[0] += every
            await cog.reminders.run_once()
            await self.harness.settle()

    async def until_caught_up(self, timeout: float = CATCH_UP) -> float | None:
        """Seconds until every channel shows its stored game (newest prompt, Now line, the
        awaited pinged) and the texts a post must show (``expected``), from when Discord
        answered again; None if not within ``timeout``."""
        live = [c for c in self.channels if c not in self.fake.deleted_channels]

        def texts_shown(channel: int) -> bool:
            seen = "\n".join(v for m in self.fake.channel_messages(channel) for v in m.versions)
            return all(want in seen for want in self.expected.get(channel, ()))

        async def shown() -> bool:
            return all([await caught_up(self.fake, self.service, c) and texts_shown(c)
                        for c in live])

        try:
            await until(shown, timeout, what="the channels show the stored games")
        except AssertionError:
            return None
        return max(0.0, self.fake.clock.now() - self.recovered)

    async def others_play(self) -> None:
        """The channels the fault did not hit play a move each (and it is shown)."""
        for channel in self.channels[1:]:
            table = self.tables.get(channel)
            if table is not None and channel not in self.fake.deleted_channels:
                assert await table.step()
        await self.harness.settle()

    async def findings(self) -> list[Findings]:
        return await findings(self.fake, self.service, self.channels, acts=self.acts,
                              expected=self.expected)


# ---------------------------------------------------------------------- set-up
async def open_game(run: Run, channel: int, names: tuple[str, ...]) -> Table:
    """A lobby by command, joins and the start by button (all before any fault)."""
    fake = run.fake
    users = [fake.users.get(n) or fake.add_user(n) for n in names]
    lobby = fake.public_answer(await fake.slash(users[0], NEW, channel_id=channel))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await run.harness.settle()
    table = Table(fake, users, channel_id=channel)
    run.tables[channel] = table
    return table


async def start_bot(fake: FakeDiscord, harness: BotHarness, *, clock: bool = False,
                    heartbeat_timeout: float | None = None,
                    settings: dict[str, object] | None = None,
                    channels: tuple[int, ...] = (),
                    config: dict[str, object] | None = None) -> Run:
    """The bot on its own database, fixed seeds, and (``clock``) the service's clock in the
    run's hands; ``settings`` are set by a manager in ``channels`` before any game;
    ``config``: the bot's ``Config`` fields a test sets (a shorter lease)."""
    run = Run(fake, harness)
    run.mod = fake.add_user("mod", manage_channels=True)
    for name in ("ann", "bob", "cid", "dan", "eve", "fay"):
        fake.add_user(name)
    await harness.start(seed=42, heartbeat_timeout=heartbeat_timeout,
                        clock=(lambda: run.now[0]) if clock else None, **(config or {}))
    for channel in channels if settings else ():
        await fake.slash(run.mod, SETTINGS, channel_id=channel, **settings)  # type: ignore[arg-type]
    return run


async def two_games(fake: FakeDiscord, harness: BotHarness, *, here: int | None = None,
                    **start: object) -> Run:
    """A game in ``here`` (the first channel) and another in the other channel, both a
    move in."""
    here = here or fake.channel_id
    channels = (here, fake.other_channel_id)
    run = await start_bot(fake, harness, channels=channels, **start)  # type: ignore[arg-type]
    run.channels = list(channels)
    for channel, names in zip(channels, (("ann", "bob", "cid"), ("dan", "eve", "fay")),
                              strict=True):
        table = await open_game(run, channel, names)
        assert await table.step()
    await harness.settle()
    run.began = run.recovered = fake.clock.now()
    return run


async def _acting(run: Run, table: Table, act: Callable[[], Awaitable[object]]) -> None:
    """Do ``act`` and keep the interactions it made as saved changes."""
    n = len(table.interactions)
    await act()
    await run.harness.settle()
    run.acts += table.interactions[n:]


# ---------------------------------------------------------------------- the scenarios
async def outage_on_posts(fake: FakeDiscord, harness: BotHarness, *, status: int = 503,
                          seconds: float = 20.0, real_time: bool = False) -> Run:
    """An outage of ``seconds`` on every post. Today's test: two moves by command, each
    post refused at once (a 503: discord.py retries no 503 of the bot's own requests),
    then the fake's clock moves past the outage. ``real_time`` (the figures): one move by
    button, whose follow-up discord.py retries for 25 s (interaction webhooks retry every
    5xx after 1, 3, 5, 7, 9 s), in an outage of ``seconds`` of real time."""
    run = await two_games(fake, harness)
    table = run.here
    outage = fake.faults.outage(*POSTS, status=status,
                                seconds=seconds if real_time else None)
    if real_time:
        await _acting(run, table, table.step)
        assert outage.until is not None
        await asyncio.sleep(max(0.0, outage.until - fake.clock.now()))
    else:
        for _ in range(2):
            user = await run.awaited()
            await _acting(run, table, lambda u=user: table.slash_play(u))  # type: ignore[misc]
        fake.clock.advance(seconds)
        outage.stop()
    run.recovered = fake.clock.now()
    return run


async def post_503_on_a_command(fake: FakeDiscord, harness: BotHarness) -> Run:
    """One 503 on the channel post of a move made by ``/sanmarco play``."""
    run = await two_games(fake, harness)
    fake.faults.fail(CHANNEL_POST, status=503, channel=run.channels[0])
    user = await run.awaited()
    await _acting(run, run.here, lambda: run.here.slash_play(user))
    run.recovered = fake.clock.now()
    return run


async def new_in_outage(fake: FakeDiscord, harness: BotHarness) -> Run:
    """``/sanmarco new`` while posts fail; the outage ends."""
    run = await start_bot(fake, harness)
    other = await open_game(run, fake.other_channel_id, ("dan", "eve", "fay"))
    run.channels = [fake.channel_id, fake.other_channel_id]
    ann = fake.users["ann"]
    run.tables[fake.channel_id] = Table(fake, [ann, fake.users["bob"], fake.users["cid"]],
                                        channel_id=fake.channel_id)
    run.began = fake.clock.now()
    with fake.faults.outage(*POSTS):
        run.acts.append(await fake.slash(ann, NEW, channel_id=fake.channel_id))
        await harness.settle()
    run.recovered = fake.clock.now()
    assert await other.step()
    return run


async def settings_503(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A manager changes the turn timer; the channel post answers 503 once."""
    run = await two_games(fake, harness)
    assert run.mod is not None
    fake.faults.fail(CHANNEL_POST, status=503, channel=run.channels[0])
    run.acts.append(await fake.slash(run.mod, SETTINGS, channel_id=run.channels[0],
                                     turn_timer=24.0))
    await harness.settle()
    run.expected[run.channels[0]] = ["24 hours"]
    run.recovered = fake.clock.now()
    return run


async def start_on_deleted_lobby(fake: FakeDiscord, harness: BotHarness) -> Run:
    """Start is pressed on the lobby, and a user deletes the lobby post before the bot
    edits it (10008 Unknown Message)."""
    run = await start_bot(fake, harness)
    await open_game(run, fake.other_channel_id, ("dan", "eve", "fay"))
    run.channels = [fake.channel_id, fake.other_channel_id]
    ann, bob, cid = (fake.users[n] for n in ("ann", "bob", "cid"))
    lobby = fake.public_answer(await fake.slash(ann, NEW))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    run.began = fake.clock.now()
    rec = await fake.click(ann, lobby, lobby.component("start")["custom_id"], wait=False)
    await asyncio.wait_for(rec.answered.wait(), 10)  # deferred: the bot is at work
    await fake.delete_message(lobby)
    await asyncio.wait_for(rec.handled.wait(), 30)
    await harness.settle()
    run.acts.append(rec)
    run.tables[fake.channel_id] = Table(fake, [ann, bob, cid], channel_id=fake.channel_id)
    run.recovered = fake.clock.now()
    return run


async def stored_then_502(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A move chosen in the private panel whose post Discord stores, then answers 502
    (discord.py tries it again a second later)."""
    run = await two_games(fake, harness)
    panel, pick = await open_move_select(run.here, await run.awaited())
    fake.faults.stored_then(*POSTS, status=502, channel=run.channels[0])
    await _acting(run, run.here, lambda: choose(run.here, panel, pick))
    run.recovered = fake.clock.now()
    return run


async def token_outlived(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A move chosen in the private panel whose post meets two 502s, after which its
    interaction token has expired (the third try: 401 50027 Invalid Webhook Token)."""
    run = await two_games(fake, harness)
    panel, pick = await open_move_select(run.here, await run.awaited())
    fake.faults.fail(*POSTS, status=502, times=2, channel=run.channels[0],
                     then=fake.expire_tokens)
    await _acting(run, run.here, lambda: choose(run.here, panel, pick))
    run.recovered = fake.clock.now()
    return run


async def lost_permission(fake: FakeDiscord, harness: BotHarness, permission: str, *,
                          passes: int = 12) -> Run:
    """The bot loses ``permission`` (view_channel or send_messages) in a game's channel;
    the periodic pass runs 13 hours later and then every 5 minutes, ``passes`` in all."""
    run = await two_games(fake, harness, clock=True)
    fake.deny(run.channels[0], permission)
    await fake.announce(run.channels[0])
    run.recovered = fake.clock.now()
    await run.passes(1, every=13 * HOUR)
    await run.passes(passes - 1, every=300.0)
    return run


async def deleted_channel(fake: FakeDiscord, harness: BotHarness, *, tell: bool = True) -> Run:
    """A game's channel is deleted; turn timers of 2 hours; three passes 3 hours apart.
    ``tell``: the bot hears CHANNEL_DELETE (else it missed it, and meets 10003 Unknown
    Channel when it next posts there)."""
    run = await two_games(fake, harness, clock=True,
                          settings={"turn_timer": 2.0, "reminder_hours": 1.0})
    run.before = {c: (await run.service.status(c)).version for c in run.channels}
    run.asked = len(fake.requests)
    await fake.delete_channel(run.channels[0], tell=tell)
    run.recovered = fake.clock.now()
    players = run.tables[run.channels[0]].users

    async def listed_as_gone() -> bool:  # what its players read in /sanmarco-server games
        games = await run.service.my_games(fake.guild_id, str(players[0].id))
        return bool(games) and all(g.suspended for g in games)

    if tell:
        await until(listed_as_gone, what="the game listed as suspended")
    await run.passes(3, every=3 * HOUR)
    await until(listed_as_gone, what="the game listed as suspended")
    return run


async def late_click(fake: FakeDiscord, harness: BotHarness) -> tuple[Run, InteractionRecord]:
    """The gateway connection goes stale (a zombie) while a player chooses a move; the
    bot notices, resumes, and Discord delivers the choice 5 s after it was made: too late
    to answer (10062)."""
    fake.heartbeat_interval = 100
    run = await two_games(fake, harness, heartbeat_timeout=1.0)
    panel, pick = await open_move_select(run.here, await run.awaited())
    resumes = fake.resumes
    fake.zombie()
    rec = await fake.select(await run.awaited(), panel, pick["custom_id"],
                            [pick["options"][0]["value"]], wait=False)
    fake.clock.advance(5.0)
    await until(lambda: fake.resumes > resumes, 15, what="the bot resumed")
    await asyncio.wait_for(rec.handled.wait(), 15)
    await harness.settle()
    run.recovered = fake.clock.now()
    return run, rec


async def choose(table: Table, panel: FakeMessage, pick: dict[str, Any]) -> None:
    """The panel's user chooses the first move the select offers."""
    user = table.user(next(r.user.id for r in reversed(table.interactions)
                           if r.original is panel or panel in r.messages))
    # Waits for the bot to be done, not for an answer: there may be none (a dead token).
    rec = await table.fake.select(user, panel, pick["custom_id"],
                                  [pick["options"][0]["value"]], wait=False)
    await asyncio.wait_for(rec.handled.wait(), 60)
    table.interactions.append(rec)


async def open_move_select(table: Table, user: FakeUser
                           ) -> tuple[FakeMessage, dict[str, Any]]:
    """Open the awaited player's move panel and go to the select of the moves themselves."""
    post = table.fake.last_channel_message(table.channel_id)
    nxt = next(c for c in post.custom_ids() if tag_of(c) == "next")
    panel = (await table.click(user, post, nxt)).response
    for _ in range(5):
        comps = {tag_of(c.get("custom_id", "")): c for c in panel.all_components()}
        if "pick" in comps:
            return panel, comps["pick"]
        tag = next(t for t in ("card", "grp") if t in comps)
        await table.select(user, panel, comps[tag]["custom_id"],
                           [comps[tag]["options"][0]["value"]])
    raise AssertionError("no move select")


GATEWAY_FAULTS = ("op 7 reconnect", "op 9 resumable", "op 9 not resumable", "close 4000",
                  "close 4009", "close 1006", "zombie")


async def gateway_fault(fake: FakeDiscord, harness: BotHarness, kind: str) -> Run:
    """Mid-game, the gateway does ``kind``; a move is under way meanwhile (its click is
    delivered once the bot is back, for the faults whose session resumes)."""
    zombie = kind == "zombie"
    fake.heartbeat_interval = 100 if zombie else fake.heartbeat_interval
    run = await two_games(fake, harness, heartbeat_timeout=1.0 if zombie else None)
    back = fake.resumes + fake.identifies
    if kind == "op 7 reconnect":
        await fake.reconnect()
    elif kind.startswith("op 9"):
        await fake.invalid_session(resumable=kind == "op 9 resumable")
    elif kind.startswith("close"):
        await fake.close_gateway(int(kind.split()[1]))
    else:
        fake.zombie()
        await _acting(run, run.here, run.here.step)  # delivered after the RESUME
    await until(lambda: fake.resumes + fake.identifies > back and fake.holds(fake.guild_id),
                15, what="the bot is back on the gateway")
    run.recovered = fake.clock.now()
    for _ in range(3):
        await _acting(run, run.here, run.here.step)
    return run


async def archived_thread(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A game in a thread that Discord archives; its turn timer then makes a move."""
    thread = fake.add_thread(fake.channel_id)
    run = await two_games(fake, harness, here=thread, clock=True,
                          settings={"turn_timer": 2.0, "reminder_hours": 0.0})
    await fake.archive(thread)
    run.recovered = fake.clock.now()
    await run.passes(1, every=3 * HOUR)
    return run


async def permission_lost_twice(fake: FakeDiscord, harness: BotHarness,
                                permission: str = "send_messages", *,
                                waits: list[float] | None = None) -> Run:
    """The bot loses ``permission`` in a game's channel (a reminder is refused: its posts
    wait), gets it back (the held post goes, a move is posted), and loses it again a month
    later (the next reminder is refused), then gets it back for good. ``waits``: the wait
    each refusal set, as the store holds it (a minute each time: the back-off starts over
    once Discord takes posts again)."""
    run = await two_games(fake, harness, clock=True)
    here = run.channels[0]

    async def refused() -> None:
        fake.deny(here, permission)
        await fake.announce(here)
        await run.passes(1, every=13 * HOUR)  # a reminder is due: Discord refuses it

        async def held() -> bool:
            return (await run.service.place(here)) is not None

        await until(held, CATCH_UP, what="the channel's posts held")
        place = await run.service.place(here)
        if waits is not None and place is not None:
            waits.append(place.backoff)

    async def restored() -> None:
        fake.allow(here, permission)
        await fake.announce(here)
        await run.passes(1, every=2 * 60.0)  # the wait is over: the held posts go
        await until(lambda: caught_up(fake, run.service, here), CATCH_UP,
                    what="the held posts sent")

    await refused()
    await restored()
    await _acting(run, run.here, run.here.step)  # Discord takes the move's post
    await run.others_play()  # (each reminder of a month is of another decision)
    run.now[0] += 30 * 24 * HOUR
    await refused()
    await restored()
    run.recovered = fake.clock.now()
    return run


POISON = "24 hours"  # what the poison post says (a settings change): Discord refuses it


async def poison_between_good(fake: FakeDiscord, harness: BotHarness, *,
                              refused: bool = True) -> Run:
    """Three posts wait behind an outage: a move, a settings change whose body Discord
    will never take (400, 50035 Invalid Form Body, each time it holds ``POISON``), and
    another move. The outage ends: the moves go out; the poison post is tried alone,
    then replaced by its minimal post (the Now line, buttons, pings). ``refused`` False:
    Discord would take it (the caller makes it fail otherwise)."""
    run = await two_games(fake, harness)
    here = run.channels[0]
    table = run.here
    assert run.mod is not None
    outage = fake.faults.outage(*POSTS, channel=here)
    if refused:
        fake.faults.fail(CHANNEL_POST, status=400, code=50035, times=None, channel=here,
                         content=POISON)
    user = await run.awaited()
    await _acting(run, table, lambda: table.slash_play(user))
    run.acts.append(await fake.slash(run.mod, SETTINGS, channel_id=here, turn_timer=24.0))
    await harness.settle()
    user = await run.awaited()
    await _acting(run, table, lambda: table.slash_play(user))
    outage.stop()
    run.recovered = fake.clock.now()
    return run

# ---------------------------------------------------------------------- a thread's renames
async def _in_thread(fake: FakeDiscord, harness: BotHarness) -> Run:
    """The bot opening games in threads (its default), the service's clock the run's."""
    run = Run(fake, harness)
    for name in ("ann", "bob", "cid", "dan", "eve", "fay"):
        fake.users.get(name) or fake.add_user(name)
    await harness.start(seed=42, game_threads=True, clock=lambda: run.now[0])
    return run


async def _lobby_thread(run: Run, opener: FakeUser, seats: int) -> tuple[int, FakeMessage]:
    """``/sanmarco game new`` by ``opener``: the new thread and its lobby post."""
    fake = run.fake
    rec = await fake.slash(opener, NEW, seats=seats)
    found = re.search(r"<#(\d+)>", rec.response.content)
    assert found, rec.response.content
    thread = int(found[1])
    await until(lambda: bool(fake.channel_messages(thread)), what="the lobby is posted")
    run.acts.append(rec)
    run.channels.append(thread)
    return thread, fake.channel_messages(thread)[0]


async def renamed_lobby(fake: FakeDiscord, harness: BotHarness, *, fill: bool = False
                        ) -> Run:
    """A four-seat lobby in a thread filled, changed and started within ten minutes: bob,
    cid and dan join (the third rename waits for Discord's window), dan leaves, ann adds a
    computer and starts (``fill``: ``/sanmarco game start fill:True`` instead); then three
    moves. Each seat change asks for a rename."""
    run = await _in_thread(fake, harness)
    ann, bob, cid, dan = (fake.users[n] for n in ("ann", "bob", "cid", "dan"))
    thread, lobby = await _lobby_thread(run, ann, 4)
    clicks = [(bob, "join"), (cid, "join"), (dan, "join"), (dan, "leave")]
    for user, tag in clicks + ([] if fill else [(ann, "cpu"), (ann, "start")]):
        run.acts.append(await fake.click(user, lobby, lobby.component(tag)["custom_id"]))
    if fill:
        run.acts.append(await fake.slash(ann, "sanmarco game start", channel_id=thread,
                                         fill=True))
    await harness.settle()
    table = run.tables[thread] = Table(fake, [ann, bob, cid], channel_id=thread)
    run.began = run.recovered = fake.clock.now()
    for _ in range(3):
        await _acting(run, table, table.step)
    return run


async def handed_over_twice(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A three-seat game in a thread (two renames for bob's and cid's joins), then ann
    hands her seat to eve and, a move later, bob his to fay, within ten minutes (two
    renames Discord's limit holds back, the first made moot by the second); a move after
    each."""
    run = await _in_thread(fake, harness)
    ann, bob, cid, eve, fay = (fake.users[n] for n in ("ann", "bob", "cid", "eve", "fay"))
    thread, lobby = await _lobby_thread(run, ann, 3)
    for user, tag in ((bob, "join"), (cid, "join"), (ann, "start")):
        run.acts.append(await fake.click(user, lobby, lobby.component(tag)["custom_id"]))
    await harness.settle()
    table = run.tables[thread] = Table(fake, [ann, bob, cid, eve, fay], channel_id=thread)
    run.began = run.recovered = fake.clock.now()
    for old, new in ((ann, eve), (bob, fay)):
        run.acts.append(await fake.slash(old, "sanmarco seat replace", channel_id=thread,
                                         player=str(old.id), by=new))
        await harness.settle()
        await _acting(run, table, table.step)
    return run


async def rematch_abandoned(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A four-seat game in a thread whose players all hand their seats to the computer,
    which plays it to the end; ann presses Rematch (a new thread, the others asked back),
    bob, cid and dan join (the third rename is held) and ann abandons the lobby at once."""
    run = await _in_thread(fake, harness)
    users = [fake.users[n] for n in ("ann", "bob", "cid", "dan")]
    thread, lobby = await _lobby_thread(run, users[0], 4)
    for user, tag in ((users[1], "join"), (users[2], "join"), (users[3], "join"),
                      (users[0], "start")):
        run.acts.append(await fake.click(user, lobby, lobby.component(tag)["custom_id"]))
    for user in users:
        await fake.slash(user, "sanmarco seat replace", channel_id=thread, player=str(user.id))
    await until(lambda: any("Game over!" in m.content for m in fake.channel_messages(thread)),
                30, what="the computers end the game")
    final = next(m for m in fake.channel_messages(thread) if "Game over!" in m.content)
    pressed = await fake.click(users[0], final, final.component("again")["custom_id"])
    found = re.search(r"<#(\d+)>", pressed.private[-1].content)
    assert found, pressed.private[-1].content
    again = int(found[1])
    run.channels.append(again)
    await until(lambda: bool(fake.channel_messages(again)), what="the rematch's lobby")
    rematch = fake.channel_messages(again)[0]
    for user in users[1:]:
        run.acts.append(await fake.click(user, rematch, rematch.component("join")["custom_id"]))
    run.acts.append(await fake.slash(users[0], "sanmarco game abandon", channel_id=again))
    await harness.settle()
    run.began = run.recovered = fake.clock.now()
    return run


# ---------------------------------------------------------------------- long catch-ups
async def _move(run: Run, channel: int, rng: random.Random) -> None:
    """A legal move of whoever the game awaits, made through the service (no interaction:
    nothing wakes the channel's deliverer, its post waits in the outbox)."""
    status = await run.service.status(channel)
    pid = next(p for p in status.awaiting if p.isdigit())
    snap = await run.service.snapshot(channel, pid, turn=True)
    await run.service.act(channel, pid, rng.choice(snap.legal))


async def final_with_note(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A game played to its last move (each move's post delivered), then the final move is
    committed and, before its post goes, a manager changes the channel's settings: the
    final post and the settings note wait together."""
    run = await two_games(fake, harness)
    channel = run.channels[0]
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    rng = random.Random(29)
    while True:
        run.began = fake.clock.now()
        await _move(run, channel, rng)
        if (await run.service.status(channel)).finished:
            break
        await cog.deliverer.flush(channel, fake.guild_id)
    assert run.mod is not None
    run.acts.append(await fake.slash(run.mod, SETTINGS, channel_id=channel, turn_timer=24.0))
    await harness.settle()
    run.expected[channel] = ["24 hours"]
    run.recovered = fake.clock.now()
    return run


# ---------------------------------------------------------------------- Discord's nonces
NONCE_WINDOW = 5.0  # the fake keeps a nonce this long in these scenarios (Discord: minutes)


async def stored_past_the_nonce_window(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A move's post Discord stores and answers 503, then Discord is down for longer than
    it keeps nonces (ten minutes on both clocks; the fake forgets after ``NONCE_WINDOW``):
    the try after the outage must not show the post twice."""
    fake.nonce_window = NONCE_WINDOW
    run = await two_games(fake, harness, clock=True)
    here = run.channels[0]
    panel, pick = await open_move_select(run.here, await run.awaited())
    fake.faults.stored_then(CHANNEL_POST, status=503, channel=here)
    outage = fake.faults.outage(CHANNEL_POST, channel=here)
    await _acting(run, run.here, lambda: choose(run.here, panel, pick))
    fake.clock.advance(600.0)
    run.now[0] += 600.0
    outage.stop()
    run.recovered = fake.clock.now()
    cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
    cog.deliverer.wake(here, fake.guild_id)  # as a new change there or the pass would

    async def sent() -> bool:
        return not await run.service.pending_posts(here)

    await until(sent, CATCH_UP, what="the post tried again leaves the outbox")
    return run


async def two_dms_of_one_post(fake: FakeDiscord, harness: BotHarness) -> Run:
    """Four players who chose DMs play until a post starts two distributors' decisions
    at once: each gets their own DM (Discord deduplicates nonces by author)."""
    run = await start_bot(fake, harness)
    names = ("ann", "bob", "cid", "dan")
    for name in names:
        await run.service.set_notify_mode(fake.guild_id, str(fake.users[name].id), "dm")
    users = [fake.users[name] for name in names]
    lobby = fake.public_answer(await fake.slash(users[0], NEW, seats=4))
    for user in users[1:]:
        await fake.click(user, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = run.tables[fake.channel_id] = Table(fake, users)
    run.channels = [fake.channel_id]
    for _ in range(60):
        await _acting(run, table, table.step)
        if len(dm_posts(fake)) < len(dm_requests(fake)):  # some post DMed two players
            break
    run.recovered = fake.clock.now()
    return run


async def backlog(fake: FakeDiscord, harness: BotHarness, *, moves: int = 60,
                  deliver: bool = True) -> tuple[Run, int]:
    """A game whose next ``moves`` moves were committed while no deliverer ran (as after a
    restart: the players' moves made through the service, a legal one each, their posts
    waiting in the outbox), then (``deliver``) the deliverer's start-up pass. Returns the
    run and how many posts waited."""
    run = await two_games(fake, harness)
    channel = run.channels[0]
    rng = random.Random(29)
    for _ in range(moves):
        await _move(run, channel, rng)
    waiting = len(await run.service.pending_posts(channel))
    run.recovered = fake.clock.now()
    if deliver:
        cog = harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]
        await cog.deliverer.resume()  # as at start-up
    return run, waiting


async def swallowed_answer(fake: FakeDiscord, harness: BotHarness) -> Run:
    """A move chosen in the private panel while Discord is down for posts and private
    answers alike: the move is saved, its post refused, and the private answer (the panel's
    edit) meets a 503 at each of discord.py's five tries (about 16 s); Discord answers again
    right after the last of them, so an apology sent then would be read."""
    run = await two_games(fake, harness)
    panel, pick = await open_move_select(run.here, await run.awaited())
    outage = fake.faults.outage(CHANNEL_POST, channel=run.channels[0])
    fake.faults.fail(FOLLOWUP, f"PATCH {WEBHOOK_MESSAGE}", status=503, times=5,
                     channel=run.channels[0], ephemeral=True, then=outage.stop)
    run.before = {run.channels[0]: (await run.service.status(run.channels[0])).version}
    await _acting(run, run.here, lambda: choose(run.here, panel, pick))
    run.recovered = fake.clock.now()
    return run


async def sigterm_mid_delivery(fake: FakeDiscord, harness: BotHarness, *,
                               seconds: float = 15.0) -> tuple[Run, int | None]:
    """SIGTERM (the bot's ``shutdown``, as ``python -m bot`` calls it) while a move in each
    game waits behind an outage of ``seconds`` of real time on channel posts, then a new
    start on the same file. Shorter than the shutdown's bound, the posts go out before the
    bot stops; longer, they stay in the outbox and the next start sends them. Returns the
    run and how many posts the stop left."""
    run = await two_games(fake, harness)
    outage = fake.faults.outage(CHANNEL_POST, seconds=seconds)
    for channel in run.channels:
        await _acting(run, run.tables[channel], run.tables[channel].step)
    bot = harness.bot
    assert bot is not None
    left: int | None = await bot.shutdown("SIGTERM")  # type: ignore[attr-defined]
    await harness.stop()
    await harness.start(seed=42)
    assert outage.until is not None
    run.recovered = max(outage.until, fake.clock.now())
    return run, left


def dm_requests(fake: FakeDiscord) -> dict[tuple[int, str], int]:
    """(DM channel, nonce) of every DM the bot sent, and how often."""
    asked: dict[tuple[int, str], int] = {}
    for rec in fake.requests:
        if rec.route == CHANNEL_POST and rec.channel in fake.dm_channels and rec.json:
            key = (rec.channel, str(rec.json.get("nonce")))
            asked[key] = asked.get(key, 0) + 1
    return asked


def dm_posts(fake: FakeDiscord) -> set[str]:
    """The posts DMs were sent for (their nonce up to the DM's own ``d…``)."""
    return {nonce.rsplit("d", 1)[0] for _, nonce in dm_requests(fake)}


def dms_lost(fake: FakeDiscord) -> list[str]:
    """The DMs the bot sent that their player does not have (answered with another's)."""
    return [f"{fake.dm_channels[channel].name}: DM {nonce}"
            for channel, nonce in dm_requests(fake)
            if not any(m.nonce == nonce for m in fake.dms(fake.dm_channels[channel]))]


async def holder_dies(fake: FakeDiscord, harness: BotHarness) -> Run:
    """Another process held the channel (its lease in the store) and died: a move's post
    waits for its lease to run out, then this process takes the channel over (a pass
    after the lease's length)."""
    run = await two_games(fake, harness, clock=True)
    here = run.channels[0]
    assert await run.service.take_lease(here, "dead:1")
    await _acting(run, run.here, run.here.step)
    await run.service.store.execute_sql(  # its lease ran out (the database's clock moved on)
        "UPDATE leases SET until = until - ? WHERE owner = ?", LEASE_SECONDS + 1.0, "dead:1")
    await run.passes(1, every=LEASE_SECONDS + 1.0)
    run.recovered = fake.clock.now()
    return run
