"""Who reads which language, through the real bot against the fake Discord: four
German users (their Discord language ``de``) play a whole game in a French channel (its
language setting ``fr``, on a server whose preferred locale is German). Every ephemeral
answer — panels, choosers, autocomplete, refusals, status, log, rules — is German only;
every public post — the lobby, each move's post, the buttons under it, the final post —
and every picture is French only; no English sentence leaks into either.

A leak is found by the catalogues themselves: every sentence of the other languages is
cut at its placeholders, and every piece of three words or more that the reader's own
catalogue does not also contain (e.g. German "in San Marco") must not appear in a message.
Where the answer is known, it is compared whole with ``bot.text``'s own German or French.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import pytest

from bot import i18n, text
from bot.i18n import catalogues, translations
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.players import Table, awaited_ids, game_over_words, tag_of

DE, FR = translations("de"), translations("fr")


def _pieces(sentence: str) -> list[str]:
    """A sentence's literal pieces between its placeholders, line by line."""
    try:
        literals = [lit for lit, _, _, _ in string.Formatter().parse(sentence)]
    except ValueError:
        literals = [sentence]
    return [p.strip() for lit in literals for p in lit.split("\n") if p.strip()]


@cache
def foreign_pieces(language: str) -> tuple[str, ...]:
    """Every piece of three words or more of the other two languages' sentences that the
    reader's catalogue does not contain as well."""
    own = catalogues.catalogue_texts(language)
    pieces = {p for other in i18n.LANGUAGES if other != language
              for sentence in catalogues.catalogue_texts(other) for p in _pieces(sentence)
              if len(p.split()) >= 3}
    return tuple(sorted(p for p in pieces if not any(p in s for s in own)))


@cache
def own_pieces(language: str) -> tuple[str, ...]:
    """Pieces of two words or more found only in the reader's language."""
    others = [s for o in i18n.LANGUAGES if o != language for s in catalogues.catalogue_texts(o)]
    pieces = {p for s in catalogues.catalogue_texts(language) for p in _pieces(s)
              if len(p.split()) >= 2}
    return tuple(sorted(p for p in pieces if not any(p in s for s in others)))


def leaks(words: str, language: str) -> list[str]:
    return [p for p in foreign_pieces(language) if p in words]


def assert_only(language: str, texts: Iterable[str], what: str) -> int:
    """Every text is free of the other languages' sentences and carries some of its own;
    returns how many texts were read."""
    n = 0
    for words in texts:
        if not words.strip():
            continue
        n += 1
        found = leaks(words, language)
        assert not found, f"{what} in {language!r} shows {found}:\n{words}"
        assert any(p in words for p in own_pieces(language)), \
            f"{what} is not in {language!r}:\n{words}"
    return n


def test_the_leak_finder_finds_each_language_in_the_others() -> None:
    """The instrument first: an English, a French and a German sentence are each caught
    in the two other languages, and a German sentence with English-looking names is not
    mistaken for English."""
    assert leaks(text.done(i18n.ENGLISH), "de") and leaks(text.done(i18n.ENGLISH), "fr")
    assert leaks(text.done(FR), "de") and leaks(text.done(DE), "fr")
    assert not leaks(text.done(DE), "de") and not leaks(text.done(FR), "fr")
    assert not leaks("Anja und Bernd: 3 in San Marco", "de")
    assert len(foreign_pieces("de")) > 300 and len(foreign_pieces("fr")) > 300


@pytest.fixture
def pictures(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[str]]:
    """Call it once the bot runs: from then on, the language of every picture the bot
    draws (boards and the summary)."""
    drawn: list[str] = []

    def install() -> list[str]:
        drawing = sys.modules["bot.cogs.sanmarco.delivery.pictures"]
        final = sys.modules["bot.cogs.sanmarco.delivery.final"]
        board, summary = drawing.draw_board, final.draw_summary

        def draw_board(view: Any, events: Any, names: Any, language: str = "en") -> bytes:
            drawn.append(language)
            return board(view, events, names, language)  # type: ignore[no-any-return]

        def draw_summary(view: Any, events: Any, names: Any, language: str = "en") -> bytes:
            drawn.append(language)
            return summary(view, events, names, language)  # type: ignore[no-any-return]

        monkeypatch.setattr(drawing, "draw_board", draw_board)
        monkeypatch.setattr(final, "draw_summary", draw_summary)
        return drawn

    return install


