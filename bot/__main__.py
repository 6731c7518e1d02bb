"""``python -m bot``: run the San Marco bot with settings from the environment or ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from bot.config import Config, ConfigError, load_config


async def _run(config: Config) -> None:
    from bot.client import SanMarcoBot  # after logging is set up

    async with SanMarcoBot(config) as bot:  # closes the store on the way out
        await bot.start(config.token)


def main() -> int:
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"sanmarco: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # discord.py logs request bodies at DEBUG; keep its chatter (and any payload) at INFO.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(
        config.log_level)))
    try:
        asyncio.run(_run(config))
    except discord.LoginFailure:
        print("sanmarco: Discord refused the token. Copy it again from the developer "
              "portal's Bot tab (see README.md).", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
