"""Pictures everyone can read, through the real bot against the fake Discord: every
attachment the bot sends in a whole game — each post's board, the private board, the final
post's summary, the replay, the game file — carries a description (Discord's alt text,
read out by screen readers, shown with images off) within Discord's 1,024 characters, saying
what the picture shows: the Doge's district, every player's prestige, who is awaited. Posts
speak the channel's language, private answers the reader's. ``/sanmarco board as_text``
answers privately in words, with no picture. No description holds a secret (R15).

The fake reads each description from the request's ``payload_json`` ``attachments``, as
Discord does.
"""

from __future__ import annotations

import pytest

from bot import i18n, text
from bot.i18n import Tr, translations
from engine.describe import card_label
from engine.views import PublicView
from render.words import waiting_line
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, tag_of

from .test_discord_languages import assert_only

LIMIT = 1024  # Discord's limit on an attachment's description


def described(messages: list[FakeMessage]) -> list[tuple[FakeMessage, str, str]]:
    """(message, file name, description) of every attachment; fails on one without."""
    out = []
    for m in messages:
        for name, alt in m.attachments():
            assert alt, f"{name} on message {m.id} has no alt text: {m.content[:80]!r}"
            assert len(alt) <= LIMIT, (name, len(alt))
            out.append((m, name, alt))
    return out


def prestige_words(tr: Tr, name: str, n: int) -> str:
    return tr.gettext("{name}: {what}").format(name=name, what=tr.ngettext(
        "{count} prestige point", "{count} prestige points", n).format(count=n))


def names_what_it_shows(tr: Tr, alt: str, view: PublicView, names: dict[str, str]) -> None:
    """The board's alt text names the Doge's district, each player's prestige and who is
    awaited (for what)."""
    doge = view["doge"]
    assert (tr.gettext("Doge in {district}").format(district=doge) if doge
            else tr.gettext("Doge not placed yet")) in alt, alt
    for pid in view["players"]:
        if view["finished"]:
            assert f"{names[pid]} {view['prestige'][pid]}" in alt, alt
        else:
            assert prestige_words(tr, names[pid], view["prestige"][pid]) in alt, alt
    if view["waiting_for"]:
        assert waiting_line(view, names, tr) in alt, alt


async def _play(fake: FakeDiscord, harness: BotHarness, channel: str,
                reader: str) -> tuple[list[FakeUser], Table]:
    """Three players whose Discord language is ``reader`` open a game in a channel set to
    ``channel`` (English: no setting) and play it to the end; mid-game one of them asks for
    the board, as a picture and as text."""
    users = [fake.add_user(n, locale=reader) for n in ("ann", "bob", "cid")]
    await harness.start(seed=42)
    service = harness.bot.game_service  # type: ignore[union-attr]
    if channel != i18n.DEFAULT:
        await service.set_settings(fake.channel_id, language=channel)
    lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new", seats=3))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    public, private = translations(channel), translations(reader)
    table = Table(fake, users, commands=0.3, public=public, private=private)
    steps = 0
    while await table.step():
        steps += 1
        assert steps < 600, "the game did not end"
        if steps == 30:
            await _board_both_ways(fake, harness, users[1], private)
    await harness.settle()
    return users, table


async def _board_both_ways(fake: FakeDiscord, harness: BotHarness, user: FakeUser,
                           tr: Tr) -> None:
    """``/sanmarco board``: the picture with the reader's alt text; ``as_text``: the same
    in words, privately, with no picture."""
    service = harness.bot.game_service  # type: ignore[union-attr]
    snap = await service.snapshot(fake.channel_id, str(user.id))
    assert snap.view is not None
    names = dict(snap.names)
    rec = await fake.slash(user, "sanmarco board")
    [(_, name, alt)] = described([rec.response])
    assert rec.response.ephemeral and name == "board.png"
    assert alt == text.board_alt(tr, snap.view, names)
    names_what_it_shows(tr, alt, snap.view, names)

    rec = await fake.slash(user, "sanmarco board", as_text=True)
    words = rec.response
    assert words.ephemeral and not words.files
    assert words.content == text.board_words(tr, snap.view, names)
    assert len(words.content) <= 2000
    # longer than the alt text: every district's counts, the bridges, the reserves
    for district in snap.view["districts"]:
        assert district in words.content
    assert tr.gettext("Bridges: {bridges}.").split("{", 1)[0] in words.content
    for pid in snap.view["players"]:
        reserve = tr.gettext("{aristocrats} in reserve").format(
            aristocrats=text.aristocrats(tr, snap.view["reserve"][pid]))
        assert reserve in words.content


