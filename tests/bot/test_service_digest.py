"""Since your last move: the digest a player coming back after a day reads instead of
scrolling up a busy channel — the others' moves in order, the districts scored with their
points, the tolls, the reader's own prestige and limit change — computed from the log, in
the reader's language, within Discord's 2,000 characters (the full log one command away).

The long game: four players, seed 17, where the first player fills their limit early (they
take the offer with the most limit points, the others the offer with the most cards and the
fewest) and waits out the passage while the others make more than 30 moves."""

from __future__ import annotations

import random

import pytest

from bot import i18n, text
from bot.computers import EngineComputers
from bot.i18n import ENGLISH as EN
from bot.service import GameService
from bot.service.errors import ServiceError
from bot.service.results import Digest
from bot.store import open_store, player_of
from bot.text.markup import MESSAGE_LIMIT
from engine import Action, TakeOffer
from engine.views import PublicView

from .test_service import HOUR, Clock

CHANNEL = 10
READER = "111"
OTHERS = ("222", "333", "444")
DE, FR = i18n.translations("de"), i18n.translations("fr")


async def _service(db: str, seed: int = 17) -> GameService:
    return GameService(await open_store(db), Clock(), seeds=lambda: seed)


async def _game(svc: GameService, players: tuple[str, ...] = (READER, *OTHERS)) -> None:
    await svc.create_lobby(1, CHANNEL, players[0], seats=len(players))
    for pid in players[1:]:
        await svc.join(CHANNEL, pid, name=f"Player {pid}")
    await svc.start(CHANNEL, players[0])


def _cards(view: PublicView, action: TakeOffer) -> list[str]:
    choosing = view["choosing"]
    assert choosing is not None
    return list(view["offers"][choosing["column"]]["offers"][action.index]["cards"])


def _limit(cards: list[str]) -> int:
    return sum(int(c.split(":")[1]) for c in cards if c.startswith("limit:"))


def _choose(view: PublicView, pid: str, legal: tuple[Action, ...],
            rng: random.Random) -> Action:
    """The reader fills their limit fast; the others take many cards and few limit points."""
    takes = [a for a in legal if isinstance(a, TakeOffer)]
    if takes:
        if pid == READER:
            return max(takes, key=lambda a: _limit(_cards(view, a)))
        return max(takes, key=lambda a: len(_cards(view, a)) - _limit(_cards(view, a)))
    return rng.choice(legal)


async def _play_until_long_wait(svc: GameService, moves: int = 30) -> Digest:
    """Play until the reader is awaited again after at least ``moves`` moves by others."""
    rng = random.Random(17)
    acted = False
    for _ in range(400):
        status = await svc.status(CHANNEL)
        assert not status.finished, "the game ended before the reader waited long"
        pid = next(iter(status.awaiting))
        if pid == READER and acted:
            digest = await svc.digest(CHANNEL, READER)
            if len(digest.moves) >= moves:
                return digest
        snap = await svc.snapshot(CHANNEL, pid)
        assert snap.view is not None
        await svc.act(CHANNEL, pid, _choose(snap.view, pid, snap.legal, rng))
        acted = acted or pid == READER
    raise AssertionError("no long wait")


def _scorings(digest: Digest) -> list[tuple[str, dict[str, int]]]:
    return [(e["district"], dict(e["points"])) for m in digest.moves for e in m.events
            if e.type == "district_scored"]


@pytest.mark.parametrize("tr", [DE, FR], ids=["de", "fr"])
async def test_a_digest_after_thirty_moves_by_others_fits_a_message_in_the_readers_language(
        db: str, tr: i18n.Tr) -> None:
    svc = await _service(db)
    try:
        await _game(svc)
        digest = await _play_until_long_wait(svc)
        assert len(digest.moves) >= 30 and digest.since > 0
        assert {m.pid for m in digest.moves} <= set(OTHERS)  # the others' moves only
        said = text.digest_text(tr, digest)
        assert 0 < len(said) <= MESSAGE_LIMIT
        assert said.startswith(tr.ngettext(
            "**Since your last move** — {count} move by others:",
            "**Since your last move** — {count} moves by others:",
            len(digest.moves)).format(count=len(digest.moves)))
        # every district scored, with its points
        scorings = _scorings(digest)
        assert scorings, "the long wait saw no scoring"
        for district, points in scorings:
            told = f"{district} (" + ", ".join(f"<@{p}> +{n}" for p, n in points.items() if n)
            assert told in said, (told, said)
        # the reader's own prestige and limit points, then and now
        was, now = digest.before["prestige"][READER], digest.view["prestige"][READER]
        assert f"{was} → {now}" in said
        assert str(digest.before["limit"][READER]) in said
        assert tr.gettext("Tolls: {tolls}.").split("{")[0] in said  # the Doge's tolls
        # too many moves for a message: the newest are kept, the rest is in the log
        assert "`/sanmarco partie " in said
        assert text.move_line(tr, digest.moves[-1], digest.names) in said
        assert EN.gettext("Since your last move") not in said  # all in the reader's words
    finally:
        await svc.close()


