"""Sentences as players read them (each one reads right to a player, not to a programmer)."""

from __future__ import annotations

import pytest

from bot import text
from bot.i18n import ENGLISH as EN
from engine import Event


def test_a_banishment_says_who_lost_how_many_aristocrats_without_a_stray_space() -> None:
    """It read "Banishment in Santa Croce: @bob −1, @carol −3 ." (stray space, no unit)."""
    names = {"ai.normal.1": "Computer 1 (normal)"}
    line = text.event_line(EN, Event("banished", {"player": "1", "district": "Santa Croce",
                                              "roll": 4, "removed": {"2": 1, "3": 3}}), names)
    assert line == "Banishment in Santa Croce by <@1>: <@2> loses 1 aristocrat, <@3> 3."
    line = text.event_line(EN, Event("banished", {"player": "1", "district": "Castello",
                                              "roll": 2, "removed": {"ai.normal.1": 2}}), names)
    assert line == "Banishment in Castello by <@1>: Computer 1 (normal) loses 2 aristocrats."
    line = text.event_line(EN, Event("banished", {"player": "1", "district": "Castello",
                                              "roll": 2, "removed": {}}), names)
    assert line == "Banishment in Castello by <@1>: nobody loses an aristocrat."
    assert not any(" ." in (text.event_line(EN, Event("banished", {
        "player": "1", "district": "San Polo", "roll": 1, "removed": r})) or "")
        for r in ({}, {"2": 1}, {"2": 1, "3": 1}))


BANISHED = {  # what a banishment line reads in each language: one aristocrat, then two
    "en": ("Banishment in Santa Croce by <@1>: <@2> loses 1 aristocrat, <@3> 3.",
           "Banishment in Santa Croce by <@1>: <@2> loses 2 aristocrats."),
    "de": ("Verbannung in Santa Croce durch <@1>: <@2> verliert 1 Adligen, <@3> 3.",
           "Verbannung in Santa Croce durch <@1>: <@2> verliert 2 Adlige."),
    "fr": ("Exil dans Santa Croce par <@1> : <@2> perd 1 noble, <@3> 3.",
           "Exil dans Santa Croce par <@1> : <@2> perd 2 nobles."),
}


@pytest.mark.parametrize("lang", list(BANISHED))
def test_a_banishment_names_who_banished_and_declines_the_count_in_every_language(
        lang: str) -> None:
    """A digest's line read "Verbannung in Santa Croce: @x verliert 1 Adliger." — who
    banished? and the German accusative is "1 Adligen": the line names the banisher and
    says each count as its language declines it, in the post and the digest alike."""
    from bot.i18n import translations
    from bot.service.results import LogEntry

    tr = translations(lang)
    one, two = (Event("banished", {"player": "1", "district": "Santa Croce", "roll": r,
                                   "removed": removed})
                for r, removed in ((4, {"2": 1, "3": 3}), (2, {"2": 2})))
    assert (text.event_line(tr, one, {}), text.event_line(tr, two, {})) == BANISHED[lang]
    move = LogEntry(9, "1", "banish", 0.0, (one,))
    assert text.move_line(tr, move, {}) == "- " + BANISHED[lang][0]


def test_the_set_up_bridge_panel_says_to_place_a_set_up_bridge() -> None:
    """It said "Bridge: choose what to do." where the post asked to place a set-up bridge."""
    from bot.cogs.sanmarco.components import screens
    from engine import legal_actions, new_game

    state = new_game(["1", "2", "3"], seed=1)
    while state.public_view()["phase"] != "setup_bridges":
        from engine import KeepRolls, apply

        state, _ = apply(state, state.waiting_for[0], KeepRolls())
    pid = state.waiting_for[0]
    menu = screens.chooser_menu(EN, pid, legal_actions(state, pid), [], awaited="bridge")
    assert menu.title == "Place a set-up bridge: choose where."
    assert text.awaited_words(EN, "bridge") == "place a set-up bridge"


def test_the_passage_end_says_who_may_banish_or_that_nobody_does() -> None:
    ev = Event("passage_scored", {"passage": 1, "limit": {}, "bonus": {"2": 3},
                                  "banisher": "2"})
    assert text.event_line(EN, ev) == ("Passage 1 ends. Limit bonus: <@2> +3. <@2> has the fewest "
                                   "limit points and may banish.")
    ev = Event("passage_scored", {"passage": 2, "limit": {}, "bonus": {}, "banisher": None})
    assert text.event_line(EN, ev).endswith("A tie for the fewest limit points: no banishment.")


def test_a_reminder_interval_of_one_hour_reads_right_in_every_language() -> None:
    """"toutes les 1 heure" / "alle 1 Stunde" are not French and German: the interval is
    said so that one hour and many read right."""
    from bot.i18n import translations
    from bot.store import Settings

    said = {lang: text.settings_text(translations(lang), Settings(1, reminder_hours=1.0),
                                     can_change=False, effective=lang, threads=True)
            for lang in ("en", "de", "fr")}
    assert "every 1 hour while" in said["en"]
    assert "im Abstand von 1 Stunde," in said["de"]
    assert "par tranche de 1 heure d'attente" in said["fr"]
    assert "toutes les 1" not in said["fr"] and "alle 1 " not in said["de"]
