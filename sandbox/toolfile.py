"""Static shape check of a Python tool file.

A tool file defines module-level constants and functions, then ``tool = {...}`` or
``tools = [{...}, ...]`` whose dicts have only the keys below. This module reads that shape from
the syntax tree without running anything: values must be literals or names of module-level
literal constants, and ``execute`` / ``on_error`` must name top-level functions. Every problem is
reported, each with its line.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from sandbox.engine import Violation

ALLOWED_KEYS = ("name", "description", "parameters", "execute", "metadata", "on_error")
REQUIRED_KEYS = ("name", "description", "execute")


class _Dynamic:
    """A value only known once the file runs (the engine reads it after loading)."""

    def __repr__(self) -> str:
        return "DYNAMIC"


DYNAMIC = _Dynamic()
FUNCTION_ARITY = {"execute": 2, "on_error": 3}


@dataclass(frozen=True)
class ToolFileSpec:
    """One tool declared in a file, as read statically."""

    name: Any
    description: Any
    parameters: Any
    metadata: Any
    execute: str
    on_error: str | None
    line: int
    field_prefix: str = "tool"
    key_lines: dict[str, int] = field(default_factory=dict)


class _NotLiteral(Exception):
    def __init__(self, node: ast.AST) -> None:
        self.node = node


def _literal(node: ast.AST, constants: dict[str, Any]) -> Any:
    """``ast.literal_eval`` plus names of earlier module-level literal constants."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise _NotLiteral(node)
        return {
            _literal(k, constants): _literal(v, constants)
            for k, v in zip(node.keys, node.values, strict=True)
            if k is not None  # checked above: no ``**`` unpacking
        }
    if isinstance(node, ast.List | ast.Tuple):
        return [_literal(e, constants) for e in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _literal(node.operand, constants)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left, constants), _literal(node.right, constants)
        if isinstance(left, str) and isinstance(right, str):
            return left + right
    raise _NotLiteral(node)


def parse_tool_file(
    text: str, dynamic_ok: bool = False, async_ok: bool = False
) -> tuple[list[ToolFileSpec], list[Violation]]:
    """Read every tool declared in ``text``; return the specs and all violations found.

    With ``dynamic_ok``, a value that is not a literal is returned as ``DYNAMIC`` instead of
    being a violation: an engine that runs the file will read it. A file nested too deeply to
    be read (a ~1,000-term ``"a" + "a" + …`` chain overflows the parser's recursion) is a
    violation too, never an error.
    """
    try:
        return _parse(text, dynamic_ok, async_ok)
    except (RecursionError, MemoryError):
        message = "the file nests too deeply to be read (e.g. a very long chain of operators)"
        return [], [Violation(message, field="source")]


