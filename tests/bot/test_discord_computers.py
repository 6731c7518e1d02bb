"""Computer players through the fake Discord: a lobby filled with the "Add computer" button
and `/sanmarco game new computers:`, a whole game against them, and an absent player's seat
handed to a computer by vote (`/sanmarco seat replace`) and taken back
(`/sanmarco seat reclaim`)."""

from __future__ import annotations

from bot import text
from bot.i18n import ENGLISH as EN
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids

from .test_discord_game import PNG, open_three_player_game


async def test_one_person_plays_a_whole_game_against_computer_players(
        fake: FakeDiscord, harness: BotHarness) -> None:
    ann = fake.add_user("ann")
    await harness.start(seed=11)
    rec = await fake.slash(ann, "sanmarco game new", seats=3)
    lobby = fake.public_answer(rec)
    add = lobby.component("cpu")["custom_id"]
    await fake.click(ann, lobby, add)
    assert "2/3" in lobby.content and "Computer 1 (normal)" in lobby.content
    await fake.click(ann, lobby, lobby.component("cpu")["custom_id"])
    assert "3/3" in lobby.content
    rec = await fake.click(ann, lobby, lobby.component("cpu")["custom_id"])
    assert rec.ephemeral and "full" in rec.response.content
    await fake.click(ann, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, [ann])
    steps = 0
    while await table.step():
        post = fake.last_channel_message()
        assert awaited_ids(post) in ([ann.id], [])  # computers never keep anyone waiting
        steps += 1
        assert steps < 400, "the game did not end"
    await harness.settle()
    final = fake.last_channel_message()
    assert "Game over" in final.content and final.files[0][1].startswith(PNG)
    assert "Computer" in "".join(m.content for m in fake.channel_messages())
    assert not [m for m in fake.messages.values() if "Sorry" in m.content]
    assert (await harness.bot.service.audit(fake.channel_id)).ok


async def test_new_with_computers_and_start_with_fill(fake: FakeDiscord,
                                                       harness: BotHarness) -> None:
    ann = fake.add_user("ann")
    await harness.start(seed=3)
    rec = await fake.slash(ann, "sanmarco game new", seats=4, computers=1, level="easy")
    lobby = fake.public_answer(rec)
    assert "2/4" in lobby.content and "Computer 1 (easy)" in lobby.content
    rec = await fake.slash(ann, "sanmarco game new", seats=3)
    assert rec.ephemeral and "already has a game" in rec.response.content  # one per channel
    rec = await fake.slash(ann, "sanmarco game computer", remove="ai.easy.1")
    assert rec.ephemeral and "1/4" in lobby.content  # the lobby post, edited in place
    rec = await fake.slash(ann, "sanmarco game start", fill=True)
    await harness.settle()
    view = await harness.bot.service.public_view(fake.channel_id)
    assert len(view["players"]) == 4 and view["waiting_for"] == [str(ann.id)]


async def test_an_absent_player_is_replaced_by_vote_and_reclaims_the_seat(
        fake: FakeDiscord, harness: BotHarness) -> None:
    now = [1_700_000_000.0]
    users = tuple(fake.add_user(n) for n in ("ann", "bob", "cid"))
    await harness.start(seed=42, clock=lambda: now[0])
    lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new"))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    post = fake.last_channel_message()
    absent_id = awaited_ids(post)[0]
    absent = next(u for u in users if u.id == absent_id)
    voters = [u for u in users if u.id != absent_id]
    choices = await fake.autocomplete(voters[0], "sanmarco seat replace", "player", player="")
    assert {c["value"] for c in choices} == {str(u.id) for u in users}
    rec = await fake.slash(voters[0], "sanmarco seat replace", player=str(absent_id))
    assert rec.response.ephemeral and "opens <t:" in rec.response.content  # too early
    now[0] += 12 * 3600  # the game has waited the channel's interval on that player
    rec = await fake.slash(voters[0], "sanmarco seat replace", player=str(absent_id))
    vote = fake.public_answer(rec).content
    assert "1 of 2 votes" in vote
    # every public post of a running game ends by saying who acts next
    assert vote.splitlines()[-1] == f"**Now** — <@{absent_id}>: " + text.awaited_words(EN, "bridge")
    rec = await fake.slash(voters[0], "sanmarco seat replace", player=str(absent_id))
    assert rec.ephemeral and "already voted" in rec.response.content
    version = (await harness.bot.service.public_view(fake.channel_id))["version"]
    await fake.slash(voters[1], "sanmarco seat replace", player=f"<@{absent_id}>")
    await harness.settle()
    post = fake.last_channel_message()
    assert "The computer now plays" in post.content and post.files[0][1].startswith(PNG)
    view = await harness.bot.service.public_view(fake.channel_id)
    assert view["version"] > version  # the computer made the awaited move at once
    assert str(absent_id) not in view["waiting_for"]
    choices = await fake.autocomplete(voters[0], "sanmarco seat replace", "player", player="")
    assert str(absent_id) not in {c["value"] for c in choices}  # a computer plays it now
    rec = await fake.slash(absent, "sanmarco seat reclaim")
    reclaim = fake.public_answer(rec).content
    assert "plays their own seat again" in reclaim
    assert reclaim.splitlines()[-1].startswith("**Now** — <@")
    rec = await fake.slash(absent, "sanmarco seat reclaim")
    assert rec.ephemeral and "not played by the computer" in rec.response.content
    outsider = fake.add_user("zed")
    rec = await fake.slash(outsider, "sanmarco seat replace", player=str(absent_id))
    assert rec.ephemeral and "not playing" in rec.response.content
    assert (await harness.bot.service.audit(fake.channel_id)).ok


