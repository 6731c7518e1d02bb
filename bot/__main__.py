"""``python -m bot``: run the San Marco bot with settings from the environment or ``.env``.

Start-up goes in this order: the settings, then the game database (opened, upgraded and
checked — it must be writable), then Discord. Whatever fails on the way is told in ONE line
on stderr that names what failed (the file, the host) and what to do, with a non-zero exit
code and no traceback: 2 for settings and the token, 3 for the database, 4 for the network.

SIGTERM and SIGINT (systemd, a container's runtime, Ctrl-C) stop the bot cleanly
(``SanMarcoBot.shutdown``): the posts in flight get ten seconds, the database is closed, and
the exit code is 0; what was not sent waits in the outbox for the next start.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord
import yarl

from bot.client import SanMarcoBot, create_bot
from bot.computers import EngineComputers, hard_budget
from bot.config import Config, ConfigError, load_config
from bot.service import GameService, open_service
from bot.store import SCHEMA_VERSION, SchemaTooNew, StoreError, describe_target, is_postgres

log = logging.getLogger("bot")

EXIT_CONFIG = 2
EXIT_DATABASE = 3
EXIT_NETWORK = 4


class StartupError(Exception):
    """A start-up failure: ``str()`` is the one line for the admin."""

    def __init__(self, line: str, exit_code: int) -> None:
        super().__init__(line)
        self.exit_code = exit_code


def database_problem(path: str, exc: StoreError) -> str:
    """What failed with the game database at ``path`` (a file, or a PostgreSQL URL), and
    what to do about it."""
    if is_postgres(path):
        return postgres_problem(path, exc)
    where = os.path.abspath(path)
    if isinstance(exc, SchemaTooNew):
        return (f"the game database {where} was written by a newer version of this bot "
                f"(schema {exc.schema}; this one knows {SCHEMA_VERSION}) and was left "
                "untouched. Upgrade the bot, or point SANMARCO_DB at another file.")
    hints = {
        "store.cantopen": "cannot be created or opened: its folder is missing or the bot may "
                          "not write there. Create the folder or give the bot write access, "
                          "or point SANMARCO_DB at a file in a writable folder.",
        "store.read_only": "is read-only for the bot. Give the bot write access to the file "
                           "and its folder, or point SANMARCO_DB at another file.",
        "store.corrupt": "is not a San Marco database (or it is damaged). Point SANMARCO_DB "
                         "at the right file, or move this one away to start afresh.",
        "store.busy": "is locked by another process (is another copy of the bot running?). "
                      "Stop that process, then start the bot again.",
        "store.full": "cannot be written: the disk is full. Free some space, then start the "
                      "bot again.",
        "store.io": "cannot be read or written: the disk reported an error. Check the disk, "
                    "then start the bot again.",
    }
    hint = hints.get(exc.code, "cannot be used. Check the file, or point SANMARCO_DB at "
                               "another one.")
    return f"the game database {where} {hint} (SQLite: {exc})"


def postgres_problem(url: str, exc: StoreError) -> str:
    """What failed with the PostgreSQL database at ``url`` (told without its password)."""
    where = describe_target(url)
    if isinstance(exc, SchemaTooNew):
        return (f"the game database {where} was written by a newer version of this bot "
                f"(schema {exc.schema}; this one knows {SCHEMA_VERSION}) and was left "
                "untouched. Upgrade the bot, or point DATABASE_URL at another database.")
    hints = {
        "store.cantopen": "cannot be reached, or refused the bot's login. Check that the "
                          "server runs and that DATABASE_URL names the right host, port, "
                          "database, user and password.",
        "store.read_only": "is read-only for the bot (a standby server, or a role without "
                           "write rights). Point DATABASE_URL at the primary server, or "
                           "grant the role the right to write.",
        "store.corrupt": "holds tables of another program (or damaged data). Point "
                         "DATABASE_URL at the bot's own database or an empty one.",
        "store.busy": "is locked by another process. Try again in a moment.",
        "store.full": "cannot be written: the server's disk is full.",
        "store.io": "reported a disk or network error. Check the server, then start the bot "
                    "again.",
    }
    hint = hints.get(exc.code, "cannot be used. Check the server's log.")
    return f"the game database {where} {hint} (PostgreSQL: {exc})"


def discord_host() -> str:
    """The host discord.py talks to (host:port when the port is not the usual one)."""
    url = yarl.URL(discord.http.Route.BASE)
    return url.host or "discord.com" if url.is_default_port() else f"{url.host}:{url.port}"


async def _open_service(config: Config) -> GameService:
    try:
        return await open_service(
            config.database,
            computers=EngineComputers(hard_budget=hard_budget(config.hard_playouts)))
    except StoreError as exc:
        raise StartupError(database_problem(config.database, exc), EXIT_DATABASE) from None


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def _on_stop_signals(bot: SanMarcoBot, stopping: list[asyncio.Task[int | None]]) -> None:
    """SIGTERM and SIGINT start the bot's shutdown (kept in ``stopping`` until it ends).
    Where the loop takes no signal handlers (Windows), Ctrl-C stays a KeyboardInterrupt."""
    loop = asyncio.get_running_loop()

    def stop(sig: signal.Signals) -> None:
        stopping.append(asyncio.create_task(bot.shutdown(sig.name)))

    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, stop, sig)
        except (NotImplementedError, RuntimeError):
            return


async def _run(config: Config) -> None:
    service = await _open_service(config)  # before Discord: a bad file is found at once
    log.info("opened the game database %s", describe_target(config.database))
    if config.sharded:
        log.info("running shards %s of %d", "all" if config.shard_ids is None else
                 ",".join(map(str, config.shard_ids)), config.shard_count)
    stopping: list[asyncio.Task[int | None]] = []
    try:
        async with create_bot(config, service=service) as bot:
            _on_stop_signals(bot, stopping)
            try:
                await bot.start(config.token)
            except discord.LoginFailure:
                raise StartupError(
                    "Discord refused the token. Copy it again from the developer portal's Bot "
                    "tab into DISCORD_TOKEN (see README.md).", EXIT_CONFIG) from None
            except (TimeoutError, aiohttp.ClientError, OSError) as exc:
                raise StartupError(
                    f"cannot reach Discord at {discord_host()} ({type(exc).__name__}: {exc}). "
                    "Check this machine's network, DNS and firewall, then start the bot "
                    "again.", EXIT_NETWORK) from None
        await asyncio.gather(*stopping)  # its last log lines are written
    finally:
        await service.close()


def main() -> int:
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"sanmarco: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # discord.py logs request bodies at DEBUG; keep its chatter (and any payload) at INFO.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(
        config.log_level)))
    try:
        asyncio.run(_run(config))
    except StartupError as exc:
        print(f"sanmarco: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
