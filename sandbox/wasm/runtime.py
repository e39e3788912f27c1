"""WASI modules under wasmtime: compile once, run each call in a fresh ``Store``.

One ``WasmRuntime`` per process (meant for a sandbox worker: create it *before* the worker drops
privileges, since its epoch ticker is a thread and ``RLIMIT_NPROC`` 0 forbids new ones). Fuel
and epoch interruption are always on; the memory reservation is small enough to work under the
worker's ``RLIMIT_AS``.

A call: a fresh ``Store`` with WASI and nothing else — no preopened directories, no environment,
no arguments, no sockets. The request JSON is the module's stdin (a pipe, ``/proc/self/fd``) and
one JSON value is expected on stdout. Stdout and stderr are captured in memory, bounded: a
module that floods stdout fails with ``result_too_large`` (a non-blocking pipe does not work
here: WASI's ``fd_write`` waits for a full pipe, where no deadline can reach it). Stderr's tail
is kept for the developer's test output and never shown to the model.

Failure codes: ``out_of_fuel``, ``timeout`` (epoch deadline), ``memory_limit``, ``trap`` (with
the trap message), ``exit_code`` (non-zero exit), ``malformed_output``, ``result_too_large``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import wasmtime

TICK_S = 0.01  # epoch granularity: deadlines are honoured to about this
PIPE_BYTES = 1 << 20  # the largest pipe the kernel grants unprivileged processes by default
STDERR_TAIL = 4096
MAX_ARTEFACTS = 256
DEFAULT_FUEL = 2_000_000_000  # ~0.2 s of straight-line code at ~12 G units/s
F_SETPIPE_SZ = 1031
HOST_FRAME_BYTES = 1 << 20  # the same bound as the RestrictedPython tier's host frames
MAX_LOG_LINES = 200
LOG_LEVELS = ("debug", "info", "warning", "error")


class WasmModuleError(ValueError):
    """The module cannot be used: invalid, or missing what a tool needs."""


@dataclass(frozen=True)
class WasmLimits:
    timeout_ms: int = 5_000
    fuel: int = DEFAULT_FUEL
    memory_bytes: int = 64 * 1024 * 1024
    output_bytes: int = 64 * 1024
    max_host_calls: int = 20


@dataclass(frozen=True)
class WasmOutcome:
    ok: bool
    value: Any = None
    code: str | None = None
    message: str | None = None
    stderr: str = ""
    duration_ms: float = 0.0
    logs: tuple[str, ...] = ()
    updates: dict[str, Any] = field(default_factory=dict)


class WasmRuntime:
    def __init__(self, memory_reservation: int = 64 << 20) -> None:
        config = wasmtime.Config()
        config.consume_fuel = True
        config.epoch_interruption = True
        config.memory_reservation = memory_reservation
        config.memory_guard_size = 64 << 10
        config.parallel_compilation = False  # no compiler threads in a worker
        config.memory_init_cow = False  # no memfd per module: workers may hold only a few fds
        self.config_key = f"fuel+epoch;reserve={memory_reservation};guard=65536;cow=off"
        self.engine = wasmtime.Engine(config)
        self.linker = wasmtime.Linker(self.engine)
        self.linker.define_wasi()
        self._define_host_calls()
        self._call: HostCalls | None = None
        self.compilations = 0  # counted so tests can prove a call never compiles
        self._modules: OrderedDict[str, wasmtime.Module] = OrderedDict()
        self._ticked = [self.engine]
        self._ticker = threading.Thread(target=self._tick, name="wasm-epoch", daemon=True)
        self._stop = threading.Event()
        self._ticker.start()

    def _define_host_calls(self) -> None:
        """The ``quiver`` imports (``sandbox/wasm/quiver.h``): ``call(ptr, len) -> n`` hands a
        JSON request ``{"module", "method", "args"}`` to the host and returns the length of the
        JSON reply ``{"ok", "value"|"error"}`` (negative: refused); ``read(ptr, cap) -> n`` copies
        that reply into the module's memory."""
        i32 = wasmtime.ValType.i32()

        def call(caller: wasmtime.Caller, ptr: int, length: int) -> int:
            state = self._call
            memory = caller["memory"]
            if state is None or not isinstance(memory, wasmtime.Memory):
                return -1
            if length < 0 or length > HOST_FRAME_BYTES or ptr < 0:
                state.reply = b'{"ok": false, "error": "request too large"}'
                return len(state.reply)
            raw = bytes(memory.read(caller, ptr, ptr + length))
            state.reply = json.dumps(state.handle(raw), separators=(",", ":")).encode()
            return len(state.reply)

        def read(caller: wasmtime.Caller, ptr: int, cap: int) -> int:
            state = self._call
            memory = caller["memory"]
            if state is None or not isinstance(memory, wasmtime.Memory) or cap < len(state.reply):
                return -1
            memory.write(caller, state.reply, ptr)
            return len(state.reply)

        signature = wasmtime.FuncType([i32, i32], [i32])
        self.linker.define_func("quiver", "call", signature, call, access_caller=True)
        self.linker.define_func("quiver", "read", signature, read, access_caller=True)

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            for engine in self._ticked:
                engine.increment_epoch()

    def tick_also(self, engine: wasmtime.Engine) -> None:
        """Give another engine (the Python runner's) the same epoch clock, so its deadlines are
        honoured without a second thread."""
        self._ticked.append(engine)

    def close(self) -> None:
        self._stop.set()

    # compile once ------------------------------------------------------------------------------
    def compile(self, module: bytes) -> bytes:
        """Check and compile a module; the serialised artefact to cache. Raises
        ``WasmModuleError`` naming what is wrong."""
        try:
            compiled = wasmtime.Module(self.engine, module)
        except wasmtime.WasmtimeError as exc:
            raise WasmModuleError(f"not a valid WebAssembly module: {_first_line(exc)}") from None
        self.compilations += 1
        exports = {e.name: e.type for e in compiled.exports}
        if not isinstance(exports.get("_start"), wasmtime.FuncType):
            raise WasmModuleError(
                "the module exports no `_start` function: build it as a WASI command "
                "(e.g. `clang --target=wasm32-wasi`)"
            )
        if not isinstance(exports.get("memory"), wasmtime.MemoryType):
            raise WasmModuleError("the module exports no `memory`")
        for imported in compiled.imports:
            if imported.module not in ("wasi_snapshot_preview1", "quiver"):
                raise WasmModuleError(
                    f"the module imports {imported.module}.{imported.name}; only WASI "
                    "(wasi_snapshot_preview1) and the quiver host functions are provided"
                )
        return compiled.serialize()

    def load(self, key: str, artefact: bytes) -> None:
        """Keep a compiled artefact (from ``compile``, possibly on another process) ready."""
        self._modules[key] = wasmtime.Module.deserialize(self.engine, artefact)
        self._modules.move_to_end(key)
        while len(self._modules) > MAX_ARTEFACTS:
            self._modules.popitem(last=False)

    def has(self, key: str) -> bool:
        return key in self._modules

    # run each call fresh -------------------------------------------------------------------------
    def run(
        self,
        key: str,
        request: bytes,
        limits: WasmLimits,
        host: Callable[[str, str, dict[str, Any]], Any] | None = None,
    ) -> WasmOutcome:
        """Run a loaded module once. ``host(module, method, args)`` serves ``http`` calls (the
        worker forwards them to the server, which applies the egress policy); ``logger`` and
        ``context`` calls are kept here and come back with the outcome."""
        try:
            self._call = HostCalls(host, limits.max_host_calls)
            outcome = self._run(key, request, limits)
            return dataclasses.replace(
                outcome, logs=tuple(self._call.logs), updates=dict(self._call.updates)
            )
        finally:
            self._call = None

    def _run(self, key: str, request: bytes, limits: WasmLimits) -> WasmOutcome:
        module = self._modules[key]
        self._modules.move_to_end(key)
        started = time.perf_counter()
        if len(request) > PIPE_BYTES:
            return _fail("malformed_output", "the request is larger than 1 MiB", started)
        out, err = _Capture(limits.output_bytes + 1), _Capture(STDERR_TAIL, keep_tail=True)
        stdin_r, stdin_w = os.pipe()
        try:
            with contextlib.suppress(OSError):
                fcntl.fcntl(stdin_w, F_SETPIPE_SZ, PIPE_BYTES)
            os.write(stdin_w, request)
            os.close(stdin_w)
            stdin_w = -1
            wasi = wasmtime.WasiConfig()
            wasi.stdin_file = f"/proc/self/fd/{stdin_r}"
            wasi.stdout_custom = out.write
            wasi.stderr_custom = err.write
            store = wasmtime.Store(self.engine)
            store.set_wasi(wasi)
            store.set_fuel(limits.fuel)
            store.set_epoch_deadline(max(1, int(limits.timeout_ms / 1000 / TICK_S)))
            store.set_limits(memory_size=limits.memory_bytes)
            exit_code, instance = 0, None
            try:
                instance = self.linker.instantiate(store, module)
                instance.exports(store)["_start"](store)
            except wasmtime.ExitTrap as exc:
                exit_code = exc.code
            except wasmtime.Trap as exc:
                if out.overflowed:  # stopped while flooding stdout: that is the failure
                    return _too_large(limits, started, err.text)
                if _at_memory_cap(store, instance, limits):
                    return _fail("memory_limit", _memory_message(limits), started, err.text)
                return _trap(exc, err.text, started)
            except wasmtime.WasmtimeError as exc:
                return _fail("trap", _first_line(exc), started, err.text)
        finally:
            for fd in (stdin_r, stdin_w):
                if fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)
        if out.overflowed:
            return _too_large(limits, started, err.text)
        if exit_code != 0:
            if _at_memory_cap(store, instance, limits):
                return _fail("memory_limit", _memory_message(limits), started, err.text)
            return _fail(
                "exit_code", f"the module exited with status {exit_code}", started, err.text
            )
        try:
            value = json.loads(out.data)
        except ValueError as exc:
            return _fail(
                "malformed_output", f"stdout is not one JSON value: {exc}", started, err.text
            )
        return WasmOutcome(True, value, stderr=err.text, duration_ms=_ms(started))