async def test_the_digest_is_of_the_reader_and_only_what_came_after_their_move(
        db: str) -> None:
    svc = await _service(db, seed=5)
    try:
        await _game(svc, ("111", "222", "333"))
        rng = random.Random(5)
        for _ in range(12):
            status = await svc.status(CHANNEL)
            pid = next(iter(status.awaiting))
            snap = await svc.snapshot(CHANNEL, pid)
            assert snap.view is not None
            await svc.act(CHANNEL, pid, _choose(snap.view, pid, snap.legal, rng))
        log = (await svc.log(CHANNEL)).entries[1:]
        for reader in ("111", "222", "333"):
            digest = await svc.digest(CHANNEL, reader)
            mine = [e.seq for e in log if e.pid == reader]
            assert digest.since == (mine[-1] if mine else 0)
            assert [m.seq for m in digest.moves] == [e.seq for e in log if e.seq > digest.since]
            assert [m.events for m in digest.moves] == [e.events for e in log
                                                        if e.seq > digest.since]
        # the one who just moved: nothing since, so nothing heads their answers
        last = log[-1].pid
        digest = await svc.digest(CHANNEL, last)
        assert digest.moves == () and text.digest_text(EN, digest) == ""
        # a small limit: the summary stays, the moves that do not fit are counted
        digests = [await svc.digest(CHANNEL, p) for p in ("111", "222", "333")]
        digest = max(digests, key=lambda d: len(d.moves))
        assert len(digest.moves) > 2
        short = text.digest_text(EN, digest, 300)
        assert len(short) <= 300 and "earlier move" in short
    finally:
        await svc.close()


async def test_the_board_changes_since_the_readers_move(db: str) -> None:
    """Districts whose aristocrats changed, bridges built since, the Doge's stops."""
    svc = await _service(db, seed=5)
    try:
        await _game(svc, ("111", "222", "333"))
        rng = random.Random(5)
        for _ in range(40):
            status = await svc.status(CHANNEL)
            pid = next(iter(status.awaiting))
            snap = await svc.snapshot(CHANNEL, pid)
            assert snap.view is not None
            await svc.act(CHANNEL, pid, _choose(snap.view, pid, snap.legal, rng))
        for reader in ("111", "222", "333"):
            d = await svc.digest(CHANNEL, reader)
            for district in d.view["districts"]:
                changed = ({p: n for p, n in d.before["districts"][district].items() if n}
                           != {p: n for p, n in d.view["districts"][district].items() if n})
                assert (district in d.districts) == changed
            for b in d.bridges:
                assert b in d.view["bridges"] and b not in d.before["bridges"]
            moved = [e["to"] for m in d.moves for e in m.events if e.type == "doge_moved"]
            assert list(d.doge) == moved
            alt = text.digest_alt(EN, d)
            assert len(alt) <= text.ALT_TEXT_LIMIT
            for district in d.districts:
                assert district in alt
    finally:
        await svc.close()


async def test_only_a_seated_player_of_a_started_game_has_a_digest(db: str) -> None:
    svc = await _service(db)
    try:
        with pytest.raises(ServiceError) as e:
            await svc.digest(CHANNEL, READER)
        assert e.value.code == "game.none"
        await svc.create_lobby(1, CHANNEL, READER, seats=3)
        with pytest.raises(ServiceError) as e:
            await svc.digest(CHANNEL, READER)
        assert e.value.code == "game.not_started"
        for pid in OTHERS[:2]:
            await svc.join(CHANNEL, pid)
        await svc.start(CHANNEL, READER)
        with pytest.raises(ServiceError) as e:
            await svc.digest(CHANNEL, "999")
        assert e.value.code == "player.not_in_game"
        game = (await svc.status(CHANNEL)).game_id
        with pytest.raises(ServiceError) as e:  # a button of another game
            await svc.digest(CHANNEL, READER, game_id=game + 1)
        assert e.value.code == "state.stale"
        for bad in ("not a pid", 12):
            with pytest.raises(ServiceError) as e:
                await svc.digest(CHANNEL, bad)  # type: ignore[arg-type]
            assert e.value.code == "input.player_id"
        digest = await svc.digest(CHANNEL, READER, game_id=game)
        assert digest.since == 0  # no move yet: since the game began
    finally:
        await svc.close()


