"""The worker pool: caching, isolation between tenants, fairness and bounded waits."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys

import pytest

from sandbox import channel
from sandbox.engine import Limits, Run, ToolSource
from sandbox.pool import BUFFER_CAP, PoolConfig, WorkerProcess
from sandbox.restricted.engine import RestrictedEngine
from tests.sandbox.conftest import run, tool_file

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_a_warm_call_does_not_load_the_file_again() -> None:
    engine = RestrictedEngine(PoolConfig(size=1))
    source = tool_file("out = 'x'", name="cached_tool")
    try:
        await run(engine, source, tenant="cache", tool="cached_tool")
        before = await engine.pool.request("cache", {"op": "ping"}, 1000)
        for _ in range(5):
            await run(engine, source, tenant="cache", tool="cached_tool")
        after = await engine.pool.request("cache", {"op": "ping"}, 1000)
    finally:
        await engine.close()

    assert before["loads"] == 1
    assert after["loads"] == 1


async def test_module_state_never_reaches_another_tenant(engine) -> None:
    source = tool_file("STATE.append(1)\nout = len(STATE)", name="counter", header="STATE = []")
    engine_single = RestrictedEngine(PoolConfig(size=1))
    try:
        first_a = await run(engine_single, source, tenant="a", tool="counter")
        second_a = await run(engine_single, source, tenant="a", tool="counter")
        first_b = await run(engine_single, source, tenant="b", tool="counter")
    finally:
        await engine_single.close()

    assert (first_a.value["message"], second_a.value["message"]) == ("1", "2")
    assert first_b.value["message"] == "1"


async def test_random_is_reseeded_for_every_call(engine) -> None:
    seeder = tool_file("import random\nrandom.seed(42)\nout = random.random()")
    reader = tool_file("import random\nout = random.random()")

    seeded = await run(engine, seeder, tenant="a")
    later = [await run(engine, reader, tenant="b") for _ in range(3)]

    values = {r.value["message"] for r in later}
    assert seeded.value["message"] not in values
    assert len(values) == 3


async def test_a_tools_own_seed_holds_for_the_rest_of_its_call(engine) -> None:
    source = tool_file(
        "import random\nrandom.seed(7)\nout = [random.random(), random.randint(1, 99)]"
    )
    expected = random.Random(7)

    first = await run(engine, source, tenant="a")
    again = await run(engine, source, tenant="a")

    assert first.value["message"] == again.value["message"]
    assert first.value["message"] == str([expected.random(), expected.randint(1, 99)])


async def test_one_tenant_cannot_hold_every_worker(engine) -> None:
    sleeper = tool_file("import time\ntime.sleep(0.6)\nout = 'slept'")
    quick = tool_file("out = 'quick'")

    hog = [asyncio.create_task(run(engine, sleeper, tenant="hog")) for _ in range(4)]
    await asyncio.sleep(0.1)
    other = await asyncio.wait_for(run(engine, quick, tenant="polite"), 0.5)
    results = await asyncio.gather(*hog)

    assert other.ok and other.value["message"] == "quick"
    assert all(r.ok for r in results)  # queued within the bounded wait, then run


async def test_waiting_past_the_bound_is_busy() -> None:
    engine = RestrictedEngine(PoolConfig(size=1, queue_wait_ms=200))
    sleeper = tool_file("import time\ntime.sleep(0.8)\nout = 'slept'")
    try:
        first = asyncio.create_task(run(engine, sleeper, tenant="a"))
        await asyncio.sleep(0.3)
        second = await run(engine, tool_file("out = 1"), tenant="a")
        other = await run(engine, tool_file("out = 1"), tenant="b")
        assert (await first).ok
    finally:
        await engine.close()

    assert second.code == "busy"
    assert other.code == "busy"  # the only worker was taken; b waited its bound too


async def test_host_calls_are_bounded_per_call(engine) -> None:
    calls = []

    async def host(module: str, method: str, args: dict) -> dict:
        calls.append(args)
        return {"status": 200}

    source = tool_file(
        "n = 0\nfor i in range(50):\n    try:\n        context.modules.http.get('http://x/' + str(i))\n        n += 1\n    except Exception:\n        pass\nout = n"
    )

    result = await engine.run(
        ToolSource("python", "restricted", source),
        Run("h", "t", {}, {"tenant_id": "h"}, Limits(), host),
    )

    assert result.ok and result.value["message"] == "20"
    assert len(calls) == 20


async def test_a_killed_worker_is_replaced_and_the_next_call_works(engine) -> None:
    spawned = engine.pool.stats.spawned

    timed_out = await run(engine, tool_file("while True:\n    pass"), tenant="loop", timeout_ms=300)
    after = await run(engine, tool_file("out = 'alive'"), tenant="loop")

    async with asyncio.timeout(10):
        while engine.pool.stats.spawned < spawned + 1:  # noqa: ASYNC110 - the respawn runs in the pool
            await asyncio.sleep(0.02)

    assert timed_out.code == "timeout"
    assert after.ok and after.value["message"] == "alive"
    assert engine.pool.stats.killed >= 1


async def test_a_dead_worker_is_replaced_by_a_warm_spare_at_once() -> None:
    """A restart never leaves callers waiting for a process to start: the spare serves at once,
    and a fresh spare is started behind it."""
    engine = RestrictedEngine(PoolConfig(size=1, spares=1))
    spinner = tool_file("while True:\n    pass")
    quick = tool_file("out = 'ok'")
    try:
        await engine.pool.start()
        spare = engine.pool.spare_pids[0]
        killed = await run(engine, spinner, tenant="bomber", timeout_ms=300)
        serving_at_once = engine.pool.idle_pids  # before anything was awaited for a respawn
        after = await run(engine, quick, tenant="victim")
        async with asyncio.timeout(15):
            await engine.pool.spares_full()
        new_spares = engine.pool.spare_pids
    finally:
        await engine.close()

    assert killed.code == "timeout"
    assert serving_at_once == [spare]
    assert after.ok and after.value["message"] == "ok"
    assert len(new_spares) == 1 and new_spares[0] != spare


async def test_a_worker_is_replaced_when_its_call_budget_is_spent() -> None:
    """Every N requests a fresh process takes a worker's place (``QUIVER_WORKER_MAX_CALLS``),
    without charging the caller's tenant a restart (its budget here is one)."""
    engine = RestrictedEngine(PoolConfig(size=1, spares=0, max_calls_per_worker=3, restart_burst=1))
    quick = tool_file("out = 'ok'")
    pids: set[int] = set()
    try:
        results = []
        for _ in range(12):
            results.append(await run(engine, quick, tenant="steady"))
            pids.update(engine.pool.idle_pids)
    finally:
        await engine.close()

    assert all(r.ok and r.value["message"] == "ok" for r in results)  # no restart refused
    assert len(pids) >= 4  # 12 calls, at most 3 requests per process
    assert engine.pool.stats.spawned >= 4


