"""Games that keep moving over days: the channel's settings, how a player hears it is their
turn (a mention, a DM, both or none), reminders, the turn timer's default moves, taking a
move back, and ``/sanmarco-server games``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from babel.numbers import format_decimal

from bot.i18n import N_, Tr
from bot.service.results import GameStatus, MyGame
from bot.store import Settings, player_of
from engine import Action, Split, TakeOffer

from .advice import hints_setting_line
from .markup import channel, fit_lines, timestamp
from .moves import awaited_line, awaited_words, describe, now_line
from .names import level_name, who, who_list

# ---------------------------------------------------------------------------- languages
# The channel's language setting as ``/sanmarco-server settings`` shows it: each
# language by its own name, whatever the reader's.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}


def channel_language_line(tr: Tr, setting: str | None, effective: str) -> str:
    """``Language: Deutsch`` or ``Language: the server's (Français)``."""
    name = LANGUAGE_NAMES.get(effective, effective)
    if setting is None:
        return tr.gettext("Language: the server's ({language})").format(language=name)
    return tr.gettext("Language: {language}").format(language=name)


NOTIFY_MODES: dict[str, str] = {
    "mention": N_("a mention in the game's channel"),
    "dm": N_("a direct message with a link to the game"),
    "both": N_("a mention in the channel and a direct message"),
    "none": N_("nothing (look with `/sanmarco-server games`)"),
}


def notify_mode(tr: Tr, mode: str) -> str:
    """How a player hears it is their turn, as words (``mention``, ``dm``, ``both``,
    ``none``)."""
    words = NOTIFY_MODES.get(mode)
    return tr.gettext(words) if words is not None else mode


def language_code(tr: Tr) -> str:
    """The language a translations object speaks (its catalogue's; English: ``en``)."""
    return str(tr.info().get("language") or "en")


def _number(tr: Tr, x: float) -> str:
    """A number as the reader writes it (``1.5``, German and French ``1,5``)."""
    return str(format_decimal(x, locale=language_code(tr)))


def _hours(tr: Tr, hours: float) -> str:
    """A duration in minutes (under an hour) or hours: ``45 minutes``, ``1.5 hours``."""
    if hours < 1:
        minutes = round(hours * 60)
        return tr.ngettext("{count} minute", "{count} minutes", minutes).format(
            count=minutes)
    # a fraction of an hour counts as many (1.5 hours, 1,5 Stunden)
    n = int(hours) if hours == int(hours) else int(hours) + 1
    return tr.ngettext("{count} hour", "{count} hours", n).format(count=_number(tr, hours))


