"""The Python runner on the host side: a WASM worker's instances of the runner component.

The component (``build``) is deserialised once per worker, before the worker drops its
privileges. Each instance gets its own ``Store``: WASI with nothing granted (no preopened
directories, no environment, no arguments, no sockets — the guest sees a clock and random bytes),
a memory cap, and per call fuel and an epoch deadline (the ``WasmRuntime``'s ticker drives this
engine too).

Instances are reused for one tool only: keyed by tenant + content hash + granted modules + memory
cap, so no tenant's module state ever reaches another tenant's call. An instance is dropped after
any trap, a memory failure, and every ``REUSE_CALLS`` calls; at most ``MAX_INSTANCES`` live per
worker (least recently used go first). A fresh instance's call costs ~0.9 ms (one blank
instance is kept ready and warmed between requests), a reused one's ~0.1 ms (benchmarks.micro, on
a slow machine). Memory slots stay resident
after use (~20 MiB each touched), so a worker holds up to ~160 MiB of them.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import wasmtime
from wasmtime import _ffi as ffi
from wasmtime import component
from wasmtime.component._enter import enter_wasm

from sandbox.wasm.python.config import RESERVATION, SLOTS, engine_config
from sandbox.wasm.runtime import TICK_S, HostCalls, WasmRuntime, _first_line, make_room

HOST_INTERFACE = "quiver:runner/host@0.1.0"
REUSE_CALLS = 100
MAX_INSTANCES = SLOTS - 4  # the rest: the spare, the one being made, retired ones
PER_TENANT_INSTANCES = MAX_INSTANCES // 2  # one tenant cannot evict every other's warm instance
KEEP_RESIDENT = 32 << 20
BLANK_FUEL = 1_000_000_000  # instantiation runs the guest's start-up: far less than this
MIN_MEMORY = 32 << 20  # the interpreter alone needs ~14 MiB
HOST_FRAME_BYTES = 1 << 20

Key = tuple[str, str, str, int]


class _Handle:
    """The runner's ``handle: func(request: string) -> string``, called through wasmtime's C API.
    wasmtime-py's ``component.Func.__call__`` reads the function's type and converts through it
    on every call: ~50 µs of a reused instance's ~250 µs call on a slow machine, for a type that
    never changes. Raises what that call raises (``WasmtimeError`` for a trap)."""

    def __init__(self, func: component.Func) -> None:
        self.func = ctypes.byref(func._func)  # holds the function's handle alive

    def __call__(self, store: wasmtime.Store, request: str) -> str:
        context = store._context()
        data = request.encode()
        param = ffi.wasmtime_component_val_t()
        param.kind = ffi.WASMTIME_COMPONENT_STRING
        ffi.wasm_byte_vec_new(
            ctypes.byref(param.of.string), len(data), ctypes.cast(ctypes.c_char_p(data), UBYTES)
        )  # copied: the call owns (and frees) its parameter's bytes
        result = ffi.wasmtime_component_val_t()
        try:
            enter_wasm(
                lambda: ffi.wasmtime_component_func_call(
                    self.func, context, ctypes.byref(param), 1, ctypes.byref(result), 1
                )
            )
        finally:
            ffi.wasmtime_component_val_delete(ctypes.byref(param))
        try:
            if result.kind != ffi.WASMTIME_COMPONENT_STRING.value:
                raise wasmtime.WasmtimeError("the runner's handle returned no string")
            reply = ctypes.string_at(result.of.string.data, result.of.string.size).decode()
        finally:
            ffi.wasmtime_component_val_delete(ctypes.byref(result))
        enter_wasm(lambda: ffi.wasmtime_component_func_post_return(self.func, context))
        return reply


UBYTES = ctypes.POINTER(ctypes.c_ubyte)


@dataclass
class _Live:
    key: Key
    store: wasmtime.Store
    handle: _Handle
    calls: int = 0
    dead: bool = False


def _pooling(config: wasmtime.Config) -> bool:
    """Use wasmtime's pooling allocator, keeping each memory slot resident: a retired
    instance's memory is reset to the image in place (after the reply has gone), so the next
    one starts without page faults — ~1.8 ms instead of ~3.3 ms for a fresh instance's call.
    wasmtime-py has no wrapper for it yet; its C API bindings do (absent: the default allocator)."""
    from wasmtime import _ffi as ffi

    if not hasattr(ffi, "wasmtime_pooling_allocation_strategy_set"):
        return False
    pool = ffi.wasmtime_pooling_allocation_config_new()
    for name, value in (
        ("total_component_instances", SLOTS),
        ("total_core_instances", SLOTS * 32),
        ("max_core_instances_per_component", 32),
        ("total_memories", SLOTS),
        ("max_memories_per_component", 1),
        ("max_memory_size", RESERVATION),
        ("linear_memory_keep_resident", KEEP_RESIDENT),
        ("total_tables", SLOTS * 16),
        ("max_tables_per_component", 16),
        ("max_tables_per_module", 4),
        ("table_elements", 50000),
        ("table_keep_resident", 1 << 20),
        ("max_core_instance_size", 1 << 20),
        ("max_component_instance_size", 1 << 20),
        ("total_stacks", 0),
    ):
        getattr(ffi, f"wasmtime_pooling_allocation_config_{name}_set")(pool, value)
    ffi.wasmtime_pooling_allocation_strategy_set(config.ptr(), pool)
    ffi.wasmtime_pooling_allocation_config_delete(pool)
    return True


class PythonRunner:
    def __init__(self, path: str, runtime: WasmRuntime) -> None:
        config = engine_config()
        self.pooling = _pooling(config)
        self.engine = wasmtime.Engine(config)
        runtime.tick_also(self.engine)
        self.component = component.Component.deserialize_file(self.engine, path)
        self.linker = component.Linker(self.engine)
        self.linker.add_wasip2()
        with self.linker.root() as root, root.add_instance(HOST_INTERFACE) as iface:
            iface.add_func("call", self._host)
        self.instances: OrderedDict[Key, _Live] = OrderedDict()
        self._retired: list[_Live] = []  # freed by `idle`, after the reply has gone
        self._spare: tuple[wasmtime.Store, _Handle] | None = None
        self.instantiations = 0
        self._calls: HostCalls | None = None

    def _host(self, _store: Any, request: str) -> str:
        """``host.call`` from the guest: ``http`` only (logs and context stay in the guest)."""
        calls = self._calls
        if calls is None:
            return '{"ok": false, "error": "no call in progress"}'
        if len(request) > HOST_FRAME_BYTES:
            return '{"ok": false, "error": "request too large"}'
        try:
            return json.dumps(calls.handle(request.encode()), separators=(",", ":"))
        except Exception as exc:  # never trap the guest from here
            return json.dumps({"ok": False, "error": str(exc)[:500]})

    # requests from the pool --------------------------------------------------------------------
    def inspect(self, request: dict[str, Any]) -> dict[str, Any]:
        """Load a tool file in a fresh instance within the load-time limit; kept for its calls."""
        live, reply = self._instance(request, fresh=True)
        return reply if live is None else reply | {"instantiations": self.instantiations}

    def call(self, request: dict[str, Any], host: Callable[..., Any]) -> dict[str, Any]:
        live, reply = self._instance(request)
        if live is None:
            if reply.get("violations"):  # the file no longer loads: a failed call, not a refusal
                first = reply["violations"][0]
                return {
                    "ok": False,
                    "code": "tool_error",
                    "message": first["message"],
                    "line": first.get("line"),
                }
            return reply
        payload = {
            "op": "call",
            "tool": request["tool"],
            "entry": request.get("entry", "execute"),
            "params": request["params"],
            "context": request.get("context", {}),
            "error": request.get("error") or {},
            "result_cap": request["output_bytes"],
        }
        self._calls = HostCalls(host, request.get("max_host_calls", 20))
        try:
            reply = self._invoke(live, payload, request["fuel"], request["timeout"])
        finally:
            self._calls = None
        live.calls += 1
        if live.dead or live.calls >= REUSE_CALLS:
            self._drop(live)
        return reply | {"instantiations": self.instantiations}

    # instances ---------------------------------------------------------------------------------
    def _instance(
        self, request: dict[str, Any], fresh: bool = False
    ) -> tuple[_Live | None, dict[str, Any]]:
        """The tool's live instance, or a new one with the file loaded; ``None`` and the reply
        (``need_source``, load violations or a failure) when there is none."""
        memory = min(max(int(request["memory_bytes"]), MIN_MEMORY), RESERVATION)
        modules = ",".join(sorted(request.get("modules") or ()))
        key: Key = (request.get("tenant", ""), request["hash"], modules, memory)
        live = None if fresh else self.instances.get(key)
        if live is not None:
            self.instances.move_to_end(key)
            return live, {}
        if "source" not in request:
            return None, {"ok": False, "code": "need_source"}
        self._free_retired()  # every slot free but the live ones (and the spare)
        blank, self._spare = self._spare, None
        try:
            store, handle = blank or self._blank()
        except wasmtime.WasmtimeError as exc:
            return None, {"ok": False, "code": "busy", "message": _first_line(exc)}
        store.set_limits(memory_size=memory)
        live = _Live(key, store, handle)
        load = {
            "op": "load",
            "source": request["source"],
            "modules": request.get("modules") or [],
            "packages": request.get("packages") or [],
        }
        reply = self._invoke(live, load, request["fuel"], request["load_timeout"])
        if not reply.get("ok"):
            self._close(live)  # every ending frees its slot at once (a trap leaves a cycle)
            if reply.get("code") == "timeout":
                message = f"loading the file took longer than {request['load_timeout']} ms"
                reply = {"ok": False, "code": "timeout", "message": message}
            return None, reply
        if key in self.instances:
            self._drop(self.instances[key])
        else:
            self._make_room(key[0])
        self.instances[key] = live
        return live, reply

    def _make_room(self, tenant: str) -> None:
        make_room(self.instances, tenant, PER_TENANT_INSTANCES, MAX_INSTANCES, self._drop)

    def _drop(self, live: _Live) -> None:
        if self.instances.get(live.key) is live:
            del self.instances[live.key]
        self._retired.append(live)

    @staticmethod
    def _close(live: _Live) -> None:
        """Free an instance's slot now. Dropping the last reference is not enough: a store that
        trapped sits in a reference cycle until the garbage collector runs, and the pooling
        allocator's slots are few (they were once exhausted by load-time bombs)."""
        live.store.close()

    def _free_retired(self) -> None:
        for live in self._retired:
            self._close(live)
        self._retired.clear()

    def _blank(self, warm: bool = False) -> tuple[wasmtime.Store, _Handle]:
        """A new instance that has run nothing but its own start-up (and, ``warm``, the
        guest's warm-up: the first call's costs, paid before any tenant's file is in it)."""
        store = wasmtime.Store(self.engine)
        store.set_wasi(wasmtime.WasiConfig())  # nothing granted
        store.set_limits(memory_size=RESERVATION)
        store.set_fuel(BLANK_FUEL)
        store.set_epoch_deadline(max(1, int(1.0 / TICK_S)))
        try:
            instance = self.linker.instantiate(store, self.component)
            self.instantiations += 1
            func = instance.get_func(store, "handle")
            assert func is not None, "the runner exports `handle`"
            handle = _Handle(func)
            if warm:
                handle(store, '{"op":"warm"}')
        except BaseException:
            store.close()
            raise
        return store, handle

    def idle(self) -> None:
        """Between requests, so no call waits for it: free retired instances (resetting a
        memory slot takes ~1 ms) and, once Python tools are in use, keep one blank instance
        ready and warmed (instantiating takes ~0.9 ms, the first call's costs ~0.8 ms more)."""
        self._free_retired()
        if self._spare is None and self.instantiations:
            with contextlib.suppress(wasmtime.WasmtimeError):
                self._spare = self._blank(warm=True)

    def _invoke(
        self, live: _Live, payload: dict[str, Any], fuel: int, timeout_ms: int
    ) -> dict[str, Any]:
        """One call into the guest under fuel and a deadline; a trap kills the instance."""
        live.store.set_fuel(fuel)
        live.store.set_epoch_deadline(max(1, int(timeout_ms / 1000 / TICK_S)))
        try:
            out = live.handle(live.store, json.dumps(payload))
        except wasmtime.WasmtimeError as exc:  # traps surface as errors from components
            live.dead = True
            return _trap_reply(_first_line(exc))
        reply: dict[str, Any] = json.loads(out)
        if reply.get("recycle"):
            live.dead = True
        return reply


def _trap_reply(message: str) -> dict[str, Any]:
    if "all fuel consumed" in message:
        return {
            "ok": False,
            "code": "out_of_fuel",
            "message": "the tool ran out of fuel (too much computation)",
        }
    if message.endswith("interrupt"):
        return {"ok": False, "code": "timeout", "message": "the tool ran past its deadline"}
    if "call stack exhausted" in message:
        return {"ok": False, "code": "trap", "message": "call stack exhausted (recursion too deep)"}
    return {"ok": False, "code": "trap", "message": message}
