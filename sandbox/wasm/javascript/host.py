"""The JavaScript tier on the worker side: QuickJS-NG (the data-only ``qjs-wasi-reactor.wasm``
package: a WASI reactor exporting QuickJS's C API) driven from here through that API.

Each instance is a fresh wasmtime ``Store`` — WASI with nothing granted (no preopened
directories, no environment, no arguments, no sockets) and a memory cap — holding one QuickJS
runtime and a context made by ``JS_NewContext`` (the language's intrinsics only: no ``std``, no
``os``, no module loader). ``prelude.js`` runs first, then the tool file as a CommonJS module.
Everything crosses as JSON text through ``JS_Eval``; promise jobs are run from here
(``JS_ExecutePendingJob``) until the call's promise settles, answering the host calls it asked
for in between — so fuel and the epoch deadline cover the whole call, jobs included.

Instances are reused for one tool only (tenant + content hash + memory cap), never across
tenants; dropped after a trap and every ``REUSE_CALLS`` calls.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import wasmtime
from wasmtime import _ffi as ffi
from wasmtime._extern import wrap_extern

from sandbox.toolcode import MAX_RESULT_DEPTH
from sandbox.wasm.javascript import bundled
from sandbox.wasm.javascript.config import RESERVATION, engine_config
from sandbox.wasm.runtime import TICK_S, HostCalls, WasmRuntime, _first_line, make_room

PRELUDE = (Path(__file__).parent / "prelude.js").read_text()
REUSE_CALLS = 100
MAX_INSTANCES = 16
PER_TENANT_INSTANCES = MAX_INSTANCES // 2
MAX_COMPILED = 64  # bundled modules' and granted packages' bytecode a worker keeps
MIN_MEMORY = 8 << 20
JS_HEADROOM = 2 << 20  # QuickJS's own limit sits below the store's: a JS `out of memory` first
TAG_EXCEPTION = 6
REPLY_OVERHEAD = 200 * 2000 * 2 + (1 << 20)  # a reply's logs (200 lines) and updates (1 MiB)
REPLY_DEPTH = 2  # the levels a reply adds around a result: the guest's state object, the result
MAX_PARSE_DEPTH = 200  # the worker's parser recurses: deeper text is a broken reply, not parsed
MAX_ROUNDS = 10_000  # host-call rounds per call (each needs a host call: the budget ends it first)
EXPORTS = (
    "memory", "_initialize", "malloc", "free", "JS_NewRuntime", "JS_SetMemoryLimit",
    "JS_NewContext", "JS_Eval", "JS_GetException", "JS_GetPropertyStr", "JS_ToCStringLen2",
    "JS_FreeCString", "JS_FreeValue", "JS_ExecutePendingJob", "JS_WriteObject", "JS_ReadObject",
    "JS_EvalFunction", "js_free",
)  # fmt: skip
COMPILE_ONLY = 1 << 5  # JS_EVAL_FLAG_COMPILE_ONLY
BYTECODE = 1 << 0  # JS_WRITE_OBJ_BYTECODE, JS_READ_OBJ_BYTECODE
LINE = re.compile(r"tool\.js:(\d+)")

Key = tuple[str, str, str, int]


class Trapped(Exception):
    """The instance trapped (out of fuel, past its deadline, out of bounds): it is dead."""


class _Fast:
    """A call into one export through ``wasmtime_func_call_unchecked`` with its types read
    once: wasmtime-py's ``Func.__call__`` reads the type and converts every value on each call
    (~50 µs; a JavaScript call makes a dozen)."""

    def __init__(self, store: wasmtime.Store, func: wasmtime.Func) -> None:
        ty = func.type(store)
        self.params = [str(t) for t in ty.params]  # "i32" or "i64": QuickJS's API has no others
        self.result = str(ty.results[0]) if ty.results else None
        assert set(self.params) | {self.result} <= {"i32", "i64", None}, (self.params, self.result)
        self.raw = (ffi.wasmtime_val_raw_t * max(len(self.params), 1))()
        self.func = func
        self.store = store

    def __call__(self, *args: int) -> int:
        raw = self.raw
        for i, (kind, value) in enumerate(zip(self.params, args, strict=True)):
            setattr(raw[i], kind, value)
        trap = ctypes.POINTER(ffi.wasm_trap_t)()
        error = ffi.wasmtime_func_call_unchecked(
            self.store._context(), ctypes.byref(self.func._func), raw, len(raw), ctypes.byref(trap)
        )
        if error:
            raise Trapped(_first_line(wasmtime.WasmtimeError._from_ptr(error)))
        if trap:
            raise Trapped(_first_line(wasmtime.Trap._from_ptr(trap)))
        if self.result is None:
            return 0
        return int(getattr(raw[0], self.result))


@dataclass
class _Instance:
    key: Key
    store: wasmtime.Store
    fn: dict[str, Any]
    memory: wasmtime.Memory
    ctx: int = 0
    rt: int = 0
    scratch: int = 0
    filename: int = 0
    calls: int = 0
    dead: bool = False
    tools: list[dict[str, Any]] = field(default_factory=list)

    def _call(self, name: str, *args: int) -> int:
        try:
            result: int = self.fn[name](*args)
            return result
        except Trapped:
            self.dead = True
            raise

    def _cstring(self, data: bytes) -> int:
        pointer = self._call("malloc", len(data) + 1) & 0xFFFFFFFF
        if pointer == 0:
            raise Trapped("out of memory")
        self.memory.write(self.store, data + b"\0", pointer)
        return pointer

    def _text(self, value: int) -> str:
        pointer = self._call("JS_ToCStringLen2", self.ctx, self.scratch, value, 0) & 0xFFFFFFFF
        if pointer == 0:
            self._call("JS_FreeValue", self.ctx, value)
            return ""
        size = int.from_bytes(
            self.memory.read(self.store, self.scratch, self.scratch + 4), "little"
        )
        text = self.memory.read(self.store, pointer, pointer + size).decode("utf-8", "replace")
        self._call("JS_FreeCString", self.ctx, pointer)
        self._call("JS_FreeValue", self.ctx, value)
        return text

    def eval(self, code: str) -> tuple[bool, str, int | None]:
        """Evaluate ``code``: (no exception, its value as text, the line an exception names)."""
        data = code.encode()
        pointer = self._cstring(data)
        try:
            value = int(self._call("JS_Eval", self.ctx, pointer, len(data), self.filename, 0))
        finally:
            if not self.dead:
                self._call("free", pointer)
        if (value >> 32) & 0xFFFFFFFF == TAG_EXCEPTION:
            return self._exception()
        return True, self._text(value), None

    def _exception(self) -> tuple[bool, str, int | None]:
        """The pending exception: (False, its text, the line its stack names)."""
        error = int(self._call("JS_GetException", self.ctx))
        stack_name = self._cstring(b"stack")
        stack = self._text(int(self._call("JS_GetPropertyStr", self.ctx, error, stack_name)))
        self._call("free", stack_name)
        line = LINE.search(stack)
        return False, self._text(error), int(line.group(1)) if line else None

    def bundle(
        self, file: str, compiled: dict[str, bytes], script: str | None = None
    ) -> tuple[bool, str]:
        """Evaluate a bundled module file (``bundled``): from the bytecode this worker keeps
        of it (``compiled``), else compiled here first and its bytecode kept. Reading bytecode
        skips the parse, half of joi's cost. It is made before any tool code runs in the
        instance (bundles come before the file), from the reviewed files only: the bundled
        modules, or a granted package's files (``script``, kept by its content hash)."""
        data = compiled.get(file)
        if data is None:
            code = (bundled.script(file) if script is None else script).encode()
            pointer = self._cstring(code)
            try:
                function = int(
                    self._call("JS_Eval", self.ctx, pointer, len(code), self.filename, COMPILE_ONLY)
                )
            finally:
                if not self.dead:
                    self._call("free", pointer)
            if (function >> 32) & 0xFFFFFFFF == TAG_EXCEPTION:
                return self._exception()[:2]
            out = self._call("JS_WriteObject", self.ctx, self.scratch, function, BYTECODE)
            if out & 0xFFFFFFFF and len(compiled) < MAX_COMPILED:  # else evaluated, not kept
                size = int.from_bytes(
                    self.memory.read(self.store, self.scratch, self.scratch + 4), "little"
                )
                start = out & 0xFFFFFFFF
                compiled[file] = bytes(self.memory.read(self.store, start, start + size))
                self._call("js_free", self.ctx, start)
        else:
            pointer = self._call("malloc", len(data)) & 0xFFFFFFFF
            if pointer == 0:
                raise Trapped("out of memory")
            self.memory.write(self.store, data, pointer)
            function = int(self._call("JS_ReadObject", self.ctx, pointer, len(data), BYTECODE))
            self._call("free", pointer)
            if (function >> 32) & 0xFFFFFFFF == TAG_EXCEPTION:
                return self._exception()[:2]
        value = int(self._call("JS_EvalFunction", self.ctx, function))  # takes the function
        if (value >> 32) & 0xFFFFFFFF == TAG_EXCEPTION:
            return self._exception()[:2]
        self._call("JS_FreeValue", self.ctx, value)
        return True, ""

    def run_jobs(self) -> int:
        ran = 0
        while True:
            done = int(self._call("JS_ExecutePendingJob", self.rt, self.scratch + 8))
            if done <= 0:
                return ran
            ran += 1


