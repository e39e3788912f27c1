"""Micro-figures of the sandbox beside their physical anchor, a raw pipe's round trip.

    python -m benchmarks.micro [--calls 1000] [--rounds 5]

Every row runs ``--calls`` calls in each of ``--rounds`` rounds, the rows taking turns within a
round, so a machine that speeds up or slows down meets every row alike; p50 and p99 are over all
rounds, and each p50 is printed as a multiple of the anchor's:

  raw pipe            a frame to a child process and back, blocking reads on both ends (the
                      anchor: two context switches and four syscalls, no event loop)
  raw pipe, asyncio   the same child, this end waiting on the event loop (``add_reader``)
  pool round trip     ``WorkerPool.request`` of a hardened RestrictedPython worker's ``ping``
  WASI call           a C word-count module run in this process on its cached artefact: a new
                      store, WASI, instantiate, ``_start``, JSON out (output as in a worker)
  WASI, worker pool   the same module through the hardened WASM worker pool (``WasmEngine``)
  WASI, need_source   a WASM worker's cheapest answer through ``WasmEngine``'s path: the pool's
                      round trip of that worker kind, for the row above to be read against
  Python in WASM      the Python runner in this process: a word-count file on a fresh instance
                      (the blank one kept ready between calls), and on its reused instance

Needs clang + wasi-libc for the C module and the built Python runner (``quiver wasm-runner``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from benchmarks import wasm as wasm_bench
from benchmarks.wasm import TEXT, build
from sandbox import channel
from sandbox.engine import Limits, Run, ToolSource
from sandbox.pool import PoolConfig, WorkerPool
from sandbox.wasm.engine import WasmEngine
from sandbox.wasm.python import build as runner_build
from sandbox.wasm.python.host import PythonRunner
from sandbox.wasm.runtime import WasmRuntime

ECHO = (
    "import sys\nfrom sandbox import channel\n"
    "while True:\n"
    "    try:\n        frame = channel.read_frame(0)\n    except EOFError:\n        break\n"
    "    channel.write_frame(1, frame)\n"
)
FRAME = {"op": "ping"}
# the targets, and the anchor they were set against (39-53 µs: its midpoint)
TARGETS = {
    "pool round trip": 60,
    "WASI call": 80,
    "Python in WASM, fresh": 800,
    "Python in WASM, reused": 100,
}
ANCHOR_THEN_US = 46.0


@dataclass
class Row:
    name: str
    run: Callable[[int], Awaitable[list[float]]]
    samples: list[float] = field(default_factory=list)


class Echo:
    """A child process that sends every frame back."""

    def __init__(self) -> None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {root!r})\n" + ECHO],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.w, self.r = self.proc.stdin.fileno(), self.proc.stdout.fileno()

    async def blocking(self, calls: int) -> list[float]:
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            channel.write_frame(self.w, FRAME)
            channel.read_frame(self.r)
            samples.append(time.perf_counter() - started)
        return samples

    async def on_the_loop(self, calls: int) -> list[float]:
        loop = asyncio.get_running_loop()
        os.set_blocking(self.r, False)
        buffer = bytearray()
        waiter: asyncio.Future[None] | None = None

        def readable() -> None:
            buffer.extend(os.read(self.r, 1 << 16))
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

        loop.add_reader(self.r, readable)
        samples = []
        try:
            for _ in range(calls):
                started = time.perf_counter()
                os.write(self.w, channel.encode(FRAME))
                while (
                    len(buffer) < channel.HEADER.size
                    or len(buffer) < channel.HEADER.size + (channel.HEADER.unpack_from(buffer)[0])
                ):
                    waiter = loop.create_future()
                    await waiter
                channel.loads(bytes(buffer[channel.HEADER.size :]))
                buffer.clear()
                samples.append(time.perf_counter() - started)
        finally:
            loop.remove_reader(self.r)
            os.set_blocking(self.r, True)
        return samples

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


class Stdio:
    """This process's fds 1 and 2 lent to a WASI runtime, as a worker's are, and given back."""

    def __enter__(self) -> None:
        sys.stdout.flush()
        self.saved = os.dup(1), os.dup(2)

    def __exit__(self, *_: object) -> None:
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        os.close(self.saved[0])
        os.close(self.saved[1])


async def measure(calls: int, rounds: int) -> list[Row]:
    echo = Echo()
    pool = WorkerPool(PoolConfig(size=1))
    await pool.start()
    module = build()
    wasm_pool = WorkerPool(PoolConfig(size=1, wasm=True, memory_bytes=(512 << 20) + (1 << 30)))
    engine = WasmEngine(wasm_pool)
    source = ToolSource("wasm", "wasm", module=module)
    await engine.inspect(source, "bench")
    limits = Limits(timeout_ms=2000, fuel=2_000_000_000, memory_bytes=64 << 20)
    context = {"tenant_id": "bench"}
    wasm_run = Run("bench", "wc", {"text": TEXT}, context, limits)
    runtime = WasmRuntime(process_stdio=True)  # fds 1 and 2 are its memory files from now on
    runtime.load("wc", runtime.compile(module))
    python = PythonRunner(str(runner_build.ensure()), WasmRuntime())

    async def pool_ping(n: int) -> list[float]:
        samples = []
        for _ in range(n):
            started = time.perf_counter()
            reply = await pool.request("bench", {"op": "ping"}, 1000)
            samples.append(time.perf_counter() - started)
            assert reply["ok"], reply
        return samples

    async def wasi(n: int) -> list[float]:
        return wasm_bench.cached(runtime, n)

    async def wasi_pooled(n: int) -> list[float]:
        samples = []
        for _ in range(n):
            started = time.perf_counter()
            result = await engine.run(source, wasm_run)
            samples.append(time.perf_counter() - started)
            assert result.ok, result
        return samples

    async def wasm_need_source(n: int) -> list[float]:
        request = {"op": "wasm_call", "key": "absent", "tenant": "bench"}
        samples = []
        for _ in range(n):
            started = time.perf_counter()
            reply = await wasm_pool.request("bench", request, 1000)
            samples.append(time.perf_counter() - started)
            assert reply.get("code") == "need_source", reply
        return samples

    async def python_fresh(n: int) -> list[float]:
        return wasm_bench.python_fresh(python, max(1, n // 4))  # ~10 reused calls' cost each

    async def python_reused(n: int) -> list[float]:
        return wasm_bench.python_reused(python, n)

    rows = [
        Row("raw pipe", echo.blocking),
        Row("raw pipe, asyncio", echo.on_the_loop),
        Row("pool round trip", pool_ping),
        Row("WASI call", wasi),
        Row("WASI, worker pool", wasi_pooled),
        Row("WASI, need_source", wasm_need_source),
        Row("Python in WASM, fresh", python_fresh),
        Row("Python in WASM, reused", python_reused),
    ]
    try:
        for row in rows:  # warm every path first
            await row.run(max(20, calls // 10))
        for _ in range(rounds):
            for row in rows:
                row.samples += await row.run(calls)
    finally:
        echo.close()
        await pool.close()
        await wasm_pool.close()
        runtime.close()
    return rows


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[int(0.99 * (len(ordered) - 1))] * 1e6


def report(rows: list[Row], calls: int, rounds: int) -> None:
    anchor = percentiles(rows[0].samples)[0]
    print(f"{calls} calls a row in each of {rounds} alternating rounds")
    print(f"{'path':>24} | {'p50':>9} | {'p99':>9} | vs pipe | target (then: pipe ~46 µs)")
    print("-" * 86)
    for row in rows:
        p50, p99 = percentiles(row.samples)
        target = TARGETS.get(row.name)
        goal = f"≤ {target} µs, {target / ANCHOR_THEN_US:.2f}x pipe" if target else ""
        print(f"{row.name:>24} | {p50:6.0f} µs | {p99:6.0f} µs | {p50 / anchor:6.2f}x | {goal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with Stdio():  # the WASI row's runtime takes them over, as in a worker
        rows = asyncio.run(measure(args.calls, args.rounds))
    report(rows, args.calls, args.rounds)


if __name__ == "__main__":
    main()
