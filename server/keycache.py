"""A per-node cache of verified key records, so authentication costs no query.

The presented secret is still hashed and compared in constant time on every request; only the
database lookup is saved. A revocation on this node evicts the entry at once. Another node's (or
the CLI's) is pushed while ``changes_pushed`` says so — PostgreSQL's LISTEN/NOTIFY, SQLite's
watch — and an entry is then kept until evicted; otherwise for ``ttl_s``
(``QUIVER_AUTH_CACHE_TTL_S``). Full, it lets its oldest entry go.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any


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
