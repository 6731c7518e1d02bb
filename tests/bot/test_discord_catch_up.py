"""A channel catching up, as players see it (docs/OUTBOX.md, Catching up): the missed moves
in at most ``CATCH_UP_MESSAGES`` text messages, whatever their sizes, then one whole post of
the current board; a game's final post always whole (its board, summary, seed, Rematch and
Replay), even with a note waiting behind it. Through the real discord.py client against the
fake Discord (``scenarios.final_with_note``, ``scenarios.backlog``)."""

from __future__ import annotations

from bot.cogs.sanmarco.delivery.plan import CATCH_UP_MESSAGES
from tests.fakediscord import FakeDiscord
from tests.fakediscord import scenarios as sc
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.invariants import check_invariants
from tests.fakediscord.players import game_over_words


async def test_a_final_move_with_a_note_behind_it_goes_whole(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """The final move and a manager's settings change wait together: the final post keeps
    its board, the summary picture, Rematch, Replay and the game file; the note follows."""
    run = await sc.final_with_note(fake, harness)
    assert await run.until_caught_up() is not None
    posts = fake.channel_messages(run.channels[0])
    final = next(m for m in posts if game_over_words() in m.content)
    assert [name for name, _ in final.attachments()] == ["board.png", "summary.png"]
    assert [c["label"] for c in final.all_components()] == ["Rematch", "Replay", "Game file",
                                                            "My review"]
    assert "changed this channel's settings" in posts[-1].content and posts[-1] is not final
    await check_invariants(fake, run.service, run.channels, acts=run.acts,
                           expected=run.expected)


async def test_a_60_move_backlog_goes_in_two_messages_then_the_board(
        fake: FakeDiscord, harness: BotHarness) -> None:
    """Sixty moves committed while no deliverer ran: at most two text messages (the oldest
    only counted), then the board with the Now line, its buttons and the ping."""
    run, waiting = await sc.backlog(fake, harness, moves=60, deliver=False)
    posted = len(fake.channel_messages(run.channels[0]))
    assert waiting == 60
    await harness.bot.get_cog("SanMarco").deliverer.resume()  # type: ignore[union-attr]
    assert await run.until_caught_up() is not None
    new = fake.channel_messages(run.channels[0])[posted:]
    assert len(new) <= CATCH_UP_MESSAGES + 1, [m.content[:60] for m in new]
    assert all(not m.attachments() for m in new[:-1])
    assert [name for name, _ in new[-1].attachments()] == ["board.png"]
    await check_invariants(fake, run.service, run.channels, acts=run.acts)
