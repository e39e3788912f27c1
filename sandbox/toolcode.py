"""A loaded tool file's functions, called the same way in every sandbox.

Shared by the RestrictedPython worker and the Python-in-WASM guest (which runs *inside*
wasmtime, so this module imports only the standard library): how a file's declared tools are
read from its namespace, the ``context`` a tool receives, and how one call or one load becomes a
reply — ``{"ok", "value", "logs", "updates"}`` or ``{"ok": false, "code", "message", "line"}``.
The sandbox supplies the loader and the function that forwards host calls (``http``).
"""

from __future__ import annotations

import json
import math
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sandbox.toolfile import ALLOWED_KEYS

MAX_LOG_LINES = 200

# (module, method, args) -> value; raises RuntimeError with the host's reason when refused
HostCall = Callable[[str, str, dict[str, Any]], Any]


class ToolLoadError(Exception):
    def __init__(self, message: str, line: int | None = None, field: str | None = "source") -> None:
        super().__init__(message)
        self.line = line
        self.field = field


@dataclass
class LoadedTool:
    name: str
    spec: dict[str, Any]
    execute: Any
    on_error: Any


class Context(dict[str, Any]):
    """What ``execute(params, context)`` receives: a dict that also reads as attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Namespace:
    """A read-only bag of host functions (``context.modules.http`` …). Like ``Context``, it reads
    both ways — ``context.modules.logger`` and ``context["modules"]["logger"]`` — so a tool file
    written in either style (LiteBot's files use both) works unchanged."""

    __slots__ = ("_items",)

    def __init__(self, **items: Any) -> None:
        object.__setattr__(self, "_items", items)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._items[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: str) -> Any:
        return self._items[name]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    # no methods of its own beyond these: ``http.get`` must stay the host function, not a
    # dict-style ``get`` found first by attribute lookup

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("read-only")


def declared_tools(namespace: dict[str, Any]) -> list[LoadedTool]:
    """The tools a file's top level declared (``tool = {...}`` or ``tools = [...]``)."""
    declared = namespace.get("tools", [namespace["tool"]] if "tool" in namespace else None)
    if not isinstance(declared, list | tuple) or not declared:
        raise ToolLoadError("the file must assign `tool = {...}` or `tools = [...]`")
    return [_read(entry, i) for i, entry in enumerate(declared)]


def _read(entry: Any, index: int) -> LoadedTool:
    prefix = "tool" if index == 0 else f"tools[{index}]"
    if not isinstance(entry, dict):
        raise ToolLoadError(f"`{prefix}` must be a dict", field=prefix)
    for key in entry:
        if key not in ALLOWED_KEYS:
            raise ToolLoadError(f"unknown key {key!r} in `{prefix}`", field=f"{prefix}.{key}")
    if not callable(entry.get("execute")):
        raise ToolLoadError(f"`{prefix}.execute` must be a function", field=f"{prefix}.execute")
    spec = {k: entry.get(k) for k in ("name", "description", "parameters", "metadata")}
    try:
        spec = json.loads(json.dumps(spec))
    except (TypeError, ValueError) as exc:
        raise ToolLoadError(
            f"`{prefix}` name, description, parameters and metadata must be JSON data: {exc}",
            field=prefix,
        ) from None
    on_error = entry.get("on_error")
    return LoadedTool(
        name=str(spec.get("name")),
        spec=spec,
        execute=entry["execute"],
        on_error=on_error if callable(on_error) else None,
    )


# the file's tools, or None when the sandbox must be sent the source first
Loader = Callable[[], "list[LoadedTool] | None"]
NEED_SOURCE = {"ok": False, "code": "need_source"}


def inspect_reply(load: Loader) -> dict[str, Any]:
    """Load a file: the tools it declares, or every reason it cannot be loaded."""
    try:
        loaded = load()
        if loaded is None:
            return NEED_SOURCE
    except ToolLoadError as exc:
        violations = getattr(exc, "violations", None) or [exc]
        return {"ok": False, "violations": [_violation(v) for v in violations]}
    except MemoryError:
        return {
            "ok": False,
            "code": "memory_limit",
            "violations": [{"message": "loading the file ran out of memory", "field": "source"}],
        }
    except BaseException as exc:  # the tool file's own top level failed
        message = f"loading failed: {describe(exc)}"
        return {
            "ok": False,
            "violations": [{"message": message, "line": tool_line(exc), "field": "source"}],
        }
    return {
        "ok": True,
        "tools": [{**t.spec, "has_on_error": t.on_error is not None} for t in loaded],
    }


def _violation(v: Any) -> dict[str, Any]:
    message = getattr(v, "message", None) or str(v)
    return {
        "message": message,
        "line": getattr(v, "line", None),
        "field": getattr(v, "field", None),
    }


def call_reply(
    load: Loader,
    request: dict[str, Any],
    host_call: HostCall,
    dumps: Callable[[Any], bytes | str],
    before: Callable[[], None] = lambda: None,
    plain: tuple[type[Exception], ...] = (),
) -> dict[str, Any]:
    """Run ``execute`` (or ``on_error``) of the requested tool and check its result.

    ``before`` runs just before the tool (re-seeding randomness, arming a CPU limit); ``dumps``
    serialises the result to measure it against ``result_cap``; exceptions of the ``plain``
    types (the sandbox's own refusals) are reported by their message alone.
    """
    logs: list[str] = []
    updates: dict[str, Any] = {}
    try:
        loaded = load()
        if loaded is None:
            return NEED_SOURCE
        tool = next((t for t in loaded if t.name == request["tool"]), None)
        if tool is None:
            return failure("tool_error", f"the file does not declare {request['tool']!r}")
        on_error = request.get("entry") == "on_error"
        func = tool.on_error if on_error else tool.execute
        if func is None:
            return failure("tool_error", "the tool has no on_error")
        before()
        context = make_context(request.get("context", {}), logs, updates, host_call, dumps)
        params = request["params"]
        value = func(request["error"], params, context) if on_error else func(params, context)
    except MemoryError:
        return {**failure("memory_limit", "the tool ran out of memory", logs), "recycle": True}
    except RecursionError:
        return failure("tool_error", "maximum recursion depth exceeded", logs)
    except (ToolLoadError, *plain) as exc:  # type: ignore[misc]  # a starred tuple of types
        return failure("tool_error", str(exc), logs)
    except BaseException as exc:  # the tool's own exception is its result
        return failure("tool_error", describe(exc), logs, line=tool_line(exc))
    if not isinstance(value, dict):
        return failure(
            "tool_error", f"execute must return a dict, not {type(value).__name__}", logs
        )
    cap = request.get("result_cap", 64 * 1024)
    try:
        if at_least(value, cap + 1) > cap:
            return failure("result_too_large", f"the result is over the {cap} byte cap", logs)
        at_least(updates, math.inf)  # what update_context keeps is held to the same rules
    except Unfit as exc:
        return failure(exc.code, exc.message, logs)
    try:
        size = len(dumps(value))
    except (TypeError, ValueError) as exc:
        return failure("malformed_output", f"the result is not JSON data: {exc}", logs)
    if size > cap:
        return failure(
            "result_too_large", f"the result is {size} bytes, over the {cap} byte cap", logs
        )
    return {"ok": True, "value": value, "logs": logs[-MAX_LOG_LINES:], "updates": updates}


def make_context(
    data: dict[str, Any],
    logs: list[str],
    updates: dict[str, Any],
    host_call: HostCall,
    dumps: Callable[[Any], bytes | str],
) -> Context:
    """The ``context`` of one call: session facts, variables, ``update_context`` and the host
    modules (``http`` goes to the server, which applies the egress policy; logs stay here)."""
    variables = dict(data.get("variables") or {})

    def update_context(values: Any) -> None:
        if not isinstance(values, dict) or not all(isinstance(k, str) for k in values):
            raise TypeError("update_context takes a dict with string keys")
        dumps(values)  # must be JSON data
        updates.update(values)
        variables.update(values)

    def log(level: str) -> Callable[..., None]:
        def write(*parts: Any) -> None:
            if len(logs) < MAX_LOG_LINES:
                logs.append(f"{level}: " + " ".join(str(p) for p in parts)[:2000])

        return write

    def http(method: str) -> Callable[..., Any]:
        def send(url: str, **kwargs: Any) -> Any:
            return host_call("http", method, {"url": url, **kwargs})

        return send

    def chat(messages: Any, model: str | None = None, max_tokens: int = 256) -> Any:
        return host_call(
            "llm", "chat", {"messages": messages, "model": model, "max_tokens": max_tokens}
        )

    def emit(partial: Any) -> Any:
        """A partial result, sent on while the call runs: True when it was delivered."""
        return host_call("context", "emit", {"partial": partial})

    def progress(fraction: Any = None, message: Any = None) -> Any:
        """A job's progress (0 to 1) and what it is doing: True when it was written now."""
        return host_call("context", "progress", {"progress": fraction, "message": message})

    def session_tool(name: str) -> Callable[..., Any]:
        """A session tool for a code-mode program: ``tools.x(a=1)`` or ``tools.x({...})``."""

        def call(*given: Any, **arguments: Any) -> Any:
            if given:
                if len(given) != 1 or not isinstance(given[0], dict) or arguments:
                    raise TypeError(f"tools.{name} takes keyword arguments or one dict")
                arguments = dict(given[0])
            return host_call("tools", name, arguments)

        return call

    def search(query: Any, collection: str | None = None, limit: int = 5) -> Any:
        return host_call(
            "knowledge_base", "search", {"query": query, "collection": collection, "limit": limit}
        )

    logger = Namespace(
        debug=log("debug"), info=log("info"), warning=log("warning"), error=log("error")
    )
    http_ns = Namespace(
        get=http("GET"),
        post=http("POST"),
        put=http("PUT"),
        patch=http("PATCH"),
        delete=http("DELETE"),
        request=lambda method, url, **kw: host_call(
            "http", str(method).upper(), {"url": url, **kw}
        ),
    )
    return Context(
        session_id=data.get("session_id"),
        tenant_id=data.get("tenant_id"),
        bot_id=data.get("bot_id"),
        test_mode=bool(data.get("test_mode")),
        variables=variables,
        secrets=Context(data.get("secrets") or {}),  # only the ones the tool declared
        update_context=update_context,
        updateContext=update_context,  # LiteBot's spelling
        emit=emit,
        progress=progress,
        # a job's id, the same for each of its runs (None in a plain call)
        job_id=data.get("job_id"),
        jobId=data.get("job_id"),
        # a code-mode program's session tools (run_code names them; other tools get none)
        tools=Namespace(**{str(n): session_tool(str(n)) for n in data.get("tools") or ()}),
        modules=Namespace(
            http=http_ns,
            logger=logger,
            llm=Namespace(chat=chat),
            knowledge_base=Namespace(search=search),
        ),
        **_session_end(data),
    )


def _session_end(data: dict[str, Any]) -> dict[str, Any]:
    """What a session-end hook is given (LiteBot's names, and the snake_case ones)."""
    if "transcript" not in data:
        return {}
    count, reason = data.get("message_count", 0), data.get("session_end_reason")
    return {
        "transcript": list(data["transcript"]),
        "messageCount": count,
        "message_count": count,
        "sessionEndReason": reason,
        "session_end_reason": reason,
        "hookRunId": data.get("hook_run_id"),
        "hook_run_id": data.get("hook_run_id"),
    }


MAX_RESULT_DEPTH = 64  # the levels a result may nest (the channels' encoders allow 255)


class Unfit(Exception):
    """A result JSON cannot carry faithfully: nested too deep, or a number it has no form for."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def at_least(value: Any, limit: float, depth: int = 0) -> float:
    """A lower bound of the value's JSON size, computed without serialising and stopping at
    ``limit``: a 100 MB result is refused before anything copies it. Raises ``Unfit`` for a
    value nested deeper than ``MAX_RESULT_DEPTH`` or holding NaN or an infinity (JSON has no
    form for them: encoders write ``null`` and the value would be lost without a word)."""
    if depth > MAX_RESULT_DEPTH:
        raise Unfit(
            "nesting_too_deep", f"the result is nested deeper than {MAX_RESULT_DEPTH} levels"
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise Unfit("malformed_output", f"the result holds {value}, which JSON cannot carry")
    if isinstance(value, str | bytes):
        return len(value) + 2
    if isinstance(value, dict):
        total: float = 2
        for key, item in value.items():
            total += len(str(key)) + 4 + at_least(item, limit - total, depth + 1)
            if total >= limit:
                return total
        return total
    if isinstance(value, list | tuple):
        total = 2
        for item in value:
            total += 1 + at_least(item, limit - total, depth + 1)
            if total >= limit:
                return total
        return total
    return 8


def failure(
    code: str, message: str, logs: list[str] | None = None, line: int | None = None
) -> dict[str, Any]:
    return {
        "ok": False,
        "code": code,
        "message": message[:2000],
        "line": line,
        "logs": (logs or [])[-MAX_LOG_LINES:],
    }


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:2000]


def tool_line(exc: BaseException) -> int | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<tool>"]
    return frames[-1].lineno if frames else None
