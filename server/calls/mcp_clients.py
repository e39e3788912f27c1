"""Open clients of federated MCP servers, kept between calls (``server.calls.mcp_remote``).

A client per call would pay the protocol's start each time — ``server/discover``, or the
handshake era's ``initialize`` and ``initialized`` and the session's ``DELETE`` — several round
trips and the SDK's setup, ten times the call itself. So each (tenant, server, secret, allowlist)
keeps one client open, which its calls share (the SDK's client carries concurrent requests). A
client lives in a task of its own (the SDK's task groups must end in the task that began them)
and is closed when idle for ``idle_s``, when more than ``size`` are open (the least recently used
idle one), when it fails, and when the node stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from server.egress_transport import GuardedTransport

Connect = Callable[[GuardedTransport], AbstractAsyncContextManager[Any]]


@dataclass(eq=False)
class OpenClient:
    transport: GuardedTransport
    client: Any = None
    failed: BaseException | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    in_use: int = 0
    used_at: float = 0.0

    @property
    def alive(self) -> bool:
        return (
            self.failed is None
            and not self.stop.is_set()
            and not (self.task is not None and self.task.done())
        )


class OpenClients:
    def __init__(
        self, size: int = 256, idle_s: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.size = size
        self.idle_s = idle_s
        self.clock = clock
        self._open: OrderedDict[str, OpenClient] = OrderedDict()
        self._swept_at = 0.0

    def __len__(self) -> int:
        return len(self._open)

    @contextlib.asynccontextmanager
    async def use(
        self, key: str, transport: GuardedTransport, connect: Connect
    ) -> AsyncIterator[OpenClient]:
        """The open client for ``key`` (opened through ``transport`` with ``connect`` if there
        is none), held for the block. Raises what opening it raised."""
        entry = self._open.get(key)
        if entry is None or not entry.alive:
            entry = self._start(key, transport, connect)
        else:
            self._open.move_to_end(key)
        entry.in_use += 1
        try:
            await entry.ready.wait()
            if entry.failed is not None or entry.client is None:
                self.drop(key, entry)
                raise entry.failed or ConnectionError("the MCP server's client closed")
            yield entry
        finally:
            entry.in_use -= 1
            entry.used_at = self.clock()
        self._sweep()

    def drop(self, key: str, entry: OpenClient) -> None:
        """Close ``entry`` (it failed): the next call opens a new one."""
        entry.stop.set()
        if self._open.get(key) is entry:
            del self._open[key]

    async def close(self) -> None:
        entries = list(self._open.values())
        self._open.clear()
        for entry in entries:
            entry.stop.set()
        await asyncio.gather(
            *(e.task for e in entries if e.task is not None), return_exceptions=True
        )

    def _start(self, key: str, transport: GuardedTransport, connect: Connect) -> OpenClient:
        entry = OpenClient(transport, used_at=self.clock())
        entry.task = asyncio.get_running_loop().create_task(self._own(entry, connect))
        self._open[key] = entry
        self._open.move_to_end(key)
        return entry

    @staticmethod
    async def _own(entry: OpenClient, connect: Connect) -> None:
        """Open the client, keep it until told to stop, and close it in this task."""
        try:
            async with connect(entry.transport) as client:
                entry.client = client
                entry.ready.set()
                await entry.stop.wait()
        except asyncio.CancelledError:
            entry.failed = entry.failed or ConnectionError("the node is stopping")
            raise
        except BaseException as exc:  # noqa: BLE001 — the callers waiting for it are told
            entry.failed = exc
        finally:
            entry.stop.set()
            entry.ready.set()

    def _sweep(self) -> None:
        """Close clients idle past ``idle_s``, and the least recently used idle ones past
        ``size`` (at most once a second)."""
        now = self.clock()
        if now - self._swept_at < 1.0 and len(self._open) <= self.size:
            return
        self._swept_at = now
        for key, entry in list(self._open.items()):
            idle = entry.in_use == 0
            if not entry.alive or (idle and now - entry.used_at >= self.idle_s):
                self.drop(key, entry)
        for key, entry in list(self._open.items()):  # least recently used first
            if len(self._open) <= self.size:
                break
            if entry.in_use == 0:
                self.drop(key, entry)
