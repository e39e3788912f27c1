"""The pool's idle workers (``sandbox.pool.IdleWorkers``): a request gets the worker that last
ran its tenant's calls when it can, any worker otherwise, and no worker is lost to a wait that
ends. (With real workers: the last test here, and tests/sandbox/test_pool.py.)"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from sandbox.engine import Limits, Run, ToolSource
from sandbox.pool import IdleWorkers, PoolConfig, WorkerProcess
from sandbox.restricted.engine import RestrictedEngine
from tests.sandbox.conftest import tool_file

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def until_waiting(idle: IdleWorkers, count: int) -> None:
    """Until ``count`` requests wait for a worker: each task started runs up to its wait on the
    loop's next turns (a bounded number of them)."""
    loop = asyncio.get_running_loop()
    for _ in range(100):
        if sum(not future.done() for _, future in idle._waiters) >= count:
            return
        turned = loop.create_future()
        loop.call_soon(turned.set_result, None)
        await turned
    raise AssertionError(f"{count} waiters never came")


def workers(*names: str) -> list[WorkerProcess]:
    return [cast(WorkerProcess, name) for name in names]  # only their identity is used


async def test_an_idle_preferred_worker_is_taken_else_the_longest_idle() -> None:
    a, b, c = workers("a", "b", "c")
    idle = IdleWorkers()
    for worker in (a, b, c):
        idle.put_nowait(worker)

    assert idle.get_nowait(c) is c
    assert idle.get_nowait(c) is a  # c is taken: the longest idle
    assert idle.get_nowait() is b and idle.empty()
    with pytest.raises(asyncio.QueueEmpty):
        idle.get_nowait()


async def test_a_freed_worker_goes_to_a_waiter_that_prefers_it_within_the_lookahead() -> None:
    a, b = workers("a", "b")
    idle = IdleWorkers()
    first = asyncio.ensure_future(idle.get())  # prefers none
    second = asyncio.ensure_future(idle.get(b))
    third = asyncio.ensure_future(idle.get(a))
    await until_waiting(idle, 3)

    idle.put_nowait(b)
    idle.put_nowait(b)  # (again: it is the only worker in this test)
    idle.put_nowait(a)

    assert (await second, await first, await third) == (b, b, a)


async def test_past_the_lookahead_the_first_waiter_is_served() -> None:
    (a,) = workers("a")
    idle = IdleWorkers()
    waiting = [asyncio.ensure_future(idle.get()) for _ in range(IdleWorkers.LOOKAHEAD)]
    late = asyncio.ensure_future(idle.get(a))
    await until_waiting(idle, IdleWorkers.LOOKAHEAD + 1)

    idle.put_nowait(a)

    assert await waiting[0] is a and not late.done()
    for task in (*waiting[1:], late):
        task.cancel()


async def test_a_wait_that_ends_loses_no_worker() -> None:
    (a,) = workers("a")
    idle = IdleWorkers()
    gave_up = asyncio.ensure_future(idle.get(a))
    await until_waiting(idle, 1)
    gave_up.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gave_up
    idle.put_nowait(a)  # the cancelled waiter is skipped

    assert gave_up.cancelled() and idle.get_nowait() is a


async def test_a_tenants_calls_go_back_to_the_worker_that_loaded_its_tools() -> None:
    """Two workers, three tenants taking turns: each tenant's tool is loaded once, by one
    worker — without affinity, the workers take turns too, and each loads every tenant's."""
    engine = RestrictedEngine(PoolConfig(size=2, spares=0))
    source = ToolSource("python", "restricted", tool_file("out = 'x'", name="t"))
    tenants = ["x", "y", "z"]

    def one(tenant: str) -> Any:
        return engine.run(source, Run(tenant, "t", {}, {}, Limits(timeout_ms=5000)))

    try:
        for _ in range(5):
            for tenant in tenants:  # one at a time: a tenant's worker is always idle
                assert (await one(tenant)).ok
        both = engine.pool._idle.workers
        loads = [(await w.request({"op": "ping"}, None, engine.pool.config))["loads"] for w in both]
    finally:
        await engine.close()

    assert len(both) == 2 and sum(loads) == len(tenants)  # without affinity: [3, 3]
