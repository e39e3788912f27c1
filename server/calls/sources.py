"""The node's cache of tools' sources (code, WASM modules), so a warm call reads none from the
database: least recently used first, bounded by count and by size — a WASM module may be
10 MiB, and a node serving 10,000 tenants keeps each tenant's tools."""

from __future__ import annotations

from collections import OrderedDict

from sandbox.engine import ToolSource

MAX_SOURCES = 16_384
MAX_SOURCE_BYTES = 256 << 20


class SourceCache:
    def __init__(self, entries: int = MAX_SOURCES, size: int = MAX_SOURCE_BYTES) -> None:
        self.entries = entries
        self.size = size
        self.held = 0
        self._sources: OrderedDict[str, tuple[ToolSource, int]] = OrderedDict()

    def get(self, identity: str) -> ToolSource | None:
        hit = self._sources.get(identity)
        if hit is None:
            return None
        self._sources.move_to_end(identity)
        return hit[0]

    def put(self, identity: str, source: ToolSource) -> ToolSource:
        size = len(source.text or "") + len(source.module or b"") + 1
        old = self._sources.pop(identity, None)
        if old is not None:
            self.held -= old[1]
        while self._sources and (
            len(self._sources) >= self.entries or self.held + size > self.size
        ):
            _, (_, dropped) = self._sources.popitem(last=False)
            self.held -= dropped
        self._sources[identity] = (source, size)
        self.held += size
        return source

    def __contains__(self, identity: str) -> bool:
        return identity in self._sources

    def __len__(self) -> int:
        return len(self._sources)
