"""Games that keep moving over days, through the fake Discord with the real
discord.py client, the real cog, service, store and engine, and an injected clock (nothing
sleeps: every due time comes from stored timestamps, so a restart changes nothing).

/sanmarco-server settings; the turn timer's default moves (quiet hours in another time zone, across
a restart, three in a row hand the seat over, reclaim); /sanmarco-server notify with DMs delivered,
refused and falling back; /sanmarco-server games; /sanmarco game undo and the Undo button."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import engine
from bot import text
from bot.computers import EngineComputers
from bot.i18n import ENGLISH as EN
from bot.service import open_service
from bot.service.errors import Code, ServiceError
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import PNG

HOUR = 3600.0
TOKYO = ZoneInfo("Asia/Tokyo")


async def _game(fake: FakeDiscord, harness: BotHarness, names: tuple[str, ...] = (
        "ann", "bob", "cid"), *, seed: int = 42, clock: object = None,
        before: object = None) -> tuple[FakeUser, ...]:
    """Users, the bot, a lobby by command, joins by button, the start by button."""
    users = tuple(fake.add_user(n) for n in names)
    await harness.start(seed=seed, clock=clock)  # type: ignore[arg-type]
    if before is not None:
        await before()  # type: ignore[operator]
    lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new", seats=len(users)))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    return users


async def _state(harness: BotHarness, channel: int) -> str:
    row = await harness.bot.service.store.latest_game(channel)  # type: ignore[union-attr]
    assert row is not None and row.state is not None
    return row.state


def _last_line(message: object) -> str:
    return message.content.splitlines()[-1]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- settings
async def test_settings_are_shown_to_all_and_changed_by_manage_channel(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann, mod = fake.add_user("ann"), fake.add_user("mod", manage_channels=True)
    await harness.start(seed=1)
    rec = await fake.slash(ann, "sanmarco-server settings")
    shown = rec.response.content
    assert rec.response.ephemeral
    for line in ("Reminders: every 12 hours", "Quiet hours: none", "Time zone: UTC",
                 "Turn timer: off", "Computer for absent players: normal",
                 "Members with Manage Channel can change them"):
        assert line in shown, shown
    rec = await fake.slash(ann, "sanmarco-server settings", turn_timer=24.0)
    assert rec.response.ephemeral
    assert rec.response.content == text.refusal(EN, Code.SETTINGS_PERMISSION)
    assert (await harness.bot.service.settings(fake.channel_id)).turn_timer_hours == 0

    zones = await fake.autocomplete(mod, "sanmarco-server settings", "timezone", timezone="berl")
    assert "Europe/Berlin" in [c["value"] for c in zones] and len(zones) <= 25
    levels = next(o for o in fake._find_command("sanmarco-server")["options"]
                  if o["name"] == "settings")["options"]
    level_choices = next(o for o in levels if o["name"] == "computer_level")["choices"]
    assert [c["value"] for c in level_choices] == list(engine.ai.LEVELS)

    rec = await fake.slash(mod, "sanmarco-server settings", turn_timer=24.0, quiet_from=22,
                           quiet_to=7, timezone="Europe/Berlin", computer_level="easy",
                           reminder_hours=0.0)
    post = fake.public_answer(rec).content
    assert rec.response.content == text.posted(EN)
    assert f"<@{mod.id}> changed this channel's settings" in post
    for line in ("Reminders: off", "Quiet hours: 22:00–07:00", "Time zone: Europe/Berlin",
                 "Turn timer: 24 hours per decision", "Computer for absent players: easy"):
        assert line in post, post
    for options, code in (({"timezone": "Mars/Olympus_Mons"}, Code.TIMEZONE),
                          ({"quiet_from": 3}, Code.QUIET_HOURS),
                          ({"turn_timer": 0.1}, Code.TURN_TIMER)):
        rec = await fake.slash(mod, "sanmarco-server settings", **options)
        assert rec.response.ephemeral and rec.response.content == text.refusal(EN, code), options
    # the channel keeps them: after a restart, and for the next game
    await harness.stop()
    await harness.start(seed=1)
    shown = (await fake.slash(mod, "sanmarco-server settings")).response.content
    assert "Turn timer: 24 hours" in shown and "Change them with" in shown
    rec = await fake.slash(mod, "sanmarco-server settings", quiet_from=5, quiet_to=5)
    assert "Quiet hours: none" in fake.public_answer(rec).content


# ---------------------------------------------------------------------- the turn timer
async def test_the_timer_fires_across_a_restart_after_quiet_hours_in_tokyo(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [datetime(2024, 3, 1, 21, 0, tzinfo=TOKYO).timestamp()]
    mod = fake.add_user("mod", manage_channels=True)

    async def settings() -> None:
        await fake.slash(mod, "sanmarco-server settings", turn_timer=2.0, quiet_from=22, quiet_to=7,
                         timezone="Asia/Tokyo", reminder_hours=0.0)

    users = await _game(fake, harness, clock=lambda: now[0], before=settings)
    post = fake.last_channel_message()
    absent = next(u for u in users if u.id == awaited_ids(post)[0])
    state = await _state(harness, fake.channel_id)
    now[0] += 2 * HOUR + 60  # 23:01 in Tokyo: only one hour counted before quiet hours
    await harness.bot.get_cog("SanMarco").reminders.run_once()
    assert fake.last_channel_message() is post and await _state(
        harness, fake.channel_id) == state

    await harness.stop()  # a restart: nothing about the timer lives in memory
    await harness.start(seed=42, clock=lambda: now[0])
    now[0] = datetime(2024, 3, 2, 7, 59, tzinfo=TOKYO).timestamp()
    await harness.bot.get_cog("SanMarco").reminders.run_once()
    assert fake.last_channel_message() is post
    now[0] = datetime(2024, 3, 2, 8, 0, tzinfo=TOKYO).timestamp()
    await harness.bot.get_cog("SanMarco").reminders.run_once()
    await harness.settle()
    timed = fake.last_channel_message()
    assert timed is not post
    assert timed.content.startswith(f"<@{absent.id}>'s time ran out; the computer ")
    assert timed.files and timed.files[0][1].startswith(PNG)
    assert _last_line(timed).startswith("**Now** — ")
    assert timed.custom_ids()  # the next player's prompt, like any move's post
    status = await harness.bot.service.status(fake.channel_id)
    assert str(absent.id) not in status.computers  # the seat stays theirs
    await harness.bot.get_cog("SanMarco").reminders.run_once()  # once, not again
    assert fake.last_channel_message() is timed
    assert (await harness.bot.service.audit(fake.channel_id)).ok


async def test_three_timeouts_in_a_row_hand_the_seat_to_the_computer_until_reclaim(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [1_700_000_000.0]
    mod = fake.add_user("mod", manage_channels=True)

    async def settings() -> None:
        await fake.slash(mod, "sanmarco-server settings", turn_timer=1.0, reminder_hours=0.0)

    users = await _game(fake, harness, clock=lambda: now[0], before=settings)
    absent = next(u for u in users if u.id == awaited_ids(fake.last_channel_message())[0])
    table = Table(fake, [u for u in users if u is not absent])
    timed_out = []
    for _ in range(200):
        post = fake.last_channel_message()
        if "third decision in a row" in post.content:
            break
        if absent.id in awaited_ids(post):
            now[0] += HOUR
            await harness.bot.get_cog("SanMarco").reminders.run_once()
            await harness.settle()
            timed_out.append(fake.last_channel_message())
        else:
            assert await table.step()
            await harness.settle()
    handed = fake.last_channel_message()
    assert len(timed_out) == 3 and handed is timed_out[-1]
    assert all(m.content.startswith(f"<@{absent.id}>'s time ran out") for m in timed_out)
    assert "until they come back with `/sanmarco seat reclaim`" in handed.content
    status = await harness.bot.service.status(fake.channel_id)
    assert str(absent.id) in status.computers
    assert str(absent.id) not in status.awaiting  # the computer moved for them at once
    rec = await fake.slash(absent, "sanmarco seat reclaim")
    back = fake.public_answer(rec).content
    assert "plays their own seat again" in back
    assert back.splitlines()[-1].startswith("**Now** — ")
    status = await harness.bot.service.status(fake.channel_id)
    assert str(absent.id) not in status.computers
    assert (await harness.bot.service.audit(fake.channel_id)).ok


async def test_the_periodic_pass_reminds_times_out_and_expires_on_the_services_clock(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """One clock: the bot's periodic pass (reminders, turn timers, lobby expiry) asks the
    time of the service it was given, never the machine's. The game is played in 2100,
    decades after this machine's clock, so a pass that asked the machine would find
    nothing due; each thing happens exactly when the service's clock says it is due."""
    now = [datetime(2100, 3, 1, 9, 0, tzinfo=UTC).timestamp()]
    service = await open_service(str(harness.db_path), clock=lambda: now[0],
                                 seeds=lambda: 42, computers=EngineComputers())
    try:
        ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
        await harness.start(service=service)  # the bot is given the service, not a clock
        guild, channel = fake.guild_id, fake.channel_id
        await service.set_settings(channel, reminder_hours=1.0, turn_timer_hours=2.0)
        await service.create_lobby(guild, channel, str(ann.id), seats=3, name=ann.name)
        for user in (bob, cid):
            await service.join(channel, str(user.id), name=user.name)
        await service.start(channel, str(ann.id))
        await service.create_lobby(guild, fake.other_channel_id, str(ann.id), name=ann.name)
        awaited = set((await service.status(channel)).awaiting)
        passes = harness.bot.get_cog("SanMarco").reminders  # type: ignore[union-attr]

        async def run_pass() -> list[FakeMessage]:
            before = len(fake.channel_messages(channel))
            await passes.run_once()
            await harness.settle()
            return list(fake.channel_messages(channel)[before:])

        # What the service committed (the lobby, the start) reaches the channel at once.
        assert [m.content.splitlines()[0] for m in await run_pass()] == [
            "**San Marco begins!**"]
        now[0] += HOUR - 60  # 59 minutes: nothing is due yet
        assert await run_pass() == []
        now[0] += 2 * 60  # an hour and a minute: the awaited players are reminded
        [reminder] = await run_pass()
        assert reminder.content.startswith("Reminder — ")
        assert f"<t:{int(now[0] - HOUR - 60)}:R>" in reminder.content  # waiting since then
        assert reminder.pinged() == {int(p) for p in awaited}
        assert await run_pass() == []  # reminded once, not again
        now[0] += HOUR  # two hours and a minute: the turn timer ran out
        [timed] = await run_pass()
        assert "'s time ran out; the computer " in timed.content
        assert (await service.status(fake.other_channel_id)).status == "lobby"
        now[0] += 24 * HOUR  # a day after it was opened, the lobby nobody started closes
        await run_pass()
        assert (await service.status(fake.other_channel_id)).status == "abandoned"
        [lobby] = fake.channel_messages(fake.other_channel_id)
        assert lobby.content == text.lobby_closed(EN, "expired")
        assert not lobby.custom_ids()  # nothing left to press
        now[0] += 24 * HOUR  # and a day later it goes
        await run_pass()
        try:
            await service.status(fake.other_channel_id)
        except ServiceError as exc:
            assert exc.code == Code.NO_GAME
        else:
            raise AssertionError("the old lobby was kept")
        assert (await service.audit(channel)).ok
    finally:
        await harness.stop()
        await service.close()