async def test_the_last_person_leaving_a_lobby_of_computers_ends_it_bug(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The last one out ends the lobby, even when computer players are seated: otherwise a
    computer became its opener, nobody but a channel manager could end it and the channel
    was blocked for `/sanmarco game new`."""
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await harness.start(seed=1)
    lobby = fake.public_answer(await fake.slash(ann, "sanmarco game new", seats=4, computers=1))
    await fake.click(bob, lobby, lobby.component("join")["custom_id"])
    await fake.click(ann, lobby, lobby.component("leave")["custom_id"])
    status = await harness.bot.service.status(fake.channel_id)
    assert status.status == "lobby" and status.creator == str(bob.id)  # a person opens it
    await fake.click(bob, lobby, lobby.component("leave")["custom_id"])
    assert (await harness.bot.service.status(fake.channel_id)).status == "abandoned"
    assert "closed" in lobby.content and lobby.components == []
    rec = await fake.slash(bob, "sanmarco game new", seats=3)
    assert "1/3" in fake.public_answer(rec).content


async def test_replace_names_the_unknown_player_not_the_voter_bug(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """A player who types someone not in the game is told that player is unknown, not that
    they themself are not playing; nothing changes."""
    users = await open_three_player_game(fake, harness)
    before = await harness.bot.service.status(fake.channel_id)
    for user, typed in ((users[0], "bob"), (users[1], "<@123>"),
                        (fake.add_user("mod", manage_channels=True), "ai.normal.1")):
        rec = await fake.slash(user, "sanmarco seat replace", player=typed)
        assert rec.ephemeral
        assert "That player is not in this game" in rec.response.content
        assert "You are not playing" not in rec.response.content
    assert await harness.bot.service.status(fake.channel_id) == before


async def test_a_post_that_ends_the_game_says_so_however_many_moves_it_tells_bug(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """When computer players finish the game in one go (here the only person hands over
    their seat), the post's event lines are cut to fit Discord; the cut dropped the last
    line, so the post never said the game was over or who won. It also offered a reclaim
    of a seat in a game that had ended."""
    ann = fake.add_user("ann")
    await harness.start(seed=11)
    await fake.slash(ann, "sanmarco game new", seats=3, computers=2)
    await fake.slash(ann, "sanmarco game start")
    await harness.settle()
    await fake.slash(ann, "sanmarco seat replace", player=str(ann.id))
    await harness.settle()
    final = fake.last_channel_message()
    assert (await harness.bot.service.status(fake.channel_id)).finished
    assert "more (see `/sanmarco game log`)" in final.content  # the story was cut
    assert "Game over! Winner:" in final.content and len(final.content) <= 2000
    assert "reclaim" not in final.content
    # no prompt: a finished game offers only its rematch, its replay and its game file
    assert [c["label"] for c in final.all_components()] == ["Rematch", "Replay",
                                                            "Game file", "My review"]


async def test_a_hard_computer_is_offered_where_a_level_is_chosen(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """/sanmarco game new computers: level:hard seats a hard computer player."""
    ann = fake.add_user("ann")
    await harness.start(seed=4)
    group = next(c for cmds in fake.commands.values() for c in cmds if c["name"] == "sanmarco")
    game = next(o for o in group["options"] if o["name"] == "game")
    new = next(o for o in game["options"] if o["name"] == "new")
    levels = next(o for o in new["options"] if o["name"] == "level")
    assert [c["value"] for c in levels["choices"]] == ["normal", "easy", "hard"]
    rec = await fake.slash(ann, "sanmarco game new", seats=3, computers=1, level="hard")
    assert "Computer 1 (hard)" in fake.public_answer(rec).content
