"""A per-node cache of verified key records, so authentication costs no query.

The presented secret is still hashed and compared in constant time on every request; only the
database lookup is saved. A revocation on this node evicts the entry at once. Another node's (or
the CLI's) is pushed while ``changes_pushed`` says so — PostgreSQL's LISTEN/NOTIFY, SQLite's
watch — and an entry is then kept until evicted; otherwise for ``ttl_s``
(``QUIVER_AUTH_CACHE_TTL_S``). Full, it lets its oldest entry go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from server import metrics
from server.ratelimit import RateLimitedLog

failed = RateLimitedLog(logging.getLogger("quiver.keys"), every_s=60.0)


@dataclass
class CachedKey:
    id: str
    role: str
    tenant_id: str | None
    secret_hash: str
    last_used_at: datetime | None
    fetched_at: float


class KeyCache:
    def __init__(self, ttl_s: float, max_entries: int = 100_000) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._entries: dict[str, CachedKey] = {}
        self.changes_pushed: Callable[[], bool] = lambda: False

    def get(self, key_id: str) -> CachedKey | None:
        entry = self._entries.get(key_id)
        if entry is None:
            return None
        if time.monotonic() - entry.fetched_at > self.ttl_s and not self.changes_pushed():
            del self._entries[key_id]
            return None
        return entry

    def put(self, row: Any) -> CachedKey:
        if len(self._entries) >= self.max_entries:
            del self._entries[next(iter(self._entries))]  # the oldest
        entry = CachedKey(
            row.id, row.role, row.tenant_id, row.secret_hash, row.last_used_at, time.monotonic()
        )
        if self.ttl_s > 0:
            self._entries[row.id] = entry
        return entry

    def clear(self) -> None:
        self._entries.clear()

    def evict(self, key_ids: set[str]) -> None:
        for key_id in key_ids:
            self._entries.pop(key_id, None)


class KeyTouches:
    """When keys were last used: noted per request, written in one batch every ``every_s``.
    (A write in the request's own transaction, once a minute per key, was for SQLite a write
    lock taken by a call of every tenant called that rarely: 10,000 tenants, 166 a second.)"""

    def __init__(
        self, write: Callable[[dict[str, datetime]], Awaitable[None]], every_s: float = 5.0
    ) -> None:
        self.write = write
        self.every_s = every_s
        self.pending: dict[str, datetime] = {}
        self._task: asyncio.Task[None] | None = None

    def note(self, key_id: str, when: datetime) -> None:
        self.pending[key_id] = when

    async def flush(self) -> None:
        """Write what was noted; what could not be written is kept for the next flush."""
        pending, self.pending = self.pending, {}
        if not pending:
            return
        try:
            await self.write(pending)
        except BaseException:  # whatever stopped the write (a cancel too): kept, then re-raised
            for key_id, when in pending.items():
                self.pending.setdefault(key_id, when)
            raise

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            try:
                await self.flush()
            except Exception as exc:  # noqa: BLE001 - the database away: kept for the next turn
                metrics.BACKGROUND_FAILURES.labels(task="key_touches").inc()
                failed.warning("keys' last use not written (kept for the next try): %s", exc)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        try:
            await self.flush()
        except Exception as exc:  # noqa: BLE001 - the database away at a stop: the uses are lost
            metrics.BACKGROUND_FAILURES.labels(task="key_touches").inc()
            failed.warning("%d keys' last use not written at stop: %s", len(self.pending), exc)