# ---------------------------------------------------------------------- notifications
async def test_dms_delivered_refused_falling_back_once_and_reminders_alike(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [1_700_000_000.0]
    ann, bob, cid = (fake.add_user(n) for n in ("ann", "bob", "cid"))
    cid.dms_open = False
    await harness.start(seed=42, clock=lambda: now[0])
    for user, how in ((ann, "both"), (bob, "dm"), (cid, "dm")):
        rec = await fake.slash(user, "sanmarco-server notify", how=how)
        assert rec.response.ephemeral and text.notify_mode(EN, how) in rec.response.content
    assert "a mention" in (await fake.slash(
        fake.add_user("dee"), "sanmarco-server notify")).response.content  # the default
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new"))
    for u in (bob, cid):
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, [ann, bob, cid])
    for _ in range(12):  # every player's decision starts at least twice
        assert await table.step()
        await harness.settle()
    channel = fake.channel_messages()
    fallbacks = [m for m in channel if m.content.startswith("I could not send a direct")]
    # bob (DMs open): DMs with a link to the post, never pinged in the channel
    bob_dms = fake.dms(bob)
    assert bob_dms and all(bob.id not in m.pinged() for m in channel), [
        (m.content[:80], m.allowed_mentions, m.edits) for m in channel if bob.id in m.pinged()]
    for dm in bob_dms:
        assert dm.content.startswith("Your turn in San Marco: ")
        link = re.search(r"https://discord.com/channels/(\d+)/(\d+)/(\d+)", dm.content)
        assert link and int(link[2]) == fake.channel_id
        assert fake.messages[int(link[3])].channel_id == fake.channel_id
    # ann (both): pinged in posts and DMed
    assert fake.dms(ann) and any(ann.id in m.pinged() for m in channel)
    # cid (DMs closed): no DM arrived; one mention instead, and after that mentions
    assert fake.dms(cid) == []
    assert len(fallbacks) == 1 and fallbacks[0].pinged() == {cid.id}
    assert _last_line(fallbacks[0]).startswith("**Now** — ") and f"<@{cid.id}>" in \
        _last_line(fallbacks[0])
    later = [m for m in channel if m.id > fallbacks[0].id and cid.id in m.pinged()]
    assert later, "after the refusal cid is mentioned"
    dm_opens = [r for r in fake.requests if r.path == "/users/@me/channels"
                and r.json.get("recipient_id") in (cid.id, str(cid.id))]
    assert len(dm_opens) == 1  # the bot stopped trying
    # the private hint, once, the next time cid used the bot (a button or a command)
    rec = await fake.slash(cid, "sanmarco status")
    await harness.settle()
    hints = [m for m in fake.messages.values() if m.content == text.dm_refused_hint(EN)]
    assert len(hints) == 1 and hints[0].ephemeral and hints[0].id > fallbacks[0].id
    assert fake._by_id[hints[0].interaction_id].user is cid
    # after a command too, and after the command's own answer
    service = harness.bot.service
    await service.set_notify_mode(fake.guild_id, str(cid.id), "dm")
    assert await service.dm_refused(fake.guild_id, str(cid.id))
    rec = await fake.slash(cid, "sanmarco-server games")
    await harness.settle()
    assert [m.content for m in rec.private][-1] == text.dm_refused_hint(EN)
    assert rec.response.content.startswith("**Your games")

    # reminders follow the same choice: bob is reminded by DM only, with the latest post
    while bob.id not in awaited_ids(fake.last_channel_message()):
        assert await table.step()
        await harness.settle()
    awaited = awaited_ids(fake.last_channel_message())
    before = len(fake.dms(bob))
    last_post = fake.last_channel_message()
    now[0] += 13 * HOUR
    await harness.bot.get_cog("SanMarco").reminders.run_once()
    assert len(fake.dms(bob)) == before + 1
    reminder = fake.dms(bob)[-1].content
    assert reminder.startswith("Reminder — San Marco has been waiting for you since <t:")
    # its first line links to the latest post; what happened since bob's move follows
    assert reminder.splitlines()[0].endswith(f"/{fake.channel_id}/{last_post.id}")
    reminders = [m for m in fake.channel_messages() if m.content.startswith("Reminder")]
    if awaited == [bob.id]:
        assert reminders == []  # nobody awaited wants a mention
    assert all(bob.id not in m.pinged() for m in reminders)


