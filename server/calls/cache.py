"""The result cache of ``metadata.cacheable`` tools (DESIGN §6).

Key: tenant + the tool version's content hash + the normalised (validated, coerced, key-sorted)
arguments — so editing a tool changes every key and a stale result is never served. An
in-process LRU always sits in front; Redis, when configured, is the tier every node shares.
Only successful results are cached; the TTL is ``metadata.cache_ttl`` seconds.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from typing import Any

import orjson

log = logging.getLogger("quiver.cache")
DEFAULT_TTL_S = 300


def cache_key(tenant: str, content_hash: str, params: Any) -> str:
    normalised = orjson.dumps(params, option=orjson.OPT_SORT_KEYS)
    digest = hashlib.blake2b(normalised, digest_size=16).hexdigest()
    return f"{tenant}:{content_hash}:{digest}"


class ResultCache:
    def __init__(
        self, max_entries: int = 10_000, redis: Any = None, prefix: str = "quiver:result:"
    ):
        self.max_entries = max_entries
        self.redis = redis
        self.prefix = prefix
        self._local: OrderedDict[str, tuple[float, bytes]] = OrderedDict()

    async def get(self, key: str) -> tuple[Any, str] | None:
        """``(result, tier)`` where tier is ``"local"`` or ``"shared"``, or None on a miss."""
        hit = self._local.get(key)
        now = time.monotonic()
        if hit is not None:
            if hit[0] > now:
                self._local.move_to_end(key)
                return orjson.loads(hit[1]), "local"
            del self._local[key]
        if self.redis is None:
            return None
        try:
            raw, ttl_ms = (
                await self.redis.pipeline(transaction=False)
                .get(self.prefix + key)
                .pttl(self.prefix + key)
                .execute()
            )
        except Exception:  # the shared tier is an optimisation: a Redis outage is a miss
            log.warning("result cache: Redis read failed", exc_info=True)
            return None
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
        if self.redis is not None:
            try:
                await self.redis.set(self.prefix + key, raw, px=int(ttl_s * 1000))
            except Exception:
                log.warning("result cache: Redis write failed", exc_info=True)

    def _remember(self, key: str, raw: bytes, ttl_s: float) -> None:
        self._local[key] = (time.monotonic() + ttl_s, raw)
        self._local.move_to_end(key)
        while len(self._local) > self.max_entries:
            self._local.popitem(last=False)
