"""Inside a worker: load a tool file under the policy and run its functions.

Nothing here talks to the server; the worker passes in a ``Context`` whose host calls go over
the channel.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sandbox.restricted.facades import make_importer
from sandbox.restricted.guards import GUARDS, PrintCollector, user_getattr, user_hasattr
from sandbox.restricted.policy import compile_tool
from sandbox.toolfile import ALLOWED_KEYS

_BUILTIN_NAMES = [
    "abs",
    "all",
    "any",
    "ascii",
    "bin",
    "bool",
    "bytes",
    "callable",
    "chr",
    "complex",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "frozenset",
    "hash",
    "hex",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "oct",
    "ord",
    "pow",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "tuple",
    "zip",
]
_EXCEPTIONS = [
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "Exception",
    "IndexError",
    "KeyError",
    "LookupError",
    "NameError",
    "NotImplementedError",
    "OverflowError",
    "RuntimeError",
    "StopIteration",
    "TypeError",
    "UnicodeError",
    "ValueError",
    "ZeroDivisionError",
]
MAX_PRINT_BYTES = 64 * 1024


class ToolLoadError(Exception):
    def __init__(self, message: str, line: int | None = None, field: str | None = "source") -> None:
        super().__init__(message)
        self.line = line
        self.field = field


def safe_builtins(allowed_modules: frozenset[str]) -> dict[str, Any]:
    import builtins

    table: dict[str, Any] = {name: getattr(builtins, name) for name in _BUILTIN_NAMES + _EXCEPTIONS}
    table.update(getattr=user_getattr, hasattr=user_hasattr)
    table["__import__"] = make_importer(allowed_modules)
    return table


class BoundedPrint(PrintCollector):
    def write(self, text: str) -> None:
        if sum(len(line) for line in self.lines) < MAX_PRINT_BYTES:
            self.lines.append(text[:MAX_PRINT_BYTES])


@dataclass
class LoadedTool:
    name: str
    spec: dict[str, Any]
    execute: Any
    on_error: Any


def load(
    source: str, allowed_modules: frozenset[str], *, restricted: bool = True
) -> list[LoadedTool]:
    """Compile and run a tool file's top level; return its tools, read from the live objects."""
    if restricted:
        compiled = compile_tool(source)
        if compiled.code is None:
            first = compiled.violations[0]
            error = ToolLoadError(first.message, first.line)
            error.violations = compiled.violations  # type: ignore[attr-defined]
            raise error
        code = compiled.code
        namespace: dict[str, Any] = {
            "__builtins__": safe_builtins(allowed_modules),
            **GUARDS,
            "__name__": "tool",
        }
        namespace["_print_"] = BoundedPrint
    else:  # test-only: plain Python, to prove the OS layers hold on their own
        code = compile(source, "<tool>", "exec")
        namespace = {"__name__": "tool"}
    exec(code, namespace)
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


class Context(dict):
    """What ``execute(params, context)`` receives: a dict that also reads as attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Namespace:
    """A read-only bag of host functions (``context.modules.http`` …)."""

    __slots__ = ("_items",)

    def __init__(self, **items: Any) -> None:
        object.__setattr__(self, "_items", items)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._items[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("read-only")