# ---------------------------------------------------------------------- your games
async def test_games_lists_the_callers_games_newest_first_with_a_link(
        fake: FakeDiscord, harness: BotHarness) -> None:
    other = fake.add_channel()
    users = await _game(fake, harness)
    awaited = next(u for u in users if u.id == awaited_ids(fake.last_channel_message())[0])
    idle = next(u for u in users if u is not awaited)
    await fake.slash(idle, "sanmarco game new", channel_id=other, seats=4)
    post = fake.last_channel_message()
    rec = await fake.slash(idle, "sanmarco-server games")
    lines = rec.response.content.splitlines()
    assert rec.response.ephemeral and lines[0] == "**Your games in this server**"
    assert f"<#{other}> · lobby, 1/4 seats" in lines[1]
    assert f"<#{fake.channel_id}> · waits for <@{awaited.id}>" in lines[2]
    assert "since <t:" in lines[2]
    assert f"(https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{post.id})" \
        in lines[2]
    mine = (await fake.slash(awaited, "sanmarco-server games")).response.content
    assert "**your turn**" in mine and f"<#{other}>" not in mine
    nobody = (await fake.slash(fake.add_user("zed"), "sanmarco-server games")).response.content
    assert nobody.startswith("You have no lobby or running game")


# ---------------------------------------------------------------------- taking back
async def test_undo_by_button_and_by_command_leaves_the_state_before_the_move(
        fake: FakeDiscord, harness: BotHarness) -> None:
    users = await _game(fake, harness, seed=42)
    table = Table(fake, list(users))
    post = fake.last_channel_message()
    while "next" not in {tag_of(c) for c in post.custom_ids()} or \
            "bridge" not in post.content.split("**Now**")[1]:
        assert await table.step()
        await harness.settle()
        post = fake.last_channel_message()
    mover = table.user(awaited_ids(post)[0])
    before = await _state(harness, fake.channel_id)
    nxt = next(c for c in post.custom_ids() if tag_of(c) == "next")
    panel = (await table.click(mover, post, nxt)).response
    pick = panel.component("pick")
    await table.select(mover, panel, pick["custom_id"], [pick["options"][0]["value"]])
    moved = fake.last_channel_message()
    assert "builds a bridge" in moved.content
    assert panel.content == text.done(EN) and [c["label"] for c in panel.all_components()] == [
        text.label(EN, "undo")]
    after = await _state(harness, fake.channel_id)

    rec = await table.click(mover, panel, panel.component("undo")["custom_id"])
    back = fake.last_channel_message()
    assert back.content.startswith(f"<@{mover.id}> took back: Build a bridge ")
    assert back.files and back.files[0][1].startswith(PNG)
    assert _last_line(back).startswith(f"**Now** — <@{mover.id}>")
    assert await _state(harness, fake.channel_id) == before  # byte-equal JSON
    assert rec.updated is panel and panel.content.startswith(text.undone(EN))
    assert "pick" in {tag_of(c) for c in panel.custom_ids()}  # the decision again
    # the post made before the move, and the one made after it, are outdated now
    for old in (post, moved):
        rec = await fake.click(mover, old, old.custom_ids()[0])
        assert rec.ephemeral and text.refusal(EN, Code.STALE) in rec.response.content
    assert await _state(harness, fake.channel_id) == before
    # the same move again from the new panel: the same state as the first time
    pick = panel.component("pick")
    await table.select(mover, panel, pick["custom_id"], [pick["options"][0]["value"]])
    assert await _state(harness, fake.channel_id) == after
    # by command; then refused once somebody else has moved
    rec = await fake.slash(mover, "sanmarco game undo")
    await harness.settle()
    assert rec.response.ephemeral and rec.response.content.startswith(text.undone(EN))
    assert await _state(harness, fake.channel_id) == before
    assert fake.public_answer(rec).content.startswith(f"<@{mover.id}> took back: ")
    assert await table.step()  # the mover builds again
    await harness.settle()
    assert await table.step()  # then the next player moves
    await harness.settle()
    rec = await fake.slash(mover, "sanmarco game undo")
    assert rec.response.content == text.refusal(EN, Code.UNDO_MOVED_ON)
    assert (await harness.bot.service.audit(fake.channel_id)).ok


