"""The fake Discord's body check (tests/fakediscord/limits.py) refuses what Discord refuses
and takes what it takes: each limit exactly at its bound passes, one over is answered 400 /
50035 with the bad field's path in Discord's ``errors`` object; an empty message is 50006.
A fake that took more than Discord does would hide a post that can never be sent."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord
import pytest

from bot import i18n, text
from bot.i18n import ENGLISH
from engine import Action, Doge
from engine.cards import DOGE
from engine.describe import doge_payments
from tests.fakediscord import FakeDiscord, limits
from tests.fakediscord.harness import BotHarness, until
from tests.fakediscord.invariants import caught_up
from tests.fakediscord.limits import check_message
from tests.fakediscord.messages import FakeUser
from tests.fakediscord.players import Table, tag_of


def _button(i: int, **over: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": f"b{i}", "label": "Go", **over}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _select(n_options: int = 1, **over: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": "sel", "options": [
        {"label": f"o{k}", "value": f"v{k}"} for k in range(n_options)], **over}


def _option(**over: Any) -> dict[str, Any]:
    return _select(options=[{"label": "a", "value": "a", **over}])


def _embed(**fields: Any) -> dict[str, Any]:
    return {"embeds": [fields]}


# name -> (body of size n, the bound, the path Discord names when over it)
BOUNDS: dict[str, tuple[Callable[[int], dict[str, Any]], int, str]] = {
    "content": (lambda n: {"content": "x" * n}, 2000, "content"),
    "nonce": (lambda n: {"content": "x", "nonce": "1" * n}, 25, "nonce"),
    "action rows": (lambda n: {"components": [_row(_button(i)) for i in range(n)]}, 5,
                    "components"),
    "buttons in a row": (lambda n: {"components": [_row(*(_button(i) for i in range(n)))]}, 5,
                         "components.0.components"),
    "button label": (lambda n: {"components": [_row(_button(0, label="x" * n))]}, 80,
                     "components.0.components.0.label"),
    "custom_id": (lambda n: {"components": [_row(_button(0, custom_id="x" * n))]}, 100,
                  "components.0.components.0.custom_id"),
    "select options": (lambda n: {"components": [_row(_select(n))]}, 25,
                       "components.0.components.0.options"),
    "select placeholder": (lambda n: {"components": [_row(_select(placeholder="x" * n))]},
                           150, "components.0.components.0.placeholder"),
    "option label": (lambda n: {"components": [_row(_option(label="x" * n))]}, 100,
                     "components.0.components.0.options.0.label"),
    "option value": (lambda n: {"components": [_row(_option(value="x" * n))]}, 100,
                     "components.0.components.0.options.0.value"),
    "option description": (lambda n: {"components": [_row(_option(description="x" * n))]},
                           100, "components.0.components.0.options.0.description"),
    "max_values": (lambda n: {"components": [_row(_select(25, max_values=n))]}, 25,
                   "components.0.components.0.max_values"),
    "max_values within the options": (
        lambda n: {"components": [_row(_select(3, max_values=n))]}, 3,
        "components.0.components.0.options"),
    "attachment description": (lambda n: {"attachments": [
        {"id": 0, "filename": "a.png", "description": "x" * n}]}, 1024,
        "attachments.0.description"),
    "embeds": (lambda n: {"embeds": [{"title": "t"} for _ in range(n)]}, 10, "embeds"),
    "embed title": (lambda n: _embed(title="x" * n), 256, "embeds.0.title"),
    "embed description": (lambda n: _embed(description="x" * n), 4096,
                          "embeds.0.description"),
    "embed fields": (lambda n: _embed(fields=[{"name": "n", "value": "v"}] * n), 25,
                     "embeds.0.fields"),
    "field name": (lambda n: _embed(fields=[{"name": "x" * n, "value": "v"}]), 256,
                   "embeds.0.fields.0.name"),
    "field value": (lambda n: _embed(fields=[{"name": "n", "value": "x" * n}]), 1024,
                    "embeds.0.fields.0.value"),
    "footer": (lambda n: _embed(footer={"text": "x" * n}), 2048, "embeds.0.footer.text"),
    "author": (lambda n: _embed(author={"name": "x" * n}), 256, "embeds.0.author.name"),
    "embeds in all": (lambda n: {"embeds": [{"description": "x" * 4000},
                                            {"description": "x" * (n - 4000)}]}, 6000,
                      "embeds"),
    "mentioned users": (lambda n: {"content": "x", "allowed_mentions": {
        "users": [str(i + 1) for i in range(n)]}}, 100, "allowed_mentions.users"),
}


def _paths(tree: dict[str, Any], at: str = "") -> set[str]:
    """The dotted paths of an ``errors`` object's leaves, as discord.py prints them."""
    out = {at} if "_errors" in tree else set()
    for key, sub in tree.items():
        if key != "_errors":
            out |= _paths(sub, f"{at}.{key}" if at else key)
    return out


