"""Every sentence and label the bot shows, in English, German and French, in rooms by
feature:

==============  ===============================================================
module          what it says
==============  ===============================================================
``markup``      Discord's markup and limits: mentions, times, cuts, 2,000 characters
``names``       players, computer players and cards, by name
``moves``       how an action reads (the engine's one description), the **Now** line
``refusals``    the refusal table: one sentence per code (``refusal``)
``events``      the public event lines: a table of formatters by event type
``lobby``       the lobby, and seats handed to the computer and taken back
``prompts``     the private panels: buttons, the offer builder, choosers, Doge routes
``status``      where a game stands (``/sanmarco status``, ``board``)
``pictures``    what each picture shows, in words: alt text, the board as text
``rules``       the ``/sanmarco game rules`` topics
``lessons``     a practice game's explanations, one per idea (``Post.lessons``)
``memory``      a server's memory: stats, leaderboard, history, the final post
``posts``       what the player reads when Discord refused or failed a post
``settings``    settings, notifications, reminders, the turn timer, undo, one's games
``servers``     a game's thread, the queue, a server's open lobbies, rematches
``away``        players away from a server's games, and back
``digest``      since your last move: the others' moves, scorings, tolls, your change
``page``        a game's web page: the board's facts one a line, headings, the file's check
``advice``      hints and reviews: each reason of the hard computer, a hinted game's mark
==============  ===============================================================

This package re-exports every sentence function (``from bot import text;
text.lobby_text(tr, ...)``); the limits and markup are ``bot.text.markup``'s.

How a sentence is written (the pattern; bot/i18n/ says how the catalogues follow):

- Every function takes ``tr`` first — the translations of the reader it writes for
  (``bot.i18n.for_locale(interaction.locale)`` for an ephemeral answer,
  ``bot.i18n.translations(channel language)`` for a public post) — and writes English
  through it::

      def joins(tr: Tr, pid: str) -> str:
          return tr.gettext("{player} joins.").format(player=who(tr, pid))

  Named ``{placeholders}`` only, filled after translating; a count goes through
  ``tr.ngettext("{count} card", "{count} cards", n).format(count=n)``. A table of sentences
  marks its entries ``N_("...")`` and is read through a function that translates
  (``refusal``, ``rule_topic``, ``label``...): no sentence leaves this package untranslated,
  and mypy finds a caller that forgot ``tr``.
- Then ``python -m bot.i18n update`` and translate the new entries of
  ``bot/i18n/locale/{de,fr}/LC_MESSAGES/sanmarco.po`` with the books' words (docs/GLOSSARY.md).

Made from public facts only (public events and views); a distributor's cards are written
only by ``builder_text`` and ``card_label``, whose output goes to that distributor's
ephemeral message (R15). No Discord types here: the adapter, the demo and tests share it.
"""

from __future__ import annotations

from .advice import (
    hint_text,
    hinted_tag,
    hints_setting_line,
    hints_used,
    reason_text,
    review_reason_text,
    review_text,
)
from .away import (
    away_head,
    away_lines,
    away_set,
    back_answer,
    came_back,
    local_time,
    went_away,
)
from .digest import (
    EMBEDDED_LIMIT,
    changes_words,
    digest_alt,
    digest_caption,
    digest_dm,
    digest_text,
    move_line,
    nothing_since,
)
from .events import (
    LINES,
    event_line,
    events_text,
    game_begins,
    game_started,
    log_text,
    nothing_yet,
)
from .lessons import (
    LESSONS,
    learn_pointer,
    lesson_text,
    lessons_skipped,
    lessons_text,
    practice_ended,
    practice_on_its_way,
    practice_opened,
    practice_thread_name,
    story_room,
)
from .lobby import (
    abandoned_by,
    lobby_text,
    reclaimed,
    replace_vote,
    replaced,
    seat_taken,
    substitute_vote,
)
from .memory import (
    MAX_BOARD_ROWS,
    game_file_caption,
    history_text,
    leaderboard_text,
    no_games_yet,
    replay_caption,
    seed_line,
    stats_text,
)
from .moves import (
    awaited_line,
    awaited_words,
    describe,
    done,
    now_line,
    position_line,
    the_board,
)
from .names import (
    aristocrats,
    card_label,
    cards_text,
    computer_label,
    elide,
    level_name,
    limit_points,
    local_names,
    name_of,
    person,
    rated_name,
    who,
    who_list,
)
from .page import (
    BoardFacts,
    PageWords,
    SeatWords,
    ServerWords,
    SignInWords,
    bad_link,
    board_facts,
    game_over_page,
    my_games_more,
    name_said,
    not_found,
    page_words,
    refused,
    seat_refused,
    seat_split,
    seat_waiting,
    seat_words,
    seats_free,
    server_page_set,
    server_words,
    sign_in_refused,
    sign_in_words,
    store_away,
    verdict_text,
    won_by,
)
from .pictures import (
    ALT_TEXT_LIMIT,
    board_alt,
    board_words,
    game_file_alt,
    replay_alt,
    summary_alt,
)
from .posts import (
    PERMISSION_NAMES,
    board_posted_as_text,
    channel_gone,
    missed_moves,
    not_posted,
    permission_name,
    post_pending,
    post_saved,
    post_state,
    posted,
)
from .prompts import (
    CHOOSER_TITLES,
    LABELS,
    Label,
    builder_option,
    builder_placeholder,
    builder_text,
    choose_target,
    chooser_title,
    confirm_route,
    doge_cost_suffix,
    doge_option,
    draft_changed,
    label,
    offer_choice,
    route_payments,
    take_label,
    target_of,
    which_card,
)
from .refusals import (
    REFUSALS,
    apology,
    refusal,
    stopping,
)
from .rules import (
    RULE_TOPIC_NAMES,
    RULE_TOPICS,
    rule_topic,
)
from .servers import (
    MAX_THREAD_NAME,
    found_in_queue,
    game_opened,
    invited_line,
    lobbies_text,
    lobby_closed,
    queue_found,
    queue_joined,
    queue_left,
    queue_text,
    rematch_opened,
    thread_name,
    thread_opened,
)
from .settings import (
    LANGUAGE_NAMES,
    NOTIFY_MODES,
    channel_language_line,
    channel_listed,
    dm_fallback,
    dm_refused_hint,
    dm_turn,
    handed_over,
    my_games_text,
    notify_mode,
    notify_text,
    reminder,
    reminder_head,
    settings_changed,
    settings_text,
    suspended_choice,
    suspended_ended,
    threads_line,
    timed_out,
    took_back,
    undo_offer,
    undone,
)
from .status import (
    board_caption,
    not_your_turn_here,
    status_abandoned,
    status_lobby,
    status_over,
    status_running,
    status_text,
    with_current,
)