async def test_undo_refused_after_a_split_a_reveal_or_a_roll_accepted_otherwise(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A four-player game through Discord: after every move, its player tries
    `/sanmarco game undo`; the bot takes it back exactly when the engine's rule allows (the
    state is then the log replayed without it), else it names the reason."""
    users = await _game(fake, harness, ("ann", "bob", "cid", "dee"), seed=9)
    table = Table(fake, list(users))
    service = harness.bot.service
    seen: set[str] = set()
    accepted = 0
    for _ in range(400):
        if {Code.UNDO_SPLIT, Code.UNDO_REVEAL, Code.UNDO_ROLL, Code.UNDO_MOVED_ON} <= seen \
                and accepted >= 3:
            break
        if not await table.step():
            break
        await harness.settle()
        row = await service.store.latest_game(fake.channel_id)
        rows = await service.store.actions(row.id)
        last = rows[-1]
        if not last.pid.isdigit():
            continue
        state, _ = engine.start_game([s.pid for s in row.players], seed=row.seed)
        for r in rows[:-1]:
            state, _ = engine.apply(state, r.pid, engine.decode(r.action))
        after, events = engine.apply(state, last.pid, engine.decode(last.action))
        block = engine.undo_block(state, engine.decode(last.action), after, events)
        if block is None and accepted >= 3:
            continue  # enough taken back: let the game go on
        user = table.user(int(last.pid))
        other = next(u for u in users if u is not user)
        rec = await fake.slash(other, "sanmarco game undo")
        code = Code.UNDO_MOVED_ON if any(r.pid == str(other.id) for r in rows) \
            else Code.UNDO_NOTHING
        assert rec.response.content == text.refusal(EN, code)
        seen.add(code)
        rec = await fake.slash(user, "sanmarco game undo")
        await harness.settle()
        if block is None:
            assert rec.response.content.startswith(text.undone(EN))
            assert await _state(harness, fake.channel_id) == state.to_json()
            accepted += 1
        else:
            expected = {"split": Code.UNDO_SPLIT, "reveal": Code.UNDO_REVEAL,
                        "roll": Code.UNDO_ROLL, "draw": Code.UNDO_DRAW,
                        "end": Code.OVER}[block]
            assert rec.response.content == text.refusal(EN, expected), block
            assert await _state(harness, fake.channel_id) == after.to_json()
            seen.add(expected)
    assert {Code.UNDO_SPLIT, Code.UNDO_REVEAL, Code.UNDO_ROLL, Code.UNDO_MOVED_ON} <= seen, seen
    assert accepted >= 3
    assert (await service.audit(fake.channel_id)).ok
    assert not [m for m in fake.messages.values() if m.content.startswith("Sorry")]
