"""Every sentence a post can hold has words in every language: the deliverer words a post
only when it sends it (``delivery.compose.line_text``), so a ``Line`` without words would fail
there, at every try, in every channel that waits for it."""

from __future__ import annotations

import typing
from dataclasses import MISSING, fields

import pytest

from bot import i18n
from bot.cogs.sanmarco.delivery.compose import line_text
from bot.service.posts import LINES, Line
from bot.store import Settings
from engine import Action, decode


def _sample(cls: type[Line]) -> Line:
    """A ``cls`` sentence with a value of its type in each field (its default if any)."""
    hints = typing.get_type_hints(cls)
    by_type: dict[object, object] = {
        str: "111", int: 2, float: 1_700_000_000.0, bool: True, Action: decode("doge:SM"),
        Settings: Settings(10), tuple[str, ...]: ("111", "222")}
    kwargs = {f.name: by_type[hints[f.name]] for f in fields(cls)
              if f.default is MISSING and f.default_factory is MISSING}
    return cls(**kwargs)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("key", sorted(LINES))
def test_every_line_a_post_can_hold_has_words_in_every_language(key: str,
                                                                language: str) -> None:
    """Each ``Line`` of ``posts.LINES`` is worded in en, de and fr (a post whose words
    raise is tried alone, then replaced by its minimal post: never the channel's stall)."""
    line = _sample(LINES[key])
    said = line_text(i18n.translations(language), line, {"111": "Ann", "222": "Bo"},
                     language)
    assert said.strip()


def test_the_languages_are_the_three_the_bot_speaks() -> None:
    assert set(i18n.LANGUAGES) == {"en", "de", "fr"}
