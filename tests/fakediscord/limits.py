"""What Discord checks in a message body before it makes or edits a message: a body over a
limit is answered 400 with code 50035 "Invalid Form Body" and an ``errors`` object naming
each bad field by its path (``{"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
"message": "Must be 2000 or fewer in length."}]}}``; array items by their index as a
string key, e.g. ``components.0.components.5``); a message with nothing in it is 400 /
50006 "Cannot send an empty message". discord.py raises both as ``HTTPException`` at once,
never retried, so a fake that took such a body would hide a post the bot can never send.

The limits, as Discord's API reference states them (discord-api-docs
``docs/resources/message.mdx`` "Create Message" and the embed and attachment objects,
``docs/interactions/message-components.mdx``, ``docs/resources/channel.mdx``
"Allowed mentions"; the same in discord/discord-api-spec ``specs/openapi.json``; error codes
from ``docs/topics/opcodes-and-status-codes.mdx``, the ``errors`` shape from its "Example
JSON Error Response"):

- content at most 2,000 characters; nonce an integer or a string of at most 25 characters;
- at most 10 files (new files and kept attachments); attachment description at most 1,024;
- at most 10 embeds: title 256, description 4,096, at most 25 fields (name 256, value
  1,024), footer text 2,048, author name 256, and at most 6,000 characters of all of these
  over all the message's embeds;
- components: at most 5 action rows (type 1), each of 1–5 buttons or one select alone;
  a button's label at most 80, a link button (style 5) has a ``url`` and no ``custom_id``,
  any other a ``custom_id``; a select's ``custom_id``, ``placeholder`` at most 150, 1–25
  options (label and value 1–100, description at most 100), ``min_values`` 0–25,
  ``max_values`` 1–25, min ≤ max ≤ the number of options; every ``custom_id`` 1–100
  characters and unique within the message;
- allowed_mentions: ``parse`` only of "roles", "users", "everyone"; at most 100 ``users``
  and 100 ``roles``; a type in ``parse`` and its list both given is refused;
- an autocomplete answer (callback type 8, ``check_choices``): at most 25 choices, each
  name 1–100 characters and a string value at most 100 (``docs/interactions/
  application-commands.mdx``, "Application Command Option Choice").

Not modelled: Components V2 (the bot sends none), polls, stickers, message references.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

CONTENT = 2000
NONCE = 25
FILES = 10
DESCRIPTION = 1024  # an attachment's alt text
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
ROWS = 5
BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
PLACEHOLDER = 150
OPTIONS = 25
OPTION_TEXT = 100  # an option's label, value and description
MENTION_IDS = 100
CHOICES = 25
CHOICE_TEXT = 100  # a choice's name, and a string choice's value
MENTION_TYPES = ("roles", "users", "everyone")
ACTION_ROW, BUTTON, LINK = 1, 2, 5
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable, channel select
STRING_SELECT = 3
INT64 = 2 ** 63

Path = tuple[str | int, ...]
Answer = tuple[int, dict[str, Any]]


class _Errors:
    """Discord's ``errors`` object, built a field at a time."""

    def __init__(self, root: Path = ()) -> None:
        self.root = root
        self.tree: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.tree
        for key in (*self.root, *path):
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: Path, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length(self, path: Path, value: Any, low: int, high: int) -> None:
        """A string's or an array's length within [low, high]."""
        if not isinstance(value, (str, list)):
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        elif not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH",
                     f"Must be between {low} and {high} in length.")

    def number(self, path: Path, value: Any, low: int, high: int) -> None:
        if value is None:
            return
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "NUMBER_TYPE_COERCE", f"Value \"{value}\" is not int.")
        elif value < low:
            self.add(path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to "
                                              f"{low}.")
        elif value > high:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to "
                                              f"{high}.")


def invalid_form_body(errors: dict[str, Any]) -> Answer:
    """Discord's answer to a body over its limits."""
    return 400, {"message": "Invalid Form Body", "code": 50035, "errors": errors}


EMPTY: Answer = (400, {"message": "Cannot send an empty message", "code": 50006})


def is_empty(content: Any, embeds: Any, components: Any, files: int) -> bool:
    """A message with no content, embed, attachment or component (Discord's 50006)."""
    return not content and not embeds and not components and not files


