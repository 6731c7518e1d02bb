"""Away from a server's games, through the fake Discord with the real discord.py client, cog,
service, store and engine, and an injected clock (nothing sleeps: every due time comes from
stored timestamps).

A player away for five days while the turn timer is 6 hours is not timed out for the
channel's cap (3 days), then is; ``/sanmarco seat back`` ends it early and the timer runs
again; no reminders while away; a vote to replace an away player is refused until the cap;
everyone sees who is away (the lines above the Now line, ``status``) in the channel's time
zone; bad input is refused privately and changes nothing."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot import text
from bot.i18n import ENGLISH as EN
from bot.service.errors import Code
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import awaited_ids

from .test_discord_days import _game

HOUR = 3600.0
DAY = 24 * HOUR
ROME = ZoneInfo("Europe/Rome")
# Wednesday 26 February 2025, 18:00 in Rome: five days later is Monday 3 March, 18:00.
START = datetime(2025, 2, 26, 18, 0, tzinfo=ROME).timestamp()
AWAY_UNTIL = "Mon 3 Mar, 18:00"


async def _timed_game(fake: FakeDiscord, harness: BotHarness, now: list[float], *,
                      reminders: float = 12.0) -> tuple[FakeUser, FakeUser, tuple[FakeUser, ...]]:
    """A game in Rome's time zone with a 6-hour turn timer; (the awaited player, another,
    all players)."""
    mod = fake.add_user("mod", manage_channels=True)

    async def settings() -> None:
        await fake.slash(mod, "sanmarco-server settings", turn_timer=6.0, timezone="Europe/Rome",
                         reminder_hours=reminders)

    users = await _game(fake, harness, clock=lambda: now[0], before=settings)
    absent = next(u for u in users if u.id == awaited_ids(fake.last_channel_message())[0])
    other = next(u for u in users if u is not absent)
    return absent, other, users


def _cog(harness: BotHarness) -> object:
    return harness.bot.get_cog("SanMarco")  # type: ignore[union-attr]


async def _pass(harness: BotHarness) -> None:
    await _cog(harness).reminders.run_once()  # type: ignore[attr-defined]
    await harness.settle()


def _lines(message: FakeMessage) -> list[str]:
    return message.content.splitlines()


async def test_away_five_days_with_a_six_hour_timer_is_timed_out_only_at_the_cap(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [START]
    absent, other, _ = await _timed_game(fake, harness, now)
    rec = await fake.slash(absent, "sanmarco seat away", **{"for": "5d"})
    await harness.settle()
    answer = rec.response.content
    assert rec.response.ephemeral and answer.startswith("You are away from your San Marco games")
    assert f"<t:{int(START + 5 * DAY)}:f>" in answer  # the reader's own time zone
    assert f"<#{fake.channel_id}>" in answer  # where it was told
    told = fake.last_channel_message()
    assert told.content.startswith(f"<@{absent.id}> is away until {AWAY_UNTIL} (<t:")
    assert "waits up to 3 days on each of their decisions" in told.content
    assert _lines(told)[-1].startswith(f"**Now** — <@{absent.id}>")  # Now, with its buttons
    assert told.custom_ids() and not told.pinged()  # nobody pinged for it
    # /sanmarco status shows it to anyone, in the channel's time zone
    status = (await fake.slash(other, "sanmarco status")).response.content
    assert f"<@{absent.id}> is away until {AWAY_UNTIL}" in status

    now[0] = START + 6 * HOUR + 60  # the timer alone would have run out
    await _pass(harness)
    assert fake.last_channel_message() is told
    now[0] = START + 13 * HOUR  # past the reminder interval: no reminder while away
    await _pass(harness)
    assert fake.last_channel_message() is told
    now[0] = START + 3 * DAY - 60
    await _pass(harness)
    assert fake.last_channel_message() is told
    now[0] = START + 3 * DAY  # the channel's cap: the timer runs as usual again
    await _pass(harness)
    timed = fake.last_channel_message()
    assert timed.content.startswith(f"<@{absent.id}>'s time ran out; the computer ")
    lines = _lines(timed)
    assert lines[-1].startswith("**Now** — ") and timed.custom_ids()
    # every later post names who is away just above its Now line
    assert lines[-2].startswith(f"<@{absent.id}> is away until {AWAY_UNTIL}"), lines
    assert (await harness.bot.service.audit(fake.channel_id)).ok  # type: ignore[union-attr]


async def test_back_ends_it_early_and_the_timer_runs_again(fake: FakeDiscord,
                                                           harness: BotHarness) -> None:
    now = [START]
    absent, _, _ = await _timed_game(fake, harness, now, reminders=0.0)
    await fake.slash(absent, "sanmarco seat away", until="2025-03-03 18:00")
    await harness.settle()
    assert fake.last_channel_message().content.startswith(
        f"<@{absent.id}> is away until {AWAY_UNTIL}")
    games = (await fake.slash(absent, "sanmarco-server games")).response.content
    assert games.startswith("You are away until <t:") and "`/sanmarco seat back`" in games
    now[0] = START + DAY
    await _pass(harness)
    rec = await fake.slash(absent, "sanmarco seat back")
    await harness.settle()
    assert rec.response.content.startswith("Welcome back")
    back = fake.last_channel_message()
    assert _lines(back)[0] == f"<@{absent.id}> is back."
    assert _lines(back)[-1].startswith(f"**Now** — <@{absent.id}>") and back.custom_ids()
    assert "is away until" not in back.content
    status = (await fake.slash(absent, "sanmarco status")).response.content
    assert "is away until" not in status
    games = (await fake.slash(absent, "sanmarco-server games")).response.content
    assert games.startswith("**Your games in this server**")
    now[0] = START + DAY + 6 * HOUR - 60  # the whole timer again from the return
    await _pass(harness)
    assert fake.last_channel_message() is back
    now[0] = START + DAY + 6 * HOUR
    await _pass(harness)
    timed = fake.last_channel_message()
    assert timed.content.startswith(f"<@{absent.id}>'s time ran out; the computer ")
    rec = await fake.slash(absent, "sanmarco seat back")  # no longer away
    assert rec.response.content == text.refusal(EN, Code.NOT_AWAY)


async def test_the_vote_to_replace_an_away_player_opens_only_after_the_cap(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [START]
    absent, other, _ = await _timed_game(fake, harness, now)
    await fake.slash(absent, "sanmarco seat away", **{"for": "5d"})
    await harness.settle()
    before = fake.last_channel_message()
    now[0] = START + 13 * HOUR  # past the reminder interval, but away
    rec = await fake.slash(other, "sanmarco seat replace", player=f"<@{absent.id}>")
    opens = int(START + 3 * DAY) + 1
    assert rec.response.ephemeral
    assert rec.response.content == text.refusal(EN, Code.AWAY_TOO_EARLY, {"opens": opens})
    assert f"<t:{opens}:R>" in rec.response.content
    assert fake.last_channel_message() is before  # nothing posted, nothing changed
    # the cap is the channel's: at 12 hours the vote opens at the reminder interval
    mod = next(u for u in fake.users.values() if u.name == "mod")
    rec = await fake.slash(mod, "sanmarco-server settings", away_cap=12.0)
    settings_post = fake.public_answer(rec).content
    assert "Players away: each game waits up to 12 hours on an away player's decision" \
        in settings_post
    assert settings_post.splitlines()[-1].startswith("**Now** — ")
    rec = await fake.slash(other, "sanmarco seat replace", player=f"<@{absent.id}>")
    await harness.settle()
    vote = fake.public_answer(rec)
    assert "votes to let the computer play" in vote.content
    assert _lines(vote)[-1].startswith("**Now** — ")


async def test_bad_input_is_refused_privately_and_changes_nothing(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [START]
    absent, other, _ = await _timed_game(fake, harness, now)
    service = harness.bot.service  # type: ignore[union-attr]
    posts = len(fake.channel_messages())
    for options, code in (({}, Code.AWAY_WHEN), ({"for": "5x"}, Code.AWAY_WHEN),
                          ({"for": "0h"}, Code.AWAY_WHEN), ({"for": "soon"}, Code.AWAY_WHEN),
                          ({"for": "5d", "until": "2025-03-03"}, Code.AWAY_WHEN),
                          ({"until": "3rd of March"}, Code.AWAY_WHEN),
                          ({"for": "x" * 500}, Code.AWAY_WHEN),
                          ({"for": "15d"}, Code.AWAY_TOO_LONG),
                          ({"until": "2025-03-20 10:00"}, Code.AWAY_TOO_LONG),
                          ({"until": "2025-02-01 10:00"}, Code.AWAY_PAST)):
        rec = await fake.slash(absent, "sanmarco seat away", **options)
        assert rec.response.ephemeral, options
        assert rec.response.content == text.refusal(EN, code), options
    rec = await fake.slash(other, "sanmarco seat back")
    assert rec.response.content == text.refusal(EN, Code.NOT_AWAY)
    rec = await fake.slash(other, "sanmarco-server settings", away_cap=24.0)
    assert rec.response.content == text.refusal(EN, Code.SETTINGS_PERMISSION)
    assert len(fake.channel_messages()) == posts
    assert await service.away(fake.guild_id, [str(absent.id), str(other.id)]) == {}
    assert (await service.settings(fake.channel_id)).away_cap_hours == 72.0


async def test_typed_times_are_read_back_and_german_and_french_say_it_their_way(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [START]
    absent, _, _ = await _timed_game(fake, harness, now)
    [choice] = await fake.autocomplete(absent, "sanmarco seat away", "for", **{"for": "2d 6h"})
    assert choice == {"name": "2d 6h → Sat 1 Mar, 00:00 (Europe/Rome)", "value": "2d 6h"}
    [choice] = await fake.autocomplete(absent, "sanmarco seat away", "until", until="18:00")
    assert choice["name"] == "18:00 → Thu 27 Feb, 18:00 (Europe/Rome)"
    assert await fake.autocomplete(absent, "sanmarco seat away", "for", **{"for": "lots"}) == []
    de = datetime(2025, 3, 3, 18, 0, tzinfo=ROME).timestamp()
    from bot import i18n
    assert text.local_time(i18n.translations("de"), de, "Europe/Rome") == "Mo. 3. März, 18:00"
    assert text.local_time(i18n.translations("fr"), de, "Europe/Rome") == \
        "lun. 3 mars à 18:00"
    # German units too: 5 Tage is five days
    rec = await fake.slash(absent, "sanmarco seat away", **{"for": "5 Tage"})
    await harness.settle()
    assert fake.last_channel_message().content.startswith(
        f"<@{absent.id}> is away until {AWAY_UNTIL}")
    assert rec.response.ephemeral


async def test_every_running_game_of_the_server_is_told_each_in_its_channel(
        fake: FakeDiscord, harness: BotHarness) -> None:
    other_channel = fake.add_channel()
    now = [START]
    absent, other, users = await _timed_game(fake, harness, now)
    # a second game in another channel, in UTC (its own settings), with the same players
    lobby = fake.public_answer(await fake.slash(absent, "sanmarco game new",
                                                channel_id=other_channel, seats=3))
    for u in users:
        if u is not absent:
            await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(absent, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    rec = await fake.slash(absent, "sanmarco seat away", channel_id=other_channel,
                           **{"for": "5d"})
    await harness.settle()
    assert f"<#{fake.channel_id}>" in rec.response.content
    assert f"<#{other_channel}>" in rec.response.content
    here = fake.last_channel_message()
    there = fake.last_channel_message(other_channel)
    assert here.content.startswith(f"<@{absent.id}> is away until {AWAY_UNTIL}")
    assert there.content.startswith(f"<@{absent.id}> is away until Mon 3 Mar, 17:00")  # UTC
    assert "turn timer" not in there.content  # no timer in that channel
    for post in (here, there):
        assert _lines(post)[-1].startswith("**Now** — ") and post.custom_ids()