def _files(name: str) -> int:
    return 1 if name == "attachment description" else 0


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_a_body_at_a_limit_is_taken(name: str) -> None:
    body, bound, _ = BOUNDS[name]
    assert check_message(body(bound), _files(name), nonce=True) is None


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_one_over_a_limit_is_invalid_form_body(name: str) -> None:
    body, bound, path = BOUNDS[name]
    answer = check_message(body(bound + 1), _files(name), nonce=True)
    assert answer is not None
    status, payload = answer
    assert (status, payload["code"], payload["message"]) == (400, 50035, "Invalid Form Body")
    assert path in _paths(payload["errors"]), payload["errors"]


def test_ten_files_are_taken_and_eleven_refused() -> None:
    assert check_message({}, limits.FILES) is None
    answer = check_message({}, limits.FILES + 1)
    assert answer is not None and answer[1]["code"] == 50035


def test_an_integer_nonce_is_taken() -> None:
    assert check_message({"content": "x", "nonce": 2 ** 63 - 1}, nonce=True) is None
    assert check_message({"content": "x", "nonce": 2 ** 63}, nonce=True) is not None


def test_an_empty_message_is_refused_but_an_edit_is_the_callers_to_judge() -> None:
    assert check_message({"content": ""}) == (
        400, {"message": "Cannot send an empty message", "code": 50006})
    assert check_message({"content": ""}, edit=True) is None
    assert check_message({"components": [_row(_button(0))]}) is None


