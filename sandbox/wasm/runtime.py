"""WASI modules under wasmtime: compile once, run each call in a fresh ``Store``.

One ``WasmRuntime`` per process (meant for a sandbox worker: create it *before* the worker drops
privileges, since its epoch ticker is a thread and ``RLIMIT_NPROC`` 0 forbids new ones). Fuel
and epoch interruption are always on; the memory reservation is small enough to work under the
worker's ``RLIMIT_AS``.

A call: a fresh ``Store`` with WASI and nothing else — no preopened directories, no environment,
no arguments, no sockets. The request JSON is the module's stdin (from memory) and one JSON value
is expected on stdout. Stdout and stderr are captured in memory, bounded: in a worker, two memory
files under the worker's ``RLIMIT_FSIZE`` as its fds 1 and 2; elsewhere, Python callbacks
(slower). A module that floods stdout fails with ``result_too_large`` (a pipe would not do:
WASI's ``fd_write`` waits for a full pipe, where no deadline can reach it). Stderr's tail is
kept for the developer's test output and never shown to the model.

Failure codes: ``out_of_fuel``, ``timeout`` (epoch deadline), ``memory_limit``, ``trap`` (with
the trap message), ``exit_code`` (non-zero exit), ``malformed_output``, ``result_too_large``.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import wasmtime
from wasmtime import _ffi as ffi
from wasmtime._func import maybe_raise_last_exn

TICK_S = 0.01  # epoch granularity: deadlines are honoured to about this
MAX_REQUEST_BYTES = 1 << 20
STDERR_TAIL = 4096
MAX_ARTEFACTS = 256
DEFAULT_FUEL = 2_000_000_000  # ~0.2 s of straight-line code at ~12 G units/s
START = b"_start"
HOST_FRAME_BYTES = 1 << 20  # the same bound as the RestrictedPython tier's host frames
MAX_LOG_LINES = 200
LOG_LEVELS = ("debug", "info", "warning", "error")
HOST_MODULES = (
    "http",
    "llm",
    "knowledge_base",
    "context",  # context.emit (context.update stays here)
    "tools",  # a code-mode program's calls of its session's tools
)  # forwarded to the server, which applies its policy


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
    def __init__(self, memory_reservation: int = 64 << 20, process_stdio: bool = False) -> None:
        """``process_stdio``: this process's fds 1 and 2 are free for each call's output (a
        worker's); otherwise output goes through Python callbacks."""
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
        self._output = _ProcessStdio() if process_stdio else _Callbacks()
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
        return bytes(compiled.serialize())

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
            calls = self._call = HostCalls(host, limits.max_host_calls)
            outcome = self._run(key, request, limits)
            if calls.logs or calls.updates:
                outcome = dataclasses.replace(
                    outcome, logs=tuple(calls.logs), updates=dict(calls.updates)
                )
            return outcome
        finally:
            self._call = None

    def _run(self, key: str, request: bytes, limits: WasmLimits) -> WasmOutcome:
        module = self._modules[key]
        self._modules.move_to_end(key)
        started = time.perf_counter()
        if len(request) > MAX_REQUEST_BYTES:
            return _fail("malformed_output", "the request is larger than 1 MiB", started)
        wasi = wasmtime.WasiConfig()
        _stdin_bytes(wasi, request)
        store = wasmtime.Store(self.engine)
        try:
            with self._output.capture(wasi, limits.output_bytes) as output:
                return self._start(store, module, wasi, output, limits, started)
        finally:  # freed at once, whatever the ending: a trapped store waits for the GC otherwise
            store.close()

    def _start(
        self,
        store: wasmtime.Store,
        module: wasmtime.Module,
        wasi: wasmtime.WasiConfig,
        output: _ProcessStdio | _Callbacks,
        limits: WasmLimits,
        started: float,
    ) -> WasmOutcome:
        store.set_wasi(wasi)
        store.set_fuel(limits.fuel)
        store.set_epoch_deadline(max(1, int(limits.timeout_ms / 1000 / TICK_S)))
        store.set_limits(memory_size=limits.memory_bytes)
        exit_code, instance = 0, None
        try:
            instance = self.linker.instantiate(store, module)
            _call_start(store, instance)
        except wasmtime.ExitTrap as exc:
            exit_code = exc.code
        except wasmtime.Trap as exc:
            if output.overflowed():  # stopped while flooding stdout: that is the failure
                return _too_large(limits, started, output.stderr())
            if _at_memory_cap(store, instance, limits):
                return _fail("memory_limit", _memory_message(limits), started, output.stderr())
            return _trap(exc, output.stderr(), started)
        except wasmtime.WasmtimeError as exc:
            return _fail("trap", _first_line(exc), started, output.stderr())
        if output.overflowed():
            return _too_large(limits, started, output.stderr())
        if exit_code != 0:
            if _at_memory_cap(store, instance, limits):
                return _fail("memory_limit", _memory_message(limits), started, output.stderr())
            return _fail(
                "exit_code", f"the module exited with status {exit_code}", started, output.stderr()
            )
        try:
            value = json.loads(output.stdout())
        except ValueError as exc:
            return _fail(
                "malformed_output", f"stdout is not one JSON value: {exc}", started, output.stderr()
            )
        return WasmOutcome(True, value, stderr=output.stderr(), duration_ms=_ms(started))


def _call_start(store: wasmtime.Store, instance: wasmtime.Instance) -> None:
    """Call the module's ``_start`` through wasmtime's C API, raising what ``Func.__call__``
    would (``ExitTrap``, ``Trap``, ``WasmtimeError``). wasmtime-py's way reads every export
    into Python objects and the function's type before the call: ~40 % of a call's time
    outside the module, for a module that exports ``memory`` and ``_start``."""
    context = store._context()
    item = ffi.wasmtime_extern_t()
    found = ffi.wasmtime_instance_export_get(
        context, ctypes.byref(instance._instance), START, len(START), ctypes.byref(item)
    )
    kind = cast(int, item.kind)  # a c_uint8 field reads as an int
    if not found or kind != ffi.WASMTIME_EXTERN_FUNC.value:
        raise WasmModuleError("the module's _start is not a function")
    trap = ctypes.POINTER(ffi.wasm_trap_t)()
    error = ffi.wasmtime_func_call(
        context, ctypes.byref(item.of.func), None, 0, None, 0, ctypes.byref(trap)
    )
    if error or trap:
        failure = (
            wasmtime.WasmtimeError._from_ptr(error)  # an ExitTrap when the module exited
            if error
            else wasmtime.Trap._from_ptr(trap)
        )
        maybe_raise_last_exn()  # a host function's own exception, as Func.__call__ raises it
        raise failure


def _stdin_bytes(wasi: wasmtime.WasiConfig, data: bytes) -> None:
    """The request as stdin, from memory (wasmtime-py wraps only file stdin; its C API takes
    bytes, and avoiding a pipe and a file saves ~50 µs a call)."""
    vec = ffi.wasm_byte_vec_t()
    ffi.wasm_byte_vec_new(
        ctypes.byref(vec), len(data), (ctypes.c_ubyte * len(data)).from_buffer_copy(data)
    )
    ffi.wasi_config_set_stdin_bytes(wasi.ptr(), ctypes.byref(vec))


class _ProcessStdio:
    """Stdout and stderr as memory files that are the process's own fds 1 and 2, and WASI told
    to inherit them — far cheaper than callbacks (~190 µs a call instead of ~410: wasmtime runs
    a custom stream on a thread of its own), and a write to a file never blocks, so a flood
    cannot hang a call. Made once (a pair per call cost ~20 µs more) and rewound before each
    call, not emptied (the seccomp filter refuses ``ftruncate``): what a call wrote is the bytes
    before the files' positions, and only those are read. For a process whose stdio is its own
    to repoint: the worker (its channel moved off fd 1 at start), whose ``RLIMIT_FSIZE`` bounds
    the files (a write past it fails with EFBIG; SIGXFSZ is ignored there) and whose seccomp
    filter forbids opening files for writing — these need no ``open``."""

    def __init__(self) -> None:
        for fd, name in ((1, "quiver-stdout"), (2, "quiver-stderr")):
            made = os.memfd_create(name, os.MFD_CLOEXEC)
            os.dup2(made, fd)  # the duplicate is inheritable; nothing is started from here
            os.close(made)
        self.cap = 0

    @contextlib.contextmanager
    def capture(self, wasi: wasmtime.WasiConfig, cap: int) -> Iterator[_ProcessStdio]:
        os.lseek(1, 0, os.SEEK_SET)
        os.lseek(2, 0, os.SEEK_SET)
        self.cap = cap
        wasi.inherit_stdout()
        wasi.inherit_stderr()
        yield self

    def overflowed(self) -> bool:
        return os.lseek(1, 0, os.SEEK_CUR) > self.cap

    def stdout(self) -> bytes:
        return os.pread(1, min(os.lseek(1, 0, os.SEEK_CUR), self.cap + 1), 0)

    def stderr(self) -> str:
        size = os.lseek(2, 0, os.SEEK_CUR)
        start = max(0, size - STDERR_TAIL)
        return os.pread(2, size - start, start).decode(errors="replace")


class _Callbacks:
    """Stdout and stderr through Python callbacks, bounded in memory: for a process whose stdio
    is not free to repoint (tests and benchmarks running the runtime in-process)."""

    @contextlib.contextmanager
    def capture(self, wasi: wasmtime.WasiConfig, cap: int) -> Iterator[_Callbacks]:
        self.out, self.err = _Capture(cap + 1), _Capture(STDERR_TAIL, keep_tail=True)
        wasi.stdout_custom = self.out.write
        wasi.stderr_custom = self.err.write
        yield self

    def overflowed(self) -> bool:
        return self.out.overflowed

    def stdout(self) -> bytes:
        return self.out.data

    def stderr(self) -> str:
        return self.err.text


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
        if module not in HOST_MODULES or self.host is None:
            return {"ok": False, "error": f"no host module {module!r}"}
        if self.budget <= 0:
            return {"ok": False, "error": "too many host calls in one call"}
        self.budget -= 1
        try:
            verb = method.upper() if module == "http" else method
            return {"ok": True, "value": self.host(module, verb, args)}
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


def make_room(
    instances: Mapping[Any, Any],
    tenant: str,
    per_tenant: int,
    total: int,
    drop: Callable[[Any], None],
) -> None:
    """Before a new instance of ``tenant`` goes live (the runners key instances by tenant
    first): a tenant at its quota gives up its own least recently used instance; otherwise, at
    the worker's total, the oldest of anyone's goes."""
    own = [live for key, live in instances.items() if key[0] == tenant]
    if len(own) >= per_tenant:
        drop(own[0])
    elif len(instances) >= total:
        drop(next(iter(instances.values())))


def _first_line(exc: BaseException) -> str:
    """The cause of a wasmtime error without its backtrace (the last line that says why)."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if "Caused by:" in lines:
        lines = lines[lines.index("Caused by:") + 1 :]
    return (lines[-1] if lines else type(exc).__name__)[:500]


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
