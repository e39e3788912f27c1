"""The node's cache of tools' sources (``server.calls.sources``): least recently used first,
bounded by count and by size."""

from __future__ import annotations

from sandbox.engine import ToolSource
from server.calls.sources import SourceCache


def python(text: str) -> ToolSource:
    return ToolSource("python", "restricted", text)


def test_the_least_recently_used_source_goes_first() -> None:
    cache = SourceCache(entries=2)
    cache.put("a", python("a"))
    cache.put("b", python("b"))
    cache.get("a")  # a used again: b is the coldest
    cache.put("c", python("c"))

    assert ("a" in cache, "b" in cache, "c" in cache) == (True, False, True)


def test_large_sources_are_bounded_by_their_size() -> None:
    cache = SourceCache(entries=100, size=10 << 20)
    for name in "abc":
        cache.put(name, ToolSource("wasm", "wasm", module=b"\0" * (4 << 20)))

    assert len(cache) == 2 and "a" not in cache
    assert cache.held <= 10 << 20
    cache.put("c", python("small now"))  # a source replaced gives its room back
    assert cache.held < (4 << 20) + 100