async def test_a_substitute_reads_the_seats_digest_and_the_one_who_left_is_told(
        db: str) -> None:
    """The digest is of the seat one plays now: a substitute reads what happened since
    the seat's last decision; the one whose seat passed on is told so."""
    svc = await _service(db, seed=5)
    try:
        await _game(svc, ("111", "222", "333"))
        rng = random.Random(5)
        pid = ""
        for n in range(40):  # a few moves, and the seat's own one last
            if n >= 6 and pid == "222":
                break
            pid = next(iter((await svc.status(CHANNEL)).awaiting))
            snap = await svc.snapshot(CHANNEL, pid)
            assert snap.view is not None
            await svc.act(CHANNEL, pid, _choose(snap.view, pid, snap.legal, rng))
        assert pid == "222"
        before = await svc.digest(CHANNEL, "222")
        await svc.vote_replace(CHANNEL, "222", "222", by="555", by_name="Eve")
        digest = await svc.digest(CHANNEL, "555")
        assert (digest.pid, digest.since) == ("222", before.since)
        assert [(m.seq, m.events) for m in digest.moves] == [(m.seq, m.events)
                                                            for m in before.moves]
        with pytest.raises(ServiceError) as e:
            await svc.digest(CHANNEL, "222")
        assert e.value.code == "seat.passed"
        # the others read each of that seat's moves under whoever made it
        handed = (await svc.log(CHANNEL)).entries[-1].seq
        seen = set()
        for _ in range(8):
            for reader in ("111", "333"):
                d = await svc.digest(CHANNEL, reader)
                for m in d.moves:
                    if m.pid == "222":
                        made_by = player_of(m.names or {}, "222")
                        assert made_by == ("222" if m.seq <= handed else "555")
                        assert text.move_line(EN, m, m.names or {}) in text.digest_text(EN, d)
                        seen.add(made_by)
            pid = next(iter((await svc.status(CHANNEL)).awaiting))
            user = "555" if pid == "222" else pid
            snap = await svc.snapshot(CHANNEL, user)
            assert snap.view is not None
            await svc.act(CHANNEL, user, _choose(snap.view, pid, snap.legal, rng))
        assert seen == {"222", "555"}
    finally:
        await svc.close()


async def test_since_your_last_move_is_the_persons_own_not_the_computers_for_them(
        db: str) -> None:
    """The reader's own last decision starts the digest: a decision the turn timer made
    for them, and every move the computer made while it played their seat until they
    reclaimed it, are among what they missed (listed, said to be the computer's), and
    their prestige is read from their own move on."""
    clock = Clock()
    svc = GameService(await open_store(db), clock, computers=EngineComputers(),
                      seeds=lambda: 5)
    try:
        await svc.set_settings(CHANNEL, turn_timer_hours=1, computer_level="easy")
        await _game(svc, (READER, "222", "333"))
        rng = random.Random(5)

        async def play_until_reader(*, acts: bool) -> None:
            """The others play until the reader is awaited (and the reader once first)."""
            for _ in range(200):
                pid = next(iter((await svc.status(CHANNEL)).awaiting))
                if pid == READER and not acts:
                    return
                snap = await svc.snapshot(CHANNEL, pid)
                assert snap.view is not None
                await svc.act(CHANNEL, pid, _choose(snap.view, pid, snap.legal, rng))
                acts = acts and pid != READER
            raise AssertionError("the reader was never awaited")

        await play_until_reader(acts=False)
        await play_until_reader(acts=True)  # the reader's own move, then the others'
        own = max(e.seq for e in (await svc.log(CHANNEL)).entries if e.pid == READER)
        clock.t += 2 * HOUR  # the reader's next decision times out: the computer makes it
        [due] = await svc.due_timers(clock.t)
        assert due.pids == (READER,)
        await svc.time_out(CHANNEL, game_id=due.game_id, version=due.version)
        await play_until_reader(acts=False)
        await svc.vote_replace(CHANNEL, READER, READER)  # the computer plays it from now
        for _ in range(12):
            pid = next(iter((await svc.status(CHANNEL)).awaiting))
            snap = await svc.snapshot(CHANNEL, pid)
            assert snap.view is not None
            await svc.act(CHANNEL, pid, _choose(snap.view, pid, snap.legal, rng))
        await svc.reclaim(CHANNEL, READER)

        log = (await svc.log(CHANNEL)).entries[1:]
        stand_in = [e.seq for e in log if e.pid == READER and e.seq > own]
        assert len(stand_in) >= 3 and all(e.computer for e in log if e.seq in stand_in)
        digest = await svc.digest(CHANNEL, READER)
        assert digest.since == own
        assert [m.seq for m in digest.moves] == [e.seq for e in log if e.seq > own]
        assert [m.seq for m in digest.moves if m.pid == READER] == stand_in
        for tr in (EN, DE, FR):
            said = text.digest_text(tr, digest)
            mine = [text.move_line(tr, m, m.names or digest.names) for m in digest.moves
                    if m.pid == READER]
            assert all(tr.gettext("The computer for {player}: {move}").split("{")[0] in line
                       for line in mine), mine
            assert mine[-1] in said
        # the computer's moves before their own decision do not count as theirs either:
        # the others' digests name them as the computer's too
        other = await svc.digest(CHANNEL, "222")
        assert all(m.computer == (m.seq in stand_in) for m in other.moves
                   if m.pid == READER)
    finally:
        await svc.close()