async def _german_table(fake: FakeDiscord, harness: BotHarness) -> tuple[list[FakeUser], Any]:
    fake.guild_locale = "de"  # the server's language: German; the channel says French
    users = [fake.add_user(n, locale="de") for n in ("anja", "bernd", "christian", "daniela")]
    await harness.start(seed=9)
    service = harness.bot.game_service  # type: ignore[union-attr]
    await service.set_settings(fake.channel_id, language="fr")
    return users, service


async def test_german_players_in_a_french_channel_read_german_privately_and_french_publicly(
        fake: FakeDiscord, harness: BotHarness, pictures: Callable[[], list[str]]) -> None:
    users, service = await _german_table(fake, harness)
    drawn = pictures()
    anja = users[0]
    names = {str(u.id): u.name for u in users}

    # The lobby: opened, joined by button and by command, started — French in the channel.
    rec = await fake.slash(anja, "sanmarco game new", seats=4)
    assert rec.response.ephemeral and rec.response.content == text.posted(DE)
    lobby = fake.public_answer(rec)
    assert lobby.content == text.lobby_text(FR, [str(anja.id)], 4, names, str(anja.id))
    assert [c["label"] for c in lobby.all_components()] == [
        text.label(FR, k) for k in ("join", "leave", "add_computer", "start")]
    await fake.click(users[1], lobby, lobby.component("join")["custom_id"])
    await fake.slash(users[2], "sanmarco game join")
    await fake.click(users[3], lobby, lobby.component("join")["custom_id"])
    await fake.click(anja, lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    seats = (await service.status(fake.channel_id)).players  # drawn at the start
    assert sorted(seats) == sorted(names)
    assert lobby.content == text.game_started(FR, seats, names)
    start = fake.last_channel_message()
    assert start.content.startswith(text.game_begins(FR) + "\n")

    # The whole game, a third of it with slash commands.
    table = Table(fake, users, commands=0.3, public=FR, private=DE)
    idle_checked = False
    steps = 0
    while await table.step():
        steps += 1
        assert steps < 800, "the game did not end"
        post = fake.last_channel_message()
        waiting = awaited_ids(post, FR)
        idle = next((u for u in users if u.id not in waiting), None)
        if not idle_checked and waiting and idle is not None:
            # a refusal with the current prompt, in the idle player's German
            snap = await service.snapshot(fake.channel_id, str(idle.id))
            hand = await fake.slash(idle, "sanmarco hand")
            assert hand.response.content.startswith(
                text.not_your_turn_here(DE, snap.awaiting, snap.names))
            idle_checked = True
    await harness.settle()
    final = fake.last_channel_message()
    assert game_over_words(FR) in final.content
    assert [c["label"] for c in final.all_components()] == [text.label(FR, "rematch"),
                                                           text.label(FR, "replay"),
                                                           text.label(FR, "game_file"),
                                                           text.label(FR, "review")]
    over = await service.finished_game(fake.guild_id, fake.channel_id, 1)
    assert text.seed_line(FR, over.seed) in final.content

    # Every step of the panels was used, by buttons and by commands.
    assert {"build", "asg", "commit", "take", "next", "card", "pick"} <= set(table.pressed)
    assert table.choices, "no autocomplete was read"
    kinds = {(r.type, r.callback_type) for r in table.interactions}
    assert (2, 5) in kinds and (3, 6) in kinds
    # Answers known in advance: each command's note, each panel's last word.
    notes = [r.response.content for r in table.interactions if r.type == 2]
    assert notes and set(notes) == {text.posted(DE)}
    assert text.done(DE) in {m.content for m in fake.messages.values() if m.ephemeral}
    # The channel's prompts carry French buttons.
    labels = {c.get("label") for m in fake.channel_messages() for c in m.all_components()}
    assert {text.label(FR, "build"), text.label(FR, "play_next")} <= labels

    # After the game, more private answers: status, log, rules, the board, an old prompt.
    status = await service.status(fake.channel_id)
    rec = await fake.slash(users[1], "sanmarco status")
    assert rec.response.content == text.status_text(DE, status)
    log = await fake.slash(users[2], "sanmarco game log")
    game_log = await service.log(fake.channel_id)
    assert log.response.content == text.events_text(DE, game_log.events,
                                                     await service.names(fake.channel_id),
                                                     latest=True)
    for topic in text.RULE_TOPIC_NAMES:
        rules = await fake.slash(users[3], "sanmarco game rules", topic=topic)
        assert rules.response.content == text.rule_topic(DE, topic)
    board = await fake.slash(anja, "sanmarco board")
    assert board.response.content == text.board_caption(DE, status.status, {}, names)
    old = next(m for m in fake.channel_messages() if any(
        tag_of(c) in ("build", "take", "next") for c in m.custom_ids()))
    rec = await fake.click(anja, old, old.custom_ids()[0])
    assert rec.response.ephemeral
    assert rec.response.content.startswith(text.refusal(DE, "game.over"))
    await harness.settle()

    # No English, and no French in private or German in public, anywhere.
    private = [v for m in fake.messages.values() if m.ephemeral for v in m.versions]
    public = [v for m in fake.messages.values() if not m.ephemeral for v in m.versions]
    assert assert_only("de", private, "an ephemeral answer") > 100
    assert assert_only("fr", public, "a public post") > 100
    offered = [c["name"] for c in table.choices]
    assert not [c for c in offered if leaks(c, "de")], offered
    # Every picture was drawn in the channel's language.
    assert len(drawn) > 60 and set(drawn) == {"fr"}


async def test_the_servers_language_is_the_channels_until_a_channel_chooses(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Without a channel setting, a German server's channels post in German, whatever the
    user's language; an English user still reads their own answers in English."""
    fake.guild_locale = "de"
    anja = fake.add_user("anja", locale="de")
    tom = fake.add_user("tom", locale="en-GB")
    await harness.start(seed=9)
    rec = await fake.slash(tom, "sanmarco game new", seats=3)
    assert rec.response.content == text.posted(i18n.ENGLISH)
    lobby = fake.public_answer(rec)
    assert lobby.content == text.lobby_text(DE, [str(tom.id)], 3, {}, str(tom.id))
    rec = await fake.slash(anja, "sanmarco game leave")
    assert rec.response.content == text.refusal(DE, "lobby.not_joined")
    rec = await fake.slash(tom, "sanmarco game start")
    assert rec.response.content == text.refusal(i18n.ENGLISH, "lobby.not_enough")
    assert re.search(r"Beitreten|Verlassen", " ".join(
        c["label"] for c in lobby.all_components()))


async def test_reminders_speak_each_channels_language(fake: FakeDiscord,
                                                      harness: BotHarness) -> None:
    """A reminder is a public post: a channel set to French reminds in French, a channel
    without a setting on a German server in German — whoever is awaited."""
    now = [1_700_000_000.0]
    fake.guild_locale = "de"
    french = fake.add_channel()
    users = [fake.add_user(n, locale="en-US") for n in ("tom", "sue", "max")]
    await harness.start(seed=42, clock=lambda: now[0])
    service = harness.bot.game_service  # type: ignore[union-attr]
    await service.set_settings(french, language="fr")
    for channel in (fake.channel_id, french):
        lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new",
                                                    channel_id=channel, seats=3))
        for u in users[1:]:
            await fake.click(u, lobby, lobby.component("join")["custom_id"])
        await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    now[0] += 13 * 3600
    await harness.bot.get_cog("SanMarco").reminders.run_once()  # type: ignore[union-attr]
    sent = {int(r.path.split("/")[2]): r.json["content"] for r in fake.requests
            if r.method == "POST" and r.path.startswith("/channels/")
            and r.path.endswith("/messages") and isinstance(r.json, dict)}
    for channel, language in ((fake.channel_id, "de"), (french, "fr")):
        tr = translations(language)
        status = await service.status(channel)
        assert sent[channel] == text.reminder(tr, status.awaiting, status.since), language
        assert not leaks(sent[channel], language)