async def test_without_spares_the_place_waits_for_the_respawn() -> None:
    engine = RestrictedEngine(PoolConfig(size=1, spares=0))
    spinner = tool_file("while True:\n    pass")
    quick = tool_file("out = 'ok'")
    try:
        killed = await run(engine, spinner, tenant="bomber", timeout_ms=300)
        serving_at_once = engine.pool.idle_pids
        after = await run(engine, quick, tenant="victim")  # waits for the new worker
    finally:
        await engine.close()

    assert killed.code == "timeout" and serving_at_once == []
    assert after.ok


async def test_a_worker_writing_unasked_is_not_read_past_a_bound() -> None:
    """A worker (escaped, say) that floods its reply pipe between requests cannot grow the
    server's memory: past ``BUFFER_CAP`` its output is no longer read (the pipe fills and the
    worker blocks), and the next request finds the junk a protocol error."""
    flood = "import os\nfor _ in range(128):\n    os.write(1, b'\\xff' * 65536)\n"
    proc = subprocess.Popen(  # noqa: ASYNC220 - fork+exec returns at once, as the pool's own
        [sys.executable, "-c", flood], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    worker = WorkerProcess(0, proc, {})
    stopped = asyncio.Event()
    read_off = worker._read_off

    def stop_reading() -> None:
        read_off()
        stopped.set()

    worker._read_off = stop_reading  # type: ignore[method-assign]
    try:
        await asyncio.wait_for(stopped.wait(), 30)
        buffered = len(worker._buffer)
        still_writing = proc.poll() is None
        with pytest.raises(channel.ChannelError):
            await worker._read(1 << 20)
    finally:
        await worker.stop()

    assert BUFFER_CAP < buffered <= BUFFER_CAP + 65536
    assert still_writing  # 8 MiB written: it waits on the pipe, not on the server's memory
