"""The restricted worker's cache of loaded tools (``sandbox/restricted/worker.py``): least
recently used first, and fair between tenants — a tenant cycling through thousands of tools
evicts its own modules, never another tenant's. The worker's own code, in this process."""

from __future__ import annotations

import pytest

from sandbox.restricted import worker as restricted_worker
from sandbox.restricted.worker import Worker

SOURCE = """
def execute(params, context):
    return {"success": True, "n": %d}


tool = {"name": "t%d", "description": "one of many", "parameters": {}, "execute": execute}
"""


def request(tenant: str, n: int, with_source: bool = True) -> dict:
    return {
        "tenant": tenant,
        "hash": f"{tenant}-{n}",
        "source": SOURCE % (n, n) if with_source else None,
    }


def hits(worker: Worker, tenant: str, count: int) -> int:
    """How many of ``tenant``'s first ``count`` tools the worker still holds (asked without
    their source, as the pool asks first)."""
    return sum(
        worker.tools(request(tenant, n, with_source=False)) is not None for n in range(count)
    )


def test_a_tenant_cycling_through_10_000_tools_leaves_anothers_cached() -> None:
    worker = Worker(restricted=True)
    for n in range(20):
        worker.tools(request("quiet", n))
    before = hits(worker, "quiet", 20)

    for n in range(10_000):  # more than twice the cache, each tool once
        worker.tools(request("cycler", n))

    assert before == 20
    assert hits(worker, "quiet", 20) == 20  # every one still there
    assert len(worker.modules) <= restricted_worker.MAX_CACHED_MODULES
    assert worker.held["quiet"] == sum(worker.sizes[k] for k in worker.modules if k[0] == "quiet")


def test_a_full_cache_drops_the_least_recently_used_module_of_the_largest_tenant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(restricted_worker, "MAX_CACHED_MODULES", 4)
    worker = Worker(restricted=True)
    for n in range(3):
        worker.tools(request("big", n))
    worker.tools(request("small", 0))
    worker.tools(request("big", 0, with_source=False))  # big's 0 used again: 1 is its coldest
    worker.tools(request("small", 1))  # full: one of big's goes

    assert hits(worker, "big", 3) == 2 and worker.tools(request("big", 1, False)) is None
    assert hits(worker, "small", 2) == 2
