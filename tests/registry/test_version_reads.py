"""The registry's version counters: read at most once per TTL by the injected clock, by one
caller per tenant at a time however many find them stale (the others keep the last copy for that
read, never waiting on it), and never kept across a change."""

from __future__ import annotations

import asyncio

import pytest

from server.registry.disk import DiskTools
from server.registry.ports import RegistryVersions, TenantRegistryData
from server.registry.service import Registry
from tests.calls.fakes import Clock


class SlowStore:
    """An in-memory ``RegistryStore`` whose version reads wait until the test lets them go."""

    def __init__(self) -> None:
        self.reads = 0
        self.version = 1
        self.fail_next = False
        self.gate = asyncio.Event()
        self.gate.set()
        self._read_sent = asyncio.Condition()

    async def reads_reach(self, count: int) -> None:
        """Wait (bounded) until ``count`` reads have been sent."""
        async with asyncio.timeout(5), self._read_sent:
            await self._read_sent.wait_for(lambda: self.reads >= count)

    async def registry_versions(self, tenant_id: str) -> RegistryVersions | None:
        self.reads += 1
        async with self._read_sent:
            self._read_sent.notify_all()
        seen = self.version  # what the database holds when the query runs
        await self.gate.wait()
        if self.fail_next:
            self.fail_next = False
            raise ConnectionError("the database went away")
        return RegistryVersions(tenant=seen, global_=0)

    async def load_registry(self, tenant_id: str) -> TenantRegistryData:
        return TenantRegistryData(allowlist=(), tenant_tools=(), global_tools=(), bots={})


async def test_counters_are_trusted_for_the_ttl_of_the_injected_clock() -> None:
    clock, store = Clock(), SlowStore()
    registry = Registry(DiskTools(), version_ttl_s=1.0, clock=clock)

    await registry.view(store, "t")
    clock.now += 0.9
    await registry.view(store, "t")
    assert store.reads == 1
    clock.now += 0.2
    await registry.view(store, "t")
    assert store.reads == 2


async def test_while_one_caller_refreshes_stale_counters_the_others_keep_the_last_copy() -> None:
    clock, store = Clock(), SlowStore()
    registry = Registry(DiskTools(), version_ttl_s=1.0, clock=clock)
    await registry.view(store, "t")
    clock.now += 2.0  # stale
    store.version = 2  # another node's change
    store.gate.clear()

    refreshing = asyncio.create_task(registry.view(store, "t"))
    await store.reads_reach(2)
    others = [await registry.view(store, "t") for _ in range(8)]  # none of them waits
    assert {v.key for v in others} == {(1, 0, 0)}
    assert store.reads == 2  # the first read and the one refresh

    store.gate.set()
    assert (await refreshing).key == (2, 0, 0)
    assert (await registry.view(store, "t")).key == (2, 0, 0)
    assert store.reads == 2


async def test_a_caller_with_nothing_cached_reads_itself_instead_of_waiting() -> None:
    """Waiting on another caller's read while holding a pooled connection deadlocks a full pool
    (the reader may be the one waiting for a connection): a caller never waits."""
    store = SlowStore()
    registry = Registry(DiskTools(), version_ttl_s=1.0, clock=Clock())
    store.gate.clear()
    blocked = asyncio.create_task(registry.view(store, "t"))
    await store.reads_reach(1)

    second = asyncio.create_task(registry.view(store, "t"))
    await store.reads_reach(2)
    assert store.reads == 2  # it sent its own read rather than queueing behind the first
    store.gate.set()
    assert (await second).key == (1, 0, 0)
    assert (await blocked).key == (1, 0, 0)


async def test_a_change_committed_during_a_read_is_seen_by_the_callers_after_it() -> None:
    store = SlowStore()
    registry = Registry(DiskTools(), version_ttl_s=1.0, clock=Clock())
    store.gate.clear()
    before = asyncio.create_task(registry.view(store, "t"))
    await store.reads_reach(1)

    store.version = 2  # a save on this node commits, and tells the registry
    registry.invalidate({"t"})
    after = asyncio.create_task(registry.view(store, "t"))
    await store.reads_reach(2)
    store.gate.set()

    assert (await before).key == (1, 0, 0)  # begun before the change: either answer is right
    assert (await after).key == (2, 0, 0)  # begun after it: must see it
    assert store.reads == 2
    assert (await registry.view(store, "t")).key == (2, 0, 0)
    assert store.reads == 2  # the read begun after the change is the one kept


async def test_a_failed_refresh_leaves_the_next_caller_to_read_again() -> None:
    clock, store = Clock(), SlowStore()
    registry = Registry(DiskTools(), version_ttl_s=1.0, clock=clock)
    await registry.view(store, "t")
    clock.now += 2.0
    store.fail_next = True

    with pytest.raises(ConnectionError):
        await registry.view(store, "t")
    store.version = 2
    assert (await registry.view(store, "t")).key == (2, 0, 0)  # not the stale copy: read again
    assert store.reads == 3