class HostCalls:
    """One call's host-side state: the pending reply, logs, context updates, the call budget.
    Shared by WASI modules and the Python runner (whose guest sends only ``http``)."""

    def __init__(self, host: Callable[[str, str, dict[str, Any]], Any] | None, budget: int) -> None:
        self.host = host
        self.budget = budget
        self.reply = b""
        self.logs: list[str] = []
        self.updates: dict[str, Any] = {}

    def handle(self, raw: bytes) -> dict[str, Any]:
        try:
            request = json.loads(raw)
            module, method = str(request["module"]), str(request["method"])
            args = request.get("args") or {}
            if not isinstance(args, dict):
                raise ValueError("args must be an object")
        except (ValueError, KeyError, TypeError) as exc:
            return {"ok": False, "error": f"malformed host request: {exc}"}
        if module == "logger" and method in LOG_LEVELS:
            if len(self.logs) < MAX_LOG_LINES:
                self.logs.append(f"{method}: {str(args.get('message', ''))[:2000]}")
            return {"ok": True, "value": None}
        if module == "context" and method == "update":
            if len(json.dumps(self.updates | args)) > HOST_FRAME_BYTES:
                return {"ok": False, "error": "context updates too large"}
            self.updates.update(args)
            return {"ok": True, "value": None}
        if module != "http" or self.host is None:
            return {"ok": False, "error": f"no host module {module!r}"}
        if self.budget <= 0:
            return {"ok": False, "error": "too many host calls in one call"}
        self.budget -= 1
        try:
            return {"ok": True, "value": self.host(module, method.upper(), args)}
        except Exception as exc:  # refused by policy, or failed: the module gets the reason
            return {"ok": False, "error": str(exc)[:500]}