class JsRunner:
    def __init__(self, path: str, runtime: WasmRuntime) -> None:
        self.engine = wasmtime.Engine(engine_config())
        runtime.tick_also(self.engine)
        self.module = wasmtime.Module.deserialize_file(self.engine, path)
        self.linker = wasmtime.Linker(self.engine)
        self.linker.define_wasi()
        self.instances: OrderedDict[Key, _Instance] = OrderedDict()
        self.instantiations = 0
        self._spare: _Instance | None = None
        self.compiled: dict[str, bytes] = {}  # bundled modules' bytecode, by file (a few MiB)

    # requests from the pool ------------------------------------------------------------------
    def inspect(self, request: dict[str, Any]) -> dict[str, Any]:
        """Load a tool file in a fresh instance within the load-time limit; kept for its calls."""
        try:
            return self._inspect(request)
        except Exception as exc:  # a bug of the runner must not end the worker and every other
            # tenant's live instance with it: the request fails (code trap) and the server logs it
            return _fault(exc)

    def call(self, request: dict[str, Any], host: Callable[..., Any]) -> dict[str, Any]:
        try:
            return self._call_tool(request, host)
        except Exception as exc:  # likewise (``_fault``)
            return _fault(exc)

    def _inspect(self, request: dict[str, Any]) -> dict[str, Any]:
        live, reply = self._instance(request, fresh=True)
        return (
            reply
            if live is None
            else {"ok": True, "tools": live.tools, "instantiations": self.instantiations}
        )

    def _call_tool(self, request: dict[str, Any], host: Callable[..., Any]) -> dict[str, Any]:
        live, reply = self._instance(request)
        if live is None:
            if reply.get("violations"):  # the file no longer loads: a failed call
                first = reply["violations"][0]
                return {
                    "ok": False,
                    "code": "tool_error",
                    "message": first["message"],
                    "line": first.get("line"),
                }
            return reply
        calls = HostCalls(host, int(request.get("max_host_calls", 20)))
        payload = {
            "tool": request["tool"],
            "entry": "onError" if request.get("entry") == "on_error" else "execute",
            "params": request["params"],
            "context": request.get("context", {}),
            "error": request.get("error") or {},
            "entropy": os.urandom(32).hex(),  # the guest's CSPRNG key for this call
        }
        try:
            reply = self._run(live, payload, calls, request)
        except Trapped as exc:
            reply = _trap_reply(str(exc))
        live.calls += 1
        if live.dead or live.calls >= REUSE_CALLS:
            self._drop(live)
        return reply | {"instantiations": self.instantiations}

    def idle(self) -> None:
        """Between requests: keep one blank instance ready (its runtime and context made)."""
        if self._spare is None and self.instantiations:
            try:
                self._spare = self._blank()
            except (Trapped, wasmtime.WasmtimeError):
                self._spare = None

    # a call --------------------------------------------------------------------------------------
    def _run(
        self, live: _Instance, payload: dict[str, Any], calls: HostCalls, request: dict[str, Any]
    ) -> dict[str, Any]:
        live.store.set_fuel(int(request["fuel"]))
        live.store.set_epoch_deadline(max(1, int(request["timeout"] / 1000 / TICK_S)))
        ok, text, line = live.eval(f"__quiver.start({json.dumps(json.dumps(payload))})")
        if not ok:
            return {"ok": False, "code": "tool_error", "message": text, "line": line}
        for _ in range(MAX_ROUNDS):
            live.run_jobs()
            ok, text, line = live.eval("__quiver.poll()")
            if not ok:
                return {"ok": False, "code": "tool_error", "message": text, "line": line}
            too_large = {
                "ok": False,
                "code": "result_too_large",
                "message": f"the result is larger than {request['output_bytes']} bytes",
            }
            if len(text) > int(request["output_bytes"]) + REPLY_OVERHEAD:
                return too_large
            if json_depth(text) > MAX_RESULT_DEPTH + REPLY_DEPTH:
                return {
                    "ok": False,
                    "code": "nesting_too_deep",
                    "message": f"the result is nested deeper than {MAX_RESULT_DEPTH} levels",
                }
            state = _parse(text)
            if state is None:
                return {
                    "ok": False,
                    "code": "malformed_output",
                    "message": (
                        "the tool broke the runtime's protocol (JSON or its prelude was replaced)"
                    ),
                }
            if state.get("state") == "done":
                value = state.get("value")
                if len(json.dumps(value)) > int(request["output_bytes"]):
                    return too_large
                if not isinstance(value, dict):
                    kind = (
                        "an array"
                        if isinstance(value, list)
                        else "null"
                        if value is None
                        else type(value).__name__
                    )
                    return {
                        "ok": False,
                        "code": "tool_error",
                        "message": f"execute must return an object, not {kind}",
                        "logs": _logs(state),
                    }
                return {
                    "ok": True,
                    "value": value,
                    "logs": _logs(state),
                    "updates": _updates(state),
                }
            if state.get("state") == "failed":
                return {
                    "ok": False,
                    "code": state.get("code") or "tool_error",
                    "message": str(state.get("message"))[:2000],
                    "line": state.get("line"),
                    "logs": _logs(state),
                    "updates": _updates(state),
                }
            if state.get("state") != "host" or not isinstance(state.get("calls"), list):
                return {
                    "ok": False,
                    "code": "tool_error",
                    "message": (
                        "the tool's promise never settles (it waits for nothing the host "
                        "was asked for)"
                    ),
                }
            replies = []
            for asked in state["calls"]:
                if not isinstance(asked, dict):
                    continue
                frame = json.dumps(
                    {
                        "module": asked.get("module"),
                        "method": asked.get("method"),
                        "args": asked.get("args") or {},
                    }
                )
                answer = calls.handle(frame.encode())
                replies.append({"id": asked.get("id"), **answer})
            ok, text, line = live.eval(f"__quiver.answer({json.dumps(json.dumps(replies))})")
            if not ok:
                return {"ok": False, "code": "tool_error", "message": text, "line": line}
        return {"ok": False, "code": "tool_error", "message": "too many host-call rounds"}

    # instances -----------------------------------------------------------------------------------
    def _instance(
        self, request: dict[str, Any], fresh: bool = False
    ) -> tuple[_Instance | None, dict[str, Any]]:
        memory = min(max(int(request["memory_bytes"]), MIN_MEMORY), RESERVATION)
        modules = ",".join(sorted(request.get("modules") or ()))  # a new grant: a new instance
        key: Key = (request.get("tenant", ""), request["hash"], modules, memory)
        live = None if fresh else self.instances.get(key)
        if live is not None:
            self.instances.move_to_end(key)
            return live, {}
        if "source" not in request:
            return None, {"ok": False, "code": "need_source"}
        try:
            live, self._spare = (self._spare or self._blank()), None
            live.key = key
            # a spare made a while ago is past its deadline: set this request's before any call
            live.store.set_fuel(int(request["fuel"]))
            live.store.set_epoch_deadline(max(1, int(request["load_timeout"] / 1000 / TICK_S)))
            live.store.set_limits(memory_size=memory)
            live._call("JS_SetMemoryLimit", live.rt, max(memory - JS_HEADROOM, MIN_MEMORY // 2))
        except (Trapped, wasmtime.WasmtimeError) as exc:
            return None, {"ok": False, "code": "busy", "message": str(exc)}
        reply = self._load(live, request)
        if not reply.get("ok"):
            return None, reply
        if key in self.instances:
            self._drop(self.instances[key])
        else:
            self._make_room(key[0])
        self.instances[key] = live
        return live, reply

    def _load(self, live: _Instance, request: dict[str, Any]) -> dict[str, Any]:
        live.store.set_fuel(int(request["fuel"]))
        live.store.set_epoch_deadline(max(1, int(request["load_timeout"] / 1000 / TICK_S)))
        source = str(request["source"])
        granted = bundled.packages_needed(source, request.get("packages") or [])
        try:
            texts = [source, *(t for spec in granted for t in spec["files"].values())]
            for file in bundled.needed("\n".join(texts)):
                ok, text = live.bundle(file, self.compiled)
                if not ok:
                    message = f"the bundled module {file} did not load: {text}"
                    return {"ok": False, "violations": [{"message": message, "field": "source"}]}
            for spec in granted:
                script = bundled.package_script(spec)
                ok, text = live.bundle(f"pkg:{spec['key']}", self.compiled, script)
                if not ok:
                    message = f"the package {spec['name']} did not load: {text}"
                    return {"ok": False, "violations": [{"message": message, "field": "source"}]}
            ok, text, line = live.eval(
                f"__quiver.define((function (module, exports, require) {{{source}\n}}),"
                f" {json.dumps(os.urandom(32).hex())})"
            )
        except Trapped as exc:
            reply = _trap_reply(str(exc))
            if reply["code"] == "timeout":
                reply["message"] = f"loading the file took longer than {request['load_timeout']} ms"
            return reply
        if not ok:
            return {"ok": False, "violations": [{"message": text, "line": line, "field": "source"}]}
        declared = _parse(text)
        if declared is None or not isinstance(declared.get("tools", []), list):
            return {
                "ok": False,
                "violations": [
                    {
                        "message": (
                            "the file broke the runtime's protocol (JSON or its prelude "
                            "was replaced)"
                        ),
                        "field": "source",
                    }
                ],
            }
        if not declared.get("ok"):
            violations = [
                {
                    "message": str(v.get("message"))[:1000],
                    "field": str(v.get("field") or "source")[:200],
                    "line": v.get("line") if isinstance(v.get("line"), int) else None,
                }
                for v in declared.get("violations") or []
                if isinstance(v, dict)
            ] or [{"message": "the file does not load", "field": "source"}]
            return {"ok": False, "violations": violations}
        live.tools = [t for t in declared["tools"] if isinstance(t, dict)]
        return {"ok": True, "tools": live.tools}

    def _blank(self) -> _Instance:
        """A new instance with its QuickJS runtime and context made and the prelude run."""
        store = wasmtime.Store(self.engine)
        store.set_wasi(wasmtime.WasiConfig())  # nothing granted
        store.set_limits(memory_size=RESERVATION)
        store.set_fuel(1_000_000_000)
        store.set_epoch_deadline(max(1, int(1.0 / TICK_S)))
        instance = self.linker.instantiate(store, self.module)
        self.instantiations += 1
        memory = _export(store, instance, "memory")
        fn = {
            name: _Fast(store, _export(store, instance, name))
            for name in EXPORTS
            if name != "memory"
        }
        live = _Instance(("", "", "", 0), store, fn, memory)
        live._call("_initialize")
        live.rt = int(live._call("JS_NewRuntime"))
        live.ctx = int(live._call("JS_NewContext", live.rt))
        live.scratch = live._cstring(b"\0" * 15)
        live.filename = live._cstring(b"tool.js")
        ok, text, _ = live.eval(PRELUDE)
        if not ok:
            raise Trapped(f"the prelude failed: {text}")
        return live

    def _make_room(self, tenant: str) -> None:
        make_room(self.instances, tenant, PER_TENANT_INSTANCES, MAX_INSTANCES, self._drop)

    def _drop(self, live: _Instance) -> None:
        if self.instances.get(live.key) is live:
            del self.instances[live.key]
        live.store.close()


def _export(store: wasmtime.Store, instance: wasmtime.Instance, name: str) -> Any:
    """One export by name (``Instance.exports`` reads all ~290 of them: ~4 ms a fresh instance)."""
    item = ffi.wasmtime_extern_t()
    raw = name.encode()
    found = ffi.wasmtime_instance_export_get(
        store._context(), ctypes.byref(instance._instance), raw, len(raw), ctypes.byref(item)
    )
    if not found:
        raise Trapped(f"the QuickJS module does not export {name}")
    return wrap_extern(item)


def _fault(exc: Exception) -> dict[str, Any]:
    """A reply for a bug of the runner itself: the call fails as a trap and the server logs it
    (``fault``; the worker's own output goes nowhere)."""
    return {
        "ok": False,
        "code": "trap",
        "fault": True,
        "message": f"the JavaScript runner failed: {type(exc).__name__}: {exc}"[:500],
    }


STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
BRACKETS = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deep a JSON text nests (its strings skipped): read before it is parsed, since the
    parser recurses and the worker's recursion limit is low."""
    depth = deepest = 0
    for bracket in BRACKETS.finditer(STRINGS.sub("", text)):
        if bracket.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _parse(text: str) -> dict[str, Any] | None:
    """A reply from the guest: an object, or ``None`` when the guest broke the protocol (it
    can: the tool shares the JavaScript context with the prelude)."""
    if json_depth(text) > MAX_PARSE_DEPTH:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _logs(state: dict[str, Any]) -> list[str]:
    logs = state.get("logs")
    return [str(line)[:2000] for line in logs[:200]] if isinstance(logs, list) else []


def _updates(state: dict[str, Any]) -> dict[str, Any]:
    updates = state.get("updates")
    return updates if isinstance(updates, dict) and len(json.dumps(updates)) <= 1 << 20 else {}


def _trap_reply(message: str) -> dict[str, Any]:
    if "all fuel consumed" in message:
        return {
            "ok": False,
            "code": "out_of_fuel",
            "message": "the tool ran out of fuel (too much computation)",
        }
    if message.endswith("interrupt"):
        return {"ok": False, "code": "timeout", "message": "the tool ran past its deadline"}
    if "out of bounds memory access" in message or "call stack exhausted" in message:
        return {
            "ok": False,
            "code": "trap",
            "message": (
                "the tool's stack overflowed or it touched memory it does not own "
                "(recursion too deep?)"
            ),
        }
    return {"ok": False, "code": "trap", "message": message}