def check_message(body: dict[str, Any], files: int = 0, *, edit: bool = False,
                  nonce: bool = False, root: Path = ()) -> Answer | None:
    """Discord's refusal of a message body, or None when it takes it. ``files``: how many
    files the request uploads; ``edit``: a PATCH, whose fields are each optional (the empty
    check is the caller's, against what the message keeps); ``nonce``: a route that takes
    one (a channel post); ``root``: where the message sits in the request (an interaction
    callback's ``data``)."""
    errors = _Errors(root)
    _content(errors, body)
    if nonce:
        _nonce(errors, body.get("nonce"))
    _attachments(errors, body, files)
    _embeds(errors, body.get("embeds"))
    _components(errors, body.get("components"))
    _allowed_mentions(errors, body.get("allowed_mentions"))
    if errors.tree:
        return invalid_form_body(errors.tree)
    if not edit and is_empty(body.get("content"), body.get("embeds"), body.get("components"),
                             files + len(body.get("attachments") or [])):
        return EMPTY
    return None


def check_choices(data: dict[str, Any]) -> Answer | None:
    """Discord's refusal of an autocomplete answer's choices (under ``data``), or None."""
    errors = _Errors(("data",))
    choices = data.get("choices")
    errors.length(("choices",), choices, 0, CHOICES)
    for i, choice in enumerate(choices if isinstance(choices, list) else []):
        errors.length(("choices", i, "name"), choice.get("name"), 1, CHOICE_TEXT)
        errors.max_length(("choices", i, "value"), choice.get("value"), CHOICE_TEXT)
    return invalid_form_body(errors.tree) if errors.tree else None


def _content(errors: _Errors, body: dict[str, Any]) -> None:
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
    errors.max_length(("content",), content, CONTENT)


def _nonce(errors: _Errors, nonce: Any) -> None:
    if nonce is None:
        return
    if isinstance(nonce, str):
        errors.max_length(("nonce",), nonce, NONCE)
    elif isinstance(nonce, int) and not isinstance(nonce, bool):
        errors.number(("nonce",), nonce, -INT64, INT64 - 1)
    else:
        errors.add(("nonce",), "BASE_TYPE_STRING", "Must be a string or an integer.")


def _attachments(errors: _Errors, body: dict[str, Any], files: int) -> None:
    listed = body.get("attachments") or []
    for i, att in enumerate(listed):
        if isinstance(att, dict):
            errors.max_length(("attachments", i, "description"), att.get("description"),
                              DESCRIPTION)
    new = {str(a.get("id")) for a in listed if isinstance(a, dict)}
    kept = len(listed) - sum(1 for i in range(files) if str(i) in new)
    if files + max(kept, 0) > FILES:
        errors.add(("attachments",), "BASE_TYPE_MAX_LENGTH",
                   f"Must be {FILES} or fewer in length.")


def _embeds(errors: _Errors, embeds: Any) -> None:
    if not embeds:
        return
    if not isinstance(embeds, list):
        errors.add(("embeds",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(embeds) > EMBEDS:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS} or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        if not isinstance(e, dict):
            continue
        texts: list[tuple[Path, Any, int]] = [
            (("title",), e.get("title"), EMBED_TITLE),
            (("description",), e.get("description"), EMBED_DESCRIPTION),
            (("footer", "text"), (e.get("footer") or {}).get("text"), FOOTER),
            (("author", "name"), (e.get("author") or {}).get("name"), AUTHOR)]
        fields = e.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            errors.add(("embeds", i, "fields"), "BASE_TYPE_MAX_LENGTH",
                       f"Must be {EMBED_FIELDS} or fewer in length.")
        for j, f in enumerate(fields):
            texts += [(("fields", j, "name"), f.get("name"), FIELD_NAME),
                      (("fields", j, "value"), f.get("value"), FIELD_VALUE)]
        for path, value, limit in texts:
            errors.max_length(("embeds", i, *path), value, limit)
            total += len(value) if isinstance(value, str) else 0
    if total > EMBED_TOTAL:
        errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
                   f"Embed size exceeds maximum size of {EMBED_TOTAL}")


