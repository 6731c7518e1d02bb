"""``python -m bot.web --db PATH|DATABASE_URL --port N``: the game pages on their own, over
the bot's database (an SQLite file or PostgreSQL), apart from the bot; it prints the address
of each started game's page (the demo's too: ``--db demo-out/demo.db``). With
SANMARCO_WEB_SECRET set (the bot's), the players' signed hand links open here too, and with
SANMARCO_DISCORD_CLIENT_ID/_SECRET, Sign in with Discord."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence

from bot.config import ConfigError, proxy_header, sign_in, web_secret
from bot.service import open_service
from bot.service.errors import NoGame
from bot.store import describe_target, store_target

from .keys import WebOptions
from .serve import page_url, serve

LISTED = 20  # the games whose addresses are printed at the start


EXIT_CONFIG = 2  # as python -m bot: a setting is wrong, said in one sentence


async def run(db: str | None, host: str, port: int, public_url: str | None,
              secret: str | None, header: str | None,
              client: tuple[str | None, str | None] = (None, None)) -> None:
    service = await open_service(db)
    runner = await serve(service, port, host=host, options=WebOptions(
        public_url=public_url, secret=secret, client_header=header, client_id=client[0],
        client_secret=client[1]))
    base = public_url or f"http://{'localhost' if host in ('0.0.0.0', '::') else host}:{port}"
    print(f"Serving the game pages of {describe_target(store_target(db))} on http://{host}:{port}")
    for game_id, _ in (await service.store.started_games())[-LISTED:]:
        try:
            print(f"  game {game_id}: {page_url(base, await service.page_token(game_id))}")
        except NoGame:  # a learner's practice game has no page
            continue
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await service.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.web", description=__doc__)
    parser.add_argument("--db", help="an SQLite file or a postgresql:// URL (default: "
                        "$DATABASE_URL, else $SANMARCO_DB, else ./sanmarco.db)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--public-url", help="the address links name (behind a proxy)")
    args = parser.parse_args(argv)
    try:
        secret = web_secret(os.environ.get("SANMARCO_WEB_SECRET", ""))
        header = proxy_header(os.environ.get("SANMARCO_WEB_PROXY_HEADER", ""))
        client = sign_in(os.environ)  # Sign in with Discord, as the bot's
    except ConfigError as exc:
        print(f"python -m bot.web: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(run(args.db, args.host, args.port, args.public_url, secret, header,
                        client))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