__all__ = [
    "hint_text", "hinted_tag", "hints_setting_line", "hints_used", "reason_text",
    "review_reason_text", "review_text",
    "BoardFacts", "PageWords", "bad_link", "board_facts",
    "name_said", "not_found", "page_words", "SeatWords", "ServerWords",
    "SignInWords", "seat_refused",
    "sign_in_refused", "sign_in_words", "my_games_more",
    "seat_split", "seat_waiting", "seat_words", "seats_free", "server_page_set",
    "store_away", "server_words", "refused", "game_over_page",
    "won_by",
    "verdict_text",
    "abandoned_by", "ALT_TEXT_LIMIT", "apology", "aristocrats", "awaited_line", "awaited_words",
    "board_alt", "board_caption", "board_words",
    "board_posted_as_text", "builder_option", "builder_placeholder", "builder_text",
    "draft_changed",
    "elide", "card_label", "cards_text", "channel_language_line", "choose_target", "chooser_title",
    "CHOOSER_TITLES", "computer_label", "confirm_route", "describe", "dm_fallback",
    "dm_refused_hint", "dm_turn", "doge_cost_suffix", "doge_option", "done", "event_line",
    "events_text", "log_text", "game_begins", "game_file_alt", "game_file_caption", "game_started",
    "handed_over",
    "history_text", "Label", "label", "LABELS", "LANGUAGE_NAMES", "leaderboard_text",
    "level_name", "limit_points", "LINES", "lobby_closed", "lobby_text",
    "local_names", "MAX_BOARD_ROWS", "my_games_text", "name_of", "no_games_yet", "not_posted",
    "not_your_turn_here", "nothing_yet", "notify_mode", "NOTIFY_MODES", "notify_text",
    "now_line", "offer_choice", "permission_name", "PERMISSION_NAMES", "position_line",
    "post_pending", "post_saved", "post_state", "channel_gone", "missed_moves", "posted",
    "rated_name", "reclaimed",
    "refusal", "REFUSALS", "reminder",
    "replace_vote", "replaced", "replay_alt", "replay_caption", "route_payments", "rule_topic",
    "RULE_TOPIC_NAMES", "RULE_TOPICS", "seed_line", "settings_changed", "settings_text",
    "suspended_choice", "suspended_ended",
    "stats_text", "status_abandoned", "status_lobby", "status_over", "status_running",
    "stopping",
    "summary_alt",
    "status_text", "take_label", "target_of", "the_board", "timed_out", "took_back",
    "undo_offer", "undone", "which_card", "who", "who_list", "with_current",
    # substitutes
    "person", "seat_taken", "substitute_vote",
    # a server full of games
    "MAX_THREAD_NAME", "found_in_queue", "game_opened", "invited_line", "lobbies_text",
    "queue_found", "queue_joined", "queue_left", "queue_text", "rematch_opened",
    "thread_name", "thread_opened", "threads_line", "channel_listed",
    # players away
    "away_head", "away_lines", "away_set", "back_answer", "came_back", "local_time",
    "reminder_head", "went_away",
    # a practice game's lessons
    "LESSONS", "learn_pointer", "lesson_text", "lessons_skipped", "lessons_text",
    "practice_ended", "practice_on_its_way", "practice_opened", "practice_thread_name",
    "story_room",
    # since your last move
    "EMBEDDED_LIMIT", "changes_words", "digest_alt", "digest_caption", "digest_dm",
    "digest_text", "move_line", "nothing_since",
]
