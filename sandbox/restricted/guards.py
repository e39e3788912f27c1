"""Run-time guards that RestrictedPython's compiled code calls (``_getattr_`` and friends).

Every guard refuses underscore names and the objects that lead out of the sandbox — modules,
frames, code, tracebacks, generators, coroutines — whether they arrive as the source of an
access or would leave as its result. Attribute names that walk to those objects without an
underscore (``gi_frame``, ``tb_frame``, ``f_globals``, ``mro``, ``format`` …) are refused by name.
"""

from __future__ import annotations

import operator
import string
import types
from collections.abc import Callable
from typing import Any

from RestrictedPython.Guards import (
    full_write_guard,
    guarded_iter_unpack_sequence,
    guarded_unpack_sequence,
)

FORBIDDEN_TYPES: tuple[type, ...] = (
    types.ModuleType,
    types.FrameType,
    types.CodeType,
    types.TracebackType,
    types.GeneratorType,
    types.CoroutineType,
    types.AsyncGeneratorType,
    types.CellType,
    type(string.Formatter()),
)
FORBIDDEN_NAMES = frozenset({
    "mro", "format", "format_map", "with_traceback", "obj",
    "gi_frame", "gi_code", "gi_yieldfrom", "gi_running", "gi_suspended",
    "cr_frame", "cr_code", "cr_await", "cr_origin", "ag_frame", "ag_code", "ag_await",
    "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "f_trace", "f_generator",
    "tb_frame", "tb_next", "co_code", "co_consts", "co_names",
    "get_field", "get_value", "vformat", "convert_field", "format_field", "parse",
    "cell_contents", "func_globals", "func_code",
})  # fmt: skip


class SandboxError(Exception):
    """Raised inside tool code when it touches something the sandbox forbids."""


def _refuse_object(obj: Any) -> None:
    if isinstance(obj, FORBIDDEN_TYPES):
        raise SandboxError(f"access to {type(obj).__name__} objects is not allowed")


def guarded_getattr(obj: Any, name: Any, default: Any = None, *args: Any) -> Any:
    """getattr for tool code: raises instead of returning ``None`` for a missing attribute."""
    if type(name) is not str:
        raise SandboxError("attribute names must be strings")
    if name.startswith("_") or name in FORBIDDEN_NAMES:
        raise SandboxError(f"attribute {name!r} is not allowed")
    _refuse_object(obj)
    value = getattr(obj, name)
    _refuse_object(value)
    return value


def user_getattr(obj: Any, name: Any, *default: Any) -> Any:
    """The ``getattr`` builtin tools may call, with an optional default for a missing name."""
    try:
        return guarded_getattr(obj, name)
    except AttributeError:
        if default:
            return default[0]
        raise


def user_hasattr(obj: Any, name: Any) -> bool:
    try:
        guarded_getattr(obj, name)
        return True
    except (AttributeError, SandboxError):
        return False


def guarded_getitem(obj: Any, key: Any) -> Any:
    _refuse_object(obj)
    if isinstance(key, str) and key.startswith("__") and not isinstance(obj, dict | list | tuple):
        raise SandboxError(f"item {key!r} is not allowed")
    value = obj[key]
    _refuse_object(value)
    return value


def guarded_iter(obj: Any) -> Any:
    # Iterating a generator is harmless; reaching its frame is what the other guards stop.
    return iter(obj)


def guarded_apply(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    _refuse_object(func)
    return func(*args, **kwargs)


_INPLACE: dict[str, Callable[[Any, Any], Any]] = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "<<=": operator.ilshift,
    ">>=": operator.irshift, "|=": operator.ior, "&=": operator.iand, "^=": operator.ixor,
}  # fmt: skip


def inplace_var(op: str, target: Any, value: Any) -> Any:
    try:
        return _INPLACE[op](target, value)
    except KeyError:
        raise SandboxError(f"operator {op} is not allowed") from None


class PrintCollector:
    """``print`` in tool code goes to the call's log lines, never to a real stream."""

    def __init__(self, _getattr_: Any = None) -> None:
        self.lines: list[str] = []

    def write(self, text: str) -> None:
        self.lines.append(text)

    def __call__(self) -> str:
        return "".join(self.lines)

    def _call_print(self, *objects: Any, **kwargs: Any) -> None:
        sep, end = kwargs.get("sep", " "), kwargs.get("end", "\n")
        self.write(sep.join(str(o) for o in objects) + end)


GUARDS: dict[str, Any] = {
    "_getattr_": guarded_getattr,
    "_getitem_": guarded_getitem,
    "_getiter_": guarded_iter,
    "_write_": full_write_guard,
    "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
    "_unpack_sequence_": guarded_unpack_sequence,
    "_apply_": guarded_apply,
    "_inplacevar_": inplace_var,
    "_print_": PrintCollector,
}