@pytest.mark.parametrize(("channel", "reader"), [("en", "en"), ("de", "fr"), ("fr", "de")])
async def test_every_attachment_of_a_whole_game_says_what_it_shows(
        fake: FakeDiscord, harness: BotHarness, channel: str, reader: str) -> None:
    users, _ = await _play(fake, harness, channel, reader)
    service = harness.bot.game_service  # type: ignore[union-attr]
    public, private = translations(channel), translations(reader)
    over = await service.finished_game(fake.guild_id, fake.channel_id, 1)
    names = dict(over.names)

    # The final post's buttons: the replay and the game file, for the one who asks.
    final = fake.last_channel_message()
    replay = await fake.click(users[2], final, final.component(
        text.label(public, "replay"))["custom_id"])
    gamefile = await fake.click(users[2], final, final.component(
        text.label(public, "game_file"))["custom_id"])
    await harness.settle()

    # Every attachment of every message, public and private, has its alt text.
    pictures = described([m for m in fake.messages.values() if m.files])
    assert not [m for m in fake.messages.values() if m.files and len(m.descriptions)
                != len(m.files)]
    boards = [(m, alt) for m, name, alt in pictures if name == "board.png" and not m.ephemeral]
    assert len(boards) > 60

    # Each post's board says what that board showed: one of the game's public views, in
    # the channel's language, naming the Doge, everyone's prestige and who is awaited.
    shown = {text.board_alt(public, view, names): view for view, _ in over.steps}
    for m, alt in boards:
        assert alt in shown, f"not the alt text of any public view: {alt}"
        names_what_it_shows(public, alt, shown[alt], names)
        assert sorted(map(str, awaited_ids(m, public))) == sorted(
            p for p in shown[alt]["waiting_for"] if p.isdigit())  # the post's own Now line
    final_board, summary = (alt for _, alt in final.attachments())
    assert final_board == text.board_alt(public, over.view, names)
    assert summary == text.summary_alt(public, over.view, over.events, names)
    for pid in over.view["players"]:
        assert names[pid] in summary

    # The private answers speak the reader's language.
    [(_, gif_alt)] = replay.response.attachments()
    assert gif_alt == text.replay_alt(private, 1, len(over.steps), over.view, names)
    [(_, file_alt)] = gamefile.response.attachments()
    assert file_alt == text.game_file_alt(private, 1)

    if channel != i18n.DEFAULT:  # no English, and each language where it belongs
        assert assert_only(channel, [alt for m, _, alt in pictures if not m.ephemeral],
                           "a post's alt text") > 60
        assert assert_only(reader, [alt for m, _, alt in pictures if m.ephemeral],
                           "a private answer's alt text") >= 3


async def test_no_alt_text_shows_a_distributors_drawn_cards(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """R15: while a split is pending, the boards posted and answered — to anyone, the
    distributor too — describe the public view only: none of the drawn cards appears in a
    description, and each is exactly the public view's."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cid")]
    await harness.start(seed=42)
    service = harness.bot.game_service  # type: ignore[union-attr]
    lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new", seats=3))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, users)
    post = await table.play_until("build")
    await harness.settle()
    dist = table.user(awaited_ids(post)[0])
    drawn = (await service.private_view(fake.channel_id, str(dist.id)))["private"]["drawn"]
    assert drawn
    # the builder is open: the distributor has seen the cards
    build = next(c for c in post.custom_ids() if tag_of(c) == "build")
    assert (await fake.click(dist, post, build)).response.ephemeral
    as_text = []
    for u in users:
        await fake.slash(u, "sanmarco board")
        as_text.append((await fake.slash(u, "sanmarco board", as_text=True)).response)
    await harness.settle()

    snap = await service.snapshot(fake.channel_id, str(dist.id))
    assert snap.view is not None and snap.view["phase"] == "split"
    public_alt = text.board_alt(i18n.ENGLISH, snap.view, dict(snap.names))
    answers = [m for m in fake.messages.values() if m.ephemeral and m.files]
    assert len(answers) == 3 and all(m.descriptions == [public_alt] for m in answers)
    words = text.board_words(i18n.ENGLISH, snap.view, dict(snap.names))
    assert all(m.content == words and not m.files for m in as_text)
    # The words a description could give the cards away by: "District: Castello",
    # "Limit 2" (a Doge or a bridge card reads as words every board has).
    secret = {card_label(c) for c in drawn if card_label(c).startswith(("District", "Limit"))}
    assert secret
    said = [alt for _, _, alt in described(list(fake.messages.values()))] + [words]
    assert len(said) > 3
    leaked = [(s, alt) for alt in said for s in secret if s in alt]
    assert not leaked, leaked