@pytest.mark.parametrize(("body", "path"), [
    ({"components": [_row(_select(2), _button(0))]}, "components.0.components"),
    ({"components": [_row(_button(0)), _row(_button(0))]},
     "components.1.components.0.custom_id"),
    ({"components": [_row(_button(0, style=5, url="https://x.example"))]},
     "components.0.components.0.custom_id"),
    ({"components": [_row({"type": 2, "style": 5, "label": "Go"})]},
     "components.0.components.0.url"),
    ({"components": [_row(_button(0, custom_id=""))]},
     "components.0.components.0.custom_id"),
    ({"components": [_row(_select(3, min_values=3, max_values=2))]},
     "components.0.components.0.options"),
    ({"components": [_button(0)]}, "components.0.type"),
    ({"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
     "allowed_mentions"),
    ({"content": "x", "allowed_mentions": {"parse": ["people"]}}, "allowed_mentions.parse.0"),
])
def test_a_malformed_body_is_refused(body: dict[str, Any], path: str) -> None:
    answer = check_message(body)
    assert answer is not None and answer[1]["code"] == 50035
    assert path in _paths(answer[1]["errors"]), answer[1]["errors"]


def test_a_link_button_and_a_select_alone_are_taken() -> None:
    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://x.example"}
    assert check_message({"components": [_row(link, _button(1)), _row(_select(25))]}) is None


@pytest.mark.parametrize(("data", "path"), [
    ({"choices": [{"name": str(i), "value": str(i)} for i in range(26)]}, "data.choices"),
    ({"choices": [{"name": "x" * 101, "value": "v"}]}, "data.choices.0.name"),
    ({"choices": [{"name": "", "value": "v"}]}, "data.choices.0.name"),
    ({"choices": [{"name": "n", "value": "x" * 101}]}, "data.choices.0.value"),
])
def test_autocomplete_choices_over_discords_limits_are_refused(data: dict[str, Any],
                                                               path: str) -> None:
    answer = limits.check_choices(data)
    assert answer is not None and path in _paths(answer[1]["errors"]), answer


def test_autocomplete_choices_at_discords_limits_are_taken() -> None:
    at = [{"name": "x" * 100, "value": "y" * 100} for _ in range(25)]
    assert limits.check_choices({"choices": at}) is None
    assert limits.check_choices({"choices": []}) is None


def test_a_callback_names_its_fields_under_data() -> None:
    answer = check_message({"content": "x" * 2001}, root=("data",))
    assert answer is not None and _paths(answer[1]["errors"]) == {"data.content"}


async def test_discord_py_reads_the_fakes_refusal_as_discord_words_it(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Through the real client: a channel post one over the content limit raises at once
    (no retry) with Discord's words, and an empty edit of a message is 50006."""
    bot = await harness.start()
    channel = bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as over:
        await channel.send("x" * 2001)
    assert (over.value.status, over.value.code) == (400, 50035)
    assert "In content: Must be 2000 or fewer in length." in over.value.text
    message = await channel.send("x" * 2000)
    with pytest.raises(discord.HTTPException) as empty:
        await message.edit(content="")
    assert empty.value.code == 50006
    assert [r.route for r, _ in fake.refused_bodies] == [
        "POST /channels/{channel_id}/messages", "PATCH /channels/{channel_id}/messages/"
                                                "{message_id}"]
    fake.refused_bodies.clear()  # refused on purpose


# The longest display names Discord allows (32 characters), so every label, option and line
# that names a player is as long as a real server can make it.
LONG_NAMES = ("Konstantin-Maximilian Schäfer-Gr", "Marie-Antoinette de Montmorency-",
              "Bartholomäus von Hohenzollern-Si", "Jean-Baptiste Poquelin dit Moliè")


READS = ("sanmarco status", "sanmarco game log", "sanmarco board", "sanmarco hand",
         "sanmarco offers", "sanmarco-server games", "sanmarco-server lobbies",
         "sanmarco-server stats", "sanmarco-server leaderboard", "sanmarco-server history",
         "sanmarco-server queue list", "sanmarco")


@pytest.mark.parametrize(("seed", "public", "private"), [(3, "fr", "de"), (11, "de", "fr")])
async def test_a_four_player_game_of_the_longest_names_stays_within_discords_limits(
        fake: FakeDiscord, harness: BotHarness, seed: int, public: str, private: str) -> None:
    """A whole game of four players with 32-character names, the channel in one language
    and the players' answers in another, by buttons and by commands: every body the bot
    sends is one Discord takes."""
    users = [fake.add_user(n, locale=private) for n in LONG_NAMES]
    await harness.start(seed=seed)
    service = harness.bot.game_service  # type: ignore[union-attr]
    await service.set_settings(fake.channel_id, language=public)
    tr_public, tr_private = i18n.translations(public), i18n.translations(private)
    rec = await fake.slash(users[0], "sanmarco game new", seats=4)
    lobby = fake.public_answer(rec)
    for user in users[1:]:
        await fake.click(user, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    await harness.settle()
    table = Table(fake, users, rng=random.Random(seed), commands=0.3, public=tr_public,
                  private=tr_private)
    steps = 0
    while await table.step():
        steps += 1
        assert steps < 800, "the game did not end"
        assert not fake.refused_bodies, _refusals(fake)
        if steps in (30, 90):  # what a player may read mid-game, each answer the longest
            await _read_everything(fake, users[steps % 4])
            post = fake.last_channel_message()
            since = [c for c in post.custom_ids() if tag_of(c) == "since"]
            if since:
                await fake.click(users[2], post, since[0])
    await harness.settle()
    await _read_everything(fake, users[1])
    assert not fake.refused_bodies, _refusals(fake)


async def _read_everything(fake: FakeDiscord, user: FakeUser) -> None:
    for command in READS:
        await fake.slash(user, command)
    await fake.slash(user, "sanmarco game rules", topic="doge")


def _refusals(fake: FakeDiscord) -> list[tuple[str, Any, Any]]:
    return [(r.route, answer.get("errors") or answer["message"], r.json)
            for r, answer in fake.refused_bodies]


def _dear_route(actions: Sequence[Action], pid: str, names: Mapping[str, str]) -> Doge | None:
    """A Doge route that crosses a canal and pays three other players: the longest
    "what it costs" a route option can say."""
    for a in actions:
        if isinstance(a, Doge):
            canal, tolls = doge_payments(a, pid)
            if canal and len(tolls) >= 3:
                return a
    return None


async def test_a_doge_route_paying_a_canal_and_three_long_names_can_be_chosen(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Regression: the option of a Doge route that crosses a canal and pays three players
    with long names said what it costs in more than Discord's 100 characters of an
    option's description; Discord refused the whole move panel, so the player could not
    choose any move for the Doge card."""
    users = [fake.add_user(n) for n in LONG_NAMES]
    await harness.start(seed=9)
    service = harness.bot.game_service  # type: ignore[union-attr]
    rec = await fake.slash(users[0], "sanmarco game new", seats=4)
    lobby = fake.public_answer(rec)
    for user in users[1:]:
        await fake.click(user, lobby, lobby.component("join")["custom_id"])
    await fake.click(users[0], lobby, lobby.component("start")["custom_id"])
    names = {str(u.id): u.name for u in users}
    rng = random.Random(9)
    for _ in range(2000):  # random moves until a player may take such a route
        status = await service.status(fake.channel_id)
        pid = rng.choice([p for p in status.awaiting if p.isdigit()])
        snap = await service.snapshot(fake.channel_id, pid)
        route = _dear_route(snap.legal, pid, names)
        if route is not None:
            break
        await service.act(fake.channel_id, pid, rng.choice(snap.legal))
    else:
        raise AssertionError("no game met a Doge route over a canal paying three players")
    # Moves made at the service, not by clicks: the pass that runs after a reconnect
    # delivers their posts.
    await harness.bot.get_cog("SanMarco").deliverer.resume()  # type: ignore[union-attr]
    await until(lambda: caught_up(fake, service, fake.channel_id),
                what="the channel shows the game as stored")
    user = next(u for u in users if str(u.id) == pid)
    post = fake.last_channel_message()
    rec = await fake.click(user, post, post.component("next")["custom_id"])
    panel = rec.response if rec.messages else rec.updated
    label, description = text.doge_option(ENGLISH, route, pid, names)
    for _ in range(4):  # the Doge card, then the route's target, then the route
        assert panel is not None and not fake.refused_bodies, _refusals(fake)
        comps = {tag_of(c.get("custom_id", "")): c for c in panel.all_components()}
        if "pick" in comps:
            break
        if "card" in comps:
            want = text.card_label(ENGLISH, DOGE)
        else:
            want = route.target
        select = comps["card"] if "card" in comps else comps["grp"]
        value = next(o["value"] for o in select["options"] if o["label"] == want)
        await fake.select(user, panel, select["custom_id"], [value])
    assert not fake.refused_bodies, _refusals(fake)
    assert panel is not None
    options = next(c for c in panel.all_components()
                   if tag_of(c.get("custom_id", "")) == "pick")["options"]
    shown = next(o for o in options if o["label"] == label)
    assert len(shown["description"]) <= limits.OPTION_TEXT
    assert shown["description"] == description  # what the route costs, said whole
