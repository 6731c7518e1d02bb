"""What an outbox post says and shows, in the channel's language: its message in full (text,
board picture, buttons, whom it pings, who hears it by DM), or its words alone for a channel
catching up after an outage (the missed moves as text before one post of the current board).

Words are chosen here, when the post is delivered, from the post's facts (``Line`` values,
events, the public view): a post holds no language and no secret.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import discord

from bot import i18n, text
from bot.cogs.sanmarco.components import screens
from bot.cogs.sanmarco.components.custom_ids import Ref
from bot.cogs.sanmarco.delivery.final import FinalExtras, final_extras
from bot.cogs.sanmarco.delivery.pictures import Drawer
from bot.i18n import Tr
from bot.service import GameService
from bot.service.posts import (
    AbandonedBy,
    CameBack,
    FoundInQueue,
    GameBegins,
    HandedOver,
    Line,
    Post,
    PostKind,
    PracticeEnded,
    ReplaceVote,
    SeatReclaimed,
    SeatReplaced,
    SeatTaken,
    SettingsChanged,
    SubstituteVote,
    ThreadOpened,
    TimedOutMove,
    TookBack,
    WentAway,
)
from bot.service.results import GameStatus, Notice
from bot.store import player_of
from bot.text.markup import MAX_CONTENT

log = logging.getLogger(__name__)


def line_text(tr: Tr, line: Line, names: Mapping[str, str], language: str, *,
              threads_default: bool = True) -> str:
    """One sentence of a post in the reader's words (``language``: the channel's, which a
    settings post names, as it names whether its games get threads: ``threads_default``
    where the channel does not say)."""
    match line:
        case GameBegins():
            return text.game_begins(tr)
        case TookBack(pid=pid, action=action):
            return text.took_back(tr, pid, action, names)
        case TimedOutMove(pid=pid, action=action):
            return text.timed_out(tr, pid, action, names)
        case HandedOver(pid=pid):
            return text.handed_over(tr, pid, names)
        case SeatReplaced(pid=pid, finished=finished):
            return text.replaced(tr, pid, names, finished=finished)
        case ReplaceVote(voter=voter, target=target, votes=votes, needed=needed):
            return text.replace_vote(tr, voter, target, votes, needed, names)
        case SeatReclaimed(pid=pid):
            return text.reclaimed(tr, pid, names)
        case SeatTaken(player=player, before=before, seat=seat):
            return text.seat_taken(tr, player, before, seat)
        case SubstituteVote(voter=voter, target=target, by=by, votes=votes, needed=needed):
            return text.substitute_vote(tr, voter, target, by, votes, needed, names)
        case AbandonedBy(pid=pid):
            return text.abandoned_by(tr, pid)
        case PracticeEnded(pid=pid):
            return text.practice_ended(tr, pid)
        case SettingsChanged(pid=pid, settings=settings):
            threads = threads_default if settings.threads is None else settings.threads
            return text.settings_changed(tr, pid, settings, language, threads)
        case ThreadOpened(game=game, thread=thread, by=by, why=why):
            return text.thread_opened(tr, game, thread, by, why)
        case FoundInQueue(players=players, computers=computers):
            return text.found_in_queue(tr, players, computers, names)
        case WentAway(pid=pid, until=until, zone=zone, waits=waits):
            return text.went_away(tr, pid, until, zone, waits, names)
        case CameBack(pid=pid):
            return text.came_back(tr, pid, names)
    raise TypeError(f"no words for a {type(line).__name__}")  # a new Line needs its words


def told(tr: Tr, post: Post, language: str, *, threads_default: bool = True) -> list[str]:
    """What happened, in lines (no Now line, no picture): a post's own lines and its events,
    with the result of a finished game never cut away, then a practice game's lessons (the
    story cut shorter beside them)."""
    lines = [line_text(tr, line, post.names, language, threads_default=threads_default)
             for line in post.lines]
    events = text.events_text(tr, post.events, post.names,
                              text.story_room(tr, post.lessons))
    if events:
        lines.append(events)
    over = next((e for e in reversed(post.events) if e.type == "game_over"), None)
    end = text.event_line(tr, over, post.names) if over is not None else None
    if end and end not in events:  # the cut kept the first lines: never lose the result
        lines.append(end)
    # a practice game's explanations close the story (a catch-up's text keeps them too);
    # a whole post says only who is away and the Now line after them
    return [*lines, *text.lessons_text(tr, post.lessons)]


@dataclass(frozen=True)
class Picture:
    """An attachment of a post: its file name, its bytes, and its alt text (Discord's
    attachment description, at most 1,024 characters: what a screen reader says, what
    shows with images off)."""

    name: str
    data: bytes
    description: str

    def file(self) -> discord.File:
        """A new ``discord.File`` (its buffer is read once: a retry needs a fresh one)."""
        return discord.File(io.BytesIO(self.data), filename=self.name,
                            description=self.description)


@dataclass
class Outgoing:
    """A channel message ready to send: ``pictures`` are attached anew at each try;
    ``ping`` are the people it mentions (Discord ids), ``dm`` the awaited seats whose player
    hears it by DM (pids: ``player_of`` the post's names says who plays each)."""

    content: str
    pictures: list[Picture] = field(default_factory=list)
    view: discord.ui.View | None = None
    ping: tuple[str, ...] = ()
    dm: tuple[str, ...] = ()
    final: FinalExtras | None = None


class Composer:
    """Words and pictures of the outbox's posts."""

    def __init__(self, service: GameService, drawer: Drawer, *,
                 threads_default: bool = True, public_url: str | None = None) -> None:
        self.service = service
        self.drawer = drawer
        self.threads_default = threads_default
        self.public_url = public_url  # the game pages' address (SANMARCO_PUBLIC_URL)
        self._tokens: dict[int, str] = {}  # a game's page token never changes

    async def page_url(self, post: Post) -> str | None:
        """The address of the post's game's page, when the bot links pages and the
        channel has them on; None else (and when it cannot be read: a post is never lost
        for a link)."""
        if self.public_url is None or post.game_id is None or post.practice:
            return None  # a practice game is its learner's: it has no page
        try:
            if not (await self.service.settings(post.channel_id)).pages:
                return None
            token = self._tokens.get(post.game_id)
            if token is None:
                token = self._tokens[post.game_id] = await self.service.page_token(
                    post.game_id)
        except Exception:
            log.exception("channel %s: the game page's link could not be read",
                          post.channel_id)
            return None
        return f"{self.public_url.rstrip('/')}/g/{token}"

    def told(self, tr: Tr, post: Post, language: str) -> list[str]:
        """What happened, in lines (``told``), as this bot words a settings post."""
        return told(tr, post, language, threads_default=self.threads_default)

    def thread_name(self, post: Post, language: str) -> str:
        """A THREAD post's name for its game's thread: the game's number and its seats."""
        assert post.game_id is not None
        return text.thread_name(i18n.translations(language), post.game_id, post.players,
                                post.names)

    async def notices(self, guild: int, pids: Sequence[str]) -> dict[str, Notice]:
        """How each player hears their turn (a mention, the default, if it cannot be read)."""
        if not pids:
            return {}
        try:
            return await self.service.notices(guild, list(pids))
        except Exception:  # a post is never lost for a preference
            return {}

    async def full(self, post: Post, language: str, *,
                   mention: Sequence[str] | None = None,
                   extra: Sequence[str] = (), minimal: bool = False) -> Outgoing:
        """The post's whole message. ``mention``: whom it pings instead of the post's own
        (a catch-up's last post pings everyone whose decision started meanwhile);
        ``extra``: lines before it (a catch-up's). ``minimal``: the fewest parts — the Now
        line, the buttons and the pings, no told lines and no picture — for a post Discord
        never took whole (or whose words fail): the game still moves."""
        tr = i18n.translations(language)
        lines = [] if minimal else [*extra, *self.told(tr, post, language)]
        if post.kind is PostKind.REMINDER:
            lines = [text.reminder_head(tr, post.since or 0.0)]
        running = post.view is not None and not post.finished
        if running and post.awaiting:  # who is away just above who acts next, the last line
            if not minimal:
                lines += await self.away_lines(tr, post)
            lines.append(text.now_line(tr, post.awaiting, post.names))
        out = Outgoing("")
        if post.view is not None and post.game_id is not None:
            out.view = screens.prompt(tr, post.channel_id, post.game_id, post.view,
                                      post.version)
            if post.practice and running:  # Skip explanations, End practice
                out.view = screens.with_practice(tr, out.view, Ref(
                    post.channel_id, post.game_id, post.version))
        if post.kind is PostKind.MOVE and post.view is not None and not minimal:
            out.pictures.append(Picture("board.png", await self.drawer.board_png(
                post.view, post.events, post.names, language),
                text.board_alt(tr, post.view, post.names)))
            if post.finished:
                if post.hinted:  # someone asked for a hint: said, never who or what
                    lines.append(text.hints_used(tr))
                out.final = await final_extras(self.drawer, self.service, post, language)
                if out.final.line:
                    lines.append(out.final.line)  # the seed, revealed now (R15)
                if out.final.summary is not None:
                    out.pictures.append(Picture("summary.png", out.final.summary,
                                                out.final.summary_alt))
                out.view = out.final.view
        if post.kind is PostKind.MOVE and (url := await self.page_url(post)) is not None:
            out.view = screens.with_page_link(tr, out.view, url)
        # the awaited seats' players (a substitute, for the seat they took over)
        people = {p: player_of(post.names, p) for p in (post.mention if mention is None
                                                        else mention) if p in post.awaiting}
        awaited = [p for p, user in people.items() if user.isdigit()]
        notices = await self.notices(post.guild_id, [people[p] for p in awaited])
        out.ping = tuple(people[p] for p in awaited
                         if people[p] not in notices or notices[people[p]].mention)
        out.dm = tuple(p for p in awaited if people[p] in notices and notices[people[p]].dm)
        # players the post asks for whatever the game awaits (the queue's table): pinged
        out.ping = (*out.ping, *(p for p in post.invite if p.isdigit() and p not in out.ping))
        out.content = text.elide(tr, "\n".join(lines))[:MAX_CONTENT] or "…"
        return out

    async def away_lines(self, tr: Tr, post: Post) -> list[str]:
        """Who of the game's players is away now, until when in the channel's time zone
        (a player the post itself tells about is left out); none if that cannot be read:
        a post is never lost for it."""
        if post.view is None:
            return []
        # the seats' players now (a substitute for the seat they took over)
        people = {p: person for p in post.view["players"]
                  if (person := player_of(post.names, p)).isdigit()}
        if not people:
            return []
        players = list(people)
        told = {line.pid for line in post.lines if isinstance(line, WentAway)}
        try:
            by_person = await self.service.away(post.guild_id, list(people.values()))
            away = {p: by_person[person] for p, person in people.items()
                    if person in by_person and person not in told}
            if not away:
                return []
            zone = (await self.service.settings(post.channel_id)).timezone
        except Exception:
            log.exception("channel %s: who is away could not be read", post.channel_id)
            return []
        return text.away_lines(tr, away, zone, post.names, order=players)

    @staticmethod
    def lobby(post: Post, language: str) -> Outgoing:
        """A lobby's post (made, or edited in place): its seats and buttons, or, once it
        started or was closed, what became of it with nothing to press."""
        tr = i18n.translations(language)
        lobby = post.lobby
        assert lobby is not None
        if lobby.status is GameStatus.RUNNING:
            return Outgoing(text.game_started(tr, lobby.players, lobby.names))
        screen = screens.lobby(tr, lobby)
        # a rematch's lobby pings the players it asks back (an edit pings nobody)
        return Outgoing(screen.text, view=screen.view,
                        ping=tuple(p for p in post.invite if p.isdigit()))
