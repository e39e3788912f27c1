"""WASM tier benchmark (WASI modules from C).

    python -m benchmarks.wasm [--calls 500]

Per-call latency of a C word-count tool, measured in one run:
  (a) cached artefact   ``WasmRuntime.run`` on a deserialised module (fresh Store + WASI each call)
  (b) compile per call  ``Module(engine, bytes)`` + the same run — the baseline a cache avoids
  (c) worker pool       through the hardened WASM worker pool the server uses (channel included)
Needs Debian's clang, lld and wasi-libc to build the tool.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from sandbox.engine import Limits, ToolSource
from sandbox.restricted.pool import PoolConfig, WorkerPool
from sandbox.wasm.engine import WasmEngine
from sandbox.wasm.runtime import WasmLimits, WasmRuntime

SOURCE = Path(__file__).resolve().parent.parent / "tests" / "sandbox" / "wasm" / "word_count.c"
REQUEST = b'{"params": {"text": "the quick brown fox jumps over the lazy dog"}}'


def build() -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "wc.wasm"
        subprocess.run(
            ["clang", "--target=wasm32-wasi", "-O2", "-o", str(target), str(SOURCE)], check=True
        )
        return target.read_bytes()


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[int(0.99 * (len(ordered) - 1))] * 1e6


def cached(runtime: WasmRuntime, calls: int) -> list[float]:
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        outcome = runtime.run("wc", REQUEST, WasmLimits())
        samples.append(time.perf_counter() - started)
        assert outcome.ok, outcome
    return samples


def compiling(runtime: WasmRuntime, module: bytes, calls: int) -> list[float]:
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        runtime.load("fresh", runtime.compile(module))
        outcome = runtime.run("fresh", REQUEST, WasmLimits())
        samples.append(time.perf_counter() - started)
        assert outcome.ok, outcome
    return samples


async def pooled(module: bytes, calls: int) -> list[float]:
    pool = WorkerPool(PoolConfig(size=1, wasm=True, memory_bytes=(512 << 20) + (1 << 30)))
    engine = WasmEngine(pool)
    source = ToolSource("wasm", "wasm", module=module)
    await engine.check(source, "bench")
    limits = Limits(timeout_ms=2000, fuel=2_000_000_000, memory_bytes=64 << 20)
    context = {"tenant_id": "bench"}
    params = {"text": "the quick brown fox jumps over the lazy dog"}
    for _ in range(20):
        await engine.run(source, "wc", params, context, limits)
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        result = await engine.run(source, "wc", params, context, limits)
        samples.append(time.perf_counter() - started)
        assert result.ok, result
    await pool.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()
    module = build()
    runtime = WasmRuntime()
    runtime.load("wc", runtime.compile(module))
    cached(runtime, 50)
    rows = [
        ("cached artefact", stats(cached(runtime, args.calls))),
        ("compile per call", stats(compiling(runtime, module, max(20, args.calls // 10)))),
        ("worker pool", stats(asyncio.run(pooled(module, args.calls)))),
    ]
    base = rows[0][1][0]
    print(f"C word-count tool ({len(module):,} bytes), {args.calls} calls")
    print(f"{'path':>18} | {'p50':>9} | {'p99':>9} | p50 vs cached")
    print("-" * 56)
    for name, (p50, p99) in rows:
        print(f"{name:>18} | {p50:6.0f} µs | {p99:6.0f} µs | {p50 / base:6.2f}x")
    runtime.close()


if __name__ == "__main__":
    main()