def test_the_demo_tells_a_whole_game_in_german(tmp_path: Any,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot.demo --language de``: the log and the standings in German (the
    computers' names too), no English sentence in them."""
    from bot.demo import main

    assert main(["--players", "3", "--seed", "5", "--out", str(tmp_path), "--easy", "1",
                 "--language", "de", "--no-images"]) == 0
    printed = capsys.readouterr().out
    log = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert log.startswith(DE.gettext("The game begins. Seats: {players}.").split("{")[0])
    assert DE.gettext("Computer {number} ({level})").format(number=1, level="normal") in log
    assert game_over_words(DE) in log.splitlines()[-1]
    standings = (tmp_path / "standings.txt").read_text(encoding="utf-8")
    for words in (log, standings, printed):
        assert not leaks(words, "de"), leaks(words, "de")


# ------------------------------------------------------- games over days, in three languages
async def test_settings_language_is_set_with_manage_channel_and_returns_to_the_server(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """``/sanmarco-server settings language:`` — shown to everyone in their own language, changed
    only with Manage Channel, the channel's post in the language just chosen; "the server's
    language" unsets it (the server here is French)."""
    fake.guild_locale = "fr"
    anja = fake.add_user("anja", locale="de")
    mod = fake.add_user("mod", locale="en-US", manage_channels=True)
    await harness.start(seed=1)
    service = harness.bot.game_service  # type: ignore[union-attr]
    channel = fake.channel_id
    settings = await service.settings(channel)
    rec = await fake.slash(anja, "sanmarco-server settings")
    assert rec.response.content == text.settings_text(DE, settings, can_change=False,
                                                      effective="fr", threads=False)
    assert DE.gettext("Language: the server's ({language})").format(
        language="Français") in rec.response.content
    rec = await fake.slash(anja, "sanmarco-server settings", language="de")
    assert rec.response.content == text.refusal(DE, "settings.permission")
    assert (await service.settings(channel)).language is None

    rec = await fake.slash(mod, "sanmarco-server settings", language="de")
    settings = await service.settings(channel)
    assert settings.language == "de"
    assert rec.response.content == text.posted(i18n.ENGLISH)
    assert fake.public_answer(rec).content == text.settings_changed(DE, str(mod.id), settings,
                                                                    "de", threads=False)
    rec = await fake.slash(mod, "sanmarco-server settings")
    assert "Language: Deutsch" in rec.response.content  # the mod reads English
    lobby = fake.public_answer(await fake.slash(mod, "sanmarco game new", seats=3))
    assert lobby.content == text.lobby_text(DE, [str(mod.id)], 3, {}, str(mod.id))

    rec = await fake.slash(mod, "sanmarco-server settings", language="server")
    assert (await service.settings(channel)).language is None
    assert fake.public_answer(rec).content.startswith(
        FR.gettext("{player} changed this channel's settings.").format(player=f"<@{mod.id}>"))
    rec = await fake.slash(mod, "sanmarco-server settings", language="xx")  # a forged value
    assert rec.response.content == text.refusal(i18n.ENGLISH, "settings.language")
    # the option as Discord shows it: the three languages by their own names, and back
    settings_cmd = next(o for o in fake._find_command("sanmarco-server")["options"]
                        if o["name"] == "settings")
    option = next(o for o in settings_cmd["options"] if o["name"] == "language")
    assert [c["value"] for c in option["choices"]] == ["en", "de", "fr", "server"]
    assert [c["name"] for c in option["choices"][:3]] == ["English", "Deutsch", "Français"]
    assert option["choices"][3]["name_localizations"] == {
        "de": DE.pgettext(i18n.COMMAND_CHOICE, "The server's language"),
        "fr": FR.pgettext(i18n.COMMAND_CHOICE, "The server's language")}
    assert option["name_localizations"] == {"de": "sprache", "fr": "langue"}


async def test_a_default_move_its_dms_and_the_undo_speak_the_right_language(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The posts of games over days in a French channel with German players: the turn timer's
    default move and the hand-over are told in French, a DM (it stands for the channel's post)
    in French, the hint after a refused DM and the Undo button on a player's own answer in
    German."""
    now = [1_700_000_000.0]
    mod = fake.add_user("mod", locale="en-US", manage_channels=True)
    users = [fake.add_user(n, locale="de") for n in ("anja", "bernd", "christian")]
    users[1].dms_open = False
    await harness.start(seed=42, clock=lambda: now[0])
    await fake.slash(mod, "sanmarco-server settings", language="fr", turn_timer=1.0,
                     reminder_hours=0.0)
    for user in users:
        rec = await fake.slash(user, "sanmarco-server notify", how="both")
        assert rec.response.content == text.notify_text(DE, "both")
    lobby = fake.public_answer(await fake.slash(users[0], "sanmarco game new", seats=3))
    for u in users[1:]:
        await fake.click(u, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, users, public=FR, private=DE)
    absent = next(u for u in users if u.id == awaited_ids(fake.last_channel_message(), FR)[0])
    timed: list[str] = []
    for _ in range(300):
        post = fake.last_channel_message()
        if len(timed) == 3:
            break
        if absent.id in awaited_ids(post, FR):
            now[0] += 3600
            await harness.bot.get_cog("SanMarco").reminders.run_once()  # type: ignore
            await harness.settle()
            timed.append(fake.last_channel_message().content)
        else:
            assert await table.step()
            await harness.settle()
    assert len(timed) == 3
    assert all(t.startswith(f"Le temps de <@{absent.id}> est écoulé ; l'ordinateur ")
               for t in timed), timed
    assert text.handed_over(FR, str(absent.id)) in timed[-1]
    for t in timed:
        assert not leaks(t, "fr"), t
    # DMs: in the channel's French; the refused one's hint in its reader's German
    dms = [m.content for u in users for m in fake.dms(u)]
    assert dms and all(d.startswith(FR.gettext("Your turn in San Marco: {action}.")
                                    .split("{")[0]) for d in dms), dms[:3]
    assert all(not leaks(d, "fr") for d in dms)
    fallbacks = [m for m in fake.channel_messages() if m.content.startswith(
        FR.gettext("I could not send a direct message to {players}, so here is the "
                   "mention.").split("{")[0])]
    assert len(fallbacks) == 1
    rec = await fake.slash(users[1], "sanmarco status")  # the hint comes at the latest now
    await harness.settle()
    hints = [m for m in fake.messages.values() if m.content == text.dm_refused_hint(DE)]
    assert len(hints) == 1 and hints[0].ephemeral
    assert fake._by_id[hints[0].interaction_id].user is users[1]
    service = harness.bot.game_service  # type: ignore[union-attr]
    rec = await fake.slash(users[0], "sanmarco-server games")
    mine = await service.my_games(fake.guild_id, str(users[0].id))
    assert rec.response.content == text.my_games_text(DE, mine, str(users[0].id))
    assert not leaks(rec.response.content, "de")
    # a German player's own answer carries a German Undo button
    undo = [c for m in fake.messages.values() if m.ephemeral for c in m.all_components()
            if tag_of(c.get("custom_id", "")) == "undo"]
    assert undo and {c["label"] for c in undo} == {text.label(DE, "undo")}
