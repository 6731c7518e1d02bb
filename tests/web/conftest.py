"""Fixtures of the game pages' tests: the databases of tests/bot (each test on an SQLite file
and on PostgreSQL), a service with a settable clock and a distinctive seed, games played to
a point through the service, and the application under aiohttp's test client (a real HTTP
server on a loopback port)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameService, UndoRefused, Update
from bot.store import open_store
from bot.web import WebOptions, make_app
from tests.bot.conftest import db, pg_migrated, pg_server  # noqa: F401  (fixtures)

SEED = 987_654_321_987  # a seed no page could show by chance
PIDS = ("111111111111111111", "222222222222222222", "333333333333333333",
        "444444444444444444")
NAMES = ("Ann", "Bob", "Cid", "Dee")
CHANNEL = 10
GUILD = 1


class Clock:
    """A settable clock: the service never reads the wall clock in these tests."""

    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def make_service(target: str, clock: Callable[[], float] | None = None) -> GameService:
    return GameService(await open_store(target), clock or Clock(), seeds=lambda: SEED)


@pytest.fixture
async def svc(db: str) -> AsyncIterator[GameService]:  # noqa: F811
    service = await make_service(db)
    yield service
    await service.close()


async def start_game(svc: GameService, n: int = 4) -> Update:
    await svc.create_lobby(GUILD, CHANNEL, PIDS[0], seats=n, name=NAMES[0])
    for pid, name in zip(PIDS[1:n], NAMES[1:n], strict=True):
        await svc.join(CHANNEL, pid, name=name)
    return await svc.start(CHANNEL, PIDS[0])


async def move(svc: GameService, u: Update, rng: random.Random,
               channel: int = CHANNEL) -> Update:
    """One random legal move of an awaited player."""
    pid = rng.choice(list(u.view["waiting_for"]))
    actions = await svc.legal_actions(channel, pid)
    return await svc.act(channel, pid, rng.choice(actions), expected_version=u.version)


async def play_until(svc: GameService, u: Update, rng: random.Random,
                     done: Callable[[Update], bool], channel: int = CHANNEL) -> Update:
    while not done(u):
        u = await move(svc, u, rng, channel)
    return u


async def token_of(svc: GameService) -> str:
    row = await svc.store.latest_game(CHANNEL)
    assert row is not None
    return await svc.page_token(row.id)


@pytest.fixture
async def client_of() -> AsyncIterator[Callable[..., Any]]:
    """Makes a test client of the pages over a service (closed at the end)."""
    clients: list[TestClient[Any, Any]] = []

    async def make(service: GameService, **options: Any) -> TestClient[Any, Any]:
        options.setdefault("poll", 0.05)
        client: TestClient[Any, Any] = TestClient(
            TestServer(make_app(service, WebOptions(**options))))
        await client.start_server()
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()


async def undo_and_play_otherwise(svc: GameService, u: Update, rng: random.Random,
                                  channel: int = CHANNEL) -> tuple[Update, Update]:
    """Moves until one may be taken back (R5), takes it back and plays a different move in
    its place: (the update of the move taken back, the update of the one played instead)."""
    for _ in range(400):
        pid = rng.choice(list(u.view["waiting_for"]))
        actions = await svc.legal_actions(channel, pid)
        if len(actions) < 2:
            u = await svc.act(channel, pid, actions[0], expected_version=u.version)
            continue
        first = rng.choice(actions)
        made = await svc.act(channel, pid, first, expected_version=u.version)
        try:
            undone = await svc.undo(channel, pid)
        except UndoRefused:
            u = made
            continue
        other = next(a for a in await svc.legal_actions(channel, pid) if a != first)
        return made, await svc.act(channel, pid, other, expected_version=undone.update.version)
    raise AssertionError("no move could be taken back")
