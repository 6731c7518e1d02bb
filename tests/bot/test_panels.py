"""Every panel reads right: over hundreds of random 3- and 4-player games, every screen of
every decision is built as a player would meet it, and checked as they would read it.

Regressions: two Doge routes that paid different players read the same (the label
was cut at 100 characters and the cut part went nowhere); Back redrew the same screen when
one card was left to play.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

import pytest

from bot import text
from bot.cogs.sanmarco.components import screens
from bot.cogs.sanmarco.components.custom_ids import Ref
from bot.i18n import ENGLISH as EN
from bot.service import seat_names
from bot.store import Seat
from bot.text.markup import MAX_BUTTON_LABEL, MAX_OPTION_TEXT, MAX_OPTIONS
from engine import Action, Doge, GameState, apply, legal_actions, new_game

GAMES = 200
PARTS = 4  # the games of one size, as tests of their own
NAMES = {"1": "ann", "2": "bob", "3": "carol", "4": "dave"}


def _menus(pid: str, actions: Sequence[Action], hand: Sequence[str],
           awaited: str, names: Mapping[str, str] = NAMES) -> Iterator[screens.Menu]:
    """Every screen of the chooser a player can reach for one decision."""
    todo: list[tuple[int | None, int | None, int]] = [(None, None, 0)]
    seen: set[tuple[int | None, int | None, int]] = set()
    while todo:
        step = todo.pop()
        if step in seen:
            continue
        seen.add(step)
        card, group, offset = step
        menu = screens.chooser_menu(EN, pid, actions, hand, names, awaited=awaited, card=card,
                                    group=group, offset=offset)
        yield menu
        if menu.more is not None:
            todo.append((card, group, menu.more))
        if menu.kind == "card":
            todo += [(int(o.value), None, 0) for o in menu.options]
        elif menu.kind == "group":
            todo += [(menu.card, int(o.value), 0) for o in menu.options]


def _check_menu(menu: screens.Menu, pid: str, actions: Sequence[Action],
                hand: Sequence[str], awaited: str, names: Mapping[str, str] = NAMES) -> int:
    """What the player reads in one select; returns the Doge routes confirmed."""
    assert menu.options and len(menu.options) <= MAX_OPTIONS
    read = [(o.label, o.description) for o in menu.options]
    assert len(set(read)) == len(read), ("two options read the same", menu.title, read)
    assert len({o.value for o in menu.options}) == len(menu.options)
    for o in menu.options:
        assert 0 < len(o.label) <= MAX_OPTION_TEXT, o.label
        assert o.description is None or 0 < len(o.description) <= MAX_OPTION_TEXT
    if menu.back is not None:  # Back leads somewhere else
        card, group = menu.back
        before = screens.chooser_menu(EN, pid, actions, hand, names, awaited=awaited, card=card,
                                      group=group)
        assert (before.kind, before.options) != (menu.kind, menu.options), menu.title
    confirmed = 0
    if menu.kind == "pick":
        for o in menu.options:
            action = actions[int(o.value)]
            if isinstance(action, Doge) and action.route:
                _check_confirm(action, pid, names)
                confirmed += 1
    return confirmed


def _check_confirm(action: Doge, pid: str, names: Mapping[str, str] = NAMES) -> None:
    """The confirm screen names every bridge and whom it pays (R11)."""
    said = text.confirm_route(EN, action, pid, names)
    for c in action.route:
        assert f"{c.a} → {c.b}" in said, said
        if c.owner is not None and c.owner != pid:
            assert f"{names[c.owner]}'s bridge: 1 prestige to {names[c.owner]}" in said
    assert len(said) < 2000


def _walk(state: GameState, rng: random.Random,
          names: Mapping[str, str] = NAMES) -> tuple[int, int]:
    decisions = confirmed = 0
    while not state.finished:
        pid = rng.choice(state.waiting_for)
        actions = legal_actions(state, pid)
        view = state.public_view()
        awaited = view["awaiting"][pid]
        if awaited == "split":
            pass  # the builder: tests/bot/test_discord_structure.py and the builder tests
        elif awaited == "take":
            buttons = screens.prompt(EN, 1, 1, view)
            assert buttons is not None
            labels = [getattr(getattr(i, "item", i), "label", "") for i in buttons.children]
            assert len(set(labels)) == len(labels) and all(
                0 < len(label) <= MAX_BUTTON_LABEL for label in labels)
        else:
            hand = view["hand"]["cards"] if view["hand"] else []
            for menu in _menus(pid, actions, hand, awaited, names):
                confirmed += _check_menu(menu, pid, actions, hand, awaited, names)
        decisions += 1
        state, _ = apply(state, pid, rng.choice(actions))
    return decisions, confirmed


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("players", [3, 4])
def test_every_panel_of_every_decision_reads_right(players: int, part: int) -> None:
    """(In ``PARTS`` parts of the seeds, so that pytest-xdist's workers share the games.)"""
    pids = list(NAMES)[:players]
    decisions = confirmed = 0
    seeds = range(part, GAMES, PARTS)
    for seed in seeds:
        d, c = _walk(new_game(pids, seed=seed), random.Random(seed))
        decisions += d
        confirmed += c
    # the walk really met Doge routes
    assert decisions > len(seeds) * 50 and confirmed > len(seeds)


def test_players_with_the_same_display_name_are_told_apart() -> None:
    """Discord display names need not be unique: four players all called "Alex" still read
    as four players in every select (the service's names carry their seat when they clash)."""
    seats = [Seat("1", "Alex"), Seat("2", "alex"), Seat("3", "Alex"), Seat("4", "Bea")]
    names = seat_names(seats)
    assert names == {"1": "Alex (seat 1)", "2": "alex (seat 2)", "3": "Alex (seat 3)",
                     "4": "Bea"}
    decisions = confirmed = 0
    for seed in range(20):
        d, c = _walk(new_game(list(names), seed=seed), random.Random(seed), names)
        decisions += d
        confirmed += c
    assert decisions > 20 * 50 and confirmed > 0


def test_back_is_offered_only_where_it_leads_somewhere_bug() -> None:
    """With one card left to play the card list is skipped, so a Back there redrew the same
    screen; with two cards Back returns to the card list."""
    state = new_game(["1", "2", "3"], seed=5)
    rng = random.Random(5)
    one_card = two_cards = 0
    while not state.finished and not (one_card and two_cards):
        pid = state.waiting_for[0]
        actions = legal_actions(state, pid)
        view = state.public_view()
        if view["awaiting"][pid] == "play" and view["hand"]:
            hand = view["hand"]["cards"]
            first = screens.chooser_menu(EN, pid, actions, hand, NAMES)
            if len(set(hand)) == 1 and first.kind == "pick":
                assert first.back is None
                one_card += 1
            elif first.kind == "card":
                second = screens.chooser_menu(EN, pid, actions, hand, NAMES, card=0)
                assert second.back == (None, None)
                two_cards += 1
        state, _ = apply(state, pid, rng.choice(actions))
    assert one_card and two_cards


def test_the_confirm_screen_goes_back_to_the_list_it_came_from() -> None:
    route = Doge("Castello", ())
    screen = screens.confirm(EN, Ref(1, 2, 3), 4, route, "1", NAMES, (0, 1))
    assert screen.view is not None
    back = [i.item for i in screen.view.children if "back" in getattr(i.item, "custom_id", "")]
    assert [b.custom_id for b in back] == ["sm:1:2.3:back:c0g1"]  # type: ignore[attr-defined]


# The longest display names Discord allows (32 characters): every option that names a
# player (whom a Doge route pays) still fits Discord's 100 characters.
LONG_NAMES = {"1": "Konstantin-Maximilian Schäfer-Gr", "2": "Marie-Antoinette de Montmorency-",
              "3": "Bartholomäus von Hohenzollern-Si", "4": "Jean-Baptiste Poquelin dit Moliè"}


def test_every_panel_reads_right_with_the_longest_names() -> None:
    """Regression: a Doge route over a canal paying three such players said what it costs
    in 104 characters, and Discord refused the whole panel."""
    confirmed = 0
    for seed in range(40):
        confirmed += _walk(new_game(list(LONG_NAMES), seed=seed), random.Random(seed),
                           LONG_NAMES)[1]
    assert confirmed > 40