class _Capture:
    """A WASI output stream kept in memory up to a bound (stdout: the head; stderr: the tail)."""

    def __init__(self, limit: int, keep_tail: bool = False) -> None:
        self.limit = limit
        self.keep_tail = keep_tail
        self.chunks = bytearray()
        self.overflowed = False

    def write(self, data: bytes) -> None:
        if self.keep_tail:
            self.chunks += data
            del self.chunks[: max(0, len(self.chunks) - self.limit)]
        elif len(self.chunks) + len(data) >= self.limit:
            self.overflowed = True
            self.chunks += data[: max(0, self.limit - len(self.chunks))]
        else:
            self.chunks += data

    @property
    def data(self) -> bytes:
        return bytes(self.chunks)

    @property
    def text(self) -> str:
        return self.chunks.decode(errors="replace")


def _too_large(limits: WasmLimits, started: float, stderr: str) -> WasmOutcome:
    return _fail(
        "result_too_large",
        f"the module wrote more than {limits.output_bytes} bytes to stdout",
        started,
        stderr,
    )


def _at_memory_cap(store: wasmtime.Store, instance: Any, limits: WasmLimits) -> bool:
    """Did the module fail with its memory grown to the cap? (A refused ``memory.grow``
    returns -1 rather than trapping, so this is how running out of memory shows.)"""
    if instance is None:
        return False
    memory = instance.exports(store).get("memory")
    if not isinstance(memory, wasmtime.Memory):
        return False
    # a refused grow can ask for many pages at once: "near the cap" is the best evidence
    return memory.data_len(store) >= limits.memory_bytes * 0.85


def _memory_message(limits: WasmLimits) -> str:
    return f"the module needed more than its {limits.memory_bytes // (1 << 20)} MiB of memory"


def _trap(exc: wasmtime.Trap, stderr: str, started: float) -> WasmOutcome:
    code = exc.trap_code
    if code == wasmtime.TrapCode.OUT_OF_FUEL:
        return _fail(
            "out_of_fuel", "the module ran out of fuel (too much computation)", started, stderr
        )
    if code == wasmtime.TrapCode.INTERRUPT:
        return _fail("timeout", "the module ran past its deadline", started, stderr)
    message = _first_line(exc)
    if code == wasmtime.TrapCode.MEMORY_OUT_OF_BOUNDS or "memory" in message.lower():
        return _fail("memory_limit", f"memory: {message}", started, stderr)
    return _fail("trap", message, started, stderr)


def _fail(code: str, message: str, started: float, stderr: str = "") -> WasmOutcome:
    return WasmOutcome(False, code=code, message=message, stderr=stderr, duration_ms=_ms(started))


def _first_line(exc: BaseException) -> str:
    """The cause of a wasmtime error without its backtrace (the last line that says why)."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if "Caused by:" in lines:
        lines = lines[lines.index("Caused by:") + 1 :]
    return (lines[-1] if lines else type(exc).__name__)[:500]


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
