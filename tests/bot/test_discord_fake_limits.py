"""The fake Discord's body check (tests/fakediscord/limits.py) refuses what Discord refuses
and takes what it takes: each limit exactly at its bound passes, one over is answered 400 /
50035 with the bad field's path in Discord's ``errors`` object; an empty message is 50006.
A fake that took more than Discord does would hide a post that can never be sent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord, limits
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.limits import check_message


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
