"""``python -m bot``: run the San Marco bot with settings from the environment or ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.config import ConfigError, load_config


def main() -> int:
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"sanmarco: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.client import SanMarcoBot  # after logging is set up

    bot = SanMarcoBot(config)
    try:
        asyncio.run(bot.start(config.token))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
