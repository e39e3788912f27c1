"""The open clients of federated MCP servers (``server.calls.mcp_clients``), with a fake
``connect`` and the test's clock: shared while open, closed when idle or past the size (the least
recently used idle one, never one in use), opened again after a failure, all closed at stop."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from server.calls.mcp_clients import OpenClients


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Remote:
    """Counts the clients opened and closed; ``refuse`` makes the next open fail."""

    def __init__(self) -> None:
        self.opened = 0
        self.closed = 0
        self.refuse: Exception | None = None
        self.changed = asyncio.Condition()

    @contextlib.asynccontextmanager
    async def connect(self, transport: Any):
        if self.refuse is not None:
            raise self.refuse
        self.opened += 1
        try:
            yield object()
        finally:
            async with self.changed:
                self.closed += 1
                self.changed.notify_all()


async def settled(remote: Remote, closed: int) -> None:
    """Wait (bounded) until ``closed`` clients have closed: their owners end in their own task."""
    async with remote.changed:
        await asyncio.wait_for(remote.changed.wait_for(lambda: remote.closed == closed), 5)


async def test_calls_of_one_key_share_one_client() -> None:
    remote, clients = Remote(), OpenClients(clock=Clock())
    seen = []
    for _ in range(3):
        async with clients.use("a", None, remote.connect) as entry:  # type: ignore[arg-type]
            seen.append(entry.client)
    await clients.close()

    assert remote.opened == 1 and len(set(map(id, seen))) == 1
    await settled(remote, 1)


async def test_an_idle_client_is_closed_and_a_later_call_opens_another() -> None:
    clock = Clock()
    remote, clients = Remote(), OpenClients(idle_s=60, clock=clock)
    async with clients.use("a", None, remote.connect):  # type: ignore[arg-type]
        pass
    clock.now += 61
    async with clients.use("b", None, remote.connect):  # type: ignore[arg-type]
        pass  # its end sweeps "a"
    await settled(remote, 1)
    async with clients.use("a", None, remote.connect):  # type: ignore[arg-type]
        pass
    await clients.close()

    assert remote.opened == 3
    await settled(remote, 3)


async def test_past_the_size_the_least_recently_used_idle_client_is_closed() -> None:
    clock = Clock()
    remote, clients = Remote(), OpenClients(size=2, clock=clock)
    async with clients.use("busy", None, remote.connect):  # type: ignore[arg-type]
        for key in ("a", "b", "c"):
            clock.now += 1
            async with clients.use(key, None, remote.connect):  # type: ignore[arg-type]
                pass
        await settled(remote, 2)  # "a" and "b" went; "busy" is in use and stays
        assert len(clients) == 2
    await clients.close()

    assert remote.opened == 4


async def test_a_client_that_cannot_open_fails_its_call_and_the_next_call_tries_again() -> None:
    remote, clients = Remote(), OpenClients(clock=Clock())
    remote.refuse = ConnectionRefusedError("no")
    with pytest.raises(ConnectionRefusedError):
        async with clients.use("a", None, remote.connect):  # type: ignore[arg-type]
            pass
    remote.refuse = None
    async with clients.use("a", None, remote.connect) as entry:  # type: ignore[arg-type]
        client = entry.client
    await clients.close()

    assert client is not None and remote.opened == 1 and len(clients) == 0
