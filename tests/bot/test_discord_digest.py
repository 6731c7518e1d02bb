"""Since your last move, through the fake Discord with the real discord.py client, cog,
service, store and engine: the post that awaits a player carries the **Since your last move**
button; pressing it answers the presser privately with their own digest (whoever presses
it) and the board highlighted where it changed; ``/sanmarco hand`` and ``status`` begin
with it; a DM of one's turn carries it. Nothing is changed or posted by asking."""

from __future__ import annotations

from bot import i18n, text
from bot.i18n import ENGLISH as EN
from bot.service.errors import Code
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_game import PNG, open_three_player_game

DE, FR = i18n.translations("de"), i18n.translations("fr")


def _since(post: FakeMessage) -> str:
    return next(c for c in post.custom_ids() if tag_of(c) == "since")


async def _play_until_someone_comes_back(fake: FakeDiscord, harness: BotHarness,
                                         table: Table) -> tuple[FakeMessage, FakeUser]:
    """Play until the newest post awaits a player who has moved before and others have
    moved since (their digest has something)."""
    service = harness.bot.service
    for _ in range(60):
        assert await table.step()
        await harness.settle()
        post = fake.last_channel_message()
        for uid in awaited_ids(post):
            digest = await service.digest(fake.channel_id, str(uid))
            if digest.since and len(digest.moves) >= 3:
                return post, table.user(uid)
    raise AssertionError("nobody came back to a decision after others moved")


async def test_the_awaited_players_post_answers_each_presser_with_their_own_digest(
        fake: FakeDiscord, harness: BotHarness) -> None:
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    post, back = await _play_until_someone_comes_back(fake, harness, table)
    service = harness.bot.service
    since = _since(post)
    assert post.component(since)["label"] == "Since your last move"
    assert back.id in post.pinged() and awaited_ids(post) == [back.id]
    version = (await service.status(fake.channel_id)).version
    posts = len(fake.channel_messages())

    rec = await table.click(back, post, since)
    digest = await service.digest(fake.channel_id, str(back.id))
    answer = rec.response
    assert answer.ephemeral and answer.content == text.digest_text(EN, digest)
    assert answer.content.startswith("**Since your last move** — ")
    assert len(answer.content) <= 2000
    assert answer.files and answer.files[0][1].startswith(PNG)
    assert answer.attachments() == [("board.png", text.digest_alt(EN, digest))]
    assert text.changes_words(EN, digest) in answer.attachments()[0][1]  # what is lit

    # every other player pressing the same button reads their own
    for other in (u for u in users if u is not back):
        rec = await table.click(other, post, since)
        theirs = await service.digest(fake.channel_id, str(other.id))
        expected = text.digest_text(EN, theirs) or text.nothing_since(EN)
        assert rec.response.ephemeral and rec.response.content == expected
        assert theirs.pid == str(other.id) and theirs.since != digest.since
    # someone not in the game: a short refusal
    rec = await table.click(fake.add_user("eve"), post, since)
    assert rec.response.ephemeral
    assert rec.response.content == text.refusal(EN, Code.NOT_IN_GAME)
    # asking changed nothing and posted nothing
    assert (await service.status(fake.channel_id)).version == version
    assert len(fake.channel_messages()) == posts


async def test_hand_and_status_begin_with_the_digest(fake: FakeDiscord,
                                                     harness: BotHarness) -> None:
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    post, back = await _play_until_someone_comes_back(fake, harness, table)
    service = harness.bot.service
    digest = await service.digest(fake.channel_id, str(back.id))
    head = text.digest_text(EN, digest).splitlines()[0]

    status = (await fake.slash(back, "sanmarco status")).response
    said = text.status_text(EN, await service.status(fake.channel_id))
    assert status.ephemeral and status.content.startswith(head)
    assert status.content.endswith("\n\n" + said) and len(status.content) <= 2000

    hand = (await fake.slash(back, "sanmarco hand")).response
    assert hand.ephemeral and hand.content.startswith(head) and hand.custom_ids()
    assert len(hand.content) <= 2000

    # the player who just moved: nothing since, so their answers are as before
    last = (await service.log(fake.channel_id)).entries[-1].pid
    mover = next(u for u in users if str(u.id) == last)
    assert not (await service.digest(fake.channel_id, last)).moves
    status = (await fake.slash(mover, "sanmarco status")).response
    assert status.content == said


async def test_the_digest_speaks_the_pressers_language(fake: FakeDiscord,
                                                       harness: BotHarness) -> None:
    users = await open_three_player_game(fake, harness)
    table = Table(fake, list(users))
    post, back = await _play_until_someone_comes_back(fake, harness, table)
    digest = await harness.bot.service.digest(fake.channel_id, str(back.id))
    for locale, tr in (("de", DE), ("fr", FR)):
        back.locale = locale
        rec = await table.click(back, post, _since(post))
        assert rec.response.content == text.digest_text(tr, digest)
        assert rec.response.attachments()[0][1] == text.digest_alt(tr, digest)
    back.locale = "en-US"


async def test_a_dm_of_ones_turn_carries_the_digest(fake: FakeDiscord,
                                                    harness: BotHarness) -> None:
    users = await open_three_player_game(fake, harness)
    service = harness.bot.service
    for user in users:
        await service.set_notify_mode(fake.guild_id, str(user.id), "dm")
    table = Table(fake, list(users))
    for _ in range(15):
        assert await table.step()
        await harness.settle()
    dms = [dm for u in users for dm in fake.dms(u)]
    assert dms and all(dm.content.startswith("Your turn in San Marco: ") for dm in dms)
    assert all(len(dm.content) <= 2000 for dm in dms)
    assert any("**Since your last move** — " in dm.content for dm in dms)


async def test_after_a_reclaim_the_digest_starts_from_the_players_own_move(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """ann moves, hands her seat to the computer, and reclaims it after the computer has
    moved for her: "Since your last move" counts from her own move, the computer's moves
    for her among what she missed (they were counted from its last one)."""
    users = await open_three_player_game(fake, harness)
    ann = users[0]
    table = Table(fake, list(users))
    service = harness.bot.service

    async def anns(after: int = 0) -> list[int]:
        return [e.seq for e in (await service.log(fake.channel_id)).entries[1:]
                if e.pid == str(ann.id) and e.seq > after]

    for _ in range(60):
        if await anns():
            break
        assert await table.step()
        await harness.settle()
    own = (await anns())[-1]
    await fake.slash(ann, "sanmarco seat replace", player=str(ann.id))
    for _ in range(60):
        if len(await anns(own)) >= 2:
            break
        assert await table.step()
        await harness.settle()
    assert len(await anns(own)) >= 2, "the computer never moved for ann"
    await fake.slash(ann, "sanmarco seat reclaim")
    await harness.settle()
    missed = [e for e in (await service.log(fake.channel_id)).entries if e.seq > own]
    status = (await fake.slash(ann, "sanmarco status")).response
    assert status.content.startswith(EN.ngettext(
        "**Since your last move** — {count} move by others:",
        "**Since your last move** — {count} moves by others:", len(missed)).format(
        count=len(missed))), status.content[:200]
    stand_in = next(e for e in reversed(missed) if e.pid == str(ann.id))
    assert f"The computer for <@{ann.id}>: " in text.move_line(EN, stand_in, {})
