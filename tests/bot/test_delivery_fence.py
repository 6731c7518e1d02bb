"""A worker whose lease was lost while its step was being made (its pictures drawn, its
reads done: seconds on a loaded machine) sends nothing: ``Sender`` asks the channel's
``held`` again just before each message goes (``delivery.sending``). The whole story —
another process takes the channel and this one's renewal finds it taken — is
tests/bot/test_discord_fences.py; this pins the last check, which that story reaches only
when the machine is slow (it once did, in CI)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot.cogs.sanmarco.delivery.compose import Outgoing
from bot.cogs.sanmarco.delivery.sending import Channel, Sender
from bot.store import LeaseLost


@dataclass
class Sent:
    id: int


class Place:
    """A channel that records what it was sent (the real send is the fake Discord's)."""

    id = 7

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, content: str, **_: Any) -> Sent:
        self.sent.append(content)
        return Sent(len(self.sent))


async def test_a_step_whose_lease_was_lost_meanwhile_sends_nothing() -> None:
    sender = Sender(None, None, None, None, None)  # type: ignore[arg-type]
    place, held = Place(), [True]
    st = Channel(guild=1, held=lambda: held[0])
    await sender._post(place, st, Outgoing("first"), "n1")  # type: ignore[arg-type]
    held[0] = False  # the renewal found the lease taken while the next step was made
    with pytest.raises(LeaseLost):
        await sender._post(place, st, Outgoing("second"), "n2")  # type: ignore[arg-type]
    assert place.sent == ["first"]
