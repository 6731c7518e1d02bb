"""The slash commands as the bot syncs them: characters per locale and by Discord's count,
the fullest level of each command, and any breach of Discord's limits or of the room kept.

    python benchmarks/command_sizes.py

The real bot logs in to the fake Discord (tests/fakediscord/) and syncs; the payload it
sends (``PUT /applications/{app}/commands``, with its German and French localisations) is
what is measured, with ``bot.cogs.command_limits``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.cogs import command_limits  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fakediscord.harness import BotHarness, point_discord_at  # noqa: E402


async def main() -> int:
    fake = FakeDiscord()
    await fake.start()
    point_discord_at(fake)
    with tempfile.TemporaryDirectory() as tmp:
        harness = BotHarness(fake, Path(tmp) / "sizes.db")
        try:
            await harness.start(seed=1)
        finally:
            await harness.stop()
            await fake.close()
    commands = [c for synced in fake.commands.values() for c in synced]
    print(command_limits.report(commands))
    print()
    for command in commands:
        for path, entries in command_limits.levels(command):
            print(f"{entries:3d}  {path}")
    breaches = command_limits.check(commands)
    room = command_limits.check(commands, command_limits.ROOM)
    print()
    print(f"Discord's limits: {len(breaches)} breach(es)",
          *(f"\n  {b}" for b in breaches))
    print(f"the room kept (<= {command_limits.ROOM.entries} entries a level, < "
          f"{command_limits.ROOM.characters + 1:,} characters): {len(room)} breach(es)",
          *(f"\n  {b}" for b in room))
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