def duration(tr: Tr, hours: float) -> str:
    """A duration in whole days when it is some (``3 days``), else as ``_hours`` says it."""
    if hours >= 24 and hours % 24 == 0:
        days = int(hours // 24)
        return tr.ngettext("{count} day", "{count} days", days).format(count=days)
    return _hours(tr, hours)


def _settings_lines(tr: Tr, settings: Settings, effective: str, threads: bool) -> list[str]:
    """One line per setting (the reminders, quiet hours, time zone, turn timer, the wait
    for players away, computer level, language, games in threads, game pages, hints);
    ``effective``: the language the channel speaks now; ``threads``: whether its games get
    threads now (its setting or the bot's)."""
    _ = tr.gettext
    if settings.reminder_hours:
        reminders = _("every {duration} while the game waits on someone").format(
            duration=_hours(tr, settings.reminder_hours))
    else:
        reminders = _("off")
    if settings.quiet_start is None or settings.quiet_end is None \
            or settings.quiet_start == settings.quiet_end:
        quiet = _("none")
    else:
        quiet = f"{settings.quiet_start:02d}:00–{settings.quiet_end:02d}:00"
    if settings.turn_timer_hours:
        timer = _("{duration} per decision (quiet hours not counted); then the computer makes "
                  "that decision, and after three in a row it plays the seat until `/sanmarco "
                  "seat reclaim`").format(duration=_hours(tr, settings.turn_timer_hours))
    else:
        timer = _("off")
    if settings.away_cap_hours:
        away = _("each game waits up to {duration} on an away player's decision, and a vote "
                 "to replace them opens only then").format(
            duration=duration(tr, settings.away_cap_hours))
    else:
        away = _("not waited for (the turn timer runs as usual)")
    return [_("Reminders: {reminders}").format(reminders=reminders),
            _("Quiet hours: {hours} (no reminders, and the turn timer does not count "
              "them)").format(hours=quiet),
            _("Time zone: {zone}").format(zone=settings.timezone),
            _("Turn timer: {timer}").format(timer=timer),
            _("Players away: {away}").format(away=away),
            _("Computer for absent players: {level}").format(
                level=level_name(tr, settings.computer_level)),
            channel_language_line(tr, settings.language, effective),
            threads_line(tr, threads),
            _("Game pages: on (each game has a page on the web: its board, log and replay, "
              "live)") if settings.pages else _("Game pages: off"),
            hints_setting_line(tr, settings.hints)]


def channel_listed(tr: Tr, listed: bool | None) -> str:
    """The answer to a manager's choice of whether the server's page lists this channel's
    games (None: only while every member of the server may view the channel)."""
    if listed is None:
        return tr.gettext("The server's page lists this channel's games while every member "
                          "of the server can view the channel.")
    if listed:
        return tr.gettext("The server's page lists this channel's games, whoever can view "
                          "the channel (never a private thread's).")
    return tr.gettext("The server's page does not list this channel's games.")


def threads_line(tr: Tr, on: bool) -> str:
    """The channel's "games in threads" setting as ``/sanmarco-server settings`` shows it."""
    if on:
        return tr.gettext("Games in threads: on (each new game gets a thread of this "
                          "channel)")
    return tr.gettext("Games in threads: off (one game at a time in this channel)")


def settings_text(tr: Tr, settings: Settings, *, can_change: bool, effective: str,
                  threads: bool) -> str:
    """``/sanmarco-server settings``: the channel's settings (they stay from game to game);
    ``effective``: the language the channel speaks now (its setting or its server's);
    ``threads``: whether its games get threads now (its setting or the bot's)."""
    lines = [tr.gettext("**Settings of this channel** (they stay from game to game)"),
             *_settings_lines(tr, settings, effective, threads)]
    if can_change:
        lines.append(tr.gettext("Change them with `/sanmarco-server settings` and its options."))
    else:
        lines.append(tr.gettext("Members with Manage Channel can change them."))
    return "\n".join(lines)


def settings_changed(tr: Tr, pid: str, settings: Settings, effective: str,
                     threads: bool) -> str:
    """The channel's post when someone with Manage Channel changed its settings."""
    return "\n".join([tr.gettext("{player} changed this channel's settings.").format(
        player=who(tr, pid)), *_settings_lines(tr, settings, effective, threads)])


def notify_text(tr: Tr, mode: str) -> str:
    """``/sanmarco-server notify``: how the player now hears it is their turn (in this server)."""
    return tr.gettext("On this server you hear it is your turn by {way}. Reminders come the "
                      "same way. `/sanmarco-server notify how:` changes it.").format(
        way=notify_mode(tr, mode))


def timed_out(tr: Tr, pid: str, action: Action, names: Mapping[str, str] | None = None) -> str:
    """A default move's line: ``@p's time ran out; the computer took offer 2 for them.``
    (a split's content is never told: R15)."""
    player = who(tr, pid, names)
    if isinstance(action, TakeOffer):
        return tr.gettext("{player}'s time ran out; the computer took offer {number} for "
                          "them.").format(player=player, number=action.index + 1)
    if isinstance(action, Split):
        return tr.gettext("{player}'s time ran out; the computer split their cards for "
                          "them.").format(player=player)
    return tr.gettext("{player}'s time ran out; the computer chose: {move}.").format(
        player=player, move=describe(tr, action, names))


def handed_over(tr: Tr, pid: str, names: Mapping[str, str] | None = None) -> str:
    return tr.gettext("That was {player}'s third decision in a row made by the computer: it "
                      "now plays their seat until they come back with `/sanmarco "
                      "seat reclaim`.").format(player=who(tr, pid, names))


def took_back(tr: Tr, pid: str, action: Action, names: Mapping[str, str] | None = None) -> str:
    """The channel's line when a player takes back their last move."""
    return tr.gettext("{player} took back: {move}.").format(player=who(tr, pid, names),
                                                           move=describe(tr, action, names))


def undo_offer(tr: Tr) -> str:
    """The private answer to one's own move while it may be taken back."""
    return tr.gettext("Done. Changed your mind? **Undo** takes it back while nobody has moved "
                      "since.")


def undone(tr: Tr) -> str:
    return tr.gettext("Taken back: the decision is yours again.")


def dm_turn(tr: Tr, kind: str, url: str | None, *, reminder_since: float | None = None) -> str:
    """A direct message: the player's decision starts (or waits), with a link to the game."""
    what = awaited_words(tr, kind)
    if reminder_since is not None:
        head = tr.gettext("Reminder — San Marco has been waiting for you since {time}: "
                          "{action}.").format(time=timestamp(reminder_since), action=what)
    else:
        head = tr.gettext("Your turn in San Marco: {action}.").format(action=what)
    return head + (f" {url}" if url else "")


def dm_fallback(tr: Tr, pids: Sequence[str], awaiting: Mapping[str, str],
                names: Mapping[str, str] | None = None) -> str:
    """The mention that replaces a DM Discord refused (a post of a running game)."""
    return (tr.gettext("I could not send a direct message to {players}, so here is the "
                       "mention.").format(players=who_list(tr, pids, names))
            + "\n" + now_line(tr, awaiting, names))


def dm_refused_hint(tr: Tr) -> str:
    """The private hint, once, after Discord refused a DM to the player."""
    return tr.gettext("Discord refused my direct message to you (your DMs are closed for this "
                      "server), so I mention you in the channel instead. Open your direct "
                      "messages and choose again with `/sanmarco-server notify`.")


def my_games_text(tr: Tr, games: Sequence[MyGame], user: str) -> str:
    """``/sanmarco-server games``: the caller's games in this server, newest first."""
    _ = tr.gettext
    if not games:
        return _("You have no lobby or running game in this server. `/sanmarco game new` opens "
                 "one.")
    lines = [_("**Your games in this server**")]
    for g in games:
        link = (" · " + _("[latest post]({url})").format(url=g.url)) if g.url else ""
        if g.suspended:
            state = _("its channel is gone, so the game waits: its opener or a server "
                      "manager can end it")
        elif g.status is GameStatus.LOBBY:
            state = _("lobby, {taken}/{seats} seats").format(taken=len(g.players),
                                                             seats=g.seats)
        else:
            since = timestamp(g.since) if g.since else None
            mine = next((p for p in g.awaiting if player_of(g.names, p) == user), None)
            if mine is not None:
                what = awaited_words(tr, g.awaiting[mine])
                state = (_("**your turn**: {action} since {time}").format(action=what,
                                                                          time=since)
                         if since else _("**your turn**: {action}").format(action=what))
            else:
                waiting = awaited_line(tr, g.awaiting, g.names)
                state = (_("waits for {awaited} since {time}").format(awaited=waiting,
                                                                      time=since)
                         if since else _("waits for {awaited}").format(awaited=waiting))
        lines.append(f"#{g.game_id} · {channel(g.channel_id)} · {state}{link}")
    return fit_lines(lines)


# ---------------------------------------------------------------------------- reminders
def reminder_head(tr: Tr, since: float) -> str:
    """A reminder post's first line (the Now line follows it, as in every post)."""
    return tr.gettext("Reminder — the game has been waiting since {time}. `/sanmarco hand` "
                      "opens your panel.").format(time=timestamp(since))


def reminder(tr: Tr, awaiting: Mapping[str, str], since: float,
             names: Mapping[str, str] | None = None) -> str:
    """A reminder post; like every post of a running game it ends with who acts next."""
    return reminder_head(tr, since) + "\n" + now_line(tr, awaiting, names)


def suspended_choice(tr: Tr, game: MyGame) -> str:
    """A game whose channel is gone, as ``/sanmarco game abandon game:`` offers it."""
    return tr.gettext("Game #{number}: {players} (its channel is gone)").format(
        number=game.game_id, players=", ".join(game.names.get(p, p) for p in game.players))


def suspended_ended(tr: Tr, game_id: int) -> str:
    """The private answer once a game whose channel is gone has been ended."""
    return tr.gettext("Game #{number} is ended. Its channel was gone, so nothing was "
                      "posted; an ended game is not rated.").format(number=game_id)
