"""WASI modules compiled from C in the test run (Debian's clang, lld and wasi-libc), run by the
wasmtime runtime: results, every limit and failure code, and compile-once artefacts."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sandbox.engine import Limits, Run, ToolSource
from sandbox.pool import PoolConfig, WorkerPool
from sandbox.wasm.engine import WasmEngine
from sandbox.wasm.runtime import WasmLimits, WasmModuleError, WasmRuntime


@pytest.fixture(scope="module")
def runtime():
    wasm = WasmRuntime()
    yield wasm
    wasm.close()


def ready(runtime: WasmRuntime, module: bytes) -> str:
    key = str(hash(module))
    if not runtime.has(key):
        runtime.load(key, runtime.compile(module))
    return key


def test_word_count_returns_its_json(runtime, compiled) -> None:
    key = ready(runtime, compiled["word_count"])

    outcome = runtime.run(key, b'{"params": {"text": "the quick brown fox"}}', WasmLimits())

    assert outcome.ok and outcome.value == {"words": 4}, outcome


@pytest.mark.parametrize(
    ("mode", "limits", "code"),
    [
        ("loop", WasmLimits(fuel=50_000_000), "out_of_fuel"),
        ("loop", WasmLimits(fuel=10**15, timeout_ms=300), "timeout"),
        ("memory", WasmLimits(memory_bytes=8 << 20), "memory_limit"),
        ("trap", WasmLimits(), "trap"),
        ("exit", WasmLimits(), "exit_code"),
        ("flood", WasmLimits(output_bytes=64 * 1024), "result_too_large"),
        ("json", WasmLimits(), "malformed_output"),
    ],
)
def test_each_failure_has_its_code_in_time_and_the_next_call_works(
    runtime, compiled, mode: str, limits: WasmLimits, code: str
) -> None:
    key = ready(runtime, compiled["misbehave"])
    started = time.monotonic()

    failed = runtime.run(key, b'{"params": {"mode": "%s"}}' % mode.encode(), limits)
    took = time.monotonic() - started
    after = runtime.run(key, b'{"params": {"mode": "ok"}}', WasmLimits())

    assert not failed.ok and failed.code == code, failed
    assert took < limits.timeout_ms / 1000 + 1
    assert after.ok and after.value == {"ok": True}


async def test_in_a_worker_no_call_reads_what_the_last_one_wrote(compiled) -> None:
    # a worker's output files outlive its calls: each call must start them empty
    pool = WorkerPool(PoolConfig(size=1, wasm=True, base_uid=62_050, memory_bytes=(512 << 20) + (1 << 30)))  # fmt: skip
    engine = WasmEngine(pool)
    misbehave = ToolSource("wasm", "wasm", module=compiled["misbehave"])
    word_count = ToolSource("wasm", "wasm", module=compiled["word_count"])
    limits = Limits(timeout_ms=2000, fuel=2_000_000_000, memory_bytes=64 << 20)

    def run(tenant: str, params: dict) -> Run:
        return Run(tenant, "t", params, {"tenant_id": tenant}, limits)

    try:
        exited = await engine.run(misbehave, run("a", {"mode": "exit"}))  # stderr: giving up
        noisy = await engine.run(misbehave, run("a", {"mode": "json"}))  # 16 bytes of stdout
        counted = await engine.run(word_count, run("b", {"text": "one two"}))  # 12 bytes
    finally:
        await pool.close()

    assert exited.code == "exit_code" and "stderr: giving up" in exited.logs
    assert noisy.code == "malformed_output"
    assert counted.ok and counted.value == {"words": 2}, counted
    assert counted.logs == ()


def test_stderr_tail_is_kept_for_the_developer(runtime, compiled) -> None:
    key = ready(runtime, compiled["misbehave"])

    failed = runtime.run(key, b'{"params": {"mode": "exit"}}', WasmLimits())

    assert failed.code == "exit_code" and "giving up" in failed.stderr


def test_a_trap_says_what_trapped(runtime, compiled) -> None:
    key = ready(runtime, compiled["misbehave"])

    failed = runtime.run(key, b'{"params": {"mode": "trap"}}', WasmLimits())

    assert "unreachable" in failed.message


def test_compiled_once_then_every_call_reuses_the_artefact(compiled) -> None:
    wasm = WasmRuntime()
    artefact = wasm.compile(compiled["word_count"])
    other = WasmRuntime()  # e.g. another worker process: it deserialises, never compiles
    other.load("wc", artefact)

    results = [other.run("wc", b'{"params": {"text": "a b"}}', WasmLimits()) for _ in range(5)]

    assert wasm.compilations == 1 and other.compilations == 0
    assert all(r.ok and r.value == {"words": 2} for r in results)
    wasm.close()
    other.close()


def test_invalid_modules_are_refused_with_the_reason(runtime, compiled) -> None:
    import wasmtime

    reactor = wasmtime.wat2wasm('(module (memory (export "memory") 1) (func (export "run")))')
    importer = wasmtime.wat2wasm(
        '(module (import "env" "system" (func)) (memory (export "memory") 1)'
        ' (func (export "_start")))'
    )

    with pytest.raises(WasmModuleError, match="not a valid WebAssembly module"):
        runtime.compile(b"\0asm\x01\0\0\0garbage")
    with pytest.raises(WasmModuleError, match="no `_start`"):
        runtime.compile(reactor)
    with pytest.raises(WasmModuleError, match="env.system"):
        runtime.compile(importer)


def test_no_files_no_environment(runtime, compiled, tmp_path: Path) -> None:
    """WASI with no preopens: the module sees no directory, no variable, no argument."""
    import wasmtime

    probe = wasmtime.wat2wasm(
        """
        (module
          (import "wasi_snapshot_preview1" "environ_sizes_get" (func $env (param i32 i32) (result i32)))
          (import "wasi_snapshot_preview1" "fd_prestat_get" (func $pre (param i32 i32) (result i32)))
          (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
          (memory (export "memory") 1)
          (data (i32.const 100) "{\\"env\\": 0, \\"preopen\\": 0}")
          (func (export "_start")
            (drop (call $env (i32.const 0) (i32.const 4)))
            ;; write the count of variables as one digit into the JSON at offset 108
            (i32.store8 (i32.const 108) (i32.add (i32.const 48) (i32.load (i32.const 0))))
            ;; fd 3 would be the first preopened directory: errno 8 (badf) when there is none
            (i32.store8 (i32.const 122)
              (select (i32.const 48) (i32.const 49) (i32.eq (call $pre (i32.const 3) (i32.const 16)) (i32.const 8))))
            (i32.store (i32.const 200) (i32.const 100))
            (i32.store (i32.const 204) (i32.const 24))
            (drop (call $write (i32.const 1) (i32.const 200) (i32.const 1) (i32.const 300)))))
        """
    )
    os.environ["QUIVER_TEST_SECRET"] = "must not leak"
    key = "probe"
    runtime.load(key, runtime.compile(probe))

    outcome = runtime.run(key, b"{}", WasmLimits())

    assert outcome.ok and outcome.value == {"env": 0, "preopen": 0}, outcome