def _components(errors: _Errors, rows: Any) -> None:
    if not rows:
        return
    if not isinstance(rows, list):
        errors.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(rows) > ROWS:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {ROWS} or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            errors.add(("components", i, "type"), "UNION_TYPE_CHOICES",
                       "Value of field \"type\" must be one of (1,).")
            continue
        items = row.get("components")
        errors.length(("components", i, "components"), items, 1, BUTTONS)
        items = items if isinstance(items, list) else []
        if any(isinstance(c, dict) and c.get("type") in SELECTS for c in items) and len(items) > 1:
            errors.add(("components", i, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                       "The specified component exceeds the maximum width")
        for j, comp in enumerate(items):
            if isinstance(comp, dict):
                _component(errors, ("components", i, "components", j), comp, seen)


def _component(errors: _Errors, at: Path, comp: dict[str, Any], seen: set[str]) -> None:
    kind = comp.get("type")
    custom_id = comp.get("custom_id")
    if kind == BUTTON and comp.get("style") == LINK:
        if not comp.get("url"):
            errors.add((*at, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if custom_id is not None:
            errors.add((*at, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_FORBIDDEN",
                       "A custom id cannot be specified for this button style")
    elif kind == BUTTON or kind in SELECTS:
        errors.length((*at, "custom_id"), custom_id, 1, CUSTOM_ID)
    else:
        errors.add((*at, "type"), "UNION_TYPE_CHOICES",
                   "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).")
        return
    if isinstance(custom_id, str):
        if custom_id in seen:
            errors.add((*at, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                       "Component custom id cannot be duplicated")
        seen.add(custom_id)
    if kind == BUTTON:
        errors.max_length((*at, "label"), comp.get("label"), BUTTON_LABEL)
        return
    errors.max_length((*at, "placeholder"), comp.get("placeholder"), PLACEHOLDER)
    low, high = comp.get("min_values"), comp.get("max_values")
    errors.number((*at, "min_values"), low, 0, OPTIONS)
    errors.number((*at, "max_values"), high, 1, OPTIONS)
    if kind != STRING_SELECT:
        return
    options = comp.get("options")
    errors.length((*at, "options"), options, 1, OPTIONS)
    options = options if isinstance(options, list) else []
    for k, o in enumerate(options):
        if isinstance(o, dict):
            errors.length((*at, "options", k, "label"), o.get("label"), 1, OPTION_TEXT)
            errors.length((*at, "options", k, "value"), o.get("value"), 1, OPTION_TEXT)
            errors.max_length((*at, "options", k, "description"), o.get("description"),
                              OPTION_TEXT)
    low_n = low if isinstance(low, int) else 1
    high_n = high if isinstance(high, int) else 1
    if low_n > high_n or (options and high_n > len(options)):
        errors.add((*at, "options"), "STRING_SELECT_OPTIONS_TOO_FEW",
                   f"Must have at least {max(low_n, high_n)} options (min_values/max_values).")


def _allowed_mentions(errors: _Errors, allowed: Any) -> None:
    if allowed is None:
        return
    if not isinstance(allowed, dict):
        errors.add(("allowed_mentions",), "DICT_TYPE_CONVERT", "Only dictionaries may be used "
                                                               "in a DictType")
        return
    parse: Sequence[Any] = allowed.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            errors.add(("allowed_mentions", "parse", i), "BASE_TYPE_CHOICES",
                       f"Value must be one of {MENTION_TYPES}.")
    for kind in ("users", "roles"):
        ids = allowed.get(kind)
        if ids is None:
            continue
        if not isinstance(ids, list) or len(ids) > MENTION_IDS:
            errors.add(("allowed_mentions", kind), "BASE_TYPE_MAX_LENGTH",
                       f"Must be {MENTION_IDS} or fewer in length.")
            continue
        if kind in parse:
            errors.add(("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                       f"parse:[\"{kind}\"] and {kind}: [ids] are mutually exclusive.")
        for j, snowflake in enumerate(ids):
            if not str(snowflake).isdigit():
                errors.add(("allowed_mentions", kind, j), "NUMBER_TYPE_COERCE",
                           f"Value \"{snowflake}\" is not snowflake.")
