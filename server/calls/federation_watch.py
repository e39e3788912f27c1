"""Keeps federated MCP servers' tools up to date (``server.calls.federation``).

Each server is watched by one node at a time, which holds a lease on it (renewed every third of
``lease_s``; a node that dies stops renewing, and another takes the server when the lease has
run out). The watching node keeps a connection open to the server and refreshes it on the
remote's ``list_changed``: on the handshake era's standing GET stream, or on a
``subscriptions/listen`` stream of the 2026-07-28 era. It also refreshes every ``refresh_s``
(a remote that cannot announce changes, or one whose announcement was lost), and a connection
that drops is opened again at the next round. A refresh saves only what changed, so an
announcement that comes twice costs a listing, not a version.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from server import metrics
from server.calls import federation
from server.calls.mcp_remote import classify
from server.calls.services import Services
from server.egress import Allowlist
from server.errors import NotFoundError
from server.ratelimit import RateLimitedLog

log = logging.getLogger("quiver.federation")
failures = RateLimitedLog(log, every_s=30.0)
LISTEN_BYTES = 1 << 20  # what one listening response may carry before it is opened again
ServerKey = tuple[str, str]  # (tenant, server name)


@dataclass
class _Listener:
    version: str  # the declaration it listens for (url, secret, last change): a new one restarts
    task: asyncio.Task[None]


class FederationWatch:
    def __init__(
        self,
        services: Services,
        *,
        lease_s: float = 60.0,
        refresh_s: float = 300.0,
        clock: Callable[[], float] = time.time,
        node: str | None = None,
        most: int = 1000,
    ) -> None:
        self.services = services
        self.most = most  # servers one node listens to at most
        self.lease_s = lease_s
        self.refresh_s = refresh_s
        self.clock = clock
        self.node = node or uuid.uuid4().hex[:16]
        self.wake = services.servers_due  # a round now (a server declared or changed)
        self._listeners: dict[ServerKey, _Listener] = {}
        self._refreshing: dict[ServerKey, asyncio.Task[None]] = {}
        self._again: set[ServerKey] = set()  # announced while its refresh ran: once more
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.refreshes = 0  # refreshes this node has finished, whatever their outcome
        self._refreshed = asyncio.Condition()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop listening, and give the servers up so another node takes them at once."""
        self._stopping = True
        self.wake.set()
        tasks = [listener.task for listener in self._listeners.values()]
        tasks += list(self._refreshing.values())
        tasks += [self._task] if self._task is not None else []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):  # the database away: the leases run out instead
            async with self.services.storage.transaction() as store:
                await store.mcp_servers.unwatch(self.node)

    @property
    def watching(self) -> set[ServerKey]:
        """The servers this node listens to now."""
        return {key for key, listener in self._listeners.items() if not listener.task.done()}

    async def _run(self) -> None:
        while not self._stopping:
            self.wake.clear()  # before the round: a declaration during it brings another
            try:
                await self.round()
            except Exception as exc:  # the database away: the next round tries again
                metrics.BACKGROUND_FAILURES.labels(task="mcp_watch").inc()
                failures.warning("watching MCP servers failed this round: %r", exc)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.lease_s / 3):
                    await self.wake.wait()

    async def round(self) -> None:
        """Take and renew this node's servers, (re)open their listeners, and refresh the ones
        whose last listing is older than ``refresh_s``."""
        now = self.clock()
        async with self.services.storage.transaction() as store:
            rows = await store.mcp_servers.watch(
                self.node, _when(now), _when(now + self.lease_s), self.most
            )
            servers = []
            for row in rows:
                extra = await store.tenants.allowlist(row.tenant_id)
                servers.append((row, store.mcp_servers.secret(row), extra))
        held: set[ServerKey] = set()
        for row, secret, extra in servers:
            key = (row.tenant_id, row.name)
            held.add(key)
            version = _version(row.url, secret, row.updated_at)
            listener = self._listeners.get(key)
            if listener is None or listener.version != version or listener.task.done():
                if listener is not None:
                    listener.task.cancel()
                task = asyncio.get_running_loop().create_task(
                    self._listen(key, row.url, secret, extra)
                )
                self._listeners[key] = _Listener(version, task)
            last = row.refreshed_at.timestamp() if row.refreshed_at is not None else None
            if last is None or now - last >= self.refresh_s:
                self.refresh_soon(key)
        for key in set(self._listeners) - held:  # another node holds it now, or it is gone
            self._listeners.pop(key).task.cancel()

    async def _listen(
        self, key: ServerKey, url: str, secret: str | None, extra: Allowlist | None
    ) -> None:
        """Refresh the server on each ``list_changed`` it announces, until the connection
        ends (the next round opens it again)."""
        engine = self.services.engines.mcp
        if engine is None:
            return
        changed = asyncio.Event()

        async def on_message(message: Any) -> None:
            method = getattr(getattr(message, "root", message), "method", None)
            if method == "notifications/tools/list_changed":
                changed.set()

        transport = engine.transport(extra, max_bytes=LISTEN_BYTES)
        try:
            async with engine.connect(url, secret, transport, on_message) as client:
                if client.protocol_version not in MODERN_PROTOCOL_VERSIONS:
                    while True:  # the handshake era: the standing GET stream carries it
                        await changed.wait()
                        changed.clear()
                        self.refresh_soon(key)
                async with client.listen(tools_list_changed=True) as subscription:
                    async for _ in subscription:
                        self.refresh_soon(key)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 — the SDK's task groups wrap what failed
            failure = classify(exc, transport)
            if failure is None:
                raise
            log.debug("listening to MCP server %s of %s ended: %s", key[1], key[0], failure)

    def refresh_soon(self, key: ServerKey) -> None:
        """Refresh the server now, or once more after the refresh that runs."""
        if key in self._refreshing:
            self._again.add(key)
            return
        task = asyncio.get_running_loop().create_task(self._refresh(key))
        self._refreshing[key] = task

    async def refreshed(self, after: int) -> None:
        """Until more than ``after`` refreshes have finished (a caller bounds the wait)."""
        async with self._refreshed:
            await self._refreshed.wait_for(lambda: self.refreshes > after)

    async def _refresh(self, key: ServerKey) -> None:
        tenant_id, name = key
        try:
            while True:
                self._again.discard(key)
                store = self.services.storage.reader()
                try:
                    await federation.refresh(self.services, store, None, tenant_id, name)
                    await store.checkpoint()
                finally:
                    await store.close()
                    async with self._refreshed:
                        self.refreshes += 1
                        self._refreshed.notify_all()
                if key not in self._again:
                    return
        except NotFoundError:  # deleted meanwhile
            return
        except Exception as exc:  # a concurrent refresh won, or the database is away
            metrics.BACKGROUND_FAILURES.labels(task="mcp_refresh").inc()
            failures.warning("refreshing MCP server %s of %s failed: %r", name, tenant_id, exc)
        finally:
            self._refreshing.pop(key, None)


def _when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _version(url: str, secret: str | None, updated_at: datetime) -> str:
    said = f"{url}\n{secret or ''}\n{updated_at.isoformat()}".encode()
    return hashlib.sha256(said).hexdigest()
