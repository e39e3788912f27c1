"""Inside a worker: load a tool file under the policy and run its functions.

Nothing here talks to the server; the worker passes in a ``Context`` whose host calls go over
the channel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sandbox.packages import importer_for
from sandbox.restricted.facades import PACKAGE_TABLE, make_importer
from sandbox.restricted.guards import GUARDS, PrintCollector, user_getattr, user_hasattr
from sandbox.restricted.policy import compile_tool
from sandbox.toolcode import LoadedTool, ToolLoadError, declared_tools

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


def safe_builtins(importer: Callable[..., Any]) -> dict[str, Any]:
    import builtins

    table: dict[str, Any] = {name: getattr(builtins, name) for name in _BUILTIN_NAMES + _EXCEPTIONS}
    table.update(getattr=user_getattr, hasattr=user_hasattr)
    table["__import__"] = importer
    return table


def tool_importer(
    allowed_modules: frozenset[str], packages: Iterable[Mapping[str, Any]] = ()
) -> Callable[..., Any]:
    """A tool file's ``__import__``: its facades, and its granted packages beside them."""
    table = make_importer(allowed_modules)
    packaged = importer_for(packages, table, make_importer(PACKAGE_TABLE))
    return table if packaged is None else packaged.wrap(table)


class BoundedPrint(PrintCollector):
    def write(self, text: str) -> None:
        if sum(len(line) for line in self.lines) < MAX_PRINT_BYTES:
            self.lines.append(text[:MAX_PRINT_BYTES])


def load(
    source: str,
    allowed_modules: frozenset[str],
    *,
    restricted: bool = True,
    packages: Iterable[Mapping[str, Any]] = (),
) -> list[LoadedTool]:
    """Compile and run a tool file's top level; return its tools, read from the live objects.
    ``packages``: the tenant's granted reviewed packages' files (``sandbox.packages``)."""
    if restricted:
        compiled = compile_tool(source)
        if compiled.code is None:
            first = compiled.violations[0]
            error = ToolLoadError(first.message, first.line)
            error.violations = compiled.violations  # type: ignore[attr-defined]
            raise error
        code = compiled.code
        namespace: dict[str, Any] = {
            "__builtins__": safe_builtins(tool_importer(allowed_modules, packages)),
            **GUARDS,
            "__name__": "tool",
        }
        namespace["_print_"] = BoundedPrint
    else:  # test-only: plain Python, to prove the OS layers hold on their own
        code = compile(source, "<tool>", "exec")
        namespace = {"__name__": "tool"}
    exec(code, namespace)
    return declared_tools(namespace)