def _parse(
    text: str, dynamic_ok: bool, async_ok: bool = False
) -> tuple[list[ToolFileSpec], list[Violation]]:
    try:
        module = ast.parse(text, type_comments=False)
    except SyntaxError as exc:
        return [], [Violation(f"syntax error: {exc.msg}", line=exc.lineno, field="source")]

    constants: dict[str, Any] = {}
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    declarations: list[tuple[str, ast.Assign]] = []
    for stmt in module.body:
        # coroutine functions only where the file runs in the server (built-ins: trusted)
        if isinstance(stmt, ast.FunctionDef) or (
            async_ok and isinstance(stmt, ast.AsyncFunctionDef)
        ):
            functions[stmt.name] = stmt
        elif (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            target = stmt.targets[0].id
            if target in ("tool", "tools"):
                declarations.append((target, stmt))
                continue
            try:
                constants[target] = _literal(stmt.value, constants)
            except (_NotLiteral, ValueError, TypeError):
                constants.pop(target, None)

    violations: list[Violation] = []
    if not declarations:
        return [], [
            Violation(
                "the file must assign `tool = {...}` or `tools = [...]`", line=1, field="source"
            )
        ]
    if len(declarations) > 1:
        lines = ", ".join(str(stmt.lineno) for _, stmt in declarations)
        violations.append(
            Violation(
                f"`tool`/`tools` is assigned more than once (lines {lines})",
                line=declarations[-1][1].lineno,
                field="source",
            )
        )

    target, stmt = declarations[-1]
    if target == "tool":
        dict_nodes = [(stmt.value, "tool")]
    elif isinstance(stmt.value, ast.List | ast.Tuple):
        dict_nodes = [(node, f"tools[{i}]") for i, node in enumerate(stmt.value.elts)]
        if not dict_nodes:
            violations.append(Violation("`tools` is empty", line=stmt.lineno, field="tools"))
    else:
        return [], [
            *violations,
            Violation("`tools` must be a list of dict literals", line=stmt.lineno, field="tools"),
        ]

    specs = []
    for node, prefix in dict_nodes:
        spec = _read_declaration(node, prefix, constants, functions, violations, dynamic_ok)
        if spec is not None:
            specs.append(spec)
    return specs, violations


def _read_declaration(
    node: ast.expr,
    prefix: str,
    constants: dict[str, Any],
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    violations: list[Violation],
    dynamic_ok: bool = False,
) -> ToolFileSpec | None:
    if not isinstance(node, ast.Dict):
        violations.append(
            Violation(f"`{prefix}` must be a dict literal", line=node.lineno, field=prefix)
        )
        return None
    values: dict[str, Any] = {}
    key_lines: dict[str, int] = {}
    ok = True
    for key_node, value_node in zip(node.keys, node.values, strict=True):
        if (
            key_node is None
            or not isinstance(key_node, ast.Constant)
            or not isinstance(key_node.value, str)
        ):
            line = (key_node or value_node).lineno
            violations.append(
                Violation(f"`{prefix}` keys must be string literals", line=line, field=prefix)
            )
            ok = False
            continue
        key = key_node.value
        key_lines[key] = key_node.lineno
        if key not in ALLOWED_KEYS:
            allowed = ", ".join(ALLOWED_KEYS)
            violations.append(
                Violation(
                    f"unknown key {key!r} in `{prefix}` (allowed: {allowed})",
                    line=key_node.lineno,
                    field=f"{prefix}.{key}",
                )
            )
            ok = False
            continue
        if key in FUNCTION_ARITY:
            ok &= _check_function(key, value_node, prefix, functions, violations)
            values[key] = value_node.id if isinstance(value_node, ast.Name) else None
            continue
        try:
            values[key] = _literal(value_node, constants)
        except (_NotLiteral, ValueError, TypeError):
            if dynamic_ok:
                values[key] = DYNAMIC
                continue
            violations.append(
                Violation(
                    f"`{prefix}.{key}` must be a literal or a module-level literal constant",
                    line=value_node.lineno,
                    field=f"{prefix}.{key}",
                )
            )
            ok = False
    for key in REQUIRED_KEYS:
        if key not in key_lines:
            violations.append(
                Violation(
                    f"`{prefix}` is missing the key {key!r}",
                    line=node.lineno,
                    field=f"{prefix}.{key}",
                )
            )
            ok = False
    if not ok:
        return None
    return ToolFileSpec(
        name=values["name"],
        description=values["description"],
        parameters=values.get("parameters", {"type": "object", "properties": {}}),
        metadata=values.get("metadata", {}),
        execute=values["execute"],
        on_error=values.get("on_error"),
        line=node.lineno,
        field_prefix=prefix,
        key_lines=key_lines,
    )


def _check_function(
    key: str,
    node: ast.expr,
    prefix: str,
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    violations: list[Violation],
) -> bool:
    field_ = f"{prefix}.{key}"
    if not isinstance(node, ast.Name) or node.id not in functions:
        violations.append(
            Violation(
                f"`{field_}` must name a function defined at the top level of the file",
                line=node.lineno,
                field=field_,
            )
        )
        return False
    func = functions[node.id]
    args = func.args
    positional = len(args.posonlyargs) + len(args.args)
    arity = FUNCTION_ARITY[key]
    if positional != arity and not args.vararg:
        violations.append(
            Violation(
                f"`{node.id}` (used as {key}) must take {arity} positional arguments, it takes "
                f"{positional}",
                line=func.lineno,
                field=field_,
            )
        )
        return False
    return True
