"""The result cache of ``metadata.cacheable`` tools (DESIGN §6).

Key: tenant + the tool's identity (content hash + stored version row: an edit, a delete and
re-create, or a new secret changes every key) + the scope's owner + the normalised (validated,
coerced, key-sorted) arguments. The scope (``metadata.cache_scope``) says whose calls share a
result: ``session`` (the default: one conversation's), ``customer`` (one end user's sessions) or
``tenant`` (for tools that read nothing per user) — so one end user's result never reaches
another's conversation unless the tool says it may. An in-process LRU always sits in front;
Redis, when configured, is the tier every node shares. Only successful results are cached; the
TTL is ``metadata.cache_ttl`` seconds.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson

from server.dependency import Dependency

DEFAULT_TTL_S = 300


def cache_key(tenant: str, identity: str, owner: str, params: Any) -> str:
    """``owner``: ``session:<id>``, ``customer:<id>`` or ``tenant``, from the tool's scope."""
    normalised = orjson.dumps([owner, params], option=orjson.OPT_SORT_KEYS)
    digest = hashlib.blake2b(normalised, digest_size=16).hexdigest()
    return f"{tenant}:{identity}:{digest}"


def scope_owner(scope: str | None, session: str | None, customer: str | None) -> str:
    """Who shares cached results under ``scope``; a session without a known customer is its
    own customer."""
    if scope == "tenant":
        return "tenant"
    if scope == "customer" and customer:
        return f"customer:{customer}"
    return f"session:{session or '-'}"


class ResultCache:
    def __init__(
        self,
        max_entries: int = 10_000,
        redis: Any = None,
        prefix: str = "quiver:result:",
        health: Dependency | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.clock = clock  # this node's copies expire by it (Redis's by Redis's own)
        self.max_entries = max_entries
        self.redis = redis
        self.health = health  # a ``Dependency``: skip Redis for a while after a failure
        self.prefix = prefix
        self._local: OrderedDict[str, tuple[float, bytes]] = OrderedDict()

    async def get(self, key: str) -> tuple[Any, str] | None:
        """``(result, tier)`` where tier is ``"local"`` or ``"shared"``, or None on a miss."""
        hit = self._local.get(key)
        now = self.clock()
        if hit is not None:
            if hit[0] > now:
                self._local.move_to_end(key)
                return orjson.loads(hit[1]), "local"
            del self._local[key]
        if self.redis is None or (self.health and not self.health.should_try()):
            return None
        try:
            raw, ttl_ms = (
                await self.redis.pipeline(transaction=False)
                .get(self.prefix + key)
                .pttl(self.prefix + key)
                .execute()
            )
        except Exception as exc:  # the shared tier is an optimisation: a Redis outage is a miss
            if self.health:
                self.health.failed(exc)
            return None
        if self.health:
            self.health.succeeded()
        if raw is None:
            return None
        if ttl_ms and ttl_ms > 0:
            self._remember(key, raw, ttl_ms / 1000)
        return orjson.loads(raw), "shared"

    async def put(self, key: str, result: Any, ttl_s: float) -> None:
        if ttl_s <= 0:
            return
        raw = orjson.dumps(result)
        self._remember(key, raw, ttl_s)
        if self.redis is not None and not (self.health and not self.health.should_try()):
            try:
                await self.redis.set(self.prefix + key, raw, px=int(ttl_s * 1000))
            except Exception as exc:
                if self.health:
                    self.health.failed(exc)

    def _remember(self, key: str, raw: bytes, ttl_s: float) -> None:
        self._local[key] = (self.clock() + ttl_s, raw)
        self._local.move_to_end(key)
        while len(self._local) > self.max_entries:
            self._local.popitem(last=False)
