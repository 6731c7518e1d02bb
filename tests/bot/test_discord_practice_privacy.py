"""A practice game is its learner's alone (issue 36 item 5), through the real discord.py
client against the fake Discord and the bot's own web pages: anyone else asking for its
replay or game file by number hears exactly what a number naming no game hears (never that
it exists, running or finished); its page answers 404 like a missing game, by every address
of it; no post and no answer offers a link to its page; the learner gets the replay and
the file of their finished practice game."""

from __future__ import annotations

import socket
import sqlite3

import aiohttp

from bot import i18n, text
from bot.service.errors import Code
from tests.bot.test_discord_practice import learn, learner_table, play_to_the_end, service_of
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness

SITE = "https://pages.example"
ADDRESSES = ("", "/board.png", "/replay/0.png", "/events", "/game.json",
             "/hand?u=1&e=1&s=x")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _raw_token(harness: BotHarness, game_id: int) -> str:
    """The page token the game row holds (what a guessed or shared link would name)."""
    with sqlite3.connect(harness.db_path) as db:
        (token,) = db.execute("SELECT page_token FROM games WHERE id = ?", (game_id,)).fetchone()
    return str(token)


async def _asked(fake: FakeDiscord, user: FakeUser, game: int) -> tuple[str, str]:
    """``replay`` and ``gamefile`` by number, from the server's channel: the two answers."""
    replay = (await fake.slash(user, "sanmarco-server replay", game=game)).response
    file = (await fake.slash(user, "sanmarco-server gamefile", game=game)).response
    return replay.content, file.content


async def test_a_practice_game_is_the_learners_alone(fake: FakeDiscord,
                                                    harness: BotHarness) -> None:
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    mod = fake.add_user("mod", manage_channels=True)
    port = _free_port()
    await harness.start(game_threads=True, web_port=port, public_url=SITE,
                        web_secret="k" * 64)
    service = service_of(harness)
    thread, _ = await learn(fake, ann)
    number = (await service.status(thread)).game_id
    missing = text.refusal(i18n.ENGLISH, Code.NO_PAST_GAME)
    # while it runs: no "not over yet", which would say that it exists
    for who in (bob, mod):
        assert await _asked(fake, who, number) == (missing, missing)
        assert await _asked(fake, who, number + 50) == (missing, missing)
    mine = await _asked(fake, ann, number)
    assert mine == (text.refusal(i18n.ENGLISH, Code.NOT_OVER),) * 2  # hers: it runs
    # no page: every address of it answers as a missing game's
    token = _raw_token(harness, number)
    async with aiohttp.ClientSession() as http:
        for tail in ADDRESSES:
            got = await http.get(f"http://127.0.0.1:{port}/g/{token}{tail}")
            none = await http.get(f"http://127.0.0.1:{port}/g/{'0' * 32}{tail}")
            assert got.status == none.status and await got.text() == await none.text(), tail
            assert got.status in (403, 404), (tail, got.status)
    # no link to a page in any post or answer
    hand = (await fake.slash(ann, "sanmarco hand", channel_id=thread)).response
    table = learner_table(fake, harness, ann, thread)
    await play_to_the_end(table, harness)
    said = [*fake.channel_messages(thread), hand]
    links = [c for m in said for c in m.all_components() if c.get("url")]
    assert not links and all(SITE not in m.content for m in said), links
    final = fake.channel_messages(thread)[-1]
    # finished: still nobody else's, by number, from any channel
    for who in (bob, mod):
        assert await _asked(fake, who, number) == (missing, missing)
    assert not [m for m in fake.channel_messages(fake.channel_id) if f"#{number}" in m.content]
    # the learner's own: the replay and the file, by number and by the final post's buttons
    replay = (await fake.slash(ann, "sanmarco-server replay", game=number)).response
    assert replay.files and replay.files[0][0] == f"san-marco-{number}.gif"
    file = (await fake.slash(ann, "sanmarco-server gamefile", game=number)).response
    assert file.files and file.files[0][0] == f"san-marco-{number}.json"
    clicked = await fake.click(ann, final, final.component("Game file")["custom_id"])
    assert clicked.private[-1].files[0][0] == f"san-marco-{number}.json"
